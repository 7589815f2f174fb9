package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// TestRunEmbeddedPassesEverything runs the whole suite against the embedded
// simulator, as `campusconf run` does with no flags: every scenario must
// pass, none may be skipped or left unconfigured, and all four reports must
// be written.
func TestRunEmbeddedPassesEverything(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := dispatch([]string{"run", "--report-dir", dir}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("campusconf run exited %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, tail(out.String(), 60), errOut.String())
	}
	for _, name := range []string{"report.json", "junit.xml", "report.html", "summary.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("report file %s: %v", name, err)
		}
	}
	r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Scenarios {
		if s.Outcome != reports.Passed {
			b, _ := json.MarshalIndent(s, "", "  ")
			t.Errorf("scenario %q: outcome %s, want passed\n%s", s.ID, s.Outcome, tail(string(b), 40))
		}
	}
	if r.Counts.Scenarios < 200 {
		t.Errorf("ran %d scenarios, want the whole suite (200+)", r.Counts.Scenarios)
	}
}

func TestRunUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"unknown flag", []string{"run", "--nope"}, exitUsage},
		{"target without fixtures", []string{"run", "--target", "http://127.0.0.1:1"}, exitUsage},
		{"target not a URL", []string{"run", "--target", "localhost:8080", "--fixtures", "x.json"}, exitUsage},
		{"fixtures without target", []string{"run", "--fixtures", "x.json"}, exitUsage},
		{"tags selecting nothing", []string{"run", "--tags", "@no-such-tag"}, exitUsage},
		{"broken tag expression", []string{"run", "--tags", "@E7 and"}, exitUsage},
		{"unknown defect", []string{"run", "--defect", "no-such-defect"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append(slices.Clone(tt.args), "--report-dir", t.TempDir())
			if got := dispatch(args, &out, &errOut); got != tt.want {
				t.Errorf("campusconf %s: exit %d, want %d\nstderr: %s", strings.Join(tt.args, " "), got, tt.want, errOut.String())
			}
			if errOut.Len() == 0 {
				t.Errorf("campusconf %s: no message on stderr", strings.Join(tt.args, " "))
			}
		})
	}
}

func TestRunUnreachableTarget(t *testing.T) {
	fixture := writeFile(t, t.TempDir(), "f.json", `{"version": 1}`)
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	// an earlier run's files must not survive beside this one's
	if err := os.WriteFile(filepath.Join(dir, "junit.xml"), []byte("<old/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	// port 1 on loopback: nothing listens there
	code := dispatch([]string{"run", "--target", "http://127.0.0.1:1", "--fixtures", fixture, "--report-dir", dir}, &out, &errOut)
	if code != exitUnreachable {
		t.Errorf("exit %d, want %d (unreachable)\nstderr: %s", code, exitUnreachable, errOut.String())
	}
	checkNotRunReports(t, dir, "target unreachable: ")
}

// checkNotRunReports checks the four reports of a run that could not
// start: verdict "target unreachable" with a reason starting with want,
// one errored JUnit case, the reason in summary.md and report.html.
func checkNotRunReports(t *testing.T, dir, want string) {
	t.Helper()
	r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatalf("report.json: %v", err)
	}
	if r.VerdictCause != reports.InconclusiveUnreachable || !strings.HasPrefix(r.Reason, want) {
		t.Errorf("report.json: expected verdict inconclusive (%s) with a reason starting %q, got %q with %q", reports.InconclusiveUnreachable, want, reports.Word(r.Verdict, r.VerdictCause), r.Reason)
	}
	if len(r.Requirements) == 0 {
		t.Errorf("report.json: expected the requirement catalogue, all not run, got none")
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return string(b)
	}
	junit := read("junit.xml")
	if !strings.Contains(junit, `tests="1"`) || !strings.Contains(junit, `errors="1"`) || !strings.Contains(junit, `<error message="`+want) {
		t.Errorf("junit.xml: expected one errored case saying %q, got:\n%s", want, junit)
	}
	if md := read("summary.md"); !strings.Contains(md, "Inconclusive (target unreachable)") || !strings.Contains(md, want) {
		t.Errorf("summary.md: expected the verdict and %q, got:\n%s", want, md)
	}
	if html := read("report.html"); !strings.Contains(html, "Inconclusive (target unreachable)") || !strings.Contains(html, want) {
		t.Errorf("report.html: expected the verdict and %q", want)
	}
}

func tail(s string, lines int) string {
	parts := strings.Split(s, "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	return strings.Join(parts, "\n")
}

// TestRunNeverPrintsSecrets runs the suite with a defect that makes many
// scenarios fail (so reports carry exchanges and curl lines) and greps
// every output for the subscription key, the bearer tokens and the TOTP
// secret of the simulator's world.
func TestRunNeverPrintsSecrets(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := dispatch([]string{"run", "--report-dir", dir, "--defect", "missing-key-accepted"}, &out, &errOut)
	if code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s", code, exitFailed, errOut.String())
	}
	var fixture bytes.Buffer
	if c := dispatch([]string{"fixtures", "--seed", "1"}, &fixture, &errOut); c != exitOK {
		t.Fatalf("campusconf fixtures exited %d: %s", c, errOut.String())
	}
	f, err := fixtures.Parse(fixture.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	secrets := f.Secrets()
	if len(secrets) < 5 {
		t.Fatalf("the simulator's fixture has %d secrets, want the key, four tokens and a TOTP secret", len(secrets))
	}
	outputs := runOutputs(t, dir, &out, &errOut)
	if !strings.Contains(outputs["report.json"], "curl ") {
		t.Fatalf("report.json has no curl line: the test would prove nothing")
	}
	for name, text := range outputs {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s contains the secret %.4s…", name, s)
			}
		}
	}
}

