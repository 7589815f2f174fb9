package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportGithub: `campusconf report github` turns a report directory
// into $GITHUB_OUTPUT's outputs, an annotation per failed requirement and
// the job summary (fake files here), and a comment body with its marker;
// without a report it says so and sets verdict "no report".
func TestReportGithub(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--quiet", "--tags", "@E7", "--defect", "e7-publish-default-false", "--report-dir", dir}, &out, &errOut); code != exitFailed {
		t.Fatalf("run with a defect: expected exit %d, got %d: %s", exitFailed, code, errOut.String())
	}
	absent := filepath.Join(t.TempDir(), "none")
	tests := []struct {
		name     string
		args     []string
		outputs  string
		stdout   []string
		summary  string // a part of it
		comment  string // a part of comment.md, "" for none
		wantCode int
	}{
		{"a failed MUST", []string{"--report-dir", dir}, "verdict=not conformant\nfailed-must=1\nfailed-must-ids=E7.default-publish\nreport-dir=" + dir + "\n",
			[]string{"::error title=E7.default-publish::MUST E7.default-publish (", "%0AScenario "}, "Not conformant", "", exitOK},
		{"with a comment", []string{"--report-dir", dir, "--comment", filepath.Join(dir, "comment.md"), "--marker", "<!-- campusconf:m1 -->"},
			"verdict=not conformant\n", nil, "Not conformant", "<!-- campusconf:m1 -->\n", exitOK},
		{"the diff instead of the summary", []string{"--report-dir", dir, "--diff", writeFile(t, t.TempDir(), "diff.md", "## a diff\n")},
			"failed-must=1\n", nil, "## a diff\n", "", exitOK},
		{"no report", []string{"--report-dir", absent}, "verdict=no report\nfailed-must=0\nfailed-must-ids=\nreport-dir=" + absent + "\n",
			nil, "campusconf wrote no readable report", "", exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			output := writeFile(t, t.TempDir(), "output", "")
			summary := writeFile(t, t.TempDir(), "summary", "")
			t.Setenv("GITHUB_OUTPUT", output)
			t.Setenv("GITHUB_STEP_SUMMARY", summary)
			var out, errOut bytes.Buffer
			code := dispatch(append([]string{"report", "github"}, tt.args...), &out, &errOut)
			if code != tt.wantCode {
				t.Fatalf("report github %v: expected exit %d, got %d: %s", tt.args, tt.wantCode, code, errOut.String())
			}
			gotOut, _ := os.ReadFile(output)
			if !strings.Contains(string(gotOut), tt.outputs) {
				t.Errorf("$GITHUB_OUTPUT: expected %q in it, got %q", tt.outputs, gotOut)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("annotations: expected %q, got:\n%s", s, out.String())
				}
			}
			gotSum, _ := os.ReadFile(summary)
			if !strings.Contains(string(gotSum), tt.summary) {
				t.Errorf("$GITHUB_STEP_SUMMARY: expected %q in it, got:\n%s", tt.summary, gotSum)
			}
			if tt.comment != "" {
				body, err := os.ReadFile(filepath.Join(dir, "comment.md"))
				if err != nil || !strings.HasPrefix(string(body), tt.comment) || !strings.Contains(string(body), tt.summary) {
					t.Errorf("comment.md: expected it to start with %q and hold the summary, got %q (%v)", tt.comment, body, err)
				}
			}
		})
	}
}
