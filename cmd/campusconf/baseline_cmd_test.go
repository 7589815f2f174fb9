package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/reports"
)

// TestBaselineGate walks the CI recipe: a run with a defect fails, its
// baseline makes the same run pass, and a clean run says the entry is fixed.
func TestBaselineGate(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--quiet", "--report-dir", dir, "--defect", "e7-publish-default-false"}, &out, &errOut); code != exitFailed {
		t.Fatalf("run with a defect: exit %d, want %d: %s", code, exitFailed, errOut.String())
	}
	base := filepath.Join(t.TempDir(), "baseline.json")
	if code := dispatch([]string{"baseline", "--from", filepath.Join(dir, "report.json"), "--out", base}, &out, &errOut); code != exitOK {
		t.Fatalf("baseline: exit %d: %s", code, errOut.String())
	}
	b, err := reports.ReadBaseline(base)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(b.Requirements, ","), "E7.default-publish"; got != want {
		t.Errorf("baseline requirements = %s, want %s", got, want)
	}
	out.Reset()
	if code := dispatch([]string{"run", "--quiet", "--report-dir", t.TempDir(), "--defect", "e7-publish-default-false", "--baseline", base}, &out, &errOut); code != exitOK {
		t.Errorf("gated run with the known failure: exit %d, want %d\n%s", code, exitOK, out.String())
	}
	out.Reset()
	if code := dispatch([]string{"run", "--quiet", "--report-dir", t.TempDir(), "--baseline", base}, &out, &errOut); code != exitOK {
		t.Errorf("gated clean run: exit %d, want %d", code, exitOK)
	}
	if !strings.Contains(out.String(), "E7.default-publish") {
		t.Errorf("a clean gated run should name the baseline entry that now passes; got:\n%s", out.String())
	}
	if code := dispatch([]string{"baseline"}, &out, &errOut); code != exitUsage {
		t.Errorf("baseline without --from: exit %d, want %d", code, exitUsage)
	}
}
