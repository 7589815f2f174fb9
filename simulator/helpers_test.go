package simulator

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
)

// env is one simulator under test with its fixture file.
type env struct {
	t   *testing.T
	sim *Simulator
	fx  *fixtures.File
}

// newEnv builds a simulator for in-process requests, which httptest sends
// to the host example.com: the tests allow it.
func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	if opts.AllowedHosts == nil {
		opts.AllowedHosts = []string{testHost}
	}
	sim, err := New(opts)
	if err != nil {
		t.Fatalf("New(%+v): %v", opts, err)
	}
	return &env{t: t, sim: sim, fx: sim.Fixtures()}
}

// fileLog is the path of E10, the download log of the fixture's folder:
// the list most tests read when any answered operation will do.
func (e *env) fileLog() string {
	return "/files/" + e.fx.Records.Folder + "/downloaded"
}

// testHost is the Host of httptest.NewRequest's requests.
const testHost = "example.com"

// response is a recorded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request as the fixture user (""  sends no Authorization).
func (e *env) do(user, method, path, body string) response {
	e.t.Helper()
	return e.doWith(user, method, path, body, nil)
}

func (e *env) doWith(user, method, path, body string, header map[string]string) response {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Ocp-Apim-Subscription-Key", e.fx.SubscriptionKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json-patch+json")
	}
	if user != "" {
		for k, v := range e.fx.Users[user].Headers {
			req.Header.Set(k, v)
		}
	}
	for k, v := range header {
		if k == "Host" { // the request's Host, not a header field
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	e.sim.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// want fails unless the status is want, showing the body.
func (r response) want(t *testing.T, want int) response {
	t.Helper()
	if r.status != want {
		t.Fatalf("status = %d, want %d; body %s", r.status, want, r.body)
	}
	return r
}

// decode decodes the body into v.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body %s: expected JSON decodable into %T: %v", r.body, v, err)
	}
}

// object decodes the body as a JSON object.
func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.decode(t, &m)
	return m
}

// list decodes the body as a JSON array of objects.
func (r response) list(t *testing.T) []map[string]any {
	t.Helper()
	var l []map[string]any
	r.decode(t, &l)
	return l
}

// errorString checks the error form: a JSON string, Content-Type
// application/json. It returns the message.
func (r response) errorString(t *testing.T) string {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("error Content-Type = %q, want application/json", ct)
	}
	var s string
	if err := json.Unmarshal(r.body, &s); err != nil {
		t.Fatalf("error body %s: expected a JSON string: %v", r.body, err)
	}
	return s
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
