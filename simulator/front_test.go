package simulator

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/nettest"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/simulator/ops"
)

// TestMalformedQueryRefused: a query url.ParseQuery refuses is 400 with a
// JSON string, on every route, instead of losing the parameter.
func TestMalformedQueryRefused(t *testing.T) {
	e := newEnv(t, Options{})
	list := e.fileLog()
	tests := []struct {
		name, path string
		want       int
	}{
		{"well formed", list + "?limit=2&offset=1", http.StatusOK},
		{"escaped space", list + "?sortby=logDate%20desc", http.StatusOK},
		{"bad escape in a value", list + "?limit=%zz", http.StatusBadRequest},
		{"bad escape in a name", list + "?%zz=1", http.StatusBadRequest},
		{"truncated escape", list + "?limit=2%", http.StatusBadRequest},
		{"semicolon separator", list + "?limit=2;offset=1", http.StatusBadRequest},
		{"semicolon in a value", list + "?where=name:a;b", http.StatusBadRequest},
		{"on an operation without parameters", "/evaluation/" + e.fx.Records.Evaluation + "/Question/" + e.fx.Records.EvaluationQuestion + "?x=%zz", http.StatusBadRequest},
		{"on the health check", "/healthz?%", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do("owner", "GET", tt.path, "")
			if r.status != tt.want {
				t.Fatalf("GET %s: expected status %d, got %d: %s", tt.path, tt.want, r.status, r.body)
			}
			if tt.want == http.StatusBadRequest {
				if msg := r.errorString(t); !strings.HasPrefix(msg, "query: ") {
					t.Errorf("GET %s: expected a message about the query, got %q", tt.path, msg)
				}
			}
		})
	}
}

// TestRouterAnswersAreJSON: what ServeMux would answer by itself (a
// redirect to the cleaned path, OPTIONS *) is a JSON string error; the
// one redirect the simulator keeps, DELETE /Attendance to /Attendance/
// (docs/decisions.md), carries a JSON string body too.
func TestRouterAnswersAreJSON(t *testing.T) {
	e := newEnv(t, Options{})
	folder := e.fx.Records.Folder
	tests := []struct {
		name, method, target string
		want                 int
		wantLocation         string
		wantMsg              string
	}{
		{"dot-dot segment", "GET", "/files/../files/" + folder + "/downloaded", http.StatusBadRequest, "", "path: "},
		{"leading empty segment", "GET", "//files/" + folder + "/downloaded", http.StatusBadRequest, "", "path: "},
		{"empty segment", "GET", "/files//downloaded", http.StatusBadRequest, "", "path: "},
		{"dot segment", "GET", "/files/./" + folder + "/downloaded", http.StatusBadRequest, "", "path: "},
		{"trailing dot", "GET", "/files/" + folder + "/downloaded/.", http.StatusBadRequest, "", "path: "},
		{"dot-dot on a write", "DELETE", "/multimedia/x/../media", http.StatusBadRequest, "", "path: "},
		{"dot-dot into the control API", "POST", "/files/../_sim/reset", http.StatusBadRequest, "", "path: "},
		{"OPTIONS *", "OPTIONS", "*", http.StatusBadRequest, "", "request target"},
		{"trailing slash added by the client", "GET", "/files/" + folder + "/downloaded/", http.StatusNotFound, "", "no operation"},
		{"unknown path", "GET", "/nope", http.StatusNotFound, "", "no operation"},
		{"other method", "PUT", "/files/" + folder + "/downloaded", http.StatusMethodNotAllowed, "", "not allowed"},
		{"E8 without its slash", "DELETE", "/Attendance", http.StatusTemporaryRedirect, "/Attendance/", "/Attendance/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do("owner", tt.method, tt.target, "")
			if r.status != tt.want {
				t.Fatalf("%s %s: expected status %d, got %d: %s", tt.method, tt.target, tt.want, r.status, r.body)
			}
			if loc := r.header.Get("Location"); loc != tt.wantLocation {
				t.Errorf("%s %s: expected Location %q, got %q", tt.method, tt.target, tt.wantLocation, loc)
			}
			if msg := r.errorString(t); !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("%s %s: expected a message mentioning %q, got %q", tt.method, tt.target, tt.wantMsg, msg)
			}
		})
	}
}

