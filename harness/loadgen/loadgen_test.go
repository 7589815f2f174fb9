package loadgen

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/simulator"
)

func TestResultFigures(t *testing.T) {
	ms := time.Millisecond
	r := Result{
		Requests:  4,
		Elapsed:   2 * time.Second,
		Latencies: []time.Duration{1 * ms, 2 * ms, 3 * ms, 4 * ms},
		Statuses:  map[int]int{200: 2, 500: 1},
		Failures:  map[string]int{"connection refused": 1},
	}
	tests := []struct {
		p    float64
		want time.Duration
	}{{0, 1 * ms}, {0.5, 2 * ms}, {0.99, 4 * ms}, {1, 4 * ms}}
	for _, tt := range tests {
		if got := r.Percentile(tt.p); got != tt.want {
			t.Errorf("Percentile(%v): expected %s, got %s", tt.p, tt.want, got)
		}
	}
	if got, want := r.Errors(), 2; got != want {
		t.Errorf("Errors: expected %d (the 500 and the transport error), got %d", want, got)
	}
	if got, want := r.Rate(), 2.0; got != want {
		t.Errorf("Rate: expected %v, got %v", want, got)
	}
	if got, want := r.Breakdown(), []string{"200: 2", "500: 1", "connection refused: 1"}; !slices.Equal(got, want) {
		t.Errorf("Breakdown: expected %q, got %q", want, got)
	}
	if got := (Result{}).Percentile(0.5); got != 0 {
		t.Errorf("Percentile of no requests: expected 0, got %s", got)
	}
}

// TestEveryOperationAnswers sends each operation of the table once to the
// simulator, as built from its own fixture: each must answer 2xx.
func TestEveryOperationAnswers(t *testing.T) {
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	defer srv.Close()
	for _, op := range OperationIDs() {
		t.Run(op, func(t *testing.T) {
			req, err := NewRequest(op, srv.URL+"/", sim.Fixtures())
			if err != nil {
				t.Fatalf("NewRequest: expected no error, got %v", err)
			}
			if !strings.HasPrefix(req.URL, srv.URL+"/") || strings.Contains(strings.TrimPrefix(req.URL, "http://"), "//") {
				t.Errorf("URL: expected %s followed by one path, got %s", srv.URL, req.URL)
			}
			g := New(req, 1, 5*time.Second)
			defer g.Close()
			status, err := g.Send(context.Background())
			if err != nil || status/100 != 2 {
				t.Errorf("%s %s: expected a 2xx answer, got %d, %v", req.Method, req.URL, status, err)
			}
		})
	}
}

func TestNewRequestRefuses(t *testing.T) {
	tests := []struct {
		name string
		op   string
		f    *fixtures.File
		want string
	}{
		{"missing record", "E13", &fixtures.File{}, "the fixture does not give what E13 needs (records or operations.E13)"},
		{"missing operation", "NR", &fixtures.File{}, "operations.NR"},
		{"unknown operation", "E6", &fixtures.File{}, "unknown operation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRequest(tt.op, "http://127.0.0.1:1", tt.f)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("expected an error containing %q, got %v", tt.want, err)
			}
			var fe *FixtureError
			if tt.name != "unknown operation" && !errors.As(err, &fe) {
				t.Errorf("expected a *FixtureError, got %T", err)
			}
		})
	}
}

func TestRunCountsAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Ocp-Apim-Subscription-Key") != "k" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer srv.Close()
	g := New(Request{Method: "GET", URL: srv.URL + "/x", Header: http.Header{"Ocp-Apim-Subscription-Key": {"k"}}}, 2, time.Second)
	defer g.Close()
	r := g.Run(context.Background(), 100*time.Millisecond)
	if r.Requests == 0 || r.Statuses[200] != r.Requests || r.Errors() != 0 {
		t.Errorf("expected every request answered 200, got %d requests, statuses %v, failures %v", r.Requests, r.Statuses, r.Failures)
	}
	if len(r.Latencies) != r.Requests || !slices.IsSorted(r.Latencies) {
		t.Errorf("expected one sorted latency per request, got %d for %d requests", len(r.Latencies), r.Requests)
	}
}
