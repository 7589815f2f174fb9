package main

import (
	"bytes"
	"io"
	"log"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// TestRunInsecureTLS serves the simulator with a self-signed certificate
// on loopback: `run --insecure` passes the E13 scenarios against it, and
// without --insecure the run stops before any scenario with exit 3 (target
// unreachable) naming the certificate problem.
func TestRunInsecureTLS(t *testing.T) {
	sim, fx := newSim(t, simulator.Options{})
	srv := httptest.NewUnstartedServer(sim)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	defer srv.Close()
	fixture := writeFixture(t, fx)
	if !strings.HasPrefix(srv.URL, "https://127.0.0.1:") {
		t.Fatalf("test server at %s, want https on loopback", srv.URL)
	}

	t.Run("with --insecure", func(t *testing.T) {
		dir := t.TempDir()
		var out, errOut bytes.Buffer
		code := dispatch([]string{"run", "--target", srv.URL, "--fixtures", fixture, "--insecure", "--tags", "@E13",
			"--report-dir", dir, "--timeout", "5s"}, &out, &errOut)
		if code != exitOK {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, tail(out.String(), 30), errOut.String())
		}
		r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Counts.Passed == 0 || r.Counts.Passed != r.Counts.Scenarios {
			t.Errorf("counts %+v, want every E13 scenario passed", r.Counts)
		}
	})

	t.Run("without --insecure", func(t *testing.T) {
		dir := t.TempDir()
		var out, errOut bytes.Buffer
		code := dispatch([]string{"run", "--target", srv.URL, "--fixtures", fixture, "--tags", "@E13",
			"--report-dir", dir, "--timeout", "5s"}, &out, &errOut)
		if code != exitUnreachable {
			t.Fatalf("exit %d, want %d (unreachable)\nstderr:\n%s", code, exitUnreachable, errOut.String())
		}
		if msg := errOut.String(); !strings.Contains(msg, "unreachable") || !strings.Contains(msg, "certificate") {
			t.Errorf("stderr = %q, want it to say the target is unreachable because of its certificate", msg)
		}
	})
}