// TestUnauthenticatedEndpoints: the health check and the document need no
// credentials, and /_sim/reset, without a control token, is no route.
func TestUnauthenticatedEndpoints(t *testing.T) {
	e := newEnv(t, Options{})
	h := map[string]string{"Ocp-Apim-Subscription-Key": "", "Authorization": ""}
	e.doWith("", "GET", "/healthz", "", h).want(t, 200)
	if got := e.doWith("", "GET", "/openapi.json", "", h).want(t, 200).body; !bytes.Equal(got, openapi.JSON()) {
		t.Error("/openapi.json is not the embedded document")
	}
	e.doWith("", "POST", "/_sim/reset", "", h).want(t, http.StatusNotFound)
}

// TestUnknownRoutes: a path no route serves is 404, a route asked with
// another method 405 naming the one it takes, both with a JSON string.
func TestUnknownRoutes(t *testing.T) {
	e := newEnv(t, Options{})
	e.do("owner", "GET", "/nowhere", "").want(t, http.StatusNotFound).errorString(t)
	e.do("owner", "GET", "/campus/2fa/auth", "").want(t, http.StatusNotFound)
	r := e.do("owner", "GET", "/campus/2FA/Auth", "").want(t, http.StatusMethodNotAllowed)
	r.errorString(t)
	if r.header.Get("Allow") != "POST" {
		t.Errorf("Allow = %q, want POST", r.header.Get("Allow"))
	}
}

// TestControlAPIGuard: the control API answers only under its token, to
// clients that are not pages of another origin, and never with CORS
// headers; the interface keeps its CORS.
func TestControlAPIGuard(t *testing.T) {
	const token = "guard-test-token-0123456789"
	e := newEnv(t, Options{Control: true, ControlToken: token})
	if e.fx.Control != "/_sim/"+token {
		t.Fatalf("fixture control: expected /_sim/%s, got %q", token, e.fx.Control)
	}
	own := "http://example.com" // httptest.NewRequest's Host
	tests := []struct {
		name, method, path string
		header             map[string]string
		want               int
	}{
		{"token, no browser headers", "GET", "/_sim/" + token + "/faults", nil, http.StatusOK},
		{"token, same origin", "POST", "/_sim/" + token + "/reset", map[string]string{"Origin": own, "Sec-Fetch-Site": "same-origin"}, http.StatusNoContent},
		{"token, typed in the address bar", "GET", "/_sim/" + token + "/fixtures", map[string]string{"Sec-Fetch-Site": "none"}, http.StatusOK},
		{"no token", "POST", "/_sim/reset", nil, http.StatusForbidden},
		{"wrong token", "GET", "/_sim/guard-test-token-0123456780/fixtures", nil, http.StatusForbidden},
		{"token as a prefix of the segment", "GET", "/_sim/" + token + "x/fixtures", nil, http.StatusForbidden},
		{"the bare prefix", "GET", "/_sim", nil, http.StatusForbidden},
		{"other origin", "POST", "/_sim/" + token + "/reset", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"other port of the same host", "GET", "/_sim/" + token + "/fixtures", map[string]string{"Origin": own + ":3000"}, http.StatusForbidden},
		{"opaque origin", "PUT", "/_sim/" + token + "/faults", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"cross-site fetch without Origin", "GET", "/_sim/" + token + "/fixtures", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"same-site fetch", "GET", "/_sim/" + token + "/fixtures", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"preflight", "OPTIONS", "/_sim/" + token + "/faults", map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "PUT"}, http.StatusForbidden},
		{"preflight without Origin", "OPTIONS", "/_sim/" + token + "/faults", nil, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			if tt.method == "PUT" {
				body = `{"twoFactorRate":0}`
			}
			r := e.doWith("", tt.method, tt.path, body, tt.header)
			if r.status != tt.want {
				t.Fatalf("%s %s %v: expected status %d, got %d: %s", tt.method, tt.path, tt.header, tt.want, r.status, r.body)
			}
			for k := range r.header {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Errorf("%s %s: expected no CORS header under /_sim/, got %s: %s", tt.method, tt.path, k, r.header.Get(k))
				}
			}
			if r.status >= 400 {
				r.errorString(t)
			}
			if tt.want == http.StatusForbidden && strings.Contains(string(r.body), e.fx.SubscriptionKey) {
				t.Errorf("%s %s: a refusal carries the subscription key", tt.method, tt.path)
			}
		})
	}
	// The interface itself stays readable from any origin.
	r := e.doWith("owner", "GET", e.fileLog(), "", map[string]string{"Origin": "http://evil.example"}).want(t, http.StatusOK)
	if got := r.header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("interface answer: expected Access-Control-Allow-Origin *, got %q", got)
	}
	// Without Control, nothing is served under the prefix, token or not.
	off := newEnv(t, Options{ControlToken: token})
	off.do("", "POST", "/_sim/"+token+"/reset", "").want(t, http.StatusNotFound)
	if off.fx.Control != "" {
		t.Errorf("fixture control without Control: expected none, got %q", off.fx.Control)
	}
}

