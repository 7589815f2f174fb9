package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// stateChangingRoutes are the method and path patterns of every operation
// that changes state, where the registry places it or, for an unplaced
// one, where the fixture f does (fixtures.File.Placement), matched here
// apart from the runner's own guard.
func stateChangingRoutes(f *fixtures.File) map[registry.OpID]*regexp.Regexp {
	out := map[registry.OpID]*regexp.Regexp{}
	param := regexp.MustCompile(`\\\{[^/]*\\\}`)
	for _, o := range registry.All() {
		if !o.ChangesState {
			continue
		}
		method, path, ok := f.Placement(o)
		if !ok {
			continue
		}
		pat := param.ReplaceAllString(regexp.QuoteMeta(path), `[^/]+`)
		out[o.ID] = regexp.MustCompile(`(?i)^` + method + ` ` + pat + `$`)
	}
	return out
}

// TestReadOnlyRunChangesNothing counts the requests a served simulator
// receives during `run --read-only` (with generated requests too): none
// to an operation that changes state, with the unplaced operations where
// the simulator's own fixture places them and where the alt-paths variant
// does; the reports list the requirements left unchecked, and summary.md
// says how many.
func TestReadOnlyRunChangesNothing(t *testing.T) {
	all := [][]string{nil, {"alt-paths"}}
	if testing.Short() {
		all = all[1:] // the unplaced operations elsewhere than the registry's default
	}
	for _, variants := range all {
		t.Run(fmt.Sprint(variants), func(t *testing.T) {
			sim, f := newSim(t, simulator.Options{Seed: 1, Variants: variants})
			routes := stateChangingRoutes(f)
			if len(routes) != 13 {
				t.Fatalf("expected 13 operations that change state placed, got %d: the test would prove less", len(routes))
			}
			var mu sync.Mutex
			var reads, writes []string
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				line := r.Method + " " + r.URL.Path
				mu.Lock()
				hit := false
				for op, re := range routes {
					if re.MatchString(line) {
						writes = append(writes, string(op)+": "+line)
						hit = true
					}
				}
				if !hit {
					reads = append(reads, line)
				}
				mu.Unlock()
				sim.ServeHTTP(w, r)
			})
			dir := t.TempDir()
			srv := httptest.NewServer(h)
			defer srv.Close()
			code, outputs := runAt(t, srv.URL, f, dir, "--read-only", "--generate", "3")
			if code != exitOK {
				t.Errorf("exit %d, want %d\n%s", code, exitOK, tail(outputs["stdout"], 20))
			}
			if len(writes) > 0 {
				t.Errorf("expected no request to an operation that changes state, got %d: %s", len(writes), strings.Join(writes, "; "))
			}
			if len(reads) < 100 {
				t.Errorf("expected the reads sent, got %d requests: the test would prove nothing", len(reads))
			}
			r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if r.Counts.SkippedBy.ReadOnly == 0 || len(r.ReadOnlyUnchecked) == 0 || r.Counts.Failed > 0 {
				t.Errorf("expected scenarios skipped read-only, requirements unchecked and no failure, got %+v and %d unchecked", r.Counts, len(r.ReadOnlyUnchecked))
			}
			want := fmt.Sprintf("**Read-only:** %d scenarios not run, as each would send a request to an operation that changes state; %d requirements left unchecked", r.Counts.SkippedBy.ReadOnly, len(r.ReadOnlyUnchecked))
			if !strings.Contains(outputs["summary.md"], want) {
				t.Errorf("summary.md: expected %q, got:\n%s", want, outputs["summary.md"])
			}
		})
	}
}

// hostileSim serves sim through misbehave, which may answer a request
// itself (true) instead of the simulator.
func hostileSim(sim http.Handler, misbehave func(w http.ResponseWriter, r *http.Request, n int64) bool) http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if misbehave(w, r, n.Add(1)) {
			return
		}
		sim.ServeHTTP(w, r)
	})
}

