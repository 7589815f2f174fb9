package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// countingTarget is a loopback server that counts the requests it gets,
// so a test can prove a refused run sent none.
func countingTarget(t *testing.T) (url string, requests *atomic.Int64) {
	t.Helper()
	requests = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Error(w, `"no"`, http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, requests
}

// TestRunRefusesBeforeWork: each configuration error is refused with exit
// 2 and a message naming the flag or the file, before any request reaches
// the target (and, with --image, before any container starts).
func TestRunRefusesBeforeWork(t *testing.T) {
	url, requests := countingTarget(t)
	dir := t.TempDir()
	good := writeFile(t, dir, "good.json", `{"version": 1}`)
	bad := writeFile(t, dir, "bad.json", `{"version": 1, "recordz": {}}`)
	notADir := writeFile(t, dir, "plain-file", "")
	baseline := writeFile(t, dir, "baseline.json", `{"version": 1, "requirement": []}`)
	reportDir := filepath.Join(dir, "reports")
	tests := []struct {
		name string
		args []string
		want string // the whole message after "campusconf run: "
		// prefix: want is the start of the message (its end lists what the
		// catalogue knows, which other work extends)
		prefix bool
	}{
		{"report dir not writable", []string{"--target", url, "--fixtures", good, "--report-dir", filepath.Join(notADir, "sub")},
			"--report-dir DIR/plain-file/sub: the reports could not be written there: mkdir DIR/plain-file: not a directory", false},
		{"missing baseline", []string{"--target", url, "--fixtures", good, "--baseline", filepath.Join(dir, "absent.json")},
			"--baseline: open DIR/absent.json: no such file or directory", false},
		{"malformed baseline", []string{"--target", url, "--fixtures", good, "--baseline", baseline},
			`--baseline: baseline DIR/baseline.json: json: unknown field "requirement"`, false},
		{"bad fixture", []string{"--target", url, "--fixtures", bad},
			`fixture file DIR/bad.json, line 1, column 16: recordz: unknown key; did you mean "records"?`, false},
		{"missing fixture", []string{"--target", url, "--fixtures", filepath.Join(dir, "absent.json")},
			"fixture file: open DIR/absent.json: no such file or directory", false},
		{"bad fixture with an image", []string{"--image", "campusconf-never-started:latest", "--fixtures", bad},
			`fixture file DIR/bad.json, line 1, column 16: recordz: unknown key; did you mean "records"?`, false},
		{"unknown operation in tags", []string{"--target", url, "--fixtures", good, "--tags", "@E99"},
			"--tags: tag @E99 is unknown", true},
		{"unknown operation in a tag expression", []string{"--target", url, "--fixtures", good, "--tags", "@E7 and not @updateQuizSectoin"},
			"--tags: tag @updateQuizSectoin is unknown", true},
		{"unknown defect", []string{"--defect", "no-such-defect"},
			`--defect: unknown defect "no-such-defect"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append([]string{"run"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "--report-dir") {
				args = append(args, "--report-dir", reportDir)
			}
			code := dispatch(args, &out, &errOut)
			got := strings.TrimSuffix(strings.ReplaceAll(errOut.String(), dir, "DIR"), "\n")
			want := "campusconf run: " + tt.want
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if ok := got == want || (tt.prefix && strings.HasPrefix(got, want)); !ok {
				t.Errorf("stderr:\ngot  %s\nwant %s", got, want)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("the target got %d requests, want none", n)
			}
			if _, err := os.Stat(reportDir); err == nil {
				t.Errorf("the refused run left %s behind", reportDir)
			}
		})
	}
}

// TestFixtureErrorsAgree runs bad fixture files through both paths that
// read them, `campusconf fixtures --check` and `campusconf run`: both must
// refuse with exit 2 and the same message, which is the one wanted.
func TestFixtureErrorsAgree(t *testing.T) {
	url, requests := countingTarget(t)
	dir := t.TempDir()
	const id = "e4f66500-027f-4e2e-a998-ab6291775134"
	tests := []struct {
		name, content, want string
	}{
		{"unknown key with suggestion", `{"version": 1, "records": {"bankFoldr": "` + id + `"}}`,
			`line 1, column 28: records.bankFoldr: unknown key; did you mean "bankFolder"?`},
		{"key differing in case", "{\n  \"version\": 1,\n  \"subscriptionkey\": \"k\"\n}",
			`line 3, column 3: subscriptionkey: unknown key (keys are case-sensitive); did you mean "subscriptionKey"?`},
		{"syntax error", "{\n  \"version\": 1,\n  \"records\": {\n}",
			"line 4, column 2: JSON syntax: unexpected end of JSON input"},
		{"wrong type", `{"version": 1, "forbidden": {"operation": "E4"}}`,
			"line 1, column 16: forbidden: expected an array, got an object"},
		{"missing required key", `{"version": 1, "operations": {"QS": {"path": "/quiz"}}}`,
			`line 1, column 31: operations.QS: missing required key "method"`},
		{"bad uuid", `{"version": 1, "records": {"deletableMedia": ["` + id + `", "x"]}}`,
			`line 1, column 87: records.deletableMedia[1]: expected a UUID, got "x"`},
		{"user not defined", `{"version": 1, "users": {"owner": {}}, "secondFactor": {"denyingUser": "staff"}}`,
			`line 1, column 57: secondFactor.denyingUser: user "staff" is not in users`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, dir, "f"+string(rune('a'+i))+".json", tt.content)
			want := "fixture file " + file + ", " + tt.want
			var out, checkErr, runErr bytes.Buffer
			checkCode := dispatch([]string{"fixtures", "--check", file}, &out, &checkErr)
			runCode := dispatch([]string{"run", "--target", url, "--fixtures", file, "--report-dir", filepath.Join(dir, "reports")}, io.Discard, &runErr)
			check := strings.TrimSuffix(strings.TrimPrefix(checkErr.String(), "campusconf fixtures: "), "\n")
			run := strings.TrimSuffix(strings.TrimPrefix(runErr.String(), "campusconf run: "), "\n")
			if checkCode != exitUsage || runCode != exitUsage {
				t.Errorf("exit: fixtures --check %d, run %d; want %d for both", checkCode, runCode, exitUsage)
			}
			if check != run {
				t.Errorf("fixtures --check and run disagree:\ncheck %s\nrun   %s", check, run)
			}
			if check != want {
				t.Errorf("message:\ngot  %s\nwant %s", check, want)
			}
		})
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the target got %d requests, want none", n)
	}
}

// TestFixturesCheckOTP: a fixed one-time password stands in for a TOTP
// secret, as docs/fixtures.md says; a file with neither lacks the pair.
func TestFixturesCheckOTP(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		want, wantNot string
	}{
		{"otp", `{"version": 1, "secondFactor": {"userid": "u", "otp": "123456"}}`, "a valid version 1 fixture file", "secondFactor.totpSecret"},
		{"totpSecret", `{"version": 1, "secondFactor": {"userid": "u", "totpSecret": "JBSWY3DPEHPK3PXP"}}`, "a valid version 1 fixture file", "secondFactor.otp"},
		{"neither", `{"version": 1, "secondFactor": {"userid": "u"}}`, "  secondFactor.totpSecret (or secondFactor.otp)\n", "secondFactor.userid"},
	}
	for _, tt := range tests {
		file := writeFile(t, dir, tt.name+".json", tt.content)
		var out, errOut bytes.Buffer
		code := dispatch([]string{"fixtures", "--check", file}, &out, &errOut)
		if code != exitOK || !strings.Contains(out.String(), tt.want) || strings.Contains(out.String(), tt.wantNot) {
			t.Errorf("%s: fixtures --check: exit %d, output:\n%s%s\nwant exit 0, containing %q and not %q", tt.name, code, out.String(), errOut.String(), tt.want, tt.wantNot)
		}
	}
}

// TestOperationFlagsNameTheFlag: the other flags that name an operation
// refuse an unknown one naming the flag, with a suggestion.
func TestOperationFlagsNameTheFlag(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string // how the message starts and ends
		end  string
	}{
		{"serve --fault-op", func() error {
			_, err := parseServe([]string{"--fault-op", "e10", "--fault-rate", "1"}, io.Discard)
			return err
		}, "--fault-op: ", `got "e10"; did you mean "E10"?`},
		{"serve --fault-rate", func() error {
			_, err := parseServe([]string{"--fault-op", "E10", "--fault-rate", "3"}, io.Discard)
			return err
		}, "--fault-rate: ", "got 3"},
		{"load --op", func() error {
			return loadOptions{op: "e10", duration: 1, concurrency: 1, timeout: 1, scale: 1}.check(nil)
		}, "--op: ", `got "e10"; did you mean "E10"?`},
	}
	for _, tt := range tests {
		err := tt.err()
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.HasSuffix(err.Error(), tt.end) {
			t.Errorf("%s: error %v, want one starting %q and ending %q", tt.name, err, tt.want, tt.end)
		}
	}
}

// TestWritableDirLeavesNoTrace: probing a directory that does not exist
// yet removes what it made.
func TestWritableDirLeavesNoTrace(t *testing.T) {
	dir := t.TempDir()
	if err := writableDir(filepath.Join(dir, "a", "b", "c")); err != nil {
		t.Fatalf("writableDir: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("writableDir left %d entries in %s, want none", len(entries), dir)
	}
	existing := filepath.Join(dir, "kept")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writableDir(existing); err != nil {
		t.Fatalf("writableDir: %v", err)
	}
	if entries, _ := os.ReadDir(existing); len(entries) != 0 {
		t.Errorf("writableDir left %d entries in %s, want none", len(entries), existing)
	}
	if _, err := os.Stat(existing); err != nil {
		t.Errorf("writableDir removed a directory it did not make: %v", err)
	}
}
