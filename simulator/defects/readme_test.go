package defects

import (
	"regexp"
	"testing"

	"github.com/campusconf/campusconf/internal/doccheck"
)

// TestReadmeFigures holds the defect counts README.md states to the list.
func TestReadmeFigures(t *testing.T) {
	doccheck.Figures(t, "../../README.md",
		// every defect caught: the kill matrix requires it
		doccheck.Figure{What: "defects", Pattern: regexp.MustCompile(`(\d+)\s+of\s+(\d+)\s+defects\s+caught`), Want: len(All())},
		doccheck.Figure{What: "generator defects", Pattern: regexp.MustCompile(`(\w+)\s+of\s+those\s+defects\s+are\s+crashes`), Want: len(Generated())},
	)
}
