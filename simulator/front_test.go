package simulator

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMalformedQueryRefused: a query url.ParseQuery refuses is 400 with a
// JSON string, on every route, instead of losing the parameter.
func TestMalformedQueryRefused(t *testing.T) {
	e := newEnv(t, Options{})
	list := "/files/" + e.fx.Records.Folder + "/downloaded"
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
	r := e.doWith("owner", "GET", "/files/"+e.fx.Records.Folder+"/downloaded", "", map[string]string{"Origin": "http://evil.example"}).want(t, http.StatusOK)
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
