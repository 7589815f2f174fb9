package steps

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/nettest"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/totp"
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
// case and checks that the run finishes in its budget and says why, as
// what it is: a target that gives no HTTP answer makes errors (and stops
// the run: verdict error), an answer past the runner's bounds is not
// judged, a wrong answer fails.
func TestHostileTargetsNeverHangTheRunner(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		verdict reports.Verdict
		outcome reports.Outcome
		want    string // in the failure message or skip reason of a scenario of that outcome
	}{
		{"hangs", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		}, reports.VerdictInconclusive, reports.Error, "no HTTP answer"},
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
		}, reports.VerdictInconclusive, reports.Error, "the body broke off"},
		{"huge body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(strings.Repeat("[", 1024))
			for i := 0; i < 10*1024; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, reports.VerdictInconclusive, reports.Skipped, "--max-body raises the bound"},
		{"endless body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(strings.Repeat("[", 32<<10))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, reports.VerdictInconclusive, reports.Skipped, "--max-body raises the bound"},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>hello</html>"))
		}, reports.VerdictNotConformant, reports.Failed, "not JSON"},
		{"resets connections", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				_ = conn.Close()
			}
		}, reports.VerdictInconclusive, reports.Error, "no HTTP answer"},
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.String(), http.StatusFound)
		}, reports.VerdictNotConformant, reports.Failed, "got 302"},
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
			if r.Verdict != tt.verdict {
				t.Errorf("verdict: expected %q, got %q (%s)", tt.verdict, r.Verdict, r.VerdictReason)
			}
			found := false
			for _, s := range r.Scenarios {
				if s.Outcome != tt.outcome {
					continue
				}
				if s.Failure != nil && strings.Contains(s.Failure.Message, tt.want) || strings.Contains(s.SkipReason, tt.want) {
					found = true
				}
				if s.Outcome == reports.Error && len(reports.FailedRequirements(s)) > 0 {
					t.Errorf("scenario %s errored and failed requirements %v: an error is never a failure", s.ID, reports.FailedRequirements(s))
				}
			}
			if !found {
				t.Errorf("no %s scenario says %q; first message: %s", tt.outcome, tt.want, firstFailure(r))
			}
			if tt.outcome != reports.Failed && r.Counts.Failed > 0 {
				t.Errorf("%d scenarios failed: the implementation failed nothing it was judged on", r.Counts.Failed)
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
	if !r.Interrupted || r.Verdict == reports.VerdictConformant {
		t.Errorf("a run cut short must say so and not be conformant: interrupted %v, verdict %q", r.Interrupted, r.Verdict)
	}
	// What the budget cut is not the implementation's failure.
	if r.Counts.Failed != 0 {
		t.Errorf("a run cut short counts %d failed scenarios (first: %s), want them reported as not finished", r.Counts.Failed, firstFailure(r))
	}
	for _, s := range r.Scenarios {
		if s.Outcome == reports.Skipped && s.SkipReason != CutShort && !strings.Contains(s.SkipReason, "fixture key") {
			t.Errorf("%s: skipped for %q, want %q", s.ID, s.SkipReason, CutShort)
		}
	}
}

// recorder is a loopback server that answers 200 {} and counts what
// reaches it: a server no request of the suite may reach.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.seen = append(rec.seen, r.Method+" "+r.URL.String())
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.seen...)
}

// TestRedirectsAreAnswersNotHops: a target that redirects every request to
// another origin gets its 3xx checked as the answer; the other origin
// receives nothing, so no credential or body leaves for it.
func TestRedirectsAreAnswersNotHops(t *testing.T) {
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			rec := newRecorder(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, rec.URL+r.URL.RequestURI(), code)
			}))
			defer srv.Close()
			r, err := Run(context.Background(), Config{BaseURL: srv.URL, Fixture: hostileFixture(), Tags: "@E13 or @E7", RequestTimeout: time.Second})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := rec.requests(); len(got) != 0 {
				t.Errorf("the other origin received %d requests, expected none; first: %s", len(got), got[0])
			}
			statuses := 0
			for _, s := range r.Scenarios {
				for _, ex := range s.Exchanges {
					if ex.Status == code {
						statuses++
					}
				}
			}
			if statuses == 0 || r.Counts.Failed == 0 {
				t.Errorf("expected exchanges answered %d and failures, got %d such exchanges and %d failures", code, statuses, r.Counts.Failed)
			}
		})
	}
}