// TestRunResetsThroughTheControlAPI: against a simulator whose fixture
// names its control API, a second destructive run passes too, because the
// run first restores the seeded world.
func TestRunResetsThroughTheControlAPI(t *testing.T) {
	sim, srv := serveSim(t, simulator.Options{Seed: 4, Control: true})
	fixture := writeFixture(t, sim.Fixtures())
	for run := 1; run <= 2; run++ {
		var out, errOut bytes.Buffer
		code := dispatch([]string{"run", "--quiet", "--target", srv.URL, "--fixtures", fixture, "--tags", "@E14 or @E5", "--report-dir", t.TempDir()}, &out, &errOut)
		if code != exitOK {
			t.Fatalf("run %d: exit %d, want %d\n%s%s", run, code, exitOK, out.String(), errOut.String())
		}
	}
}

// TestRunTwiceAgainstPlainServe is the README's vendor example against the
// simulator as `serve` starts it on loopback, with the fixture file
// `campusconf fixtures` prints: the whole suite passes twice in a row,
// because the runner restores the world through the fixture's "reset".
func TestRunTwiceAgainstPlainServe(t *testing.T) {
	cfg, err := parseServe([]string{"--addr", "127.0.0.1:0", "--seed", "5"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(cfg.opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	defer srv.Close()
	var fx bytes.Buffer
	if code := dispatch([]string{"fixtures", "--seed", "5"}, &fx, io.Discard); code != exitOK {
		t.Fatalf("campusconf fixtures: exit %d", code)
	}
	fixture := writeFile(t, t.TempDir(), "f.json", fx.String())
	for run := 1; run <= 2; run++ {
		var out, errOut bytes.Buffer
		code := dispatch([]string{"run", "--quiet", "--target", srv.URL, "--fixtures", fixture, "--report-dir", t.TempDir()}, &out, &errOut)
		if code != exitOK {
			t.Fatalf("run %d of 2: exit %d, want %d (conformant)\n%s%s", run, code, exitOK, out.String(), errOut.String())
		}
	}
}

// TestStrictFailsSkippedScenarios: a fixture lacking a key skips its
// scenarios, says which key on the console and in summary.md, and fails
// the run only with --strict.
func TestStrictFailsSkippedScenarios(t *testing.T) {
	sim, srv := serveSim(t, simulator.Options{Seed: 6})
	f := sim.Fixtures()
	f.Records.OtherEvaluationQuestion = ""
	fixture := writeFixture(t, f)
	for _, tt := range []struct {
		strict bool
		want   int
	}{{false, exitOK}, {true, exitFailed}} {
		dir := t.TempDir()
		args := []string{"run", "--target", srv.URL, "--fixtures", fixture, "--tags", "@E9", "--report-dir", dir}
		if tt.strict {
			args = append(args, "--strict")
		}
		var out, errOut bytes.Buffer
		if code := dispatch(args, &out, &errOut); code != tt.want {
			t.Errorf("strict %v: exit %d, want %d\n%s%s", tt.strict, code, tt.want, out.String(), errOut.String())
		}
		if !strings.Contains(out.String(), "records.otherEvaluationQuestion: 1 scenario(s), 1 requirement(s) uncovered: E9.scope") {
			t.Errorf("strict %v: the console does not name the missing key and what it leaves uncovered:\n%s", tt.strict, out.String())
		}
		md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
		if !strings.Contains(string(md), "`records.otherEvaluationQuestion`: 1 scenario; 1 requirement left uncovered (E9.scope)") {
			t.Errorf("strict %v: summary.md does not name the missing key:\n%s", tt.strict, md)
		}
	}
}
