package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/version"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// runProfiles runs the suite against the embedded simulator with args and
// returns the exit code, the report and the conformance report of the run.
func runProfiles(t *testing.T, args ...string) (int, *reports.Report, *reports.ConformanceReport, string) {
	t.Helper()
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := dispatch(append([]string{"run", "--report-dir", dir}, args...), &out, &errOut)
	r, err := reports.ReadJSON(filepath.Join(dir, reports.JSONFile))
	if err != nil {
		t.Fatalf("run %v: exit %d, no report: %v\n%s%s", args, code, err, tail(out.String(), 20), errOut.String())
	}
	c, err := reports.ReadConformance(filepath.Join(dir, reports.ConformanceFile))
	if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return code, r, c, dir
}

// results maps each profile of a conformance report to its result.
func results(c *reports.ConformanceReport) map[string]reports.ProfileStatus {
	m := map[string]reports.ProfileStatus{}
	for _, p := range c.Profiles {
		m[p.Name] = p.Result
	}
	return m
}

// TestRunOneProfileStrict: the simulator claimed as implementing one
// profile passes with --strict; the other profiles' scenarios are
// unsupported (no request sent, none failed), the conformance report is
// conformant and verifies, and the badge says so.
func TestRunOneProfileStrict(t *testing.T) {
	code, r, c, dir := runProfiles(t, "--implements", "notifications", "--strict", "--quiet")
	if code != exitOK {
		t.Fatalf("run --implements notifications --strict: expected exit %d, got %d", exitOK, code)
	}
	for _, s := range r.Scenarios {
		want := reports.Unsupported
		if s.Operation == "NG" || s.Operation == "NR" {
			want = reports.Passed
		}
		if s.Outcome != want {
			t.Errorf("%s (%s): expected %s, got %s", s.ID, s.Operation, want, s.Outcome)
		}
		if s.Outcome == reports.Unsupported && len(s.Exchanges) > 0 {
			t.Errorf("%s: unsupported, yet %d requests were sent", s.ID, len(s.Exchanges))
		}
	}
	if c.Status != reports.VerdictConformant || !slices.Equal(c.Implements, []string{"notifications"}) {
		t.Errorf("conformance report: expected conformant claiming notifications, got %s claiming %v (%s)", c.Status, c.Implements, c.Reason)
	}
	if c.Implementation.Project != "campusconf simulator" {
		t.Errorf("conformance report: expected the embedded simulator named as the implementation, got %+v", c.Implementation)
	}
	var out bytes.Buffer
	if code := dispatch([]string{"report", "verify", dir}, &out, io.Discard); code != exitOK || !strings.Contains(out.String(), "verified\n  status: conformant\n") {
		t.Errorf("report verify: expected exit 0 and verified, got %d: %s", code, out.String())
	}
	badge, err := os.ReadFile(filepath.Join(dir, reports.BadgeFile))
	if err != nil || !strings.Contains(string(badge), "conformant · notifications") {
		t.Errorf("badge.svg: expected \"conformant · notifications\", got %v:\n%s", err, badge)
	}
}

// TestRunDefectFailsItsProfileOnly: a defect in one operation fails
// exactly the profile that holds it, claimed or not; in a profile that
// is not claimed it fails nothing, and the run is conformant.
func TestRunDefectFailsItsProfileOnly(t *testing.T) {
	skipUnderRace(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		failed []string // profiles whose result is failure
		status reports.Verdict
	}{
		{"every profile claimed, a defect in E7", []string{"--defect", "e7-publish-default-false"}, exitFailed,
			[]string{"attendance"}, reports.VerdictNotConformant},
		{"every profile claimed, a defect in NR", []string{"--defect", "notify-read-ignored"}, exitFailed,
			[]string{"notifications"}, reports.VerdictNotConformant},
		{"two profiles claimed, a defect in one", []string{"--implements", "attendance,second-factor", "--defect", "e7-publish-default-false"}, exitFailed,
			[]string{"attendance"}, reports.VerdictNotConformant},
		{"two profiles claimed, a defect in another", []string{"--implements", "attendance,second-factor", "--defect", "notify-read-ignored", "--strict"}, exitOK,
			nil, reports.VerdictConformant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, c, _ := runProfiles(t, append(tt.args, "--quiet")...)
			if code != tt.code {
				t.Errorf("exit: expected %d, got %d", tt.code, code)
			}
			var failed []string
			for name, res := range results(c) {
				if res == reports.ProfileFailure {
					failed = append(failed, name)
				}
			}
			slices.Sort(failed)
			if !slices.Equal(failed, tt.failed) || c.Status != tt.status {
				t.Errorf("expected profiles %v failed and status %s, got %v and %s (%s)", tt.failed, tt.status, failed, c.Status, c.Reason)
			}
			for name, res := range results(c) {
				if !slices.Contains(tt.failed, name) && res != reports.ProfileSuccess && res != reports.ProfileUnsupported {
					t.Errorf("profile %s: expected success or unsupported, got %s", name, res)
				}
			}
			if probs := c.Verify(); len(probs) > 0 {
				t.Errorf("the run's conformance report does not verify:\n%s", strings.Join(probs, "\n"))
			}
		})
	}
}

