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

// TestDoWaitsOut: a 429 is waited out as Retry-After says and the request
// sent again; the figures count it.
func TestDoWaitsOut(t *testing.T) {
	p := New(Config{})
	calls := 0
	start := time.Now()
	err := p.Do(context.Background(), true, false, func() (int, http.Header, error) {
		calls++
		if calls == 1 {
			return 429, http.Header{"Retry-After": {"0"}}, nil
		}
		return 200, nil, nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("expected two calls and no error, got %d calls and %v", calls, err)
	}
	if s := p.Stats(); s.Limited != 1 || s.Requests != 2 {
		t.Errorf("expected 1 limited answer of 2 requests, got %+v", s)
	}
	if time.Since(start) > time.Second {
		t.Errorf("Retry-After 0: expected no wait, took %s", time.Since(start))
	}
}

func TestDoWaitsRunOut(t *testing.T) {
	p := New(Config{})
	err := p.Do(context.Background(), false, false, func() (int, http.Header, error) {
		return 429, http.Header{"Retry-After": {"3600"}}, nil
	})
	if !errors.Is(err, ErrWaitsRanOut) {
		t.Errorf("Retry-After 3600: expected ErrWaitsRanOut, got %v", err)
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

func TestNilPacer(t *testing.T) {
	var p *Pacer
	calls := 0
	_ = p.Do(context.Background(), false, false, func() (int, http.Header, error) { calls++; return 429, nil, nil })
	if calls != 1 || p.Stats() != (Stats{}) {
		t.Errorf("a nil pacer: expected one call and no figures, got %d calls, %+v", calls, p.Stats())
	}
}

// TestPlain503ToAReadIsSentOnce: a 503 without Retry-After to a read is
// sent again once; the second one stands (an outage is judged, not waited
// out for ever).
func TestPlain503ToAReadIsSentOnce(t *testing.T) {
	p := New(Config{})
	calls := 0
	start := time.Now()
	err := p.Do(context.Background(), false, false, func() (int, http.Header, error) {
		calls++
		return 503, http.Header{}, nil
	})
	if err != nil || calls != 2 {
		t.Errorf("expected two calls and the answer standing, got %d calls and %v", calls, err)
	}
	if took := time.Since(start); took < DefaultWait {
		t.Errorf("expected a wait of %s between them, took %s", DefaultWait, took)
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
