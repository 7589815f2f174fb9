package faithful

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/simrun"
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
	"github.com/campusconf/campusconf/steps"
)

// rateLimitLatency is the simulator's latency in the rate-limit test: a
// target answering at once makes any wait look long beside it, where a
// deployment answers in milliseconds.
const rateLimitLatency = 30 * time.Millisecond

// TestRateLimitedRun runs the whole suite at the default concurrency
// against the simulator with and without the rate-limit variant (429 with
// Retry-After past variants.RateLimitPerSecond): with the limit, no
// scenario may fail or err, and the run, besides the waits the target
// asks for, may take at most three times as long as without it (issue
// 38). Both runs take a few seconds, so the
// short run is the whole run too: a part of the suite would not reach the
// limit.
func TestRateLimitedRun(t *testing.T) {
	const tags = ""
	took := map[bool]time.Duration{}
	var limited *reports.Report
	for _, limit := range []bool{false, true} {
		opts := simulator.Options{Latency: simulator.Latency{Min: rateLimitLatency}}
		if limit {
			opts.Variants = []string{string(variants.RateLimit)}
		}
		cfg, err := simrun.Simulator(steps.Config{Concurrency: steps.DefaultConcurrency, Tags: tags, PollInterval: time.Millisecond}, opts)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		r, err := suiterun.Run(t.Context(), cfg, suiterun.Generation{})
		took[limit] = time.Since(start)
		if err != nil {
			t.Fatalf("rate limit %v: %v", limit, err)
		}
		if limit {
			limited = r
		}
	}
	c := limited.Counts
	var bad []string
	for _, sc := range limited.Scenarios {
		if sc.Outcome == reports.Failed || sc.Outcome == reports.Error {
			msg := ""
			if sc.Failure != nil {
				msg = firstLine(sc.Failure.Message)
			}
			bad = append(bad, fmt.Sprintf("  %s: %s: %s", sc.ID, sc.Outcome, msg))
		}
	}
	if len(bad) > 0 {
		t.Errorf("rate-limit variant: expected no failed and no errored scenario, got %d failed and %d errored:\n%s\nreproduce: go run ./cmd/campusconf serve --variant rate-limit, then campusconf run --target http://127.0.0.1:8080 --fixtures (its fixture)",
			c.Failed, c.Errored, strings.Join(bad, "\n"))
	}
	if limited.RateLimits == nil || limited.RateLimits.Answers == 0 {
		t.Errorf("rate-limit variant: expected rate-limited answers in the report's rateLimits, got %+v", limited.RateLimits)
	}
	// the waits the target asks for (Retry-After, a second each here) are
	// its pace, not the runner's: what is held to three times the run
	// without the limit is the rest
	var waited time.Duration
	if limited.RateLimits != nil {
		waited = time.Duration(limited.RateLimits.Waited)
	}
	ratio := float64(took[true]-waited) / float64(took[false])
	t.Logf("%d scenarios at %s of latency: %s without the limit, %s with it, %s of it waiting as the target asked (%.1fx besides the waits); %v",
		c.Scenarios, rateLimitLatency, took[false].Round(time.Millisecond), took[true].Round(time.Millisecond), waited.Round(time.Millisecond), ratio, limited.RateLimits)
	if ratio > 3 {
		t.Errorf("rate-limit variant: expected the run, besides the %s of waits the target asked for, to take at most 3 times as long as without the limit (%s), got %s (%.1fx)", waited.Round(time.Millisecond), took[false].Round(time.Millisecond), took[true].Round(time.Millisecond), ratio)
	}
}

