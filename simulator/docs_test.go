package simulator

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/campusconf/campusconf/internal/browsertest"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/ops"
)

func TestDocsServed(t *testing.T) {
	e := newEnv(t, Options{Docs: true})
	page := e.do("", "GET", "/docs/", "").want(t, 200)
	if ct := page.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("/docs/ Content-Type = %q, want text/html", ct)
	}
	owner := strings.TrimPrefix(e.fx.Users["owner"].Headers["Authorization"], "Bearer ")
	for _, want := range []string{e.fx.SubscriptionKey, owner, "/docs/openapi.json", "swagger-ui-bundle.js", WorldHeader} {
		if !strings.Contains(string(page.body), want) {
			t.Errorf("/docs/ page: expected it to contain %q", front.Clip(want))
		}
	}
	staff := strings.TrimPrefix(e.fx.Users["staff"].Headers["Authorization"], "Bearer ")
	if body := e.do("", "GET", "/docs/?user=staff", "").want(t, 200).body; !strings.Contains(string(body), staff) {
		t.Error("/docs/?user=staff: expected the staff token in the page")
	}
	e.do("", "GET", "/docs/?user=nobody", "").want(t, http.StatusBadRequest).errorString(t)
	if r := e.do("", "GET", "/docs", "").want(t, http.StatusFound); r.header.Get("Location") != "/docs/" {
		t.Errorf("/docs redirects to %q, want /docs/", r.header.Get("Location"))
	} else {
		r.errorString(t)
	}
	for _, asset := range []string{"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"} {
		r := e.do("", "GET", "/docs/"+asset, "").want(t, 200)
		if len(r.body) < 1000 {
			t.Errorf("/docs/%s: %d bytes, want the embedded asset", asset, len(r.body))
		}
	}
	e.do("", "POST", "/docs/", "").want(t, http.StatusMethodNotAllowed).errorString(t)
	e.do("", "GET", "/docs/no-such-asset.js", "").want(t, http.StatusNotFound).errorString(t)
	// without Options.Docs nothing is there
	newEnv(t, Options{}).do("", "GET", "/docs/", "").want(t, http.StatusNotFound)
}

// TestDocsPlacesUnplaced checks that the document behind /docs shows the
// five unplaced operations where this simulator serves them, and its own
// origin as the server.
func TestDocsPlacesUnplaced(t *testing.T) {
	for _, c := range []struct {
		name     string
		variants []string
	}{{"default placement", nil}, {"alt-paths", []string{"alt-paths"}}} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, Options{Docs: true, Variants: c.variants})
			var doc struct {
				Servers []struct{ URL string } `json:"servers"`
				Paths   map[string]map[string]json.RawMessage
			}
			e.do("", "GET", "/docs/openapi.json", "").want(t, 200).decode(t, &doc)
			if len(doc.Servers) != 1 || doc.Servers[0].URL != "http://example.com" {
				t.Errorf("servers = %+v, want the request's own origin http://example.com", doc.Servers)
			}
			for _, op := range registry.All() {
				method, path := ops.Place(op, e.sim.variants)
				path = strings.TrimSuffix(path, "{$}") // a ServeMux pattern
				if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
					t.Errorf("%s: expected %s %s in the docs' document", op.ID, method, path)
				}
				if moved := path != op.Path; moved {
					if _, ok := doc.Paths[op.Path][strings.ToLower(op.Method)]; ok {
						t.Errorf("%s: still at %s %s, where this simulator does not serve it", op.ID, op.Method, op.Path)
					}
				}
			}
		})
	}
}

// TestDocsSecurityHeaders: the page and its assets say what a browser may
// do with them: no framing, no script but the page's own (its inline
// scripts by hash, never 'unsafe-inline'), no type sniffing, no referrer.
func TestDocsSecurityHeaders(t *testing.T) {
	e := newEnv(t, Options{Docs: true})
	for _, path := range []string{"/docs/", "/docs/?user=admin", "/docs/swagger-ui-bundle.js", "/docs/openapi.json"} {
		h := e.do("", "GET", path, "").want(t, 200).header
		for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
			if got := h.Get(k); got != want {
				t.Errorf("GET %s: %s = %q, want %q", path, k, got, want)
			}
		}
		if strings.HasPrefix(path, "/docs/?") || path == "/docs/" {
			csp := h.Get("Content-Security-Policy")
			for _, want := range []string{"frame-ancestors 'none'", "script-src 'self' 'sha256-", "connect-src 'self'", "default-src 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("GET %s: Content-Security-Policy %q, want it to contain %q", path, csp, want)
				}
			}
			if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
				t.Errorf("GET %s: Content-Security-Policy %q allows inline or evaluated script", path, csp)
			}
		}
	}
	c := newEnv(t, Options{Control: true})
	h := c.do("", "GET", c.fx.Control+"/ui", "").want(t, 200).header
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'sha256-") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("console: Content-Security-Policy %q, want frame-ancestors 'none' and its script by hash only", csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("console: X-Content-Type-Options %q, Referrer-Policy %q; want nosniff, no-referrer", h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
	}
}

