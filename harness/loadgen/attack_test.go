package loadgen

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func TestRate(t *testing.T) {
	tests := []struct {
		perSecond float64
		want      vegeta.Rate
	}{
		{40, vegeta.Rate{Freq: 1, Per: 25 * time.Millisecond}},
		{0.5, vegeta.Rate{Freq: 1, Per: 2 * time.Second}},
		{1.0 / 60, vegeta.Rate{Freq: 1, Per: time.Minute}},
		{0, vegeta.Rate{}},
	}
	for _, tt := range tests {
		if got := Rate(tt.perSecond); got != tt.want {
			t.Errorf("Rate(%v): expected %v, got %v", tt.perSecond, tt.want, got)
		}
	}
}

func TestSummary(t *testing.T) {
	s := Summary{Metrics: vegeta.Metrics{StatusCodes: map[string]int{"200": 5, "204": 1, "500": 2, "0": 1}, Errors: []string{"500 Internal Server Error", "connection refused"}}}
	if got := s.Errors(); got != 3 {
		t.Errorf("Errors: expected 3 (two 500s and one without an answer), got %d", got)
	}
	if got, want := s.Breakdown(), []string{"0: 1", "200: 5", "204: 1", "500: 2", "connection refused"}; !slices.Equal(got, want) {
		t.Errorf("Breakdown: expected %q, got %q", want, got)
	}
	s.Asked, s.Duration, s.Rate = vegeta.Rate{Freq: 100, Per: time.Second}, time.Second, 50
	if s.Sustained() {
		t.Errorf("Sustained: expected false for 50/s sent of 100/s asked")
	}
	s.Rate = 95
	if !s.Sustained() {
		t.Errorf("Sustained: expected true for 95/s sent of 100/s asked")
	}
}

// TestRunOpenAndClosed runs both models against a server that counts the
// requests and checks their credentials: the open model sends at the
// rate, the closed one keeps the number in flight; every request reaches
// the server with its headers, and the results decode with vegeta's own
// decoder, the plot is an HTML page.
func TestRunOpenAndClosed(t *testing.T) {
	var hits, inFlight, maxInFlight atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := maxInFlight.Load(); n > m && !maxInFlight.CompareAndSwap(m, n); m = maxInFlight.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		if r.Header.Get("Ocp-Apim-Subscription-Key") != "k" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer srv.Close()
	req := Request{Method: "GET", URL: srv.URL + "/x", Header: http.Header{"Ocp-Apim-Subscription-Key": {"k"}}}
	tests := []struct {
		name        string
		rate        vegeta.Rate
		concurrency int
		minReqs     int
		maxReqs     int
	}{
		{"open model, 100/s for 300ms", vegeta.Rate{Freq: 100, Per: time.Second}, 16, 25, 35},
		{"closed model, 2 in flight", vegeta.Rate{}, 2, 10, 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits.Store(0)
			maxInFlight.Store(0)
			var results, page bytes.Buffer
			s, err := Run(context.Background(), Options{Request: req, Rate: tt.rate, Concurrency: tt.concurrency,
				Duration: 300 * time.Millisecond, Timeout: time.Second, Results: &results, Plot: &page})
			if err != nil {
				t.Fatal(err)
			}
			if n := int(s.Requests); n < tt.minReqs || n > tt.maxReqs || int(hits.Load()) != n {
				t.Errorf("requests: expected %d to %d, all reaching the server, got %d (server saw %d)", tt.minReqs, tt.maxReqs, n, hits.Load())
			}
			if s.Errors() != 0 || s.StatusCodes["200"] != int(s.Requests) {
				t.Errorf("expected every request answered 200, got %v", s.Breakdown())
			}
			if tt.rate.Freq == 0 && maxInFlight.Load() > int64(tt.concurrency) {
				t.Errorf("closed model: expected at most %d in flight, the server saw %d", tt.concurrency, maxInFlight.Load())
			}
			dec := vegeta.NewDecoder(&results)
			decoded := 0
			for {
				var r vegeta.Result
				if err := dec.Decode(&r); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("results: vegeta's decoder: %v", err)
				}
				if r.Body != nil || r.Headers != nil {
					t.Errorf("results: expected no response bodies or headers, got %q %v", r.Body, r.Headers)
				}
				decoded++
			}
			if decoded != int(s.Requests) {
				t.Errorf("results: expected %d decoded, got %d", s.Requests, decoded)
			}
			if !strings.Contains(page.String(), "<html") || !strings.Contains(page.String(), "campusconf load: GET ") {
				t.Errorf("plot: expected an HTML page titled with the request, got %.200s", page.String())
			}
		})
	}
}

// TestWriteTargets: the targets file is vegeta's JSON format, which its
// own targeter reads back as the same request.
func TestWriteTargets(t *testing.T) {
	req := Request{Method: "PUT", URL: "http://127.0.0.1:8080/notifications/7", Body: `{"read":true}`,
		Header: http.Header{"Ocp-Apim-Subscription-Key": {"k"}, "Content-Type": {"application/json"}}}
	var buf bytes.Buffer
	if err := WriteTargets(&buf, req); err != nil {
		t.Fatal(err)
	}
	var got vegeta.Target
	if err := vegeta.NewJSONTargeter(&buf, nil, nil)(&got); err != nil {
		t.Fatalf("vegeta's JSON targeter: %v (file %q)", err, buf.String())
	}
	if got.Method != req.Method || got.URL != req.URL || string(got.Body) != req.Body || got.Header.Get("Ocp-Apim-Subscription-Key") != "k" {
		t.Errorf("targets: expected %+v back, got %+v", req, got)
	}
}