// reset drops the connection of a request, as a crashing server does.
func reset(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// TestRunAgainstAnUnsteadyTarget: the simulator behind a target that drops
// some connections, or answers past the runner's bound. A read dropped
// once passes on its retry and is flaky; a write dropped is an error, never
// a failure; an answer too long is not judged; the verdict comes from the
// rest, and --strict fails errors and limits (not flaky passes). Every
// format and the exit code give the one verdict.
func TestRunAgainstAnUnsteadyTarget(t *testing.T) {
	tests := []struct {
		name      string
		misbehave func(w http.ResponseWriter, r *http.Request, n int64) bool
		args      []string
		code      int
		headline  string
		check     func(t *testing.T, r *reports.Report)
	}{
		{"reads dropped once", dropFirstReadOfEachPath(), nil, exitOK, "Conformant", func(t *testing.T, r *reports.Report) {
			if r.Counts.Flaky == 0 || r.Counts.Errored > 0 || r.Counts.Failed > 0 {
				t.Errorf("expected flaky passes only, got %+v", r.Counts)
			}
			for _, s := range r.Scenarios {
				if s.Flaky && (s.Retries == 0 || s.Outcome != reports.Passed) {
					t.Errorf("%s: flaky with %d retries and outcome %s", s.ID, s.Retries, s.Outcome)
				}
			}
		}},
		{"reads dropped once, --strict", dropFirstReadOfEachPath(), []string{"--strict"}, exitOK, "Conformant", func(t *testing.T, r *reports.Report) {
			if r.Counts.Flaky == 0 {
				t.Errorf("expected flaky passes (--strict does not count them), got %+v", r.Counts)
			}
		}},
		{"some writes dropped", dropEveryNthWrite(9), nil, exitOK, "Partial: ", func(t *testing.T, r *reports.Report) {
			if r.Counts.Errored == 0 || r.Counts.Failed > 0 || r.Stopped != nil {
				t.Errorf("expected isolated errors, no failure, the run not stopped, got %+v (stopped %v)", r.Counts, r.Stopped)
			}
		}},
		{"some writes dropped, --strict", dropEveryNthWrite(9), []string{"--strict"}, exitFailed, "Not conformant: ", func(t *testing.T, r *reports.Report) {
			if !strings.Contains(r.VerdictReason, "errored (--strict)") {
				t.Errorf("reason: expected it to name the errors and --strict, got %q", r.VerdictReason)
			}
		}},
		{"answers past --max-body", nil, []string{"--max-body", "24KiB"}, exitOK, "Partial", func(t *testing.T, r *reports.Report) {
			if r.Counts.SkippedBy.RunnerLimit == 0 || r.Counts.Failed > 0 {
				t.Errorf("expected skips for the runner's limit and no failure, got %+v", r.Counts)
			}
			for _, s := range r.Scenarios {
				if s.SkipCause == reports.CauseRunnerLimit && !strings.Contains(s.SkipReason, "--max-body raises the bound") {
					t.Errorf("%s: expected the reason to name --max-body, got %q", s.ID, s.SkipReason)
				}
			}
		}},
		{"answers past --max-body, --strict", nil, []string{"--max-body", "24KiB", "--strict"}, exitFailed, "Not conformant: ", nil},
	}
	for i, tt := range tests {
		if testing.Short() && i%2 == 0 {
			continue // under -short, the --strict half: each rule still checked
		}
		t.Run(tt.name, func(t *testing.T) {
			sim, f := newSim(t, simulator.Options{Seed: 1, Scale: 3})
			var h http.Handler = sim
			if tt.misbehave != nil {
				h = hostileSim(sim, tt.misbehave)
			}
			dir := t.TempDir()
			srv := httptest.NewServer(h)
			defer srv.Close()
			args := tt.args
			if testing.Short() {
				// reads and writes of a few operations, E15's long pages among them
				args = append([]string{"--tags", "@E13 or @E14 or @E15 or @E17"}, args...)
			}
			code, outputs := runAt(t, srv.URL, f, dir, args...)
			r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d (%s)", code, tt.code, reports.Headline(r))
			}
			want := tt.headline
			if testing.Short() && strings.HasPrefix(want, "Conformant") {
				want = "Partial: the run selected scenarios" // the tags above
			}
			if h := reports.Headline(r); !strings.HasPrefix(h, want) {
				t.Errorf("headline: expected it to start with %q, got %q", want, h)
			}
			t.Logf("%s; %+v", reports.Headline(r), r.Counts)
			checkOneVerdict(t, r, outputs)
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

// dropFirstReadOfEachPath drops the connection of the first GET of every
// path; the retry gets through.
func dropFirstReadOfEachPath() func(w http.ResponseWriter, r *http.Request, n int64) bool {
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(w http.ResponseWriter, r *http.Request, n int64) bool {
		// no connection is used twice: net/http's client sends a GET again
		// by itself when a reused connection drops it, and the runner would
		// never see the drop (a test without a flaky pass, under load)
		w.Header().Set("Connection", "close")
		if r.Method != http.MethodGet || r.URL.Path == "/" {
			return false
		}
		mu.Lock()
		first := !seen[r.URL.RequestURI()]
		seen[r.URL.RequestURI()] = true
		mu.Unlock()
		if first {
			reset(w)
		}
		return first
	}
}

// dropEveryNthWrite drops the connection of every nth request that is not
// a GET.
func dropEveryNthWrite(n int64) func(w http.ResponseWriter, r *http.Request, _ int64) bool {
	var writes atomic.Int64
	return func(w http.ResponseWriter, r *http.Request, _ int64) bool {
		if r.Method == http.MethodGet || r.URL.Path == "/_campusconf/reset" {
			return false
		}
		if writes.Add(1)%n == 0 {
			reset(w)
			return true
		}
		return false
	}
}

// checkOneVerdict holds every output of a run to one verdict: the
// console's verdict line, summary.md's and report.html's headline and
// junit.xml's headline property all say Headline(r).
func checkOneVerdict(t *testing.T, r *reports.Report, outputs map[string]string) {
	t.Helper()
	h := reports.Headline(r)
	var js map[string]any
	if err := json.Unmarshal([]byte(outputs["report.json"]), &js); err != nil || js["verdictReason"] != nil && js["verdictReason"] != r.VerdictReason {
		t.Errorf("report.json: verdict reason differs or is unreadable (%v)", err)
	}
	// summary.md escapes what it did not write: its heading starts with
	// the verdict word
	word, _, _ := strings.Cut(h, ":")
	for file, want := range map[string]string{
		"stdout":      "\n" + h + " — ",
		"summary.md":  " " + word,
		"report.html": `<div class="verdict-word">` + strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(h) + `</div>`,
		"junit.xml":   `<property name="headline" value="` + strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(h) + `">`,
	} {
		if !strings.Contains(outputs[file], want) {
			t.Errorf("%s: expected the headline %q, got:\n%s", file, h, tail(outputs[file], 12))
		}
	}
}

// TestCredentialsCheck: before any scenario, one read as each fixture
// user; a refused key or token (401) stops the run with exit 2, a line per
// user naming the user and the header, its value redacted, and reports of
// verdict inconclusive (setup); --no-credentials-check (--no-preflight)
// runs the suite anyway, and the run's symptoms make it inconclusive
// (setup) at its end.
func TestCredentialsCheck(t *testing.T) {
	tests := []struct {
		name string
		edit func(f *fixtures.File)
		args []string
		code int
		want string // in stderr
		ran  bool   // scenarios ran (reports written)
	}{
		{"wrong subscription key", func(f *fixtures.File) { f.SubscriptionKey = "0123456789abcdef0123456789abcdef" }, nil, exitUsage,
			`credentials check: the target refused the credentials of fixture user "admin" with 401`, false},
		{"one user's token", func(f *fixtures.File) {
			u := f.Users["staff"]
			u.Headers = map[string]string{"Authorization": "Bearer staff-not-a-token-of-this-world"}
			f.Users["staff"] = u
		}, nil, exitUsage, `fixture user "staff" with 401 (GET http://127.0.0.1`, false},
		{"wrong key, check left out", func(f *fixtures.File) { f.SubscriptionKey = "0123456789abcdef0123456789abcdef" }, []string{"--no-credentials-check", "--tags", "@E9 or @E13"}, exitUsage, "", true},
		{"right credentials", func(*fixtures.File) {}, []string{"--tags", "@E9 or @E13"}, exitOK, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim, f := newSim(t, simulator.Options{Seed: 1})
			tt.edit(f)
			var scenarios atomic.Int64
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				scenarios.Add(1)
				sim.ServeHTTP(w, r)
			})
			dir := t.TempDir()
			srv := httptest.NewServer(h)
			defer srv.Close()
			code, outputs := runAt(t, srv.URL, f, dir, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, outputs["stderr"])
			}
			if !strings.Contains(outputs["stderr"], tt.want) {
				t.Errorf("stderr: expected %q, got:\n%s", tt.want, outputs["stderr"])
			}
			r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if ran := r.Counts.Scenarios > 0; ran != tt.ran {
				t.Errorf("scenarios ran: expected %v, got %v", tt.ran, ran)
			}
			if setup := r.VerdictCause == reports.InconclusiveSetup; setup != (tt.code == exitUsage) {
				t.Errorf("verdict %q (%s): expected inconclusive (setup) exactly for exit 2", reports.Word(r.Verdict, r.VerdictCause), r.VerdictReason)
			}
			checkOneVerdict(t, r, outputs)
			if !tt.ran {
				for _, line := range strings.Split(strings.TrimSpace(outputs["stderr"]), "\n") {
					if !strings.HasPrefix(line, "campusconf run: credentials check: ") {
						t.Errorf("stderr: expected a line per problem, each saying what to fix, got %q", line)
					}
				}
				if !strings.Contains(outputs["stderr"], "Authorization: Bearer <") || !strings.Contains(outputs["stderr"], "Ocp-Apim-Subscription-Key: <SUBSCRIPTION_KEY>") {
					t.Errorf("stderr: expected the headers named with their values redacted, got:\n%s", outputs["stderr"])
				}
				for _, s := range f.Secrets() {
					if strings.Contains(outputs["stderr"]+outputs["stdout"], s) {
						t.Errorf("a secret is printed: %.6s…", s)
					}
				}
			}
		})
	}
}