// TestDocsAnswersSayNosniff reproduces issue 45's /docs 404s without
// X-Content-Type-Options: nosniff (the JSON error form rewritten from the
// assets' server's 404 dropped it). Every answer under /docs carries it:
// the redirect, the pages, the document, an unknown user, an unknown
// asset, another method, a cross-origin fetch, in a named world's path
// too.
func TestDocsAnswersSayNosniff(t *testing.T) {
	e := newEnv(t, Options{Docs: true})
	for _, c := range []struct {
		method, path string
		header       map[string]string
		status       int
	}{
		{"GET", "/docs", nil, 302},
		{"GET", "/docs/", nil, 200},
		{"GET", "/docs/swagger-ui-bundle.js", nil, 200},
		{"GET", "/docs/openapi.json", nil, 200},
		{"GET", "/docs/?user=nobody", nil, 400},
		{"GET", "/docs/nope.js", nil, 404},
		{"GET", "/docs/nope/deeper.css", nil, 404},
		{"GET", "/_w/alice/docs/nope.js", nil, 404},
		{"POST", "/docs/", nil, 405},
		{"GET", "/docs/", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, 403},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		e.sim.ServeHTTP(rec, req)
		if rec.Code != c.status || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: got %d, X-Content-Type-Options %q; want %d and nosniff", c.method, c.path, rec.Code, rec.Header().Get("X-Content-Type-Options"), c.status)
		}
	}
}

