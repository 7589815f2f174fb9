package pace

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{"0", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second, true},
		{now.Add(-5 * time.Second).Format(http.TimeFormat), 0, true},
	} {
		h := http.Header{}
		if tc.header != "" {
			h.Set("Retry-After", tc.header)
		}
		got, ok := RetryAfter(h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Retry-After %q: expected (%s, %v), got (%s, %v)", tc.header, tc.want, tc.ok, got, ok)
		}
	}
}

func TestLimited(t *testing.T) {
	ra := http.Header{"Retry-After": {"2"}}
	none := http.Header{}
	for _, tc := range []struct {
		name        string
		status      int
		h           http.Header
		write, doc  bool
		wantWait    time.Duration
		wantLimited bool
	}{
		{"429 read", 429, ra, false, false, 2 * time.Second, true},
		{"429 write without Retry-After", 429, none, true, false, DefaultWait, true},
		{"503 write with Retry-After", 503, ra, true, true, 2 * time.Second, true},
		{"503 write without Retry-After: its own answer", 503, none, true, true, 0, false},
		{"503 read without Retry-After", 503, none, false, false, DefaultWait, true},
		{"503 read that documents 503", 503, none, false, true, 0, false},
		{"200", 200, ra, false, false, 0, false},
	} {
		w, l := Limited(tc.status, tc.h, tc.write, tc.doc, time.Now())
		if w != tc.wantWait || l != tc.wantLimited {
			t.Errorf("%s: expected (%s, %v), got (%s, %v)", tc.name, tc.wantWait, tc.wantLimited, w, l)
		}
	}
}

func TestParseRate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  bool
	}{
		{"", 0, false}, {"0", 0, false}, {"20/s", 20, false}, {"0.5/s", 0.5, false}, {"120/min", 2, false},
		{"20", 0, true}, {"-1/s", 0, true}, {"x/s", 0, true}, {"20/h", 0, true},
	} {
		got, err := ParseRate(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("ParseRate(%q): expected (%v, error %v), got (%v, %v)", tc.in, tc.want, tc.err, got, err)
		}
	}
}

// answer is one answer a fake target gives to Do's try.
type answer struct {
	status int
	header http.Header
}

// TestDo: how Do treats each run of answers: a 429 is waited out as
// Retry-After says and the request sent again, and the figures count it;
// a wait longer than the policy allows ends in ErrWaitsRanOut; a 503
// without Retry-After to a read is sent again once, and the second stands
// (an outage is judged, not waited out for ever); a nil pacer sends once
// and counts nothing.
func TestDo(t *testing.T) {
	for _, tc := range []struct {
		name      string
		nilPacer  bool
		write     bool
		answers   []answer // the last one repeats
		wantCalls int
		wantErr   error
		wantStats Stats // Limited and Requests
		minWait   time.Duration
		maxWait   time.Duration
	}{
		{name: "a 429 with Retry-After 0 is sent again at once", write: true,
			answers:   []answer{{429, http.Header{"Retry-After": {"0"}}}, {200, nil}},
			wantCalls: 2, wantStats: Stats{Limited: 1, Requests: 2}, maxWait: time.Second},
		{name: "a 429 asking for an hour runs the waits out",
			answers:   []answer{{429, http.Header{"Retry-After": {"3600"}}}},
			wantCalls: 1, wantErr: ErrWaitsRanOut, wantStats: Stats{Limited: 1, Requests: 1}, maxWait: time.Second},
		{name: "a plain 503 to a read is sent once more, and stands",
			answers:   []answer{{503, http.Header{}}},
			wantCalls: 2, wantStats: Stats{Limited: 1, Requests: 2}, minWait: DefaultWait},
		{name: "a nil pacer sends once and counts nothing", nilPacer: true,
			answers:   []answer{{429, nil}},
			wantCalls: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Config{})
			if tc.nilPacer {
				p = nil
			}
			calls := 0
			start := time.Now()
			err := p.Do(context.Background(), tc.write, false, func() (int, http.Header, error) {
				a := tc.answers[min(calls, len(tc.answers)-1)]
				calls++
				return a.status, a.header, nil
			})
			took := time.Since(start)
			if calls != tc.wantCalls || !errors.Is(err, tc.wantErr) {
				t.Errorf("expected %d calls and error %v, got %d calls and %v", tc.wantCalls, tc.wantErr, calls, err)
			}
			if got := p.Stats(); got.Limited != tc.wantStats.Limited || got.Requests != tc.wantStats.Requests {
				t.Errorf("expected %d limited answers of %d requests, got %+v", tc.wantStats.Limited, tc.wantStats.Requests, got)
			}
			if took < tc.minWait || (tc.maxWait > 0 && took > tc.maxWait) {
				t.Errorf("expected a wait between %s and %s, took %s", tc.minWait, tc.maxWait, took)
			}
		})
	}
}

// TestRateCaps: 10 requests at 100/s take about 90 ms.
func TestRateCaps(t *testing.T) {
	p := New(Config{Rate: 100})
	var wg sync.WaitGroup
	start := time.Now()
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.Do(context.Background(), false, false, func() (int, http.Header, error) { return 200, nil, nil })
		}()
	}
	wg.Wait()
	if took := time.Since(start); took < 80*time.Millisecond {
		t.Errorf("10 requests at 100/s: expected at least 80ms, took %s", took)
	}
}

// TestTake: Take waits for the rate's slots only: 5 at 100/s take about
// 40 ms; without a rate, nothing.
func TestTake(t *testing.T) {
	p := New(Config{Rate: 100})
	start := time.Now()
	for range 5 {
		if err := p.Take(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Errorf("5 slots at 100/s: expected at least 30ms, took %s", took)
	}
	if err := New(Config{}).Take(context.Background()); err != nil {
		t.Errorf("no rate: expected no wait and no error, got %v", err)
	}
}
