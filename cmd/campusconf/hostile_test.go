package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/nettest"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator"
)

// hostileFixture is the simulator's fixture (so every scenario has its
// records) with credentials full of characters that encode differently in
// JSON, URLs, HTML and base64.
func hostileFixture(t *testing.T) *fixtures.File {
	t.Helper()
	_, f := newSim(t, simulator.Options{Seed: 1})
	f.SubscriptionKey = "sk/hostile+key&<one>=1"
	i := 0
	for name, u := range f.Users {
		i++
		u.SubscriptionKey = ""
		u.Headers = map[string]string{
			"Authorization": "Bearer tok/" + name + "+&<x>=",
			"X-Campus-User": "user\"" + name + "\"'" + strings.Repeat("z", i),
		}
		f.Users[name] = u
	}
	f.SecondFactor.TOTPSecret = ""
	f.SecondFactor.OTP = "914273"
	return f
}

// echoTarget answers every request 403 with a JSON string quoting the
// request (headers, URL and body) raw and encoded, and echoes every request
// header value in response headers, raw and base64.
func echoTarget(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	var parts []string
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := r.Header.Get(name)
		parts = append(parts, name+": "+v)
		parts = append(parts, redact.Encodings(v)...)
		w.Header().Set("X-Echo-"+name, v)
		w.Header().Set("X-Echo-B64-"+name, base64.StdEncoding.EncodeToString([]byte(v)))
		w.Header().Add("X-Echo-All", v)
	}
	parts = append(parts, r.URL.String(), string(body))
	msg, _ := json.Marshal("forbidden: " + strings.Join(parts, " | "))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write(msg)
}

// runAgainst runs `campusconf run` against h with fixture f and returns the
// exit code and every output: stdout, stderr and each file of the report
// directory.
func runAgainst(t *testing.T, h http.Handler, f *fixtures.File, extra ...string) (int, map[string]string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	return runAt(t, srv.URL, f, t.TempDir(), extra...)
}

func runAt(t *testing.T, url string, f *fixtures.File, dir string, extra ...string) (int, map[string]string) {
	t.Helper()
	fixture := writeFixture(t, f)
	var out, errOut bytes.Buffer
	args := append([]string{"run", "--target", url, "--fixtures", fixture, "--report-dir", dir, "--timeout", "2s"}, extra...)
	code := dispatch(args, &out, &errOut)
	return code, runOutputs(t, dir, &out, &errOut)
}

// runOutputs gathers what a run wrote: its console streams and every file
// of its report directory, by name.
func runOutputs(t *testing.T, dir string, out, errOut *bytes.Buffer) map[string]string {
	t.Helper()
	outputs := map[string]string{"stdout": out.String(), "stderr": errOut.String()}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		outputs[e.Name()] = string(b)
	}
	return outputs
}

// TestRunRedactsWhatTheTargetEchoes: a target that echoes every credential
// back, raw and encoded, in 403 bodies and in response headers leaves no
// credential, in any of those encodings, in any report file or console line.
func TestRunRedactsWhatTheTargetEchoes(t *testing.T) {
	f := hostileFixture(t)
	// past the checks before the suite (which a target refusing every
	// call with 403 stops), to have its echoes in the reports; its
	// answers then show a setup mistake: inconclusive (setup), exit 2
	code, outputs := runAgainst(t, http.HandlerFunc(echoTarget), f, "--no-preflight")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d\n%s", code, exitUsage, outputs["stderr"])
	}
	for _, name := range []string{"report.json", "junit.xml", "report.html", "summary.md"} {
		if outputs[name] == "" {
			t.Fatalf("%s missing or empty", name)
		}
	}
	if !strings.Contains(outputs["report.json"], "X-Echo-") || !strings.Contains(outputs["junit.xml"], "forbidden: ") {
		t.Fatalf("the reports do not quote the echoes: the test would prove nothing")
	}
	for _, s := range f.Secrets() {
		forms := append([]string{s}, redact.Encodings(s)...)
		for name, text := range outputs {
			for _, form := range forms {
				if strings.Contains(text, form) {
					t.Errorf("%s contains the secret %.6s… in the form %.12s…", name, s, form)
				}
			}
		}
	}
}

