package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// actionFile is what the tests read of action.yml.
type actionFile struct {
	Inputs map[string]struct {
		Required bool   `yaml:"required"`
		Default  string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

// actionStep is one step of the composite action.
type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	With             map[string]string `yaml:"with"`
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// TestActionRunsTheCLI checks the GitHub Actions composite action at the
// repository root as a file: its inputs and outputs, that it builds from
// its own source with the Go its go.mod names, that no expression is
// written into a script (inputs reach the scripts through env only), that
// the flags it passes are flags of run, and that it uploads the report
// directory.
func TestActionRunsTheCLI(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using: expected composite, got %q", a.Runs.Using)
	}
	for name, required := range map[string]bool{"target": true, "fixtures": true, "baseline": false, "strict": false, "base-report": false, "report-dir": false, "args": false, "attest": false} {
		in, ok := a.Inputs[name]
		if !ok || in.Required != required {
			t.Errorf("input %s: expected it declared, required %v; got declared %v, required %v", name, required, ok, in.Required)
		}
	}
	for name, def := range map[string]string{"wait": "", "artifact-name": "conformance-report", "comment": "false"} {
		if in, ok := a.Inputs[name]; !ok || in.Default != def {
			t.Errorf("input %s: expected it declared with default %q, got declared %v, %q", name, def, ok, in.Default)
		}
	}
	for _, name := range []string{"exit-code", "diff-exit-code", "verdict", "failed-must", "report-dir"} {
		if _, ok := a.Outputs[name]; !ok {
			t.Errorf("output %s: expected it declared", name)
		}
	}
	var setupGo, upload, attest *actionStep
	for i, s := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setupGo = &a.Runs.Steps[i]
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			upload = &a.Runs.Steps[i]
		case strings.HasPrefix(s.Uses, "actions/attest-build-provenance@"):
			attest = &a.Runs.Steps[i]
		}
		if m := expression.FindString(s.Run); m != "" {
			t.Errorf("step %q: expected no expression in its script (pass it through env), got %s", s.Name, m)
		}
	}
	if setupGo == nil || setupGo.With["go-version-file"] != "${{ github.action_path }}/go.mod" {
		t.Errorf("expected actions/setup-go with go-version-file ${{ github.action_path }}/go.mod, got %+v", setupGo)
	}
	if upload == nil || upload.With["path"] != "${{ inputs.report-dir }}" || upload.With["name"] != "${{ inputs.artifact-name }}" || upload.If != "always()" {
		t.Errorf("expected actions/upload-artifact of ${{ inputs.report-dir }} named ${{ inputs.artifact-name }}, if: always(), got %+v", upload)
	}
	if setupGo != nil && setupGo.If != "steps.release.outputs.installed != 'true'" {
		t.Errorf("actions/setup-go: expected it only when no release binary was installed, got if: %q", setupGo.If)
	}
	// the conformance report attested when asked, whatever the verdict
	if attest == nil || attest.With["subject-path"] != "${{ inputs.report-dir }}/conformance-report.yaml" ||
		!strings.Contains(attest.If, "inputs.attest == 'true'") || !strings.Contains(attest.If, "!cancelled()") || a.Inputs["attest"].Default != "false" {
		t.Errorf("expected actions/attest-build-provenance of ${{ inputs.report-dir }}/conformance-report.yaml when input attest is true (default false), run or not conformant, got %+v", attest)
	}
	// the flags it passes are flags of run
	var out, errOut strings.Builder
	dispatch([]string{"run", "--help"}, &out, &errOut)
	help := out.String() + errOut.String()
	for _, flag := range []string{"-target", "-fixtures", "-report-dir", "-baseline", "-strict"} {
		if !strings.Contains(help, "  "+flag+" ") && !strings.Contains(help, "  "+flag+"\n") {
			t.Errorf("action.yml passes %s, which campusconf run --help does not list:\n%s", flag, help)
		}
	}
}