// TestRunClaimedProfileMissingKey: a claimed profile whose fixture key is
// missing is still skipped (not unsupported) and --strict fails the run;
// its profile is partial, and the status the run's one word, not
// conformant (--strict).
func TestRunClaimedProfileMissingKey(t *testing.T) {
	sim, srv := serveSim(t, simulator.Options{Seed: 6})
	f := sim.Fixtures()
	f.Implements = []string{"evaluation"}
	f.Implementation = nil
	f.Records.OtherEvaluationQuestion = ""
	delete(f.Operations, "ES")
	fixture := writeFixture(t, f)
	code, r, c, _ := runProfiles(t, "--target", srv.URL, "--fixtures", fixture, "--strict", "--quiet",
		"--implementation", "organization=example.edu", "--implementation", "project=campus-eval")
	if code != exitFailed {
		t.Errorf("--strict with a claimed profile lacking keys: expected exit %d, got %d", exitFailed, code)
	}
	if r.Counts.Skipped == 0 || r.Counts.NotConfigured == 0 || r.Counts.Unsupported == 0 {
		t.Errorf("counts: expected skipped (records.otherEvaluationQuestion), not configured (ES) and unsupported scenarios, got %+v", r.Counts)
	}
	if got := results(c)["evaluation"]; got != reports.ProfilePartial || c.Status != reports.VerdictNotConformant || c.Status != r.Verdict {
		t.Errorf("expected evaluation partial and the status the run's not conformant (--strict), got %s and %s (%s), the run's %s", got, c.Status, c.Reason, r.Verdict)
	}
	if c.Implementation.Organization != "example.edu" || c.Implementation.Project != "campus-eval" {
		t.Errorf("implementation: expected the flags' organization and project, got %+v", c.Implementation)
	}
}

// TestRunClaimUsageErrors: a bad --implements or --implementation is exit 2
// with one line naming the flag, before anything runs.
func TestRunClaimUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--implements", "atendance"}, `campusconf run: --implements: unknown profile "atendance"; did you mean "attendance"?`},
		{[]string{"--implements", "poll,poll"}, `campusconf run: --implements: profile "poll" given twice`},
		{[]string{"--implements", "poll,"}, `campusconf run: --implements: expected profile names separated by commas, got "poll,"`},
		{[]string{"--implementation", "organisation=x"}, `campusconf run: --implementation: unknown key "organisation"; did you mean "organization"?`},
		{[]string{"--implementation", "project"}, `campusconf run: --implementation: expected KEY=VALUE`},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "reports")
		var out, errOut bytes.Buffer
		code := dispatch(append([]string{"run", "--report-dir", dir}, tt.args...), &out, &errOut)
		if code != exitUsage || !strings.HasPrefix(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("run %v: expected exit %d and one line starting %q, got %d: %q", tt.args, exitUsage, tt.want, code, errOut.String())
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("run %v: a refused run wrote %s", tt.args, dir)
		}
	}
}