// TestRecordAlreadyGone: a fixture record the target no longer has (E19's
// poll response answers 404 before the suite) is a fixture problem naming
// the record, the request and the answer: the run stops before any
// scenario, inconclusive (setup), exit 2, with or without --strict.
func TestRecordAlreadyGone(t *testing.T) {
	sim, f := newSim(t, simulator.Options{Seed: 1})
	gone := "/poll/Response/" + f.Records.PollResponse
	h := hostileSim(sim, func(w http.ResponseWriter, r *http.Request, _ int64) bool {
		if r.URL.Path != gone {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`"not found"`))
		return true
	})
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprint("strict=", strict), func(t *testing.T) {
			dir := t.TempDir()
			srv := httptest.NewServer(h)
			defer srv.Close()
			args := []string{"--tags", "@E18 or @E19"}
			if strict {
				args = append(args, "--strict")
			}
			code, outputs := runAt(t, srv.URL, f, dir, args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			want := "record check: fixture record records.pollResponse is gone (GET " + srv.URL + gone + " answered 404): restore it or name another in the fixture"
			if r.VerdictCause != reports.InconclusiveSetup || !slices.Contains(r.Setup, want) || r.Counts.Scenarios != 0 {
				t.Errorf("expected inconclusive (setup) with %q and no scenario run, got %q, %q, %d scenarios", want, reports.Word(r.Verdict, r.VerdictCause), r.Setup, r.Counts.Scenarios)
			}
			if !strings.Contains(outputs["stderr"], want) {
				t.Errorf("stderr: expected %q, got:\n%s", want, outputs["stderr"])
			}
			checkOneVerdict(t, r, outputs)
		})
	}
}