// TestRunBudgetCoversEverything: against a target that hangs, from the
// probe on or after it, a 1 s budget ends the run, report writing
// included, within a fixed margin, and the reports say why.
func TestRunBudgetCoversEverything(t *testing.T) {
	tests := []struct {
		name     string
		answered int64 // requests answered before the target hangs
		code     int
		check    func(t *testing.T, r reports.Report, outputs map[string]string)
	}{
		{"probe hangs", 0, exitUnreachable, func(t *testing.T, r reports.Report, outputs map[string]string) {
			if r.VerdictCause != reports.InconclusiveUnreachable || !strings.Contains(r.Reason, "budget") {
				t.Errorf("report.json: expected %q naming the budget, got %q: %s", reports.InconclusiveUnreachable, reports.Word(r.Verdict, r.VerdictCause), r.Reason)
			}
		}},
		{"suite hangs", 1, exitFailed, func(t *testing.T, r reports.Report, outputs map[string]string) {
			if !r.Interrupted {
				t.Errorf("report.json: expected interrupted true, got false")
			}
			if !strings.Contains(outputs["summary.md"], "Interrupted") {
				t.Errorf("summary.md: expected it to say the run was interrupted, got:\n%s", outputs["summary.md"])
			}
			if !strings.Contains(outputs["stderr"], "interrupted by the --budget") {
				t.Errorf("stderr: expected it to name the budget, got:\n%s", outputs["stderr"])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int64
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) <= tt.answered {
					w.WriteHeader(http.StatusNotFound)
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				<-r.Context().Done()
			})
			// the margin is loose for -race; without it a run takes about 1.5 s,
			// and without the budget covering the probe, a minute
			const budget, margin = time.Second, 10 * time.Second
			start := time.Now()
			code, outputs := runAgainst(t, h, hostileFixture(t), "--budget", budget.String(), "--timeout", "1m")
			if took := time.Since(start); took > budget+margin {
				t.Errorf("expected the run to end within %s + %s, took %s", budget, margin, took)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, outputs["stderr"])
			}
			var r reports.Report
			if err := json.Unmarshal([]byte(outputs["report.json"]), &r); err != nil {
				t.Fatalf("report.json: %v", err)
			}
			tt.check(t, r, outputs)
		})
	}
}

// TestRunTargetClosedMidRun: a target (the simulator) that goes away
// mid-run is an error of the run, not a failure of the implementation: the
// run stops (exit 3), every report says since when and how many
// scenarios errored, and no requirement is failed.
func TestRunTargetClosedMidRun(t *testing.T) {
	sim, fx := newSim(t, simulator.Options{Seed: 1})
	var calls atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 60 {
			go srv.CloseClientConnections()
			go func() { _ = srv.Listener.Close() }() // the point: the target goes away mid-run
		}
		sim.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, outputs := runAt(t, srv.URL, fx, dir)
	if code != exitUnreachable {
		t.Errorf("exit %d, want %d\n%s", code, exitUnreachable, outputs["stderr"])
	}
	r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.VerdictCause != reports.InconclusiveStopped || r.Stopped == nil || r.Counts.Errored == 0 {
		t.Fatalf("expected verdict inconclusive (%s) with stopped set and errored scenarios, got %q, stopped %v, %d errored", reports.InconclusiveStopped, reports.Word(r.Verdict, r.VerdictCause), r.Stopped, r.Counts.Errored)
	}
	if r.Counts.Failed > 0 {
		t.Errorf("expected no failed scenario (a dead target fails no requirement), got %d: %s", r.Counts.Failed, firstFailed(r))
	}
	if r.Counts.Passed == 0 || r.Counts.Passed+r.Counts.Errored+r.Counts.Skipped != r.Counts.Scenarios {
		t.Errorf("expected passed, errored and not-finished scenarios only, got %+v", r.Counts)
	}
	headline := reports.Headline(r)
	if !strings.HasPrefix(headline, "Inconclusive (target stopped answering): the target stopped answering after") {
		t.Errorf("headline: expected the stop, got %q", headline)
	}
	for file, want := range map[string]string{
		"stdout":      headline,
		"stderr":      "campusconf run: the target stopped answering (",
		"summary.md":  "## ⛔ Inconclusive (target stopped answering)",
		"junit.xml":   `<testcase name="target answering" classname="campusconf"`,
		"report.html": `<b id="stopped">Stopped:</b>`,
	} {
		if !strings.Contains(outputs[file], want) {
			t.Errorf("%s: expected %q in:\n%s", file, want, tail(outputs[file], 30))
		}
	}
	for _, f := range reports.ReportFiles {
		if outputs[f.Name] == "" {
			t.Errorf("%s missing", f.Name)
		}
	}
}

// firstFailed describes the first failed scenario of r.
func firstFailed(r *reports.Report) string {
	for _, s := range r.Scenarios {
		if s.Outcome == reports.Failed && s.Failure != nil {
			return s.ID + ": " + s.Failure.Message
		}
	}
	return "(none)"
}

// hostileText has what breaks each format: NUL, ESC sequences, a bare
// carriage return, DEL, C1 and bidi controls, invalid UTF-8, a CDATA end,
// XML-invalid code points, and markup.
const hostileText = "nul\x00 esc\x1b[2J\x1b[31m cr\rdel\x7f c1\u0085 bidi\u202e bad\xff\xfe ]]> \uFFFE <script>alert(1)</script> **bold** |pipe|"

// hostileHeader is what of hostileText a Go client accepts in a header:
// it refuses control characters there.
const hostileHeader = "bidi\u202e bad\xff\xfe c1\u0085 <script>alert(2)</script>"