// TestControlTokens: New draws a different token per simulator and
// refuses a token too short or unsafe in a path; the log masks it.
func TestControlTokens(t *testing.T) {
	a, b := newEnv(t, Options{Control: true}), newEnv(t, Options{Control: true})
	if a.fx.Control == b.fx.Control || len(a.fx.Control) < len("/_sim/")+32 {
		t.Errorf("expected two distinct random tokens of 128 bits, got %q and %q", a.fx.Control, b.fx.Control)
	}
	for _, bad := range []string{"short", "with/slash-0123456789", "with space 0123456789", "{curly}0123456789"} {
		if _, err := New(Options{Control: true, ControlToken: bad}); err == nil {
			t.Errorf("New with control token %q: expected an error, got none", bad)
		}
	}
	var log strings.Builder
	sim, err := New(Options{Control: true, LogTo: &log})
	if err != nil {
		t.Fatal(err)
	}
	path := sim.ControlPath()
	sim.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", path+"/reset", nil))
	if token := strings.TrimPrefix(path, "/_sim/"); strings.Contains(log.String(), token) || !strings.Contains(log.String(), "/_sim/TOKEN/reset") {
		t.Errorf("log: expected the control path with its token masked, got %q", log.String())
	}
}

// TestServerLevelAnswersAreJSON sends requests that http.Server answers by
// itself, before any handler, over a raw loopback connection to a server
// set up as `campusconf serve` sets it up: every answer is a JSON string
// with Content-Type application/json, with the status net/http chose.
func TestServerLevelAnswersAreJSON(t *testing.T) {
	sim, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	fx := sim.Fixtures()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: sim, MaxHeaderBytes: MaxHeaderBytes, DisableGeneralOptionsHandler: true, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(JSONErrors(ln)) }() // ErrServerClosed once the test is over
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()
	creds := "Ocp-Apim-Subscription-Key: " + fx.SubscriptionKey + "\r\nAuthorization: " + fx.Users["owner"].Headers["Authorization"] + "\r\n"
	list := "/files/" + fx.Records.Folder + "/downloaded"
	tests := []struct {
		name    string
		request string
		want    int
		isError bool
	}{
		{"a good request passes untouched", "GET " + list + "?limit=1 HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "\r\n", http.StatusOK, false},
		{"bad escape in the path", "GET /files/%zz/downloaded HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "\r\n", http.StatusBadRequest, true},
		{"bad escape in the query", "GET " + list + "?limit=%zz HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "\r\n", http.StatusBadRequest, true},
		{"headers over the limit", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nX-Big: " + strings.Repeat("a", MaxHeaderBytes+8<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge, true},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", http.StatusBadRequest, true},
		{"malformed header line", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nno colon here\r\n\r\n", http.StatusBadRequest, true},
		{"unknown protocol version", "GET /healthz HTTP/2.5\r\nHost: " + addr + "\r\n\r\n", http.StatusHTTPVersionNotSupported, true},
		{"unknown transfer encoding", "POST /Attendance/Default HTTP/1.1\r\nHost: " + addr + "\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented, true},
		{"unknown expectation", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nExpect: tea\r\n\r\n", http.StatusExpectationFailed, true},
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", http.StatusBadRequest, true},
		{"path cleaning", "GET /files/../healthz HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", http.StatusBadRequest, true},
		{"the kept redirect", "DELETE /Attendance HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "Content-Length: 0\r\n\r\n", http.StatusTemporaryRedirect, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := nettest.Exchange(t, addr, tt.request)
			if resp.StatusCode != tt.want {
				t.Errorf("expected status %d, got %d: %q", tt.want, resp.StatusCode, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("expected Content-Type application/json, got %q: %q", ct, body)
			}
			if !tt.isError {
				return
			}
			var msg string
			if err := json.Unmarshal(body, &msg); err != nil || msg == "" {
				t.Errorf("expected a JSON string body, got %q (%v)", body, err)
			}
		})
	}
}

// TestAllowedHostsRefused: New refuses what wire.CheckAllowedHosts
// refuses (its own test lists the forms).
func TestAllowedHostsRefused(t *testing.T) {
	if _, err := New(Options{AllowedHosts: []string{"api:8080"}}); err == nil || !strings.Contains(err.Error(), "expected a host name") {
		t.Errorf(`New with AllowedHosts ["api:8080"]: %v, want an error saying what is expected`, err)
	}
}

// TestRebindingRefused is the DNS rebinding case: a page of
// evil.example, its name resolved to the simulator's address, sends
// requests whose Host and Origin are its own. The docs (which hold the
// admin's token), the self-reset, the control API and the interface all
// answer 421 with a JSON string, nothing changes and no world is created;
// the same requests sent to localhost are answered.
func TestRebindingRefused(t *testing.T) {
	e := newEnv(t, Options{Docs: true, SelfReset: true, Control: true, AllowedHosts: []string{"campus-api", testHost}})
	admin := e.fx.Users["admin"].Headers["Authorization"]
	adminToken := strings.TrimPrefix(admin, "Bearer ")
	e.do("owner", "DELETE", "/multimedia/media", `{"iDs":["`+e.fx.Records.DeletableMedia[0]+`"]}`).want(t, http.StatusOK)
	media := "/multimedia/" + e.fx.Records.DeletableMedia[0] + "/downloadlog"
	for _, host := range []string{"evil.example:8080", "evil.example"} {
		origin := map[string]string{"Host": host, "Origin": "http://" + host, "Sec-Fetch-Site": "same-origin", "Authorization": admin}
		for _, c := range []struct{ method, path string }{
			{"GET", "/docs/?user=admin"},
			{"GET", "/docs/openapi.json"},
			{"POST", ops.SelfResetPath},
			{"POST", e.fx.Control + "/reset"},
			{"GET", e.fx.Control + "/fixtures"},
			{"GET", e.fileLog()},
			{"GET", "/_w/stolen/files/" + e.fx.Records.Folder + "/downloaded"},
			{"GET", "/healthz"},
		} {
			r := e.doWith("", c.method, c.path, "", origin)
			if r.status != http.StatusMisdirectedRequest {
				t.Errorf("%s %s with Host %s: expected 421, got %d: %.80s", c.method, c.path, host, r.status, r.body)
				continue
			}
			msg := r.errorString(t)
			if !strings.Contains(msg, "evil.example") || !strings.Contains(msg, "--allowed-hosts") {
				t.Errorf("%s %s: message %q, want the host named and how to allow one", c.method, c.path, msg)
			}
			if strings.Contains(string(r.body), adminToken) || strings.Contains(string(r.body), e.fx.SubscriptionKey) {
				t.Errorf("%s %s: the 421 answer carries a credential", c.method, c.path)
			}
		}
	}
	e.doWith("owner", "GET", media, "", map[string]string{"Host": "evil.example"}).want(t, http.StatusMisdirectedRequest)
	e.do("owner", "GET", media, "").want(t, http.StatusNotFound) // the reset above did not happen
	if names := e.sim.WorldNames(); len(names) != 0 {
		t.Errorf("named worlds after refused requests: %v, want none created", names)
	}
	for _, host := range []string{"localhost:8080", "127.0.0.1:8080", "[::1]:8080", "campus-api:8080"} {
		e.doWith("", "GET", "/docs/?user=admin", "", map[string]string{"Host": host}).want(t, http.StatusOK)
		e.doWith("owner", "GET", e.fileLog(), "", map[string]string{"Host": host}).want(t, http.StatusOK)
	}
	e.doWith("", "POST", ops.SelfResetPath, "", map[string]string{"Host": "localhost:8080", "Origin": "http://localhost:8080", "Authorization": admin}).want(t, http.StatusNoContent)
	e.do("owner", "GET", media, "").want(t, http.StatusOK)
}