// actionJob runs the action's steps as a runner would, on this machine:
// each script with bash, its env expanded from the inputs and contexts,
// $GITHUB_PATH, $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY as files, steps
// after a failed one only when they say if: always(). Steps that use
// another action (setup-go, upload-artifact) are left out: the Go on this
// machine builds, and the report directory is checked instead.
type actionJob struct {
	t         *testing.T
	action    actionFile
	workspace string
	temp      string
	summary   string
	path      string
	bin       string // where a build step already put campusconf, shared by jobs
	ref       string // github.action_ref, v9.9.9-test unless set
	releases  string // CAMPUSCONF_RELEASES_URL, the release server download.sh asks
	event     string // github.event_name
	extraPath string // put first on the PATH (a fake gh)
}

// stepResult is what one step did.
type stepResult struct {
	code    int
	output  string
	outputs map[string]string
}

func newActionJob(t *testing.T, a actionFile, bin string) *actionJob {
	t.Helper()
	// no release server by default: download.sh falls back to the build
	j := &actionJob{t: t, action: a, workspace: t.TempDir(), temp: t.TempDir(), bin: bin, releases: "http://127.0.0.1:1"}
	j.summary = filepath.Join(j.temp, "step-summary.md")
	j.path = filepath.Join(j.temp, "path")
	for _, f := range []string{j.summary, j.path} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return j
}

