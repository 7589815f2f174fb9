package steps

import (
	"context"
	"fmt"

	"github.com/campusconf/campusconf/internal/generate"
	"github.com/campusconf/campusconf/reports"
)

// generate sends the generated requests after the scenarios, when asked
// for, and adds their findings to the results. The run's budget bounds them
// as it bounds the scenarios.
func (e *env) generate(ctx context.Context) error {
	if e.cfg.Generate <= 0 {
		return nil
	}
	found, st, err := generate.Run(ctx, generate.Config{
		BaseURL:        e.cfg.BaseURL,
		Client:         e.client,
		Fixture:        e.cfg.Fixture,
		N:              e.cfg.Generate,
		Seed:           e.cfg.GenerateSeed,
		ReadOnly:       e.cfg.ReadOnly,
		RequestTimeout: e.cfg.RequestTimeout,
		Redactor:       e.redactor,
	})
	if err != nil {
		return fmt.Errorf("generated requests: %w", err)
	}
	e.results = append(e.results, found...)
	if p := e.cfg.Progress; p != nil {
		rate := float64(st.Requests) / max(st.Took.Seconds(), 1e-9)
		fmt.Fprintf(p, "\ngenerated requests (seed %d): %d sent in %s (%.0f per second), %d findings\n",
			e.cfg.GenerateSeed, st.Requests, st.Took.Round(1e6), rate, failedCount(found))
	}
	return nil
}

func failedCount(scs []reports.Scenario) int {
	n := 0
	for _, sc := range scs {
		if sc.Outcome == reports.Failed {
			n++
		}
	}
	return n
}
