package steps

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
)

// boundFixture names a record for every read the record check makes,
// three users, and a forbidden entry for every operation whose refusal
// the simulator's fixture declares.
func boundFixture() *fixtures.File {
	id := "7df59f42-570d-476d-84ce-6a384e847c9c"
	f := &fixtures.File{
		Version:         fixtures.Version,
		SubscriptionKey: "bound-key",
		Users: map[string]fixtures.User{
			"owner":   {Headers: map[string]string{"Authorization": "Bearer o"}},
			"staff":   {Headers: map[string]string{"Authorization": "Bearer s"}},
			"student": {Headers: map[string]string{"Authorization": "Bearer t"}},
		},
		Records: fixtures.Records{BankFolder: id, AttendanceResource: id, Evaluation: id, EvaluationQuestion: id,
			Folder: id, File: id, Weblink: id, Media: id, DeletableMedia: []string{id, id}, Channel: id, Capture: id,
			SurveyQuestion: id, PollQuestion: id, PollResponse: id, Resource: id, DeletableSlots: []string{id, id},
			LectureSessions: []string{id, id}},
	}
	for _, op := range []string{"E6", "E7", "E8", "E10", "E12", "E13", "E14", "E15", "E16", "E21", "GB", "ES", "NG", "NR", "QS"} {
		f.Forbidden = append(f.Forbidden, fixtures.Forbidden{Operation: op, User: "student"})
	}
	return f
}

// TestPreflightChain holds the bound's preflight to the checks before
// the suite: a run that selects no scenario, against a target that
// answers every read, sends that many requests, one after another.
func TestPreflightChain(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	for _, noCreds := range []bool{false, true} {
		cfg := Config{BaseURL: srv.URL, Client: srv.Client(), Fixture: boundFixture(), NoCredentialsCheck: noCreds, Tags: "@E19 and not @E19"}
		b, err := BoundOf(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		n.Store(0)
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrNoScenarios) {
			t.Fatalf("expected a run of no scenario, got %v", err)
		}
		want := b.PreflightRequests
		if !noCreds && want == 0 || b.Preflight != (want+preflightConcurrency-1)/preflightConcurrency {
			t.Errorf("no preflight %v: Bound.Preflight %d round trips for %d requests, %d at once", noCreds, b.Preflight, want, preflightConcurrency)
		}
		if got := int(n.Load()); got != want {
			t.Errorf("no preflight %v: expected the checks before the suite to send Bound.PreflightRequests = %d requests, got %d", noCreds, want, got)
		}
	}
}

// TestBoundOf checks the bound counts the requests a report shows: one
// scenario that made 1000 requests is the longest chain alone.
func TestBoundOf(t *testing.T) {
	cfg := Config{Fixture: boundFixture()}
	est, err := BoundOf(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if est.Chain == 0 || est.Requests < est.Chain || est.Preflight == 0 || len(est.Path) == 0 {
		t.Fatalf("expected a bound with a chain, requests and a preflight, got %+v", est)
	}
	const name = "bank: Copying a bank folder creates a new folder"
	r := &reports.Report{Scenarios: []reports.Scenario{{ID: name, Exchanges: make([]reports.Exchange, 40), ExchangesDropped: 960}}}
	got, err := BoundOf(cfg, r)
	if err != nil {
		t.Fatal(err)
	}
	if got.Chain != 1000 || got.Requests != 1000 || !slices.Contains(got.Path, name) {
		t.Errorf("expected a chain of 1000 requests through %q, got %d (of %d) through %v", name, got.Chain, got.Requests, got.Path)
	}
}