// run runs every step with the given inputs (defaults for the rest) and
// returns each step's result by name; skipBuild leaves the build step out
// and puts j.bin on the PATH instead.
func (j *actionJob) run(inputs map[string]string, skipBuild bool) map[string]stepResult {
	t := j.t
	t.Helper()
	actionPath, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ref := j.ref
	if ref == "" {
		ref = "v9.9.9-test"
	}
	ctx := map[string]string{
		"github.action_path":               actionPath,
		"github.action_ref":                ref,
		"github.token":                     "test-token",
		"github.event_name":                j.event,
		"github.event.pull_request.number": "",
		"runner.temp":                      j.temp,
	}
	if j.event == "pull_request" {
		ctx["github.event.pull_request.number"] = "41"
	}
	for name, in := range j.action.Inputs {
		ctx["inputs."+name] = in.Default
		if in.Default == "${{ github.token }}" {
			ctx["inputs."+name] = ctx["github.token"]
		}
	}
	for k, v := range inputs {
		if _, ok := ctx["inputs."+k]; !ok {
			t.Fatalf("input %s: not declared in action.yml", k)
		}
		ctx["inputs."+k] = v
	}
	if skipBuild {
		if err := os.WriteFile(j.path, []byte(j.bin+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	results := map[string]stepResult{}
	failed := false
	for _, s := range j.action.Runs.Steps {
		if s.Run == "" || (skipBuild && (strings.HasPrefix(s.Name, "Build") || strings.HasPrefix(s.Name, "Download"))) {
			continue
		}
		if failed && !strings.HasPrefix(s.If, "always()") {
			continue
		}
		if strings.Contains(s.If, "github.event_name == 'pull_request'") && j.event != "pull_request" ||
			strings.Contains(s.If, "inputs.comment == 'true'") && ctx["inputs.comment"] != "true" {
			continue
		}
		r := j.step(s, ctx)
		results[s.Name] = r
		for k, v := range r.outputs {
			if s.ID != "" {
				ctx["steps."+s.ID+".outputs."+k] = v
			}
		}
		failed = failed || r.code != 0
	}
	return results
}

func (j *actionJob) step(s actionStep, ctx map[string]string) stepResult {
	t := j.t
	t.Helper()
	expand := func(v string) string {
		return expression.ReplaceAllStringFunc(v, func(m string) string {
			key := expression.FindStringSubmatch(m)[1]
			val, ok := ctx[key]
			if !ok {
				t.Fatalf("step %q: expression %s: not known to the test", s.Name, m)
			}
			return val
		})
	}
	if s.Shell != "bash" {
		t.Fatalf("step %q: expected shell bash, got %q", s.Name, s.Shell)
	}
	script := filepath.Join(j.temp, "step.sh")
	if err := os.WriteFile(script, []byte(s.Run), 0o600); err != nil {
		t.Fatal(err)
	}
	output := filepath.Join(j.temp, "output")
	if err := os.WriteFile(output, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// the runner's command for shell: bash
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = j.workspace
	if s.WorkingDirectory != "" {
		cmd.Dir = expand(s.WorkingDirectory)
	}
	path := os.Getenv("PATH")
	if j.extraPath != "" {
		path = j.extraPath + string(os.PathListSeparator) + path
	}
	added, _ := os.ReadFile(j.path)
	for _, p := range strings.Fields(string(added)) {
		path = p + string(os.PathListSeparator) + path
	}
	cmd.Env = append(os.Environ(),
		"PATH="+path, "GITHUB_PATH="+j.path, "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+j.summary,
		"RUNNER_TEMP="+j.temp, "GITHUB_ACTION_PATH="+ctx["github.action_path"], "GITHUB_WORKSPACE="+j.workspace,
		"GITHUB_REPOSITORY=campusconf/example", "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "CAMPUSCONF_RELEASES_URL="+j.releases)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+expand(v))
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("step %q: %v", s.Name, err)
	}
	outputs := map[string]string{}
	data, err := os.ReadFile(output)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	return stepResult{code: code, output: string(out), outputs: outputs}
}

// TestActionScripts runs the action's scripts locally: the build from the
// action's source with the version stamped, then jobs against a served
// simulator, clean and with a defect: the run's exit code, the summary or
// the diff appended to a fake $GITHUB_STEP_SUMMARY, the baseline, strict
// and base-report inputs, and the report directory the upload step takes.
func TestActionScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the action's scripts build campusconf and run the suite; plain go test runs them")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the action's scripts")
	}
	a := readAction(t)
	serve := func(defects ...string) (url, fixture string) {
		t.Helper()
		sim, srv := serveSim(t, simulator.Options{Seed: 3, Defects: defects})
		return srv.URL, writeFixture(t, sim.Fixtures())
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// a clean job builds campusconf, stamped with the action's ref
	clean := newActionJob(t, a, "")
	url, fixture := serve()
	res := clean.run(map[string]string{"target": url, "fixtures": fixture, "strict": "true", "args": "--tags @E7 --quiet"}, false)
	build := res["Build campusconf from the action's source"]
	if build.code != 0 || !strings.Contains(build.output, "campusconf v9.9.9-test (commit ") {
		t.Fatalf("build step: expected exit 0 and the stamped version, got %d:\n%s", build.code, build.output)
	}
	bin := strings.TrimSpace(read(clean.path))
	if run := res["Run the conformance suite"]; run.code != exitOK || run.outputs["exit-code"] != "0" {
		t.Fatalf("clean run: expected exit 0 and output exit-code=0, got %d, %v:\n%s", run.code, run.outputs, run.output)
	}
	reportDir := filepath.Join(clean.workspace, "conformance-report")
	base, err := reports.ReadJSON(filepath.Join(reportDir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if base.Tool.Version != "v9.9.9-test" || base.Tool.Commit == "" {
		t.Errorf("report.json of the action's build: expected version v9.9.9-test and a commit, got %+v", base.Tool)
	}
	for _, f := range reports.ReportFiles {
		if _, err := os.Stat(filepath.Join(reportDir, f.Name)); err != nil {
			t.Errorf("the report directory the upload step takes: expected %s, got %v", f.Name, err)
		}
	}
	if got, want := read(clean.summary), read(filepath.Join(reportDir, "summary.md")); got != want || !strings.Contains(got, "## ◐ Partial") {
		t.Errorf("job summary: expected summary.md of a partial run (tags @E7), got:\n%s", got)
	}
	if dl := res["Download the released binary"]; dl.outputs["installed"] != "false" {
		t.Errorf("download step without a release: expected installed=false, got %v:\n%s", dl.outputs, dl.output)
	}
	wantOut := map[string]string{"verdict": "partial", "failed-must": "0", "failed-must-ids": "", "report-dir": reportDir}
	if got := res[reportStep].outputs; !maps.Equal(got, wantOut) {
		t.Errorf("report step outputs: expected %v, got %v", wantOut, got)
	}

	tests := []struct {
		name      string
		defects   []string
		inputs    map[string]string
		runCode   int
		diffCode  string // the step's diff-exit-code output, "" when no diff ran
		summary   []string
		noSummary []string
		outputs   map[string]string // of the report step, besides report-dir
		log       []string          // in the report step's log (annotations)
		late      time.Duration     // the target comes up this late
	}{
		{
			name: "a regression against the base report", defects: []string{"e7-publish-default-false"},
			inputs:  map[string]string{"base-report": reportDir},
			runCode: exitFailed, diffCode: "1",
			summary: []string{"## ❌ campusconf diff: 1 MUST regression", `**E7.default-publish** (MUST, E7): expected field "publish" true, got false`},
			outputs: map[string]string{"verdict": "not conformant", "failed-must": "1", "failed-must-ids": "E7.default-publish", "diff-exit-code": "1"},
			log:     []string{"::error title=E7.default-publish::MUST E7.default-publish (", `expected field "publish" true, got false`},
		},
		{
			name: "the failure in the baseline", defects: []string{"e7-publish-default-false"},
			inputs:  map[string]string{"baseline": writeFile(t, t.TempDir(), "b.json", `{"version": 2, "entries": [{"id": "E7.default-publish", "reason": "known"}]}`)},
			runCode: exitOK,
			summary: []string{"### ✅ Baseline gate passed"},
			// a run of @E7 alone is partial, also with the failure excused
			outputs: map[string]string{"verdict": "partial", "failed-must": "0", "failed-must-ids": ""},
			log:     []string{"::warning title=E7.default-publish::MUST E7.default-publish (", "(excused by the baseline)"},
		},
		{
			name: "a target that comes up late", late: 2 * time.Second,
			inputs:  map[string]string{"wait": "60s"},
			runCode: exitOK,
			summary: []string{"## ◐ Partial: the run selected scenarios"},
			outputs: map[string]string{"verdict": "partial", "failed-must": "0", "failed-must-ids": ""},
		},
		{
			name:    "a late target without wait",
			late:    time.Hour,
			runCode: exitUnreachable,
			outputs: map[string]string{"verdict": "inconclusive (target unreachable)", "failed-must": "0", "failed-must-ids": ""},
		},
		{
			name: "the failure's baseline entry expired", defects: []string{"e7-publish-default-false"},
			inputs: map[string]string{"base-report": filepath.Join(reportDir, "report.json"),
				"baseline": writeFile(t, t.TempDir(), "b.json", `{"version": 2, "entries": [{"id": "E7.default-publish", "reason": "known", "expires": "2026-01-31"}]}`)},
			runCode: exitFailed, diffCode: "1",
			summary: []string{"### Expired baseline entries in head (1)", "**E7.default-publish** (expired 2026-01-31, still fails): known"},
		},
		{
			name:    "a base report not there yet",
			inputs:  map[string]string{"base-report": filepath.Join(t.TempDir(), "absent", "report.json")},
			runCode: exitOK,
			summary: []string{"## ◐ Partial"}, noSummary: []string{"campusconf diff"},
		},
		{
			name:    "strict neither true nor false",
			inputs:  map[string]string{"strict": "yes"},
			runCode: exitUsage,
			summary: []string{"campusconf wrote no readable report"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, fixture := serve(tt.defects...)
			if tt.late > 0 {
				url = serveLate(t, url, tt.late)
			}
			j := newActionJob(t, a, bin)
			inputs := map[string]string{"target": url, "fixtures": fixture, "args": "--tags @E7 --quiet"}
			for k, v := range tt.inputs {
				inputs[k] = v
			}
			res := j.run(inputs, true)
			run := res["Run the conformance suite"]
			if run.code != tt.runCode || run.outputs["exit-code"] != strconv.Itoa(tt.runCode) {
				t.Errorf("run step: expected exit %d (output exit-code), got %d, %v:\n%s", tt.runCode, run.code, run.outputs, run.output)
			}
			sum := res[reportStep]
			for k, v := range tt.outputs {
				if got := sum.outputs[k]; got != v {
					t.Errorf("report step: expected output %s=%q, got %q (all: %v)", k, v, got, sum.outputs)
				}
			}
			for _, l := range tt.log {
				if !strings.Contains(sum.output, l) {
					t.Errorf("report step's log: expected %q, got:\n%s", l, sum.output)
				}
			}
			if got := sum.outputs["diff-exit-code"]; got != tt.diffCode {
				t.Errorf("summary step: expected diff-exit-code %q, got %q (exit %d):\n%s", tt.diffCode, got, sum.code, sum.output)
			}
			if tt.diffCode != "" && tt.diffCode != strconv.Itoa(sum.code) {
				t.Errorf("summary step: expected it to exit with the diff's code %s, got %d", tt.diffCode, sum.code)
			}
			got := read(j.summary)
			for _, s := range tt.summary {
				if !strings.Contains(got, s) {
					t.Errorf("job summary: expected %q, got:\n%s", s, got)
				}
			}
			for _, s := range tt.noSummary {
				if strings.Contains(got, s) {
					t.Errorf("job summary: expected no %q, got:\n%s", s, got)
				}
			}
		})
	}
	// the binary the action built reports what it was stamped with
	out, err := exec.Command(filepath.Join(bin, "campusconf"), "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || v["version"] != "v9.9.9-test" {
		t.Errorf("campusconf version --json of the action's build: expected version v9.9.9-test, got %s (%v)", out, err)
	}
}

// reportStep is the name of the action's step that writes its outputs,
// annotations and job summary.
const reportStep = "Outputs, annotations and the job summary"

// serveLate returns the URL of a port on which target is forwarded only
// after delay: until then nothing listens there (connection refused), as
// with a service container still starting.
func serveLate(t *testing.T, target string, delay time.Duration) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Addr: addr, Handler: httputil.NewSingleHostReverseProxy(u), ReadHeaderTimeout: 5 * time.Second}
	timer := time.AfterFunc(delay, func() { _ = srv.ListenAndServe() })
	t.Cleanup(func() {
		timer.Stop()
		_ = srv.Close()
	})
	return "http://" + addr
}

// stepNamed returns the action's step called name.
func stepNamed(t *testing.T, a actionFile, name string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("action.yml: no step %q", name)
	return actionStep{}
}

// TestActionDownloadsTheRelease runs the download step against a fake
// release server: at a release tag it installs the archive's binary after
// checking checksums.txt, refuses an archive whose checksum differs, and
// at a branch or commit asks nothing and leaves the build to the next step.
func TestActionDownloadsTheRelease(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the action's scripts")
	}
	for _, tool := range []string{"curl", "tar", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s for download.sh", tool)
		}
	}
	a := readAction(t)
	// an archive as .goreleaser.yaml names it, holding a stand-in binary
	var archive bytes.Buffer
	gz := gzip.NewWriter(&archive)
	tw := tar.NewWriter(gz)
	script := "#!/bin/sh\necho 'campusconf v1.2.3 (commit 0123456789ab)'\n"
	if err := tw.WriteHeader(&tar.Header{Name: "campusconf", Mode: 0o755, Size: int64(len(script))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(script)); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(archive.Bytes())
	name := "campusconf_1.2.3_linux_amd64.tar.gz"
	checksums := hex.EncodeToString(sum[:]) + "  " + name + "\n"
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		switch r.URL.Path {
		case "/v1.2.3/" + name, "/v6.6.6/" + strings.Replace(name, "1.2.3", "6.6.6", 1):
			_, _ = w.Write(archive.Bytes())
		case "/v1.2.3/checksums.txt":
			_, _ = io.WriteString(w, checksums)
		case "/v6.6.6/checksums.txt":
			_, _ = io.WriteString(w, strings.Repeat("0", 64)+"  "+strings.Replace(name, "1.2.3", "6.6.6", 1)+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	step := stepNamed(t, a, "Download the released binary")
	tests := []struct {
		ref       string
		code      int
		installed string
		log       string
		asked     int
	}{
		{"v1.2.3", 0, "true", "campusconf v1.2.3 (commit 0123456789ab)", 2},
		{"v6.6.6", 1, "", "::error::" + strings.Replace(name, "1.2.3", "6.6.6", 1) + ": checksum", 2},
		{"v7.0.0", 0, "false", "::warning::could not download", 1},
		{"main", 0, "false", "not a release tag: building from source", 0},
		{"0123456789abcdef0123456789abcdef01234567", 0, "false", "not a release tag", 0},
	}
	for _, tt := range tests {
		asked = nil
		j := newActionJob(t, a, "")
		j.ref, j.releases = tt.ref, srv.URL
		ctx := map[string]string{"github.action_ref": tt.ref, "runner.temp": j.temp, "github.action_path": actionDir(t)}
		r := j.step(step, ctx)
		if r.code != tt.code || r.outputs["installed"] != tt.installed || !strings.Contains(r.output, tt.log) || len(asked) != tt.asked {
			t.Errorf("download at %s: expected exit %d, installed=%q, %q in the log and %d requests; got %d, %v, %d requests %v:\n%s",
				tt.ref, tt.code, tt.installed, tt.log, tt.asked, r.code, r.outputs, len(asked), asked, r.output)
		}
		if tt.installed == "true" {
			path, _ := os.ReadFile(j.path)
			if got := strings.TrimSpace(string(path)); got != filepath.Join(j.temp, "campusconf-bin") {
				t.Errorf("download at %s: expected $GITHUB_PATH to gain %s, got %q", tt.ref, filepath.Join(j.temp, "campusconf-bin"), got)
			}
		}
	}
}

// TestActionStickyComment runs the comment step with a fake gh: the first
// run adds a comment, a later one finds it by its marker and edits it.
func TestActionStickyComment(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the action's scripts")
	}
	a := readAction(t)
	step := stepNamed(t, a, "Comment on the pull request")
	if !strings.Contains(step.If, "inputs.comment == 'true'") || !strings.Contains(step.If, "github.event_name == 'pull_request'") || !strings.HasPrefix(step.If, "always()") {
		t.Errorf("comment step: expected it on pull requests when comment is true, whatever the outcome, got if: %q", step.If)
	}
	fake := t.TempDir()
	calls := filepath.Join(fake, "calls")
	// gh api --paginate …/comments --jq … lists the id of a comment
	// starting with the marker when $FAKE_GH_EXISTING is set
	writeFile(t, fake, "gh", `#!/usr/bin/env bash
echo "$*" >> "`+calls+`"
if [ "$3" = "repos/campusconf/example/issues/41/comments" ] && [ -n "${FAKE_GH_EXISTING:-}" ]; then echo 77; fi
`)
	if err := os.Chmod(filepath.Join(fake, "gh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		existing, want string
	}{
		{"", "api --method POST repos/campusconf/example/issues/41/comments -F body=@"},
		{"yes", "api --method PATCH repos/campusconf/example/issues/comments/77 -F body=@"},
	} {
		if err := os.WriteFile(calls, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("FAKE_GH_EXISTING", tt.existing)
		j := newActionJob(t, a, "")
		j.extraPath, j.event = fake, "pull_request"
		dir := filepath.Join(j.workspace, "conformance-report")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, "comment.md", "<!-- campusconf:conformance-report -->\n## ✅ Conformant\n")
		ctx := map[string]string{"github.action_path": actionDir(t), "inputs.report-dir": "conformance-report", "github.event.pull_request.number": "41", "inputs.github-token": "t"}
		r := j.step(step, ctx)
		got, _ := os.ReadFile(calls)
		if r.code != 0 || !strings.Contains(string(got), tt.want) {
			t.Errorf("comment step (existing %q): expected exit 0 and gh %q, got %d, calls:\n%s\nlog:\n%s", tt.existing, tt.want, r.code, got, r.output)
		}
	}
}

// actionDir is the action's directory (github.action_path), absolute.
func actionDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
