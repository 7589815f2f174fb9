package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// recordApp writes the traffic report of a small app (a log read without
// limit, the same read without credentials, an unknown poll response)
// recorded against a plain simulator, as serve --report-dir writes it,
// and returns its report.json.
func recordApp(t *testing.T) string {
	t.Helper()
	sim, fx := newSim(t, simulator.Options{TrafficReport: func(wire.Traffic) (string, error) { return "", nil }})
	for _, st := range []struct{ path string }{
		{"/files/" + fx.Records.Folder + "/downloaded"},
		{"/poll/Response/00000000-0000-4000-8000-000000000000"},
	} {
		req := httptest.NewRequest("GET", "http://127.0.0.1:8080"+st.path, nil)
		req.Header.Set(wire.KeyHeader, fx.SubscriptionKey)
		for k, v := range fx.Users["owner"].Headers {
			req.Header.Set(k, v)
		}
		sim.ServeHTTP(httptest.NewRecorder(), req)
	}
	sim.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "http://127.0.0.1:8080/files/"+fx.Records.Folder+"/downloaded", nil))
	dir := t.TempDir()
	tr := reports.TrafficReport{Traffic: sim.Traffic()}
	if _, err := reports.WriteTraffic(dir, &tr); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, reports.JSONFile)
}

// TestRunAppTraffic: run --app-traffic against the simulator the app was
// recorded on gives compatible; against one answering 403 to a missing
// key, the app is at risk on D-auth-401, summary.md says so, and
// --app-gate fails the run while the conformance verdict stays the suite's.
func TestRunAppTraffic(t *testing.T) {
	traffic := recordApp(t)
	cases := []struct {
		variants []string
		gate     bool
		code     int
		verdict  reports.AppVerdict
	}{
		{nil, true, exitOK, reports.AppCompatible},
		{[]string{"key-403"}, false, exitOK, reports.AppAtRisk},
		{[]string{"key-403"}, true, exitFailed, reports.AppAtRisk},
	}
	for _, c := range cases {
		sim, srv := serveSim(t, simulator.Options{Variants: c.variants})
		fixture := writeFixture(t, sim.Fixtures())
		dir := t.TempDir()
		args := []string{"run", "--target", srv.URL, "--fixtures", fixture, "--tags", "@E19", "--report-dir", dir, "--app-traffic", traffic}
		if c.gate {
			args = append(args, "--app-gate")
		}
		var out, errOut bytes.Buffer
		if code := dispatch(args, &out, &errOut); code != c.code {
			t.Fatalf("campusconf %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, c.code, out.String(), errOut.String())
		}
		r, err := reports.ReadJSON(filepath.Join(dir, reports.JSONFile))
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != reports.VerdictPartial {
			t.Errorf("variants %v: conformance verdict %q, want partial (a tag selection): the app check never changes it", c.variants, r.Verdict)
		}
		if len(r.Apps) != 1 || r.Apps[0].Verdict != c.verdict {
			t.Fatalf("variants %v: apps %+v, want one %s", c.variants, r.Apps, c.verdict)
		}
		md, err := os.ReadFile(filepath.Join(dir, reports.MarkdownFile))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "relies on, and what this implementation does") {
			t.Errorf("summary.md has no app section:\n%s", md)
		}
		if c.verdict == reports.AppAtRisk {
			if !strings.Contains(string(md), "D-auth-401") || !strings.Contains(r.Apps[0].VerdictReason, "D-auth-401") {
				t.Errorf("at risk without naming D-auth-401: %s\n%s", r.Apps[0].VerdictReason, md)
			}
			if !strings.Contains(out.String(), "  D-auth-401: GET ") || !strings.Contains(out.String(), "this implementation: 403") {
				t.Errorf("the console does not name the reliance, the request and both answers:\n%s", out.String())
			}
			if c.gate && !strings.Contains(errOut.String(), "--app-gate") {
				t.Errorf("stderr does not say the gate failed the run: %s", errOut.String())
			}
		}
	}
}

// TestRunAppTrafficRefusesAnotherFile: a file that is not a traffic
// report stops the run before it starts (exit 2), naming what to give.
func TestRunAppTrafficRefusesAnotherFile(t *testing.T) {
	bad := writeFile(t, t.TempDir(), "report.json", `{"schema":"campusconf.report/v2"}`)
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--app-traffic", bad, "--report-dir", t.TempDir()}, &out, &errOut); code != exitUsage {
		t.Fatalf("exit %d, want %d\n%s", code, exitUsage, errOut.String())
	}
	if !strings.Contains(errOut.String(), "campusconf serve --report-dir") {
		t.Errorf("error %q does not say which file to give", errOut.String())
	}
	errOut.Reset()
	if code := dispatch([]string{"run", "--app-gate", "--report-dir", t.TempDir()}, &out, &errOut); code != exitUsage {
		t.Errorf("--app-gate without --app-traffic: exit %d, want %d", code, exitUsage)
	}
}
