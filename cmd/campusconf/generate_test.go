package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
)

// TestRunGenerateFindsAndReplays: run --generate finds a generator defect
// the scenarios miss, reports it in every format with its seed and without
// a credential, and the same seed finds the same request again.
func TestRunGenerateFindsAndReplays(t *testing.T) {
	run := func() (*reports.Report, map[string]string) {
		t.Helper()
		dir := t.TempDir()
		var out, errOut bytes.Buffer
		code := dispatch([]string{"run", "--report-dir", dir, "--tags", "@E19", "--defect", "gen-upper-uuid-500",
			"--generate", "30", "--generate-seed", "5"}, &out, &errOut)
		if code != exitFailed {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailed, tail(out.String(), 20), errOut.String())
		}
		r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{"stdout": out.String()}
		for _, name := range []string{"report.json", "junit.xml", "report.html", "summary.md"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = string(b)
		}
		return r, files
	}
	finding := func(r *reports.Report) *reports.Scenario {
		t.Helper()
		for i, sc := range r.Scenarios {
			if sc.Outcome == reports.Failed && sc.Feature != "generated" {
				t.Errorf("scenario %s failed: the defect is meant for generated requests only", sc.ID)
			}
			if sc.Outcome == reports.Failed && sc.Operation == "E19" && strings.Join(sc.Requirements, ",") == "GEN.no-5xx" {
				return &r.Scenarios[i]
			}
		}
		t.Fatal("expected an E19 GEN.no-5xx finding, got none")
		return nil
	}
	r1, files := run()
	r2, _ := run()
	f1, f2 := finding(r1), finding(r2)
	if f1.Failure.Curl != f2.Failure.Curl || f1.Name != f2.Name {
		t.Errorf("the same seed: expected the same finding, got %q (%s) and %q (%s)", f1.Name, f1.Failure.Curl, f2.Name, f2.Failure.Curl)
	}
	if got := r1.Options["generateSeed"]; got != "5" {
		t.Errorf("options: expected generateSeed 5, got %q", got)
	}
	for name, text := range files {
		if !strings.Contains(text, "generate-seed 5") && name != "stdout" {
			t.Errorf("%s: expected the seed (--generate-seed 5) in the report, got none", name)
		}
	}
	var fixture, errOut bytes.Buffer
	if c := dispatch([]string{"fixtures", "--seed", "1"}, &fixture, &errOut); c != exitOK {
		t.Fatalf("campusconf fixtures exited %d: %s", c, errOut.String())
	}
	f, err := fixtures.Parse(fixture.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		for _, s := range f.Secrets() {
			if strings.Contains(text, s) {
				t.Errorf("%s contains the secret %.4s…", name, s)
			}
		}
	}
}

func TestRunGenerateUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if got := dispatch([]string{"run", "--generate", "-1", "--report-dir", t.TempDir()}, &out, &errOut); got != exitUsage || errOut.Len() == 0 {
		t.Errorf("run --generate -1: expected exit %d with a message, got %d and %q", exitUsage, got, errOut.String())
	}
}
