package faithful

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/simrun"
	"github.com/campusconf/campusconf/internal/doccheck"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
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

// TestOutcomesDoNotDependOnConcurrency runs the whole suite at 1, 4 and
// steps.DefaultConcurrency scenarios at once, against the simulator, against it with a latency (so
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
			sameOutcomes(t, "concurrency %d", []int{1, 4, steps.DefaultConcurrency},
				func(c int) (*reports.Report, error) { return simrun.RunAt(t.Context(), tt.opts, c) },
				func(c int, diff string) string {
					return fmt.Sprintf("concurrency %d: outcomes differ from concurrency 1:\n%s\nreproduce: go run ./cmd/campusconf run --concurrency %d (and --concurrency 1), compare report.json", c, diff, c)
				})
		})
	}
}

// sameOutcomes runs the suite once at each setting, by run, and fails,
// in explain's words, at each setting whose verdict or scenario outcomes
// differ from those at the first; name formats a setting for a run that
// fails to start.
func sameOutcomes[S any](t *testing.T, name string, settings []S, run func(S) (*reports.Report, error), explain func(s S, diff string) string) {
	t.Helper()
	var want string
	for i, s := range settings {
		r, err := run(s)
		if err != nil {
			t.Fatalf(name+": %v", s, err)
		}
		got := outcomes(r)
		if i == 0 {
			want = got
			continue
		}
		if got != want {
			t.Error(explain(s, diffLines(want, got)))
		}
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

// requirementOutcomes renders a report's verdict and every requirement's
// result, one line each, in catalogue order.
func requirementOutcomes(r *reports.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict %s\n", r.Verdict)
	for _, q := range r.Requirements {
		fmt.Fprintf(&b, "%s: %s\n", q.ID, q.Result)
	}
	return b.String()
}

// TestSameVerdictEveryRun runs the whole suite five times at the default
// concurrency, with a latency so that scenarios really overlap, against
// faithful variants that keep state and against defects that change state
// (notifications, gradebook, slots, media, and a refusal that changes
// records): every run must give the same requirement results and the same
// scenario outcomes. A verdict is a function of the target alone. The
// short run repeats each twice.
func TestSameVerdictEveryRun(t *testing.T) {
	// Defects of different record groups go together: each run still
	// exercises every one of them, in a third of the runs.
	targets := []struct {
		name string
		opts simulator.Options
	}{
		{"variants quiz-patch, e21-changed-count, gradebook-replace, permission-per-record",
			simulator.Options{Variants: []string{"quiz-patch", "e21-changed-count", "gradebook-replace", "permission-per-record"}}},
		{"defects notify-read-same-toggles, gradebook-refused-applied, e5-delete-noop, e14-deleted-still-readable",
			simulator.Options{Defects: []string{"notify-read-same-toggles", "gradebook-refused-applied", "e5-delete-noop", "e14-deleted-still-readable"}}},
		{"defects notify-read-one-way, gradebook-total-per-request, students-allowed",
			simulator.Options{Defects: []string{"notify-read-one-way", "gradebook-total-per-request", "students-allowed"}}},
	}
	runs := 5
	if testing.Short() || raceEnabled {
		runs = 2
	}
	var opts []simulator.Options
	for _, tt := range targets {
		tt.opts.Latency = simulator.Latency{Min: time.Millisecond}
		for range runs {
			opts = append(opts, tt.opts)
		}
	}
	results := simrun.AllAt(t.Context(), opts, steps.DefaultConcurrency)
	for i, tt := range targets {
		t.Run(tt.name, func(t *testing.T) {
			var want, wantScenarios string
			for k := range runs {
				res := results[i*runs+k]
				if res.Err != nil {
					t.Fatalf("run %d: %v", k+1, res.Err)
				}
				got, gotScenarios := requirementOutcomes(res.Report), outcomes(res.Report)
				if k == 0 {
					want, wantScenarios = got, gotScenarios
					continue
				}
				if got != want || gotScenarios != wantScenarios {
					t.Errorf("run %d of %d: outcomes differ from run 1:\n%s%s\nreproduce: go run ./cmd/campusconf serve %s, then campusconf run --target http://127.0.0.1:8080 --fixtures (its fixture) several times, compare report.json",
						k+1, runs, diffLines(want, got), diffLines(wantScenarios, gotScenarios), flags(tt.opts))
				}
			}
		})
	}
}

// flags are the command-line switches of opts' variants and defects.
func flags(opts simulator.Options) string {
	var parts []string
	for _, v := range opts.Variants {
		parts = append(parts, "--variant "+v)
	}
	for _, d := range opts.Defects {
		parts = append(parts, "--defect "+d)
	}
	return strings.Join(parts, " ")
}
