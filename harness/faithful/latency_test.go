package faithful

import (
	"fmt"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/simrun"
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
)

// TestOutcomesDoNotDependOnLatency runs the suite at the default
// concurrency against the simulator answering at once and answering 50 ms
// late, as a distant target does: with every scenario waiting on the
// network, the schedule starts them in another order and many overlap,
// and the verdict and every scenario's outcome must still be the same.
// The targets keep state: the simulator, and with defects that change
// state wrongly (notifications, media, gradebook). The short run checks
// the scenarios of the attendance and media records, the notification
// ones with their defect, against the plain simulator.
func TestOutcomesDoNotDependOnLatency(t *testing.T) {
	targets := []struct {
		name string
		opts simulator.Options
	}{
		{"simulator", simulator.Options{}},
		{"defects notify-read-same-toggles, e14-deleted-still-readable, gradebook-refused-applied",
			simulator.Options{Defects: []string{"notify-read-same-toggles", "e14-deleted-still-readable", "gradebook-refused-applied"}}},
	}
	tags := ""
	if testing.Short() || raceEnabled {
		targets, tags = targets[:1], "@E7,@E8,@E13,@E14"
	}
	for _, tt := range targets {
		t.Run(tt.name, func(t *testing.T) {
			sameOutcomes(t, "latency %s", []time.Duration{0, 50 * time.Millisecond},
				func(lat time.Duration) (*reports.Report, error) {
					opts := tt.opts
					opts.Latency = simulator.Latency{Min: lat}
					cfg, err := simrun.Simulator(steps.Config{Concurrency: steps.DefaultConcurrency, Tags: tags, PollInterval: time.Millisecond}, opts)
					if err != nil {
						return nil, err
					}
					return suiterun.Run(t.Context(), cfg, suiterun.Generation{})
				},
				func(lat time.Duration, diff string) string {
					return fmt.Sprintf("latency %s: outcomes differ from those at 0 ms:\n%s\nreproduce: go run ./cmd/campusconf serve --latency %s %s, then campusconf run --target http://127.0.0.1:8080 --fixtures (its fixture), and the same without --latency; compare report.json",
						lat, diff, lat, flags(tt.opts))
				})
		})
	}
}
