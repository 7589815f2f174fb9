// Package embedded points package conformance at the campusconf simulator,
// served in the test's own process: for a front end's or a client
// library's tests that want a conforming implementation to talk to, and for
// this project's own tests of the conformance package. It is a package of
// its own so that a vendor's test binary, which imports only conformance,
// never links the simulator, its seeded world or its Swagger UI.
package embedded

import (
	"testing"

	"github.com/campusconf/campusconf/conformance"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// Options returns opts pointed at a fresh simulator built with sim: its
// handler, and its fixture unless opts names one.
func Options(opts conformance.Options, sim simulator.Options) (conformance.Options, error) {
	s, err := simulator.New(sim)
	if err != nil {
		return opts, err
	}
	opts.Handler = s
	if opts.Fixtures == nil && opts.FixturesFile == "" {
		opts.Fixtures = s.Fixtures()
	}
	return opts, nil
}

// Run is conformance.Run against a fresh simulator built with sim.
func Run(t *testing.T, opts conformance.Options, sim simulator.Options) *reports.Report {
	t.Helper()
	opts, err := Options(opts, sim)
	if err != nil {
		t.Fatalf("embedded simulator: %v", err)
	}
	return conformance.Run(t, opts)
}
