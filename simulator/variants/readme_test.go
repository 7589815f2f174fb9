package variants

import (
	"regexp"
	"testing"

	"github.com/campusconf/campusconf/internal/doccheck"
)

// TestReadmeFigures holds the number of variants README.md states to the
// list.
func TestReadmeFigures(t *testing.T) {
	doccheck.Figures(t, "../../README.md",
		doccheck.Figure{What: "variants", Pattern: regexp.MustCompile(`(\d+)\s+in\s+all\),\s+and\s+` + "`go test ./...`"), Want: len(All())},
	)
}
