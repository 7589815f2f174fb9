package features

import (
	"regexp"
	"testing"

	"github.com/campusconf/campusconf/internal/doccheck"
)

// TestReadmeFigures holds the figures README.md and features/README.md
// state to the features and the catalogue: scenarios, requirements (those
// a run without --generate reports), MUST requirements, operations.
func TestReadmeFigures(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	reported := 0
	for _, q := range cat.Requirements {
		if q.Kind != "generated" { // reported only with run --generate
			reported++
		}
	}
	scenarios := len(pickles(t))
	doccheck.Figures(t, "../README.md",
		doccheck.Figure{What: "scenarios", Pattern: regexp.MustCompile(`runs\s+its\s+(\d+)\s+scenarios`), Want: scenarios},
		// the summary of the run with three defects, quoted: its totals
		doccheck.Figure{What: "scenarios in the quoted summary", Pattern: regexp.MustCompile(`(?m)^> \| (\d+) \| \d+ \| \d+ \(`), Want: scenarios},
		doccheck.Figure{What: "requirements in the quoted summary", Pattern: regexp.MustCompile(`\| \d+ / (\d+) \(\d+%\)`), Want: reported},
		doccheck.Figure{What: "requirements covered in the quoted summary", Pattern: regexp.MustCompile(`(?m)\| (\d+) / \d+ \(\d+%\) \| \d+ / \d+ \(\d+%\) \|$`), Want: reported},
		doccheck.Figure{What: "MUST requirements", Pattern: regexp.MustCompile(`(\d+)\s+of\s+(\d+)\s+MUST\s+requirements\s+covered`), Want: len(cat.MustIDs())},
	)
	doccheck.Figures(t, "README.md",
		doccheck.Figure{What: "operations", Pattern: regexp.MustCompile(`the\s+(\d+)\s+operations`), Want: len(cat.OperationIDs())},
	)
}