// TestWarnsBeforeUsingRecordsUp: a run whose destructive scenarios will
// change a target whose fixture declares no reset says so before the
// suite, naming what is used up and how to restore it; a reset, or
// --read-only, leaves the warning out.
func TestWarnsBeforeUsingRecordsUp(t *testing.T) {
	tests := []struct {
		name  string
		reset bool
		args  []string
		warn  bool
	}{
		{"no reset", false, []string{"--tags", "@E5 or @E14 or @E21"}, true},
		{"no reset, reads only selected", false, []string{"--tags", "@E10 or @E11"}, false},
		{"no reset, read-only", false, []string{"--read-only", "--tags", "@E5"}, false},
		{"a reset", true, []string{"--tags", "@E5"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim, f := newSim(t, simulator.Options{Seed: 1, SelfReset: tt.reset})
			srv := httptest.NewServer(sim)
			defer srv.Close()
			_, outputs := runAt(t, srv.URL, f, t.TempDir(), tt.args...)
			got := strings.Contains(outputs["stderr"], "warning: ")
			if got != tt.warn {
				t.Fatalf("warning: expected %v, got %v:\n%s", tt.warn, got, outputs["stderr"])
			}
			if !tt.warn {
				return
			}
			for _, want := range []string{"deletes: E5 (records.deletableSlots)", "E14 (records.deletableMedia)", "changes or adds to: ", "E21 (records.lectureSessions)", `give the fixture a "reset" call`, "--read-only"} {
				if !strings.Contains(outputs["stderr"], want) {
					t.Errorf("stderr: expected %q in the warning, got:\n%s", want, outputs["stderr"])
				}
			}
			if i, j := strings.Index(outputs["stderr"], "warning: "), strings.Index(outputs["stdout"], "...."); i < 0 || j < 0 {
				t.Errorf("expected the warning before the suite's progress")
			}
		})
	}
}

