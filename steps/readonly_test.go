package steps

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
)

// countingTransport answers 200 to every request it is given and counts
// them: what got past the guard.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(`""`)), Header: http.Header{}, Request: req}, nil
}

// TestReadOnlyGuard: the guard of a read-only run's client refuses every
// call of an operation that changes state, where the registry places it
// and, for the unplaced ones, where the fixture does, and any write that
// is no call of an operation leaving state alone; reads, the E2 poll and
// an unplaced read the fixture places at a POST pass.
func TestReadOnlyGuard(t *testing.T) {
	f := &fixtures.File{Version: fixtures.Version, Operations: map[string]fixtures.Operation{
		"GB": {Method: "post", Path: "/custom/gb/{id}"},
		"NG": {Method: "POST", Path: "/custom/ng/{id}"},
		"NR": {Method: "PUT", Path: "/notification/read"},
	}}
	tests := []struct {
		method, path string
		refused      bool
	}{
		{"POST", "/api/Attendance/Default", true},                             // E7
		{"DELETE", "/api/Attendance/", true},                                  // E8, trailing slash
		{"DELETE", "/api/Attendance", true},                                   // E8 without it
		{"POST", "/api/attendance/default", true},                             // E7 in another case
		{"POST", "/api/campus/2FA/Auth", true},                                // E1 verifies a code
		{"POST", "/api/campus/2FA/Push", true},                                // E3 sends a push
		{"POST", "/api/bank/6f1c0000-0000-4000-8000-000000000000/copy", true}, // E6
		{"PUT", "/api/weblecture/session/publish", true},                      // E21
		{"POST", "/api/custom/gb/7df59f42", true},                             // GB where the fixture places it
		{"PUT", "/api/notification/read", true},                               // NR where the fixture places it
		{"PATCH", "/api/somewhere/else", true},                                // a write of no operation
		{"POST", "/api/campus/2FA/Poll", false},                               // E2, the poll
		{"POST", "/api/custom/ng/05f63590", false},                            // NG, a read placed at a POST
		{"GET", "/api/files/e4f66500/downloaded", false},                      // E10
		{"GET", "/api/Attendance/Default", false},                             // a read of a write's path changes nothing
		{"HEAD", "/api/", false},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			next := &countingTransport{}
			g := newReadOnlyGuard(next, "http://target.test/api/", f)
			req := httptest.NewRequest(tt.method, "http://target.test"+tt.path, strings.NewReader("{}"))
			resp, err := g.RoundTrip(req)
			if resp != nil {
				_ = resp.Body.Close()
			}
			refused := errors.Is(err, ErrReadOnly)
			if refused != tt.refused || next.n.Load() == 0 == !refused {
				t.Errorf("expected refused=%v, got refused=%v (err %v, %d sent); reproduce: go test ./steps -run TestReadOnlyGuard", tt.refused, refused, err, next.n.Load())
			}
		})
	}
}

// TestReadOnlyRunSendsNoWrite runs the whole suite read-only against a
// target that records every request, then makes a write through the run's
// own client (as a future step might, bypassing the steps' check): the
// target sees no request to an operation that changes state, the write is
// refused, and the scenarios that would have written are skipped, cause
// read-only.
func TestReadOnlyRunSendsNoWrite(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `"no"`)
	}))
	defer srv.Close()
	f := hostileFixture()
	f.Records.AttendanceResource = "7df59f42-570d-476d-84ce-6a384e847c9c"
	f.Records.DeletableSlots = []string{"b23f9172-1752-4e79-810e-86c13afeaf59", "319b8809-a9ba-427c-8c5a-a14f08d0113c"}
	var afterErr error
	r, err := Run(context.Background(), Config{BaseURL: srv.URL, Fixture: f, ReadOnly: true, Concurrency: 4, NoCredentialsCheck: true,
		After: func(ctx context.Context, tg Target) ([]reports.Scenario, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, tg.BaseURL+"/Attendance/Default", strings.NewReader(`{}`))
			resp, err := tg.Client.Do(req)
			if err == nil {
				_ = resp.Body.Close()
			}
			afterErr = err
			return nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(afterErr, ErrReadOnly) {
		t.Errorf("a write through the run's client: expected it refused (ErrReadOnly), got %v", afterErr)
	}
	guard := newReadOnlyGuard(&countingTransport{}, srv.URL, f)
	for _, s := range seen {
		method, path, _ := strings.Cut(s, " ")
		if err := guard.refuse(httptest.NewRequest(method, srv.URL+path, nil)); err != nil {
			t.Errorf("the target received %s: %v", s, err)
		}
	}
	if len(seen) == 0 || r.Counts.SkippedBy.ReadOnly == 0 || len(r.ReadOnlyUnchecked) == 0 {
		t.Errorf("expected reads sent, scenarios skipped read-only and requirements unchecked, got %d requests, %d skipped read-only, %d unchecked",
			len(seen), r.Counts.SkippedBy.ReadOnly, len(r.ReadOnlyUnchecked))
	}
	for _, s := range r.Scenarios {
		if s.SkipCause == reports.CauseReadOnly && !strings.HasPrefix(s.SkipReason, "read-only run: ") {
			t.Errorf("%s: skip reason %q names no operation", s.ID, s.SkipReason)
		}
	}
}
