package generate

import (
	"os"
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator/defects"
)

// TestMeasure prints, with CAMPUSCONF_MEASURE=1, the figures of
// docs/generated.md: requests per second and the time to the first
// finding of each generator defect at N=100 with the default seed.
func TestMeasure(t *testing.T) {
	if os.Getenv("CAMPUSCONF_MEASURE") == "" {
		t.Skip("set CAMPUSCONF_MEASURE=1 to measure")
	}
	for _, d := range append([]defects.Defect{{Name: "(none)"}}, defects.Generated()...) {
		var defs []defects.Name
		if d.Name != "(none)" {
			defs = []defects.Name{d.Name}
		}
		start := time.Now()
		_, st := runAgainst(t, Config{N: 100, Seed: DefaultSeed}, defs...)
		took := time.Since(start)
		t.Logf("| `%s` | %d | %.0f | %s | %d |", d.Name, st.Requests, float64(st.Requests)/took.Seconds(),
			st.FirstFinding.Round(time.Millisecond), st.FirstFindingAfter)
	}
}