// TestReportVerifyCmd: verify accepts the run's report, names each
// problem of an edited one (exit 1) and refuses what is no conformance
// report (exit 2, one line).
func TestReportVerifyCmd(t *testing.T) {
	_, _, _, dir := runProfiles(t, "--implements", "bank", "--tags", "@E6", "--quiet")
	file := filepath.Join(dir, reports.ConformanceFile)
	var out bytes.Buffer
	if code := dispatch([]string{"report", "verify", file}, &out, io.Discard); code != exitOK || !strings.Contains(out.String(), "verified\n  status: partial\n") {
		t.Fatalf("verify of the run's report: expected exit 0 and partial (a tag selection), got %d: %s", code, out.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(t.TempDir(), "edited.yaml")
	text := strings.Replace(strings.Replace(string(data), "status: partial", "status: conformant", 1), "suiteVersion: ", "suiteVersion: 0.", 1)
	if err := os.WriteFile(edited, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	code := dispatch([]string{"report", "verify", edited}, &out, io.Discard)
	if code != exitFailed || !strings.Contains(out.String(), "does not verify, 3 problem(s)") ||
		!strings.Contains(out.String(), `status "conformant": expected "partial"`) || !strings.Contains(out.String(), `suiteVersion "0.`) ||
		!strings.Contains(out.String(), `reproduce: expected "suite 0.`+version.Suite+`:`) {
		t.Errorf("verify of an edited report: expected exit 1 naming the status, the suite and the reproduction line, got %d:\n%s", code, out.String())
	}
	for _, args := range [][]string{
		{"report", "verify", filepath.Join(dir, reports.JSONFile)},
		{"report", "verify", filepath.Join(dir, "absent.yaml")},
		{"report", "verify", "--report", filepath.Join(dir, "absent.json"), file},
		{"report", "verify", "--max-report", "1KiB", file},
		{"report", "verify"},
		{"report", "sign", file},
		{"report"},
	} {
		var errOut bytes.Buffer
		if code := dispatch(args, io.Discard, &errOut); code != exitUsage || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%v: expected exit %d and one line, got %d: %q", args, exitUsage, code, errOut.String())
		}
	}
}

// editConformance rewrites the conformance report at path through edit.
func editConformance(t *testing.T, path string, edit func(c *reports.ConformanceReport)) {
	t.Helper()
	c, err := reports.ReadConformance(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(c)
	data, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// verify runs `campusconf report verify` with args.
func verify(args ...string) (int, string) {
	var out, errOut bytes.Buffer
	code := dispatch(append([]string{"report", "verify"}, args...), &out, &errOut)
	return code, out.String() + errOut.String()
}

// TestReportVerifyRefusesForgeries reproduces the forgeries of issue 45
// with the command: a failing run's conformance report edited to
// conformant, its counts adjusted (the failure dropped, or counted as a
// pass), refused on its own or beside its report.json; a read-only run's
// edited to mode full, one passed scenario a profile, another
// organization, refused; and a project name holding a newline prints no
// line of its own.
func TestReportVerifyRefusesForgeries(t *testing.T) {
	skipUnderRace(t)
	_, _, _, failing := runProfiles(t, "--defect", "e7-publish-default-false", "--quiet")
	madeConformant := func(moveToPassed bool) func(c *reports.ConformanceReport) {
		return func(c *reports.ConformanceReport) {
			for i := range c.Profiles {
				p := &c.Profiles[i]
				if moveToPassed {
					p.Counts.Passed += p.Counts.Failed
				}
				p.Counts.Failed, p.Result, p.FailedRequirements, p.Warnings = 0, reports.ProfileSuccess, nil, nil
			}
			c.Status, c.Reason = reports.ConformanceStatusOf(c)
		}
	}
	dropped := filepath.Join(t.TempDir(), reports.ConformanceFile)
	copyFile(t, filepath.Join(failing, reports.ConformanceFile), dropped)
	editConformance(t, dropped, madeConformant(false))
	moved := filepath.Join(failing, reports.ConformanceFile)
	editConformance(t, moved, madeConformant(true))

	_, _, _, readOnly := runProfiles(t, "--read-only", "--quiet")
	upgraded := filepath.Join(readOnly, reports.ConformanceFile)
	editConformance(t, upgraded, func(c *reports.ConformanceReport) {
		c.Mode = reports.ModeFull
		for i := range c.Profiles {
			c.Profiles[i].Counts = reports.ProfileCounts{Passed: 1}
			c.Profiles[i].Result = reports.ProfileSuccess
		}
		c.Implementation.Organization = "another.example"
		c.Status, c.Reason = reports.ConformanceStatusOf(c)
		c.Reproduce = reports.Reproduction(c)
	})
	n, err := features.ScenarioCounts()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a failure dropped from the counts, alone", []string{dropped}, fmt.Sprintf("(attendance): counts %d scenarios, but a run of the whole suite %s has %d", n.Profiles["attendance"]-1, version.Suite, n.Profiles["attendance"])},
		{"a failure counted as a pass, beside report.json", []string{moved}, `status: this file says "conformant", report.json makes it "not conformant"`},
		{"a failure dropped, report.json given", []string{"--report", filepath.Join(failing, reports.JSONFile), dropped}, "profiles[4] (attendance): this file says result success"},
		{"a read-only run made full", []string{upgraded}, fmt.Sprintf("(second-factor): counts 1 scenarios, but a run of the whole suite %s has %d", version.Suite, n.Profiles["second-factor"])},
		{"a read-only run made full, its report.json beside", []string{upgraded}, `implementation: this file says`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := verify(tt.args...)
			if code != exitFailed || !strings.Contains(out, tt.want) {
				t.Errorf("verify %v: expected exit %d naming %q, got %d:\n%s", tt.args, exitFailed, tt.want, code, out)
			}
		})
	}

	_, _, _, named := runProfiles(t, "--tags", "@E6", "--quiet", "--implementation", "project=campus\nverified: conformant for everyone")
	code, out := verify(named)
	if code != exitOK {
		t.Fatalf("verify of a run whose project holds a newline: expected exit 0, got %d:\n%s", code, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if !strings.HasPrefix(line, "  ") {
			t.Errorf("verify: expected every value on its own indented line, got the line %q in:\n%s", line, out)
		}
	}
	if !strings.Contains(out, "  project: campus\\nverified: conformant for everyone\n") {
		t.Errorf("verify: expected the project on one line, its newline escaped, got:\n%s", out)
	}
}
