// Package suiterun points the conformance suite at what it checks (a
// handler in process or a URL over HTTP: InProcess, OverHTTP) and runs it:
// the scenarios (steps), then, when asked, the generated requests
// (generate), in one report. It links no simulator, so the public
// conformance package can use it; harness/simrun points it at fresh
// simulators.
package suiterun

import (
	"context"
	"fmt"

	"github.com/campusconf/campusconf/generate"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/steps"
)

// Generation asks for generated requests after the scenarios.
type Generation struct {
	// N is the number of generated requests per operation; 0 sends none.
	N int
	// Seed seeds them: the same seed replays them.
	Seed int64
}

// Run runs the scenarios of cfg and then gen's generated requests against
// the same target, within the same budget, and returns the one finalized
// report of both. An error means the run could not happen, as for
// steps.Run.
func Run(ctx context.Context, cfg steps.Config, gen Generation) (*reports.Report, error) {
	if gen.N > 0 {
		cfg.After = func(ctx context.Context, t steps.Target) ([]reports.Scenario, error) {
			return generated(ctx, t, gen)
		}
		cfg.Generated = true
	}
	return steps.Run(ctx, cfg)
}

// generated sends the generated requests to t and returns their findings.
func generated(ctx context.Context, t steps.Target, gen Generation) ([]reports.Scenario, error) {
	found, st, err := generate.Run(ctx, generate.Config{
		BaseURL:        t.BaseURL,
		Client:         t.Client,
		Fixture:        t.Fixture,
		N:              gen.N,
		Seed:           gen.Seed,
		ReadOnly:       t.ReadOnly,
		RequestTimeout: t.RequestTimeout,
		Redactor:       t.Redactor,
		MaxBody:        t.MaxResponseBody,
		Watch:          t.Watch,
		Pace:           t.Pace,
	})
	if err != nil {
		return nil, fmt.Errorf("generated requests: %w", err)
	}
	if p := t.Progress; p != nil {
		failed := 0
		for _, sc := range found {
			if sc.Outcome == reports.Failed {
				failed++
			}
		}
		rate := float64(st.Requests) / max(st.Took.Seconds(), 1e-9)
		fmt.Fprintf(p, "\ngenerated requests (seed %d): %d sent in %s (%.0f per second), %d findings\n",
			gen.Seed, st.Requests, st.Took.Round(1e6), rate, failed)
	}
	return found, nil
}