// TestPollWindowRunsOut: a push still pending when the poll window runs
// out (push-pending-for keeps it pending 3 s; the window here is 1 s)
// makes its scenarios unobservable, never failed.
func TestPollWindowRunsOut(t *testing.T) {
	opts := simulator.Options{Variants: []string{string(variants.PushPendingFor)}}
	cfg, err := simrun.Simulator(steps.Config{Tags: "@E2.approve,@E2.deny", PollInterval: 50 * time.Millisecond, PollWindow: time.Second}, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := suiterun.Run(t.Context(), cfg, suiterun.Generation{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Scenarios) != 2 {
		t.Fatalf("expected the 2 scenarios of E2.approve and E2.deny, got %d", len(r.Scenarios))
	}
	for _, sc := range r.Scenarios {
		if sc.Outcome != reports.Skipped || sc.SkipCause != reports.CauseUnobservable || !strings.Contains(sc.SkipReason, "--poll-window") {
			t.Errorf("%s: expected skipped as unobservable naming --poll-window, got %s (%s: %s)", sc.ID, sc.Outcome, sc.SkipCause, sc.SkipReason)
		}
	}
}

// TestNeighbourNamedAsTheRecord: a fixture naming, as the neighbour a
// write must leave alone, the very record the write changes (records.media
// the media E14 deletes) is a setup mistake: the neighbour check of E14
// is skipped for the fixture, naming the key, never failed; NR's, whose
// records are apart, still passes.
func TestNeighbourNamedAsTheRecord(t *testing.T) {
	cfg, err := simrun.Simulator(steps.Config{Tags: "@ALL.neighbours"}, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Fixture.Records.Media = strings.ToUpper(cfg.Fixture.Records.DeletableMedia[1])
	r, err := suiterun.Run(t.Context(), cfg, suiterun.Generation{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sc := range r.Scenarios {
		got[sc.Operation] = fmt.Sprintf("%s %s %s", sc.Outcome, sc.SkipCause, sc.SkipReason)
	}
	want := map[string]string{
		"E14": fmt.Sprintf("%s %s records.media names the record E14 changes, where the check needs another of its kind", reports.Skipped, reports.CauseFixture),
		"NR":  fmt.Sprintf("%s  ", reports.Passed),
	}
	for op, w := range want {
		if got[op] != w {
			t.Errorf("%s's neighbour check with records.media = records.deletableMedia.1: expected %q, got %q", op, w, got[op])
		}
	}
}

// pageMangler rewrites the list answers of the paths ending in suffix:
// with unstable, each answer leaves out another entry, as a page of a
// list whose order is not repeatable would; otherwise an answer to a path
// written in upper case leaves out its first entry.
type pageMangler struct {
	next     http.RoundTripper
	suffix   string
	unstable bool
	calls    atomic.Int64
}

func (m *pageMangler) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := m.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, m.suffix) || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	upper := strings.ToLower(r.URL.Path) != r.URL.Path
	if !m.unstable && !upper {
		return resp, nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var entries []json.RawMessage
	if json.Unmarshal(body, &entries) == nil && len(entries) > 1 {
		drop := 0
		if m.unstable {
			drop = int(m.calls.Add(1)) % len(entries)
		}
		body, _ = json.Marshal(slices.Delete(entries, drop, drop+1))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestListsReadAgainWhereTheyDiffer: a list compared with one read in
// another spelling (a path in upper case, ALL.uuid-case; a date-time
// respelled, ALL.date-spelling) is judged only where the saved list reads
// the same when its request is sent again. A page that differs from one
// read to the next leaves the check unobservable, never failed; a list
// that differs only when its path is written in upper case fails it.
func TestListsReadAgainWhereTheyDiffer(t *testing.T) {
	tests := []struct {
		name, tags, suffix string
		unstable           bool
		want               reports.Outcome
		reason, failed     string
	}{
		{"E20 in upper case, a page that differs from read to read", "@ALL.uuid-case && @E20", "/students", true, reports.Skipped, "sent again as it was, answered other entries", ""},
		{"E20 in upper case, a page that differs in upper case only", "@ALL.uuid-case && @E20", "/students", false, reports.Failed, "", "ALL.uuid-case"},
		{"E10 respelled, a page that differs from read to read", "@ALL.date-spelling && @E10", "/downloaded", true, reports.Skipped, "sent again as it was, answered other entries", ""},
	}
	for _, tt := range tests {
		cfg, err := simrun.Simulator(steps.Config{Tags: tt.tags}, simulator.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Client = &http.Client{Transport: &pageMangler{next: cfg.Client.Transport, suffix: tt.suffix, unstable: tt.unstable}}
		r, err := suiterun.Run(t.Context(), cfg, suiterun.Generation{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Scenarios) == 0 {
			t.Fatalf("%s: no scenario matches %s", tt.name, tt.tags)
		}
		for _, sc := range r.Scenarios {
			if sc.Outcome != tt.want || !strings.Contains(sc.SkipReason, tt.reason) {
				t.Errorf("%s: %s: expected %s %q, got %s %q (%v)", tt.name, sc.Name, tt.want, tt.reason, sc.Outcome, sc.SkipReason, sc.Failure)
			}
			if got := strings.Join(reports.FailedRequirements(sc), ","); got != tt.failed {
				t.Errorf("%s: %s: expected %q failed, got %q", tt.name, sc.Name, tt.failed, got)
			}
		}
	}
}
