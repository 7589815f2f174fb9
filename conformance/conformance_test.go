package conformance_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/conformance"
	"github.com/campusconf/campusconf/conformance/embedded"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// TestSimulatorConforms runs the suite as subtests against the simulator's
// handler in process: every subtest passes, and the reports are written.
func TestSimulatorConforms(t *testing.T) {
	dir := t.TempDir()
	r := embedded.Run(t, conformance.Options{ReportDir: dir, Strict: true}, simulator.Options{})
	if r.Verdict != reports.VerdictConformant || r.Counts.Passed != r.Counts.Scenarios {
		t.Errorf("verdict %q with %d of %d scenarios passed, want conformant with all passed", r.Verdict, r.Counts.Passed, r.Counts.Scenarios)
	}
	if _, err := os.Stat(filepath.Join(dir, reports.JUnitFile)); err != nil {
		t.Errorf("ReportDir: %v", err)
	}
}

// TestADefectFailsItsSubtest runs, in a child test process, the suite
// against the simulator with one defect: the child must fail, and exactly
// the subtest of the broken rule, with its requirement id and message.
func TestADefectFailsItsSubtest(t *testing.T) {
	if os.Getenv("CAMPUSCONF_CONFORMANCE_CHILD") == "1" {
		embedded.Run(t, conformance.Options{Tags: "@E7"}, simulator.Options{Defects: []string{"e7-publish-default-false"}})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestADefectFailsItsSubtest$", "-test.v")
	cmd.Env = append(os.Environ(), "CAMPUSCONF_CONFORMANCE_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		t.Fatalf("the child run with defect e7-publish-default-false passed, want it failed:\n%s", out.String())
	}
	got := out.String()
	for _, want := range []string{
		"--- FAIL: TestADefectFailsItsSubtest/attendance/A_default_attendance_is_published_unless_told_otherwise",
		"[E7.default-publish] expected field \"publish\" true, got false",
		"reproduce: curl",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("child output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "--- FAIL: TestADefectFailsItsSubtest/"); n != 1 {
		t.Errorf("%d subtests failed, want exactly 1:\n%s", n, got)
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts conformance.Options
		want string
	}{
		{"no fixtures", conformance.Options{BaseURL: "http://127.0.0.1:1"}, "no fixtures"},
		{"no target", conformance.Options{FixturesFile: "testdata/missing.json"}, "missing.json"},
	} {
		_, err := conformance.Report(t, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

// TestRunTwiceAgainstOneServedSimulator runs the suite twice in a row
// against one simulator served over HTTP, as `go test -count=2` against
// one `campusconf serve` would: Run restores the records the first run
// used up through the fixture's reset, so both pass, every scenario.
func TestRunTwiceAgainstOneServedSimulator(t *testing.T) {
	if testing.Short() {
		t.Skip("two whole runs over loopback; not under -short")
	}
	sim, err := simulator.New(simulator.Options{Seed: 1, SelfReset: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	defer srv.Close()
	for i := range 2 {
		r := conformance.Run(t, conformance.Options{BaseURL: srv.URL, Fixtures: sim.Fixtures(), Strict: true, Concurrency: 4})
		if r.Verdict != reports.VerdictConformant || r.Counts.Passed != r.Counts.Scenarios {
			t.Fatalf("run %d: expected conformant with every scenario passed, got %q with %d of %d passed (%s)", i+1, r.Verdict, r.Counts.Passed, r.Counts.Scenarios, r.VerdictReason)
		}
	}
}

// child runs this test binary again with the test named run and the
// environment variable CAMPUSCONF_CONFORMANCE_CHILD set to which, and
// returns its output and whether it passed.
func child(t *testing.T, run, which string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$", "-test.v")
	cmd.Env = append(os.Environ(), "CAMPUSCONF_CONFORMANCE_CHILD="+which)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err == nil
}

// TestRunAsTheCLIJudges runs, in child test processes, what the CLI would
// judge the same way: an unreachable target fails one subtest that names
// it (not one per scenario); credentials the target refuses fail the test
// at once with one message; a failure the baseline excuses is skipped,
// naming the baseline; the curl line of a handler run in process says
// that it names no running server.
func TestRunAsTheCLIJudges(t *testing.T) {
	switch os.Getenv("CAMPUSCONF_CONFORMANCE_CHILD") {
	case "":
	case "unreachable":
		sim, _ := simulator.New(simulator.Options{})
		conformance.Run(t, conformance.Options{BaseURL: "http://127.0.0.1:1", Fixtures: sim.Fixtures(), Timeout: 2e9})
		return
	case "credentials":
		sim, _ := simulator.New(simulator.Options{})
		srv := httptest.NewServer(sim)
		defer srv.Close()
		f := sim.Fixtures()
		f.SubscriptionKey = "0123456789abcdef0123456789abcdef"
		conformance.Run(t, conformance.Options{BaseURL: srv.URL, Fixtures: f})
		return
	case "baseline":
		file := filepath.Join(t.TempDir(), "baseline.json")
		if err := reports.WriteBaseline(file, reports.Baseline{Entries: []reports.BaselineEntry{{ID: "E7.default-publish", Reason: "known in this test"}}}); err != nil {
			t.Fatal(err)
		}
		r := embedded.Run(t, conformance.Options{Tags: "@E7", Baseline: file}, simulator.Options{Defects: []string{"e7-publish-default-false"}})
		t.Logf("headline: %s", reports.Headline(r))
		return
	case "in process":
		embedded.Run(t, conformance.Options{Tags: "@E7"}, simulator.Options{Defects: []string{"e7-publish-default-false"}})
		return
	}
	tests := []struct {
		which string
		pass  bool
		fails int // failing subtests
		want  []string
	}{
		{"unreachable", false, 1, []string{"--- FAIL: TestRunAsTheCLIJudges/target_reachable", "target unreachable: http://127.0.0.1:1"}},
		{"credentials", false, 0, []string{`conformance: credentials check: the target refused the credentials of fixture user "admin" with 401`, "Ocp-Apim-Subscription-Key: <SUBSCRIPTION_KEY>"}},
		{"baseline", true, 0, []string{"known failure (baseline ", "[E7.default-publish] expected field \"publish\" true, got false", "headline: Partial: the run selected scenarios (tags @E7); except 1 known failure (baseline)"}},
		{"in process", false, 1, []string{"(the handler ran in process, at no address: point the curl line at a running server)", "reproduce: curl"}},
	}
	for _, tt := range tests {
		t.Run(tt.which, func(t *testing.T) {
			out, passed := child(t, "TestRunAsTheCLIJudges", tt.which)
			if passed != tt.pass {
				t.Errorf("child passed: expected %v, got %v:\n%s", tt.pass, passed, out)
			}
			if n := strings.Count(out, "--- FAIL: TestRunAsTheCLIJudges/"); n != tt.fails {
				t.Errorf("expected %d failing subtests, got %d:\n%s", tt.fails, n, out)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("child output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestUnclaimedProfilesAreSkipped: with a fixture claiming the poll
// profile, a defect in a notification operation fails nothing, even with
// Strict: the notification scenarios are unsupported, skipped subtests.
func TestUnclaimedProfilesAreSkipped(t *testing.T) {
	same, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := same.Fixtures() // the world of the simulator embedded.Run builds
	f.Implements = []string{"poll"}
	r := embedded.Run(t, conformance.Options{Fixtures: f, Strict: true, Tags: "@E18 or @NR"},
		simulator.Options{Defects: []string{"notify-read-ignored"}})
	if r.Counts.Unsupported == 0 || r.Counts.Failed != 0 || r.Counts.Passed == 0 {
		t.Errorf("expected the NR scenarios unsupported and the E18 ones passed, got %+v", r.Counts)
	}
	for _, sc := range r.Scenarios {
		if sc.Operation == "NR" && sc.Outcome != reports.Unsupported {
			t.Errorf("%s: expected unsupported, got %s", sc.ID, sc.Outcome)
		}
	}
}
