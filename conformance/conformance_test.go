package conformance_test

import (
	"bytes"
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
