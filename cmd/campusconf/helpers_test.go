package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/simulator"
)

// writeFile writes content to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeFixture writes f as a fixture file in a fresh temporary folder and
// returns the path.
func writeFixture(t *testing.T, f *fixtures.File) string {
	t.Helper()
	return writeFile(t, t.TempDir(), "fixtures.json", string(f.JSON()))
}

// serveSim starts a simulator made with opts on a loopback test server,
// closed when the test ends.
func serveSim(t *testing.T, opts simulator.Options) (*simulator.Simulator, *httptest.Server) {
	t.Helper()
	sim, err := simulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return sim, srv
}

// stopServe ends a serve whose exit code done carries, as SIGINT would, and
// returns that code; the test fails when serve has not ended within the
// given time.
func stopServe(t testing.TB, cancel context.CancelFunc, done <-chan int, within time.Duration) int {
	t.Helper()
	cancel()
	select {
	case code := <-done:
		return code
	case <-time.After(within):
		t.Fatalf("serve did not stop within %s of the signal", within)
		return -1
	}
}

// skipUnderRace skips a test that runs whole suites only for their
// verdicts under the race detector: the plain run covers it, and the
// run's concurrency is held under the race detector by the steps,
// simulator, proxy and conformance packages' own tests.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("whole-suite verdicts: covered by the plain go test run; the race detector watches the run's concurrency in steps, simulator, proxy and conformance")
	}
}

// newSim is a simulator and its fixture, for a target served by a test.
func newSim(t testing.TB, opts simulator.Options) (*simulator.Simulator, *fixtures.File) {
	t.Helper()
	sim, err := simulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f := sim.Fixtures()
	return sim, f
}