// controlTarget answers 403 with bodies and headers full of hostileText,
// written on the raw connection so that no server library cleans them.
func controlTarget(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<16))
	body := `"` + hostileText + `"`
	if strings.Contains(r.URL.Path, "a") {
		body = hostileText // not even JSON
	}
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer func() { _ = conn.Close() }() // a hostile target: nothing to do about a failed close
	_, _ = fmt.Fprintf(buf, "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nX-Hostile: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		hostileHeader, len(body), body)
	_ = buf.Flush()
}

// TestRunMakesTargetTextSafe: bytes from the target come out valid UTF-8
// in every file, well-formed XML in junit.xml, escaped in report.html, and
// with every control character visible in summary.md and on the console.
func TestRunMakesTargetTextSafe(t *testing.T) {
	// past the checks before the suite, as above: inconclusive (setup)
	code, outputs := runAgainst(t, http.HandlerFunc(controlTarget), hostileFixture(t), "--no-preflight")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d\n%s", code, exitUsage, outputs["stderr"])
	}
	if !strings.Contains(outputs["report.json"], `alert(1)`) {
		t.Fatalf("report.json does not quote the target: the test would prove nothing")
	}
	for name, text := range outputs {
		if !utf8.ValidString(text) {
			t.Errorf("%s: expected valid UTF-8, got invalid bytes", name)
		}
	}
	if !json.Valid([]byte(outputs["report.json"])) {
		t.Errorf("report.json is not valid JSON")
	}
	dec := xml.NewDecoder(strings.NewReader(outputs["junit.xml"]))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Errorf("junit.xml: expected well-formed XML, got %v", err)
			break
		}
	}
	if strings.Contains(outputs["report.html"], "<script>alert") {
		t.Errorf("report.html carries the target's markup unescaped")
	}
	for _, name := range []string{"summary.md", "stdout", "stderr"} {
		if i := strings.IndexFunc(outputs[name], func(r rune) bool { return r != '\n' && r != '\t' && unicode.IsControl(r) || r == '\u202e' }); i >= 0 {
			t.Errorf("%s: expected no raw control character, got %q at byte %d", name, outputs[name][i:min(i+8, len(outputs[name]))], i)
		}
	}
	if !strings.Contains(outputs["summary.md"], `\\x1b`) {
		t.Errorf("summary.md: expected the ESC written visibly as \\x1b, got:\n%s", outputs["summary.md"])
	}
}

// TestRunMemoryAndTimeAgainstTheWorstTarget runs the whole suite, report
// writing included, against nettest.WorstTarget and samples the heap: it must stay
// under 256 MiB, and the run end in a minute.
func TestRunMemoryAndTimeAgainstTheWorstTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole run against a hostile target; not under -short")
	}
	nettest.GzipBomb() // made before the heap is sampled
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	code, outputs := runAgainst(t, http.HandlerFunc(nettest.WorstTarget), hostileFixture(t))
	took := time.Since(start)
	close(stop)
	<-sampled
	const maxHeap, maxTime = 256 << 20, time.Minute
	var r reports.Report
	if err := json.Unmarshal([]byte(outputs["report.json"]), &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	t.Logf("worst target: %d scenarios in %s, heap in use peaked at %.1f MiB, report.json %d KiB",
		r.Counts.Scenarios, took.Round(time.Millisecond), float64(peak.Load())/(1<<20), len(outputs["report.json"])>>10)
	if code != exitFailed {
		t.Errorf("exit %d, want %d\n%s", code, exitFailed, outputs["stderr"])
	}
	if p := peak.Load(); p > maxHeap {
		t.Errorf("expected the heap in use under %d MiB, got %d MiB", maxHeap>>20, p>>20)
	}
	if took > maxTime {
		t.Errorf("expected the run to end within %s, took %s", maxTime, took)
	}
}

// TestRunInterruptedBySignal: a run whose context ends (as SIGINT or
// SIGTERM end it in runCmd) writes whole reports marked interrupted.
func TestRunInterruptedBySignal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusNotFound) // the probe
			return
		}
		cancel() // the "signal" arrives during the first exchange
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer srv.Close()
	fixture := writeFixture(t, hostileFixture(t))
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	o := runOptions{target: srv.URL, fixtureFile: fixture, reportDir: dir, concurrency: 1, timeout: time.Minute}
	if code := runSuite(ctx, o, &out, &errOut); code != exitFailed {
		t.Errorf("exit %d, want %d\n%s", code, exitFailed, errOut.String())
	}
	r, err := reports.ReadJSON(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Verdict == reports.VerdictConformant {
		t.Errorf("report.json: expected interrupted and not conformant, got interrupted=%v, %q", r.Interrupted, r.Verdict)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	if !strings.Contains(string(md), "Interrupted") {
		t.Errorf("summary.md: expected it to say interrupted, got:\n%s", md)
	}
	if !strings.Contains(errOut.String(), "interrupted by a signal") {
		t.Errorf("stderr: expected %q, got:\n%s", "interrupted by a signal", errOut.String())
	}
}