// TestOneVerdictWithABaseline: with --baseline, the gate's conclusion is
// the verdict of every format and the exit code, with its reason; with
// --strict, a scenario a limit of the runner kept from judging makes the
// run not conformant in every format too.
func TestOneVerdictWithABaseline(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	if err := reports.WriteBaseline(baseline, reports.Baseline{Entries: []reports.BaselineEntry{{ID: "E7.default-publish", Reason: "the test's known failure"}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		headline string
	}{
		{"known failure", []string{"--defect", "e7-publish-default-false", "--baseline", baseline}, exitOK, "Conformant with warnings except 1 known failure (baseline)"},
		{"a new failure", []string{"--defect", "e7-publish-default-false", "--defect", "notify-read-ignored", "--baseline", baseline}, exitFailed, "Not conformant: 1 failed MUST requirement not in the baseline"},
		{"without the baseline", []string{"--defect", "e7-publish-default-false"}, exitFailed, "Not conformant: 1 failed MUST requirement"},
		// --max-pages 1 cuts every walk of E10: the 3 paging scenarios and
		// the 7 relation scenarios that read the whole list first
		{"--strict and a limit of the runner", []string{"--tags", "@E10", "--strict", "--max-pages", "1"}, exitFailed, "Not conformant: 10 scenarios skipped (--strict)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, outputs := runEmbedded(t, dir, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, outputs["stderr"])
			}
			r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if h := reports.Headline(r); h != tt.headline {
				t.Errorf("headline: expected %q, got %q", tt.headline, h)
			}
			checkOneVerdict(t, r, outputs)
		})
	}
}

// runEmbedded runs `campusconf run` against the embedded simulator with
// args and returns the exit code and every output.
func runEmbedded(t *testing.T, dir string, args ...string) (int, map[string]string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := dispatch(append([]string{"run", "--report-dir", dir}, args...), &out, &errOut)
	return code, runOutputs(t, dir, &out, &errOut)
}
