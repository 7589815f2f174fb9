package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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
	for _, name := range []string{"exit-code", "verdict", "diff-exit-code"} {
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
	if upload == nil || upload.With["path"] != "${{ inputs.report-dir }}" || upload.If != "always()" {
		t.Errorf("expected actions/upload-artifact of ${{ inputs.report-dir }}, if: always(), got %+v", upload)
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
}

// stepResult is what one step did.
type stepResult struct {
	code    int
	output  string
	outputs map[string]string
}

func newActionJob(t *testing.T, a actionFile, bin string) *actionJob {
	t.Helper()
	j := &actionJob{t: t, action: a, workspace: t.TempDir(), temp: t.TempDir(), bin: bin}
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
	ctx := map[string]string{
		"github.action_path": actionPath,
		"github.action_ref":  "v9.9.9-test",
		"runner.temp":        j.temp,
	}
	for name, in := range j.action.Inputs {
		ctx["inputs."+name] = in.Default
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
		if s.Run == "" || (skipBuild && strings.HasPrefix(s.Name, "Build")) {
			continue
		}
		if failed && s.If != "always()" {
			continue
		}
		r := j.step(s, ctx)
		results[s.Name] = r
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
	added, _ := os.ReadFile(j.path)
	for _, p := range strings.Fields(string(added)) {
		path = p + string(os.PathListSeparator) + path
	}
	cmd.Env = append(os.Environ(),
		"PATH="+path, "GITHUB_PATH="+j.path, "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+j.summary,
		"RUNNER_TEMP="+j.temp, "GITHUB_ACTION_PATH="+ctx["github.action_path"], "GITHUB_WORKSPACE="+j.workspace)
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
	if run := res["Run the conformance suite"]; run.code != exitOK || run.outputs["exit-code"] != "0" || run.outputs["verdict"] != string(reports.VerdictPartial) {
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

	tests := []struct {
		name      string
		defects   []string
		inputs    map[string]string
		runCode   int
		diffCode  string // the step's diff-exit-code output, "" when no diff ran
		summary   []string
		noSummary []string
	}{
		{
			name: "a regression against the base report", defects: []string{"e7-publish-default-false"},
			inputs:  map[string]string{"base-report": reportDir},
			runCode: exitFailed, diffCode: "1",
			summary: []string{"## ❌ campusconf diff: 1 MUST regression", `**E7.default-publish** (MUST, E7): expected field "publish" true, got false`},
		},
		{
			name: "the failure in the baseline", defects: []string{"e7-publish-default-false"},
			inputs:  map[string]string{"baseline": writeFile(t, t.TempDir(), "b.json", `{"version": 2, "entries": [{"id": "E7.default-publish", "reason": "known"}]}`)},
			runCode: exitOK,
			summary: []string{"### ✅ Baseline gate passed"},
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
			summary: []string{"campusconf wrote no report"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, fixture := serve(tt.defects...)
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
			sum := res["Add the summary, or the diff, to the job summary"]
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
