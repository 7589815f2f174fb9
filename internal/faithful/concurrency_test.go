package faithful

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/doccheck"
	"github.com/campusconf/campusconf/internal/simrun"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// outcomes renders a report's verdict and every scenario's outcome with the
// requirements its failure names, one line each, in report order.
func outcomes(r *reports.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict %s\n", r.Verdict)
	for _, sc := range r.Scenarios {
		fmt.Fprintf(&b, "%s: %s", sc.ID, sc.Outcome)
		if sc.Failure != nil {
			fmt.Fprintf(&b, " %v", sc.Failure.Requirements)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestOutcomesDoNotDependOnConcurrency runs the whole suite at 1, 4 and 16
// scenarios at once, against the simulator, against it with a latency (so
// that scenarios really overlap) and against it with a defect that changes
// state: the verdict and every scenario's outcome must be the same at each.
func TestOutcomesDoNotDependOnConcurrency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite 9 times; the plain go test run covers it")
	}
	targets := []struct {
		name string
		opts simulator.Options
	}{
		{"simulator", simulator.Options{}},
		{"latency 2ms", simulator.Options{Latency: simulator.Latency{Min: 2 * time.Millisecond}}},
		{"defect gradebook-refused-applied", simulator.Options{Defects: []string{"gradebook-refused-applied"}}},
	}
	for _, tt := range targets {
		t.Run(tt.name, func(t *testing.T) {
			var want string
			for _, c := range []int{1, 4, 16} {
				r, err := simrun.RunAt(t.Context(), tt.opts, c)
				if err != nil {
					t.Fatalf("concurrency %d: %v", c, err)
				}
				got := outcomes(r)
				if c == 1 {
					want = got
					continue
				}
				if got != want {
					t.Errorf("concurrency %d: outcomes differ from concurrency 1:\n%s\nreproduce: go run ./cmd/campusconf run --concurrency %d (and --concurrency 1), compare report.json", c, diffLines(want, got), c)
				}
			}
		})
	}
}

// diffLines lists the lines of got that differ from want, side by side.
func diffLines(want, got string) string {
	var b strings.Builder
	for _, d := range doccheck.Differences(got, want) {
		fmt.Fprintf(&b, "  want %s\n  got  %s\n", d.Want, d.Got)
	}
	return b.String()
}
