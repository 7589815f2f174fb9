package simulator

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/campusconf/campusconf/internal/wire"
)

// TestCORSPreflights: a preflight gets back the headers it asks for, any
// header an app adds included; --cors-origins restricts the origins; a
// refused preflight is answered 403 and its reason logged.
func TestCORSPreflights(t *testing.T) {
	tests := []struct {
		name        string
		origins     []string
		origin      string
		method      string
		headers     string
		wantStatus  int
		wantOrigin  string
		wantHeaders string
		wantLog     string
	}{
		{"a header the interface does not list", nil, "http://localhost:5173", "GET", "x-request-id,ocp-apim-subscription-key,traceparent", http.StatusNoContent, "*", "x-request-id,ocp-apim-subscription-key,traceparent", ""},
		{"no header asked for", nil, "http://localhost:5173", "PUT", "", http.StatusNoContent, "*", wire.CORSDefaultHeaders, ""},
		{"an origin listed", []string{"http://localhost:5173"}, "http://localhost:5173", "POST", "content-type", http.StatusNoContent, "http://localhost:5173", "content-type", ""},
		{"an origin not listed", []string{"http://localhost:5173"}, "http://evil.example", "GET", "", http.StatusForbidden, "", "", `origin \"http://evil.example\" is not among --cors-origins http://localhost:5173`},
		{"a method the interface does not use", nil, "http://localhost:5173", "TRACE", "", http.StatusForbidden, "", "", `method \"TRACE\" is not one of`},
		{"a header name malformed", nil, "http://localhost:5173", "GET", "x-a b", http.StatusForbidden, "", "", "expected header names"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			e := newEnv(t, Options{CORSOrigins: tt.origins, LogTo: &log})
			h := map[string]string{"Origin": tt.origin, "Access-Control-Request-Method": tt.method, "Access-Control-Request-Headers": tt.headers}
			r := e.doWith("", http.MethodOptions, e.fileLog(), "", h)
			if r.status != tt.wantStatus {
				t.Fatalf("OPTIONS with %v: expected %d, got %d %s", h, tt.wantStatus, r.status, r.body)
			}
			if got := r.header.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Errorf("Access-Control-Allow-Origin: expected %q, got %q", tt.wantOrigin, got)
			}
			if got := r.header.Get("Access-Control-Allow-Headers"); got != tt.wantHeaders {
				t.Errorf("Access-Control-Allow-Headers: expected %q, got %q", tt.wantHeaders, got)
			}
			if tt.wantLog != "" && !strings.Contains(log.String(), tt.wantLog) {
				t.Errorf("request log: expected the reason %q, got %q", tt.wantLog, log.String())
			}
		})
	}
}

// TestPreflight: the default CORS answers a preflight 204 allowing any
// origin and the interface's headers, and a plain answer allows any origin.
func TestPreflight(t *testing.T) {
	e := newEnv(t, Options{})
	req := httptest.NewRequest(http.MethodOptions, e.fileLog(), nil)
	req.Header.Set("Origin", "http://localhost:3000")
	req.Header.Set("Access-Control-Request-Method", "GET")
	rec := httptest.NewRecorder()
	e.sim.ServeHTTP(rec, req)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("preflight status = %d, want 204", rec.Code)
	}
	h := rec.Header()
	if h.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("Allow-Origin = %q, want *", h.Get("Access-Control-Allow-Origin"))
	}
	for _, want := range []string{"Ocp-Apim-Subscription-Key", "Authorization", "Content-Type"} {
		if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
			t.Errorf("Allow-Headers = %q, want it to include %s", h.Get("Access-Control-Allow-Headers"), want)
		}
	}
	if r := e.do("owner", "GET", e.fileLog(), ""); r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Error("a plain answer lacks Access-Control-Allow-Origin")
	}
}

// TestCORSAnswers: an answer to a page exposes the headers an app may
// read; with --cors-origins it names the page's origin when listed, and
// none otherwise.
func TestCORSAnswers(t *testing.T) {
	for _, tt := range []struct {
		origins            []string
		origin, wantOrigin string
		wantVary           bool
	}{
		{nil, "http://localhost:5173", "*", false},
		{[]string{"http://localhost:5173", "https://app.example.edu"}, "https://app.example.edu", "https://app.example.edu", true},
		{[]string{"http://localhost:5173"}, "http://evil.example", "", true},
	} {
		e := newEnv(t, Options{CORSOrigins: tt.origins})
		r := e.doWith("owner", "GET", e.fileLog(), "", map[string]string{"Origin": tt.origin})
		if got := r.header.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
			t.Errorf("origins %v, Origin %s: Access-Control-Allow-Origin: expected %q, got %q", tt.origins, tt.origin, tt.wantOrigin, got)
		}
		wantExpose := ""
		if tt.wantOrigin != "" {
			wantExpose = wire.CORSExposeHeaders
		}
		if got := r.header.Get("Access-Control-Expose-Headers"); got != wantExpose {
			t.Errorf("origins %v, Origin %s: Access-Control-Expose-Headers: expected %q, got %q", tt.origins, tt.origin, wantExpose, got)
		}
		if got := r.header.Get("Vary") == "Origin"; got != tt.wantVary {
			t.Errorf("origins %v: Vary: Origin %v, want %v", tt.origins, got, tt.wantVary)
		}
	}
	for _, want := range []string{"Retry-After", "Location", WorldHeader} {
		if exposed := strings.Split(wire.CORSExposeHeaders, ", "); !slices.Contains(exposed, want) {
			t.Errorf("exposed headers %q: expected %s among them", wire.CORSExposeHeaders, want)
		}
	}
	if _, err := New(Options{CORSOrigins: []string{"localhost:5173"}}); err == nil || !strings.Contains(err.Error(), "scheme://host") {
		t.Errorf("New with an origin without scheme: %v, want an error saying what is expected", err)
	}
}

// TestCORSInBrowser: a page of another origin fetches an operation with
// a header of its own (X-Request-Id) in headless Chromium; the preflight
// lets it through, and the page reads the exposed world header. From an
// origin --cors-origins does not list, the fetch fails.
func TestCORSInBrowser(t *testing.T) {
	t.Parallel()
	ctx, _ := browser(t)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>app</title>"))
	}))
	defer page.Close()
	for _, tt := range []struct {
		name    string
		origins []string
		want    string
	}{
		{"any origin", nil, "200 w1"},
		{"the page's origin not listed", []string{"http://localhost:5173"}, "TypeError"},
	} {
		e := newEnv(t, Options{CORSOrigins: tt.origins})
		sim := httptest.NewServer(e.sim)
		if err := chromedp.Do(ctx, chromedp.Navigate(page.URL)); err != nil {
			t.Fatalf("open the page: %v", err)
		}
		script := `fetch(` + jsString(sim.URL+strings.ReplaceAll(e.fx.Operations["NG"].Path, "{id}", e.fx.Records.Notification.GroupID)) + `, {headers: {
			"Ocp-Apim-Subscription-Key": ` + jsString(e.fx.SubscriptionKey) + `,
			"Authorization": ` + jsString(e.fx.Users["owner"].Headers["Authorization"]) + `,
			"X-Campusconf-World": "w1",
			"X-Request-Id": "req-42"}})
			.then(r => r.status + " " + r.headers.get("X-Campusconf-World"), e => e.name)`
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
		sim.Close()
		if err != nil {
			t.Fatalf("%s: fetch: %v", tt.name, err)
		}
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: fetch with X-Request-Id from %s: expected %q, got %q", tt.name, page.URL, tt.want, got)
		}
	}
}

// jsString quotes s for a script.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}
