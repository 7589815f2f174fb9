package defects

import (
	"regexp"
	"testing"

	"github.com/campusconf/campusconf/internal/doccheck"
)

// TestReadmeFigures holds the generator defect count README.md states to
// the list (the total of defects lives in docs/kill-matrix.md only).
func TestReadmeFigures(t *testing.T) {
	doccheck.Figures(t, "../../README.md",
		doccheck.Figure{What: "generator defects", Pattern: regexp.MustCompile(`(\w+)\s+of\s+those\s+defects\s+are\s+crashes`), Want: len(Generated())},
	)
}