// TestBoundsOnWhatATargetSends: headers too long for the transport are a
// limit of the runner, naming --max-header; the report keeps at most
// MaxHeaders names of bounded size; a gzip bomb is read only up to the
// body cap, after decompression, and is a limit naming --max-body. Neither
// is a failure of the implementation.
func TestBoundsOnWhatATargetSends(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		check   func(t *testing.T, ex reports.Exchange, s reports.Scenario)
	}{
		{"8 MiB of headers", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Huge", strings.Repeat("h", 8<<20))
			w.WriteHeader(http.StatusForbidden)
		}, func(t *testing.T, ex reports.Exchange, s reports.Scenario) {
			if ex.Status != 0 || !strings.Contains(ex.Error, "exceeded") {
				t.Errorf("expected an exchange error on the header size, got status %d, error %q", ex.Status, ex.Error)
			}
			if !strings.Contains(s.SkipReason, "--max-header raises the bound") {
				t.Errorf("expected the skip to name --max-header, got %q", s.SkipReason)
			}
		}},
		{"1000 headers and a gzip bomb", nettest.WorstTarget, func(t *testing.T, ex reports.Exchange, s reports.Scenario) {
			if len(ex.ResponseHeaders) > reports.MaxHeaders || ex.ResponseHeadersDropped == 0 {
				t.Errorf("expected at most %d headers kept and the rest counted, got %d kept, %d dropped", reports.MaxHeaders, len(ex.ResponseHeaders), ex.ResponseHeadersDropped)
			}
			n := 0
			for _, v := range ex.ResponseHeaders {
				n += len(v)
				if len(v) > reports.MaxHeaderValue+len("…") {
					t.Errorf("expected header values of at most %d bytes, got %d", reports.MaxHeaderValue, len(v))
				}
			}
			if n > reports.MaxHeaderBytes {
				t.Errorf("expected at most %d bytes of header values, got %d", reports.MaxHeaderBytes, n)
			}
			if !strings.Contains(s.SkipReason, "longer than the runner reads (1MiB): --max-body raises the bound") || len(ex.ResponseBody) > reports.MaxBody || !ex.Truncated {
				t.Errorf("expected the bomb not judged as too long and its body cut at %d, got %q with %d bytes kept", reports.MaxBody, s.SkipReason, len(ex.ResponseBody))
			}
		}},
	}
	nettest.GzipBomb() // made before any request waits for it
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			r, err := Run(context.Background(), Config{BaseURL: srv.URL, Fixture: hostileFixture(), Tags: "@E13", RequestTimeout: 30 * time.Second, MaxResponseBody: 1 << 20})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checked := 0
			for _, s := range r.Scenarios {
				if s.SkipCause == reports.CauseRunnerLimit && len(s.Exchanges) > 0 {
					tt.check(t, s.Exchanges[len(s.Exchanges)-1], s)
					checked++
				}
			}
			if checked == 0 {
				t.Fatalf("no scenario skipped for a runner limit with an exchange: the test would prove nothing")
			}
			if r.Counts.Failed > 0 {
				t.Errorf("%d scenarios failed: a bound of the runner is no failure of the implementation", r.Counts.Failed)
			}
		})
	}
}

// TestExchangesKeptPerScenario: past MaxExchanges, the last place takes
// the newest exchange and the rest are counted.
func TestExchangesKeptPerScenario(t *testing.T) {
	s := &state{}
	const made = reports.MaxExchanges + 25
	for i := 0; i < made; i++ {
		s.record(reports.Exchange{URL: fmt.Sprint(i)})
	}
	if len(s.exchanges) != reports.MaxExchanges || s.dropped != made-reports.MaxExchanges {
		t.Errorf("expected %d kept and %d dropped, got %d and %d", reports.MaxExchanges, made-reports.MaxExchanges, len(s.exchanges), s.dropped)
	}
	if got, want := s.exchanges[len(s.exchanges)-1].URL, fmt.Sprint(made-1); got != want {
		t.Errorf("last exchange kept: expected %s, got %s", want, got)
	}
}

// TestGeneratedOneTimePasswordsAreRedacted: a code the suite makes from the
// TOTP secret is a credential while valid; a target that echoes the
// request gets it into no report field.
func TestGeneratedOneTimePasswordsAreRedacted(t *testing.T) {
	const secret = "JBSWY3DPEHPK3PXP"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", string(body))
		w.WriteHeader(http.StatusForbidden)
		msg, _ := json.Marshal("refused: " + string(body))
		_, _ = w.Write(msg)
	}))
	defer srv.Close()
	f := hostileFixture()
	f.SecondFactor.UserID = "u1"
	f.SecondFactor.TOTPSecret = secret
	before, _ := totp.Generate(secret, time.Now())
	r, err := Run(context.Background(), Config{BaseURL: srv.URL, Fixture: f, Tags: "@E1.200", RequestTimeout: 2 * time.Second, NoCredentialsCheck: true})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	after, _ := totp.Generate(secret, time.Now())
	var buf bytes.Buffer
	if err := reports.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if !strings.Contains(string(b), `<OTP>`) {
		t.Fatalf("no <OTP> placeholder in the report: the scenario sent no code, the test would prove nothing")
	}
	for _, code := range []string{before, after} {
		if strings.Contains(string(b), code) {
			t.Errorf("the report contains the one-time password %s", code)
		}
	}
}

// TestIsRead holds which requests the runner may send again after a
// transport error to the registry's facts: a GET, or a call of an
// operation that changes nothing; never a write, nor a call of an
// operation the registry does not know.
func TestIsRead(t *testing.T) {
	tests := []struct {
		op     registry.OpID
		method string
		want   bool
	}{
		{registry.NG, http.MethodGet, true},
		{registry.E2, http.MethodPost, true},
		{registry.NR, http.MethodPut, false},
		{registry.E7, http.MethodPost, false},
		{"E99", http.MethodPost, false},
	}
	for _, tt := range tests {
		if got := isRead(tt.op, tt.method); got != tt.want {
			t.Errorf("isRead(%s, %s) = %v, want %v", tt.op, tt.method, got, tt.want)
		}
	}
}
