package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/reports"
)

// TestDiffTwoRuns compares two real runs, clean and with a defect: the
// defect's requirement is a regression (exit 1) one way and a fix (exit 0)
// the other, in Markdown and in JSON.
func TestDiffTwoRuns(t *testing.T) {
	clean, broken := t.TempDir(), t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--quiet", "--tags", "@E7", "--report-dir", clean}, &out, &errOut); code != exitOK {
		t.Fatalf("clean run: exit %d: %s", code, errOut.String())
	}
	if code := dispatch([]string{"run", "--quiet", "--tags", "@E7", "--defect", "e7-publish-default-false", "--report-dir", broken}, &out, &errOut); code != exitFailed {
		t.Fatalf("run with a defect: exit %d: %s", code, errOut.String())
	}
	cleanJSON := filepath.Join(clean, "report.json")
	tests := []struct {
		name string
		args []string
		want int
		say  []string
	}{
		{"a regression", []string{cleanJSON, broken}, exitFailed, []string{
			"## ❌ campusconf diff: 1 MUST regression",
			"### Regressions: passed in base, failed in head (1)",
			`- **E7.default-publish** (MUST, E7): expected field "publish" true, got false`,
			"| A default attendance is published unless told otherwise (E7) | passed | failed |",
		}},
		{"a fix", []string{broken, cleanJSON}, exitOK, []string{
			"## ✅ campusconf diff: no regression",
			"### Fixes: failed in base, passed in head (1)",
		}},
		{"the same run", []string{cleanJSON, cleanJSON}, exitOK, []string{"0 regressions, 0 fixes"}},
		{"flags after the reports", []string{cleanJSON, broken, "--json"}, exitFailed, []string{`"regressions": [`, `"id": "E7.default-publish"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := dispatch(append([]string{"diff"}, tt.args...), &out, &errOut); code != tt.want {
				t.Errorf("exit: expected %d, got %d: %s", tt.want, code, errOut.String())
			}
			for _, s := range tt.say {
				if !strings.Contains(out.String(), s) {
					t.Errorf("expected %q in the diff, got:\n%s", s, out.String())
				}
			}
		})
	}
	out.Reset()
	dispatch([]string{"diff", "--json", cleanJSON, broken}, &out, &errOut)
	var d reports.Diff
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("diff --json: expected JSON, got %v", err)
	}
	if len(d.Regressions) != 1 || d.Regressions[0].ID != "E7.default-publish" || d.Head.File != filepath.Join(broken, "report.json") {
		t.Errorf("diff --json: expected one regression, E7.default-publish, of %s, got %+v", filepath.Join(broken, "report.json"), d)
	}
}

// TestDiffRefuses: a missing or unreadable report is exit 2 naming the
// file; so is a usage error.
func TestDiffRefuses(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.json", `{"schema": "campusconf.report/v1", "verdict": "conformant", "scenarios": [], "requirements": [], "counts": {}}`)
	notJSON := writeFile(t, dir, "broken.json", `{"schema": `)
	future := writeFile(t, dir, "future.json", `{"schema": "campusconf.report/v9"}`)
	absent := filepath.Join(dir, "absent.json")
	// issue 45: a head of nothing was "no regression", exit 0
	bare := writeFile(t, dir, "bare.json", `{"schema":"campusconf.report/v2"}`)
	if err := os.MkdirAll(filepath.Join(dir, "sub", "report.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	large := writeFile(t, dir, "large.json", `{"schema": "campusconf.report/v2", "scenarios": [], "requirements": [], "counts": {}, "notes": ["`+strings.Repeat("x", 2<<10)+`"]}`)
	tests := []struct {
		name string
		args []string
		say  string
	}{
		{"one report", []string{good}, "expected two reports, BASE and HEAD, got 1"},
		{"three reports", []string{good, good, good}, "got 3"},
		{"a missing base", []string{absent, good}, "campusconf diff: BASE: open " + absent + ": no such file or directory"},
		{"a broken head", []string{good, notJSON}, "campusconf diff: HEAD: " + notJSON + ": read report: unexpected EOF"},
		{"a schema it does not read", []string{good, future}, "campusconf diff: HEAD: " + future + `: read report: schema: expected one of campusconf.report/v1, campusconf.report/v2, campusconf.report/v3, got "campusconf.report/v9"`},
		{"an unknown flag", []string{"--nope", good, good}, "flag provided but not defined: -nope"},
		{"a head of nothing but its schema", []string{good, bare}, "campusconf diff: HEAD: " + bare + ": read report: incomplete report: expected scenarios, requirements, counts"},
		{"a head past --max-report", []string{"--max-report", "1KiB", good, large}, "campusconf diff: HEAD: " + large + ": file too large: 2.1 KiB, larger than the 1.0 KiB read; --max-report raises the bound"},
		{"a report.json that is a directory", []string{good, filepath.Join(dir, "sub")}, "is a directory: expected a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := dispatch(append([]string{"diff"}, tt.args...), &out, &errOut); code != exitUsage {
				t.Errorf("exit: expected %d, got %d", exitUsage, code)
			}
			if !strings.Contains(errOut.String(), tt.say) {
				t.Errorf("stderr: expected %q, got %q", tt.say, errOut.String())
			}
			if out.Len() != 0 {
				t.Errorf("stdout: expected nothing, got %q", out.String())
			}
		})
	}
	if _, err := os.Stat(absent); err == nil {
		t.Error("diff created the missing report")
	}
}
