package steps

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/reports"
)

// hostileFixture names records so that scenarios send requests.
func hostileFixture() *fixtures.File {
	return &fixtures.File{
		Version:         fixtures.Version,
		SubscriptionKey: "hostile-key-123",
		Users: map[string]fixtures.User{
			"owner": {Headers: map[string]string{"Authorization": "Bearer hostile-token-456"}},
		},
		Records: fixtures.Records{Media: "0b5e8a5c-8c1e-4b8e-9a57-2f1f3f3c4d5e"},
	}
}

// TestHostileTargetsNeverHangTheRunner plays one misbehaving target per
// case and checks that the run finishes in its budget, fails, and says why.
func TestHostileTargetsNeverHangTheRunner(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string // in some failure message
	}{
		{"hangs", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		}, "no response"},
		{"slow body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			for i := 0; i < 100; i++ {
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		}, "cut off"},
		{"huge body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(strings.Repeat("[", 1024))
			for i := 0; i < 10*1024; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, "at most"},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>hello</html>"))
		}, "not JSON"},
		{"resets connections", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				_ = conn.Close()
			}
		}, "no response"},
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.String(), http.StatusFound)
		}, "redirects"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			start := time.Now()
			r, err := Run(context.Background(), Config{
				BaseURL:         srv.URL,
				Fixture:         hostileFixture(),
				Tags:            "@E13",
				RequestTimeout:  300 * time.Millisecond,
				MaxResponseBody: 64 << 10,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("run took %s, want under 15s", d)
			}
			if r.Verdict == "conformant" || r.Counts.Failed == 0 {
				t.Fatalf("verdict %q with %d failed, want a failing run", r.Verdict, r.Counts.Failed)
			}
			found := false
			for _, s := range r.Scenarios {
				if s.Outcome == reports.Failed && strings.Contains(s.Failure.Message, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no failure message mentions %q; first: %s", tt.want, firstFailure(r))
			}
		})
	}
}

func firstFailure(r *reports.Report) string {
	for _, s := range r.Scenarios {
		if s.Failure != nil {
			return s.Failure.Message
		}
	}
	return "(none)"
}

// TestBudgetEndsARunAgainstAHangingTarget: with every request hanging until
// its own timeout, the run's budget still ends the run on time.
func TestBudgetEndsARunAgainstAHangingTarget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// a server notices a client gone only once the body is read
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer srv.Close()
	start := time.Now()
	r, err := Run(context.Background(), Config{
		BaseURL:        srv.URL,
		Fixture:        hostileFixture(),
		RequestTimeout: time.Minute,
		Budget:         500 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("run took %s with a 500ms budget", d)
	}
	if r.Counts.Failed == 0 || r.Verdict == reports.VerdictConformant {
		t.Errorf("a run cut short must not be conformant: %d failed, verdict %q", r.Counts.Failed, r.Verdict)
	}
	if !strings.Contains(firstFailure(r), "budget") {
		t.Errorf("first failure %q, want one naming the budget", firstFailure(r))
	}
}
