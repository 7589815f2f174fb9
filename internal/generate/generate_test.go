package generate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// runAgainst runs the generator against a fresh simulator with defects.
func runAgainst(t *testing.T, n int, seed int64, defects ...string) ([]reports.Scenario, Stats) {
	t.Helper()
	sim, err := simulator.New(simulator.Options{Defects: defects})
	if err != nil {
		t.Fatal(err)
	}
	scs, st, err := Run(t.Context(), Config{BaseURL: "http://127.0.0.1:8080", Client: inproc.Client(sim), Fixture: sim.Fixtures(), N: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return scs, st
}

func findings(scs []reports.Scenario) []string {
	var out []string
	for _, sc := range scs {
		if sc.Outcome == reports.Failed {
			out = append(out, fmt.Sprintf("%s\n    expected: %s\n    got: %s\n    %s", sc.Name, sc.Failure.Expected, sc.Failure.Got, sc.Failure.Curl))
		}
	}
	return out
}

// TestSimulatorHasNoFindings: the simulator answers any number of
// generated requests without a finding, whatever the seed.
func TestSimulatorHasNoFindings(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		start := time.Now()
		scs, st := runAgainst(t, 200, seed)
		t.Logf("seed %d: %d requests in %s (%.0f/s)", seed, st.Requests, time.Since(start).Round(time.Millisecond), float64(st.Requests)/time.Since(start).Seconds())
		if f := findings(scs); len(f) > 0 {
			t.Errorf("seed %d: expected no finding, got %d:\n  %s", seed, len(f), strings.Join(f, "\n  "))
		}
	}
}