// TestDocsCrossOrigin: a page of another site may send its visitor to the
// docs (a link followed), but not fetch them, frame them or read them.
func TestDocsCrossOrigin(t *testing.T) {
	e := newEnv(t, Options{Docs: true})
	nav := map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
	tests := []struct {
		name   string
		path   string
		header map[string]string
		want   int
	}{
		{"typed in the address bar", "/docs/", map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, 200},
		{"its own assets", "/docs/swagger-ui-bundle.js", map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"}, 200},
		{"a link followed from another site", "/docs/?user=admin", nav, 200},
		{"fetched by another site", "/docs/?user=admin", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty", "Origin": "http://evil.example"}, 403},
		{"fetched without cors by another site", "/docs/openapi.json", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty"}, 403},
		{"framed by another site", "/docs/", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}, 403},
		{"framed by a sibling site", "/docs/", map[string]string{"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}, 403},
		{"an older browser's fetch with Origin", "/docs/openapi.json", map[string]string{"Origin": "http://evil.example"}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.doWith("", "GET", tt.path, "", tt.header)
			if r.status != tt.want {
				t.Fatalf("GET %s %v: expected %d, got %d", tt.path, tt.header, tt.want, r.status)
			}
			if tt.want == 403 {
				if msg := r.errorString(t); !strings.Contains(msg, "another") {
					t.Errorf("GET %s: message %q, want it to say the request came from another site or origin", tt.path, msg)
				}
				if strings.Contains(string(r.body), e.fx.SubscriptionKey) {
					t.Errorf("GET %s: the refusal carries the subscription key", tt.path)
				}
			}
		})
	}
}

// TestDocsExamples: the docs' document gives every parameter of a typical
// call an example from this world (a path id, a body), so "Try it out"
// addresses records that exist; /openapi.json stays neutral.
func TestDocsExamples(t *testing.T) {
	e := newEnv(t, Options{Docs: true})
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	e.do("", "GET", "/docs/openapi.json", "").want(t, 200).decode(t, &doc)
	type param struct {
		Name    string `json:"name"`
		In      string `json:"in"`
		Example any    `json:"example"`
	}
	var op struct {
		Parameters  []param `json:"parameters"`
		RequestBody struct {
			Content map[string]struct {
				Example map[string]any `json:"example"`
			} `json:"content"`
		} `json:"requestBody"`
	}
	examples := func(path, method string) map[string]any {
		t.Helper()
		raw, ok := doc.Paths[path][method]
		if !ok {
			t.Fatalf("%s %s: not in the docs' document", method, path)
		}
		op.Parameters, op.RequestBody.Content = nil, nil
		if err := json.Unmarshal(raw, &op); err != nil {
			t.Fatal(err)
		}
		out := map[string]any{}
		for _, p := range op.Parameters {
			out[p.In+"."+p.Name] = p.Example
		}
		return out
	}
	if got := examples("/files/{id}/downloaded", "get")["path.id"]; got != e.fx.Records.Folder {
		t.Errorf("E10's path id: expected the example %s (records.folder), got %v", e.fx.Records.Folder, got)
	}
	nr := e.fx.Operations["NR"]
	examples(nr.Path, strings.ToLower(nr.Method))
	body := op.RequestBody.Content["application/json"].Example
	if got, ok := body["id"].(float64); !ok || int64(got) != e.fx.Records.Notification.ID {
		t.Errorf("NR's body: expected the example id %d (records.notification.id), got %v", e.fx.Records.Notification.ID, body)
	}
	if strings.Contains(string(e.do("", "GET", "/openapi.json", "").want(t, 200).body), `"example"`) {
		t.Error("/openapi.json: expected the neutral document, without this world's examples")
	}
}

// TestDocumentGivesListBounds holds what the OpenAPI document says of the
// simulator's paging (in its x-campusconf-simulator extension, since the
// specification states no bound) to the bounds the simulator applies.
func TestDocumentGivesListBounds(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	num := func(p *float64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	for _, tc := range []struct {
		param         string
		min, max, def any
	}{
		{"Offset", 0.0, nil, 0.0},
		{"Limit", 0.0, float64(listing.MaxLimit), float64(listing.DefaultLimit)},
	} {
		c, ok, err := openapi.ChoiceOf(doc.Components.Parameters[tc.param].Value.Schema.Value.Extensions)
		if !ok || err != nil {
			t.Errorf("%s: expected %s, got none (%v)", tc.param, openapi.Extension, err)
			continue
		}
		if got, want := []any{num(c.Minimum), num(c.Maximum), c.Default}, []any{tc.min, tc.max, tc.def}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("%s: the document gives minimum, maximum, default %v, the simulator applies %v (simulator/listing)", tc.param, got, want)
		}
	}
}

// TestDocsInBrowser opens /docs/ in headless Chromium: Swagger UI renders
// every operation at the simulator's paths, the key and the owner's token
// are authorized already, "Try it out" on the notification read answers
// 200, nothing is fetched from anywhere but the simulator, and the page's
// Content-Security-Policy blocks nothing it needs (no violation reported
// on the console).
func TestDocsInBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Docs: true})
	p := openDocs(t, e, "")
	ctx := p.ctx
	paths, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('.opblock-summary-path')).map(e => e.dataset.path || e.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range registry.All() {
		want := strings.TrimSuffix(op.Path, "{$}")
		if !slices.ContainsFunc(paths, func(p string) bool { return strings.ReplaceAll(p, "\u200b", "") == want }) {
			t.Errorf("%s: path %s not shown; shown %v", op.ID, want, paths)
		}
	}
	auth, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(() => { const a = window.ui.authSelectors.authorized().toJS(); const out = {}; for (const k in a) { out[k] = a[k].value; } return out; })()`))
	if err != nil {
		t.Fatal(err)
	}
	owner := strings.TrimPrefix(e.fx.Users["owner"].Headers["Authorization"], "Bearer ")
	if auth["subscriptionKey"] != e.fx.SubscriptionKey || auth["bearerAuth"] != owner {
		t.Errorf("authorized = %v, want the subscription key and the owner's token", maskAll(auth))
	}
	// Try it out: the notification of the fixture group, which the
	// document's example (this world's id) fills in already
	gid := e.fx.Records.Notification.GroupID
	block := `#operations-notification-` + registry.Must(registry.NG).OperationID()
	input := block + ` .parameters input[placeholder="id"]`
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(block+` .opblock-summary`)),
		// tryItOutEnabled: the inputs are open without the Try it out button
		chromedp.WaitVisible(chromedp.CSS(input)),
	)
	if err != nil {
		t.Fatalf("open NG: %v", err)
	}
	filled, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+input+`').value`))
	if err != nil {
		t.Fatal(err)
	}
	if filled != gid {
		t.Errorf("NG's id input: expected the world's group id %s from the document's example, got %q", gid, filled)
		err = chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(input), ""), chromedp.SendKeys(chromedp.CSS(input), gid))
		if err != nil {
			t.Fatal(err)
		}
	}
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(block+` .execute`)),
		chromedp.WaitVisible(chromedp.CSS(block+` .live-responses-table tbody .response-col_status`)),
	)
	if err != nil {
		t.Fatalf("try it out: %v", err)
	}
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+block+` .live-responses-table tbody .response-col_status').textContent.trim()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(status, "200") {
		t.Errorf("try it out: live response status %q, want 200", status)
	}
	p.ownRequests(t, "data:")
	p.keptCSP(t)
}

// browser starts headless Chromium for a test (internal/browsertest).
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	return browsertest.Open(t)
}

// browserPage is a page of a simulator served on loopback, open in
// headless Chromium.
type browserPage struct {
	url       string // the server's base URL
	what      string // names the page in failures
	ctx       context.Context
	requested func() []string
	console   func() []chromedp.ConsoleMessage
}

// openPage serves e's simulator on loopback and opens path in headless
// Chromium, once the actions ready have run; what names the page in
// failures ("the console").
func openPage(t *testing.T, e *env, path, what string, ready ...chromedp.Action[chromedp.Void]) browserPage {
	t.Helper()
	srv := httptest.NewServer(e.sim)
	t.Cleanup(srv.Close)
	ctx, requested := browser(t)
	console := browsertest.Console(ctx)
	if err := chromedp.Do(ctx, append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(srv.URL + path)}, ready...)...); err != nil {
		t.Fatalf("open %s: %v", what, err)
	}
	return browserPage{url: srv.URL, what: what, ctx: ctx, requested: requested, console: console}
}

// ownRequests fails the test for each URL the page requested that is not
// the simulator's own nor starts with one of also ("data:").
func (p browserPage) ownRequests(t *testing.T, also ...string) {
	t.Helper()
	for _, u := range p.requested() {
		if !strings.HasPrefix(u, p.url) && !slices.ContainsFunc(also, func(a string) bool { return strings.HasPrefix(u, a) }) {
			t.Errorf("%s requested %s: expected only the simulator's own URLs", p.what, u)
		}
	}
}

// keptCSP fails the test for each report of the page breaking its own
// Content-Security-Policy.
func (p browserPage) keptCSP(t *testing.T) {
	t.Helper()
	for _, v := range browsertest.CSPViolations(p.console()) {
		t.Errorf("%s broke its own Content-Security-Policy: expected no violation, got %s", p.what, v)
	}
}

// openDocs opens /docs/ with query, once Swagger UI shows the operations.
func openDocs(t *testing.T, e *env, query string) browserPage {
	t.Helper()
	return openPage(t, e, "/docs/"+query, "the docs page", chromedp.WaitVisible(chromedp.CSS(".opblock")))
}

// maskAll shows which credentials are set without showing them.
func maskAll(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		s, _ := v.(string)
		out[k] = "<" + string(rune('0'+min(len(s), 9))) + "+ chars>"
	}
	return out
}

// TestDocsUserSwitcher: the docs page's switcher opens the page of another
// fixture user, whose token is then the one authorized, keeping the world
// the page tries in; its style breaks no Content-Security-Policy.
func TestDocsUserSwitcher(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Docs: true})
	p := openDocs(t, e, "?world=w1")
	ctx := p.ctx
	bearer := `window.ui.authSelectors.authorized().toJS().bearerAuth.value`
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('nav a[data-user="admin"]').getAttribute('href')`))
	if err != nil || href != "?world=w1&user=admin" {
		t.Errorf("the switcher's link to admin: expected ?world=w1&user=admin, got %q (%v)", href, err)
	}
	err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav a[data-user="admin"]`)),
		chromedp.WaitVisible(chromedp.CSS(`nav strong[data-user="admin"]`)), chromedp.WaitVisible(chromedp.CSS(".opblock")))
	if err != nil {
		t.Fatalf("switch to admin: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](bearer))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(e.fx.Users["admin"].Headers["Authorization"], "Bearer "); got != want {
		t.Errorf("after switching to admin: expected admin's token authorized, got %s", maskAll(map[string]any{"bearer": got}))
	}
	p.keptCSP(t)
}
