package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/reports"
)

// TestBaselineGate walks the CI recipe: a run with a defect fails, its
// baseline (version 2, with a reason, an expiry date and an owner) makes
// the same run pass, and a clean run says the entry is fixed.
func TestBaselineGate(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--quiet", "--report-dir", dir, "--defect", "e7-publish-default-false"}, &out, &errOut); code != exitFailed {
		t.Fatalf("run with a defect: exit %d, want %d: %s", code, exitFailed, errOut.String())
	}
	base := filepath.Join(t.TempDir(), "baseline.json")
	expires := time.Now().UTC().AddDate(0, 1, 0).Format(reports.DateLayout)
	out.Reset()
	if code := dispatch([]string{"baseline", "--from", filepath.Join(dir, "report.json"), "--out", base,
		"--reason", "vendor fix due in 2.4", "--expires", expires, "--owner", "team-a"}, &out, &errOut); code != exitOK {
		t.Fatalf("baseline: exit %d: %s", code, errOut.String())
	}
	if want := "wrote 1 known failing requirement(s) to " + base + " (baseline version 2, expiring after " + expires + ")"; !strings.Contains(out.String(), want) {
		t.Errorf("baseline: expected it to say %q, got %q", want, out.String())
	}
	b, err := reports.ReadBaseline(base)
	if err != nil {
		t.Fatal(err)
	}
	want := reports.Baseline{Version: 2, Entries: []reports.BaselineEntry{{ID: "E7.default-publish", Reason: "vendor fix due in 2.4", Expires: expires, Owner: "team-a"}}}
	if got := b; len(got.Entries) != 1 || got.Entries[0] != want.Entries[0] || got.Version != 2 {
		t.Errorf("baseline: expected %+v, got %+v", want, got)
	}
	out.Reset()
	gated := t.TempDir()
	if code := dispatch([]string{"run", "--quiet", "--report-dir", gated, "--defect", "e7-publish-default-false", "--baseline", base}, &out, &errOut); code != exitOK {
		t.Errorf("gated run with the known failure: exit %d, want %d\n%s", code, exitOK, out.String())
	}
	r, err := reports.ReadJSON(filepath.Join(gated, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Gate == nil || !r.Gate.Pass || strings.Join(r.Gate.Known, ",") != "E7.default-publish" || r.Gate.File != base {
		t.Errorf("report.json: expected a passed gate of %s knowing E7.default-publish, got %+v", base, r.Gate)
	}
	out.Reset()
	if code := dispatch([]string{"run", "--quiet", "--report-dir", t.TempDir(), "--baseline", base}, &out, &errOut); code != exitOK {
		t.Errorf("gated clean run: exit %d, want %d", code, exitOK)
	}
	if !strings.Contains(out.String(), "1 baseline entry now passes; remove it from the baseline: E7.default-publish.") {
		t.Errorf("a clean gated run should name the baseline entry that now passes; got:\n%s", out.String())
	}
}

// TestBaselineDefaultReason: without --reason, each entry says what failed
// and on which day, and the command says so and how to do better.
func TestBaselineDefaultReason(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	dispatch([]string{"run", "--quiet", "--report-dir", dir, "--tags", "@E7", "--defect", "e7-publish-default-false"}, &out, &errOut)
	base := filepath.Join(t.TempDir(), "b.json")
	out.Reset()
	if code := dispatch([]string{"baseline", "--from", filepath.Join(dir, "report.json"), "--out", base}, &out, &errOut); code != exitOK {
		t.Fatalf("baseline: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "no expiry date") || !strings.Contains(out.String(), "no --reason given") {
		t.Errorf("baseline without --reason or --expires: expected it to say so, got %q", out.String())
	}
	b, err := reports.ReadBaseline(base)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().UTC().Format(reports.DateLayout)
	if len(b.Entries) != 1 || !strings.HasPrefix(b.Entries[0].Reason, "failed in the run of "+day+": expected") || b.Entries[0].Expires != "" {
		t.Errorf("baseline: expected one entry whose reason says what failed on %s, without expiry, got %+v", day, b.Entries)
	}
}

// TestBaselineRefuses: bad input gets exit 2, one line naming the flag or
// file, and no file written.
func TestBaselineRefuses(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(report, []byte(`{"schema": "campusconf.report/v1", "scenarios": [], "requirements": [], "counts": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(reports.DateLayout)
	tests := []struct {
		name string
		args []string
		say  string
	}{
		{"no --from", nil, "--from"},
		{"no such report", []string{"--from", filepath.Join(t.TempDir(), "absent.json")}, "absent.json"},
		{"not a report", []string{"--from", writeFile(t, t.TempDir(), "x.json", `{"schema": "something else"}`)}, "x.json"},
		{"a report of nothing but its schema", []string{"--from", writeFile(t, t.TempDir(), "bare.json", `{"schema": "campusconf.report/v2"}`)}, "incomplete report: expected scenarios, requirements, counts"},
		{"a report past --max-report", []string{"--max-report", "64", "--from", report}, "--max-report raises the bound"},
		{"a date in another form", []string{"--from", report, "--expires", "31/12/2030"}, `--expires: expected a date YYYY-MM-DD, got "31/12/2030"`},
		{"a day that has passed", []string{"--from", report, "--expires", yesterday}, "--expires " + yesterday + ": expected today"},
		{"a blank reason", []string{"--from", report, "--reason", "  "}, "--reason"},
		{"an argument left over", []string{"--from", report, "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "b.json")
			var stdout, stderr bytes.Buffer
			if code := dispatch(append([]string{"baseline", "--out", out}, tt.args...), &stdout, &stderr); code != exitUsage {
				t.Errorf("exit: expected %d, got %d", exitUsage, code)
			}
			if !strings.Contains(stderr.String(), tt.say) {
				t.Errorf("stderr: expected %q, got %q", tt.say, stderr.String())
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("expected no baseline written, found %s", out)
			}
		})
	}
}

// TestBaselineExpiredFailsTheGate: an entry past its date no longer
// excuses its failure: the gated run fails, and the console and
// summary.md name the entry.
func TestBaselineExpiredFailsTheGate(t *testing.T) {
	base := writeFile(t, t.TempDir(), "b.json", `{"version": 2, "entries": [
		{"id": "E7.default-publish", "reason": "vendor fix due in 2.4", "expires": "2026-01-31", "owner": "team-a"}]}`)
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--quiet", "--report-dir", dir, "--tags", "@E7", "--defect", "e7-publish-default-false", "--baseline", base}, &out, &errOut); code != exitFailed {
		t.Errorf("gated run with an expired entry: exit %d, want %d\n%s", code, exitFailed, out.String())
	}
	for _, want := range []string{
		"Baseline gate failed: 1 failed MUST requirement is no longer excused, its baseline entry expired: E7.default-publish.",
		"E7.default-publish (expired 2026-01-31, owner team-a, still fails)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("console: expected %q, got:\n%s", want, out.String())
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "**E7.default-publish** (expired 2026-01-31, owner team-a, still fails): vendor fix due in 2.4"; !strings.Contains(string(md), want) {
		t.Errorf("summary.md: expected %q, got:\n%s", want, md)
	}
}

// TestBaselineGatesGeneratedRequests: the same baseline works for run
// --generate: a finding only generated requests make is excused by a
// baseline made from such a run.
func TestBaselineGatesGeneratedRequests(t *testing.T) {
	args := []string{"run", "--quiet", "--tags", "@E19", "--defect", "gen-upper-uuid-500", "--generate", "30", "--generate-seed", "5"}
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch(append(args, "--report-dir", dir), &out, &errOut); code != exitFailed {
		t.Fatalf("generated run with a defect: exit %d, want %d\n%s%s", code, exitFailed, out.String(), errOut.String())
	}
	base := filepath.Join(t.TempDir(), "b.json")
	if code := dispatch([]string{"baseline", "--from", filepath.Join(dir, "report.json"), "--out", base, "--reason", "uuid case"}, &out, &errOut); code != exitOK {
		t.Fatalf("baseline: exit %d: %s", code, errOut.String())
	}
	b, err := reports.ReadBaseline(base)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.IDs(), ","); !strings.Contains(got, "GEN.no-5xx") {
		t.Errorf("baseline of a generated run: expected GEN.no-5xx among %s", got)
	}
	out.Reset()
	if code := dispatch(append(args, "--report-dir", t.TempDir(), "--baseline", base), &out, &errOut); code != exitOK {
		t.Errorf("gated generated run: exit %d, want %d\n%s", code, exitOK, out.String())
	}
}
