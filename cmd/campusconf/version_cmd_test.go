package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/version"
	"github.com/campusconf/campusconf/reports"
)

func TestVersionCmd(t *testing.T) {
	v := version.Get()
	want := "campusconf " + v.String() + "\nsuite " + version.Suite + "\nspecification " + version.SpecDigest + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errOut bytes.Buffer
		if code := dispatch(args, &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d, want %d: %s", args, code, exitOK, errOut.String())
		}
		if out.String() != want {
			t.Errorf("%v: expected\n%s\ngot\n%s", args, want, out.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"version", "--json"}, &out, &errOut); code != exitOK {
		t.Fatalf("version --json: exit %d: %s", code, errOut.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("version --json: expected JSON, got %q: %v", out.String(), err)
	}
	if got["suiteVersion"] != version.Suite || got["specDigest"] != version.SpecDigest || got["version"] != v.Version || got["commit"] != v.Commit {
		t.Errorf("version --json: expected the version, commit, suite and digest of version.Get(), got %v", got)
	}
	if code := dispatch([]string{"version", "extra"}, &out, &errOut); code != exitUsage {
		t.Errorf("version extra: expected exit %d, got %d", exitUsage, code)
	}
}

// TestReportsRecordTheVersion: report.json, ctrf.json and the footer of
// report.html of a run name the build, the suite and the specification
// digest that `campusconf version` prints.
func TestReportsRecordTheVersion(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"run", "--quiet", "--tags", "@E7", "--report-dir", dir}, &out, &errOut); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut.String())
	}
	v := version.Get()
	r, err := reports.ReadJSON(filepath.Join(dir, reports.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	want := reports.Tool{Name: "campusconf", Version: v.Version, Commit: v.Commit, Modified: v.Modified, SuiteVersion: version.Suite, SpecDigest: version.SpecDigest}
	if r.Tool != want {
		t.Errorf("report.json tool: expected %+v, got %+v", want, r.Tool)
	}
	data, err := os.ReadFile(filepath.Join(dir, reports.CTRFFile))
	if err != nil {
		t.Fatal(err)
	}
	var ctrf struct {
		Results struct {
			Tool struct {
				Name, Version string
				Extra         map[string]any
			}
		}
	}
	if err := json.Unmarshal(data, &ctrf); err != nil {
		t.Fatal(err)
	}
	tool := ctrf.Results.Tool
	if tool.Version != v.Version || tool.Extra["commit"] != v.Commit || tool.Extra["suiteVersion"] != version.Suite || tool.Extra["specDigest"] != version.SpecDigest {
		t.Errorf("ctrf.json tool: expected version %s, commit %s, suite %s and digest %s, got %+v", v.Version, v.Commit, version.Suite, version.SpecDigest, tool)
	}
	html, err := os.ReadFile(filepath.Join(dir, reports.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	_, footer, _ := strings.Cut(string(html), "<footer>")
	for _, s := range []string{"campusconf " + v.Version, "commit <code>" + v.Commit + "</code>", "suite " + version.Suite, version.SpecDigest} {
		if !strings.Contains(footer, s) {
			t.Errorf("report.html footer: expected %q, got %.400s", s, footer)
		}
	}
}

// stampPkg finds the package a build recipe stamps with -X: "pkg=PATH"
// (the Action's build.sh) or "-X PATH.version=" (the README's recipe).
var stampPkg = regexp.MustCompile(`(?:pkg=|-X )(github\.com/campusconf/campusconf/[a-z/]+?)(?:\.version=|\s|$)`)

// TestBuildRecipesStampTheVersion: a -X flag naming a package that moved
// fails silently (the linker ignores it), so every recipe that stamps the
// version is held to the package that holds it, and a binary built with
// those flags prints the stamped version.
func TestBuildRecipesStampTheVersion(t *testing.T) {
	want := reflect.TypeFor[version.Info]().PkgPath()
	for _, recipe := range []string{"../../action/build.sh", "../../.goreleaser.yaml"} {
		data, err := os.ReadFile(recipe)
		if err != nil {
			t.Fatal(err)
		}
		ms := stampPkg.FindAllStringSubmatch(string(data), -1)
		if len(ms) == 0 {
			t.Errorf("%s: expected a -X flag stamping %s, found none", recipe, want)
		}
		for _, m := range ms {
			if m[1] != want {
				t.Errorf("%s: stamps %s, expected %s (the package holding the version)", recipe, m[1], want)
			}
		}
	}
	if testing.Short() {
		t.Skip("-short: the recipes' package checked; the binary is not built")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build the binary")
	}
	bin := filepath.Join(t.TempDir(), "campusconf")
	flags := "-X " + want + ".version=v9.8.7-stamp -X " + want + ".commit=0123456789abcdef"
	if out, err := exec.Command(goTool, "build", "-ldflags", flags, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -ldflags %q: %v\n%s", flags, err, out)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s version: %v\n%s", bin, err, out)
	}
	if !strings.Contains(string(out), "v9.8.7-stamp") || !strings.Contains(string(out), "0123456789ab") {
		t.Errorf("campusconf version of a binary built with -ldflags %q: expected the stamped version and commit, got %q", flags, out)
	}
}

// TestBuildsNeverSayUnknown: a `go build` of this checkout names its
// revision (and a pseudo-version), and `go run` says plainly that it
// recorded none; neither says "unknown".
func TestBuildsNeverSayUnknown(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary twice")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout (git rev-parse HEAD: %v): the revision cannot be compared", err)
	}
	bin := filepath.Join(t.TempDir(), "campusconf")
	if out, err := exec.Command(goTool, "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	// The go command finds git's data in a directory .git only: a git
	// worktree (where .git is a file) builds as "devel", and says so.
	wantBuild := "(commit " + string(rev[:12])
	if fi, err := os.Stat("../../.git"); err != nil || !fi.IsDir() {
		wantBuild = "campusconf " + version.Devel + " (commit " + version.NotRecorded + ")"
	}
	tests := []struct {
		name string
		cmd  *exec.Cmd
		want string
	}{
		{"go build", exec.Command(bin, "version"), wantBuild},
		{"go run", exec.Command(goTool, "run", ".", "version"), "campusconf " + version.GoRun + " (commit " + version.NotRecorded + ")"},
	}
	for _, tt := range tests {
		out, err := tt.cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.cmd, err, out)
		}
		first, _, _ := strings.Cut(string(out), "\n")
		if !strings.Contains(first, tt.want) || strings.Contains(first, version.Unknown) {
			t.Errorf("%s: expected a first line with %q and no %q, got %q", tt.name, tt.want, version.Unknown, first)
		}
	}
}
