package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
)

func TestFixturesCmd(t *testing.T) {
	var out bytes.Buffer
	if got := fixturesCmd([]string{"--seed", "3", "--base-url", "http://localhost:8080/"}, &out, io.Discard); got != exitOK {
		t.Fatalf("fixtures = %d, want %d", got, exitOK)
	}
	f, err := fixtures.Parse(out.Bytes())
	if err != nil {
		t.Fatalf("output does not parse as a fixture file: %v\n%s", err, out.String())
	}
	if !strings.Contains(f.Description, "seed 3") || !strings.Contains(f.Description, "at http://localhost:8080") {
		t.Errorf("description = %q, want seed 3 and the base URL", f.Description)
	}
	if !strings.HasPrefix(out.String(), "{\n  \"version\": 1") {
		t.Errorf("output is not indented JSON: %.40q", out.String())
	}
	var again bytes.Buffer
	fixturesCmd([]string{"--seed", "3", "--base-url", "http://localhost:8080/"}, &again, io.Discard)
	if !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Error("two runs with the same seed print different fixture files")
	}
}

// TestFixturesCmdControl: --control prints the served simulator's control
// path, which needs its token; a token drawn here would be another one.
func TestFixturesCmdControl(t *testing.T) {
	t.Setenv("CAMPUSCONF_CONTROL_TOKEN", "")
	var out bytes.Buffer
	if got := fixturesCmd([]string{"--control", "--control-token", "tok-0123456789abcdef"}, &out, io.Discard); got != exitOK {
		t.Fatalf("fixtures --control --control-token: expected exit %d, got %d", exitOK, got)
	}
	f, err := fixtures.Parse(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if f.Control != "/_sim/tok-0123456789abcdef" {
		t.Errorf("control: expected /_sim/tok-0123456789abcdef, got %q", f.Control)
	}
	for _, args := range [][]string{{"--control"}, {"--control", "--control-token", "short"}} {
		var stderr bytes.Buffer
		if got := fixturesCmd(args, io.Discard, &stderr); got != exitUsage || stderr.Len() == 0 {
			t.Errorf("fixtures %v: expected exit %d with a message, got %d %q", args, exitUsage, got, stderr.String())
		}
	}
}

func TestFixturesCmdUsage(t *testing.T) {
	for _, args := range [][]string{{"--scale", "0"}, {"--base-url", "localhost"}, {"extra"}, {"--seed", "x"}} {
		var stderr bytes.Buffer
		if got := fixturesCmd(args, io.Discard, &stderr); got != exitUsage {
			t.Errorf("fixtures %v = %d, want %d", args, got, exitUsage)
		}
		if stderr.Len() == 0 {
			t.Errorf("fixtures %v printed no message", args)
		}
	}
}

func TestFixturesCheck(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.json")
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"fixtures", "--seed", "2"}, &out, &errOut); code != exitOK {
		t.Fatalf("fixtures: exit %d: %s", code, errOut.String())
	}
	if err := os.WriteFile(full, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(dir, "partial.json")
	if err := os.WriteFile(partial, []byte(`{"version": 1, "records": {"folder": "e4f66500-027f-4e2e-a998-ab6291775134"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// a file claiming attendance and second-factor lacks only what their
	// scenarios read
	claiming := filepath.Join(dir, "claiming.json")
	if err := os.WriteFile(claiming, []byte(`{"version": 1, "implements": ["attendance", "second-factor"], "subscriptionKey": "k",
		"records": {"attendanceResource": "e4f66500-027f-4e2e-a998-ab6291775134"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"version": 1, "recordz": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file     string
		code     int
		want     string
		wantNot  string
		inStderr bool
	}{
		{full, exitOK, "every key the suite uses", "lacks", false},
		{partial, exitOK, "records.bankFolder (needed by E6)", "records.folder ", false},
		{partial, exitOK, "records.notification.groupId (needed by NG, NR)", "", false},
		{partial, exitOK, "operations.QS", "", false},
		{partial, exitOK, "conventions.sortby", "claims", false},
		{claiming, exitOK, "it claims attendance, second-factor; the scenarios of the other profiles will be unsupported", "records.bankFolder", false},
		{claiming, exitOK, "secondFactor.userid", "operations.QS", false},
		{claiming, exitOK, "users.owner", "conventions.sortby", false},
		{broken, exitUsage, `recordz: unknown key; did you mean "records"?`, "", true},
	}
	for _, tt := range tests {
		out.Reset()
		errOut.Reset()
		code := dispatch([]string{"fixtures", "--check", tt.file}, &out, &errOut)
		text := out.String()
		if tt.inStderr {
			text = errOut.String()
		}
		if code != tt.code || !strings.Contains(text, tt.want) || (tt.wantNot != "" && strings.Contains(text, tt.wantNot)) {
			t.Errorf("fixtures --check %s: exit %d, output:\n%s\nwant exit %d, containing %q and not %q", filepath.Base(tt.file), code, text, tt.code, tt.want, tt.wantNot)
		}
	}
}

// TestFixturesFromTheEnvironment: `fixtures --check` lists each variable a
// fixture reads and whether it is a secret, never its value; an unset one
// stops `fixtures --check` and `run` with exit 2, naming it.
func TestFixturesFromTheEnvironment(t *testing.T) {
	t.Setenv("CAMPUSCONF_TEST_KEY", "key-value-from-env")
	t.Setenv("CAMPUSCONF_TEST_FOLDER", "e4f66500-027f-4e2e-a998-ab6291775134")
	dir := t.TempDir()
	file := filepath.Join(dir, "ci.json")
	if err := os.WriteFile(file, []byte(`{"version": 1, "subscriptionKey": "${CAMPUSCONF_TEST_KEY}",
		"records": {"folder": "${CAMPUSCONF_TEST_FOLDER}"}, "description": "costs $${PRICE}"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	unset := filepath.Join(dir, "unset.json")
	if err := os.WriteFile(unset, []byte(`{"version": 1, "subscriptionKey": "${CAMPUSCONF_TEST_UNSET}"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args     []string
		code     int
		want     []string
		inStderr bool
	}{
		{[]string{"fixtures", "--check", file}, exitOK, []string{
			"it reads 2 environment variable(s), all set:",
			"${CAMPUSCONF_TEST_KEY} in subscriptionKey (line 1), a secret (redacted in every report)",
			"${CAMPUSCONF_TEST_FOLDER} in records.folder (line 2)\n"}, false},
		{[]string{"fixtures", "--check", unset}, exitUsage, []string{"environment variable CAMPUSCONF_TEST_UNSET is not set"}, true},
		{[]string{"run", "--target", "http://127.0.0.1:9", "--fixtures", unset}, exitUsage, []string{"environment variable CAMPUSCONF_TEST_UNSET is not set"}, true},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := dispatch(tt.args, &out, &errOut)
		text := out.String()
		if tt.inStderr {
			text = errOut.String()
		}
		for _, w := range tt.want {
			if code != tt.code || !strings.Contains(text, w) {
				t.Errorf("%v: exit %d, output:\n%s\nwant exit %d, containing %q", tt.args, code, text, tt.code, w)
			}
		}
		if all := out.String() + errOut.String(); strings.Contains(all, "key-value-from-env") {
			t.Errorf("%v: expected no variable's value in the output, got:\n%s", tt.args, all)
		}
	}
}
