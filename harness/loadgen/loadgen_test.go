package loadgen

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/simulator"
)

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
			status, err := Probe(context.Background(), req, 5*time.Second)
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
