// Package embedded points package conformance at the campusconf simulator,
// served in the test's own process: for a front end's or a client
// library's tests that want a conforming implementation to talk to, and for
// this project's own tests of the conformance package. It is a package of
// its own so that a vendor's test binary, which imports only conformance,
// never links the simulator, its seeded world or its Swagger UI.
package embedded

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"github.com/campusconf/campusconf/conformance"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// Options returns opts pointed at a fresh simulator built with sim: its
// handler, and its fixture unless opts names one. The simulator answers the
// host the requests name (opts.BaseURL's, else conformance.HandlerBaseURL's):
// it is served in process, so no web page can reach it through that name.
func Options(opts conformance.Options, sim simulator.Options) (conformance.Options, error) {
	base := opts.BaseURL
	if base == "" {
		base = conformance.HandlerBaseURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return opts, fmt.Errorf("base URL %q: %w", base, err)
	}
	if h := u.Hostname(); h != "" {
		sim.AllowedHosts = append(slices.Clip(sim.AllowedHosts), h)
	}
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
