package simulator

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// The fuzz targets send arbitrary bytes to each request decoder of the
// simulator through its handler, as the owner. Whatever the bytes, the
// answer is never a 5xx, an error is a JSON string with Content-Type
// application/json, and a success carries JSON (or nothing, for 204).
// Plain `go test` runs their seed corpora; to fuzz one:
//
//	go test ./simulator -run '^$' -fuzz '^FuzzE7Body$' -fuzztime 20s

// fuzzEnv is a simulator for a fuzz target. The world is shared by the
// inputs of one process: state left by one input is part of the next one's
// world, as on a server running all day.
func fuzzEnv(f *testing.F) *env {
	f.Helper()
	sim, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	return &env{sim: sim, fx: sim.Fixtures()}
}

// checkAnswer applies the rules every answer obeys.
func checkAnswer(t *testing.T, what string, r response) {
	t.Helper()
	switch {
	case r.status >= 500:
		t.Fatalf("%s: status %d, want no 5xx; body %.300s", what, r.status, r.body)
	case r.status >= 400:
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s: status %d with Content-Type %q, want application/json", what, r.status, ct)
		}
		var msg string
		if err := json.Unmarshal(r.body, &msg); err != nil {
			t.Fatalf("%s: status %d with body %.300s, want a JSON string", what, r.status, r.body)
		}
	case r.status == http.StatusNoContent:
		if len(r.body) != 0 {
			t.Fatalf("%s: 204 with a body %.300s", what, r.body)
		}
	case r.status >= 200 && r.status < 300:
		if !json.Valid(r.body) {
			t.Fatalf("%s: status %d with body %.300s, want JSON", what, r.status, r.body)
		}
	}
}

// serve sends one request as the owner, Content-Type application/json.
func (e *env) serve(method, target string, body []byte) response {
	req := httptest.NewRequest(method, "/", strings.NewReader(string(body)))
	u, q, _ := strings.Cut(target, "?")
	req.URL.Path, req.URL.RawQuery = u, q
	req.Header.Set("Ocp-Apim-Subscription-Key", e.fx.SubscriptionKey)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range e.fx.Users["owner"].Headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.sim.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// fuzzBody fuzzes the body decoder of one operation, seeded with a valid
// body, each field given wrong values, and bodies broken as a whole.
func fuzzBody(f *testing.F, id string) {
	e := fuzzEnv(f)
	var op bodyOp
	for _, o := range e.bodyOps() {
		if o.id == id {
			op = o
		}
	}
	if op.id == "" {
		f.Fatalf("no body operation %s", id)
	}
	valid, err := json.Marshal(op.valid)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	for _, fl := range op.fields {
		for _, raw := range wrongValues[fl.kind] {
			f.Add([]byte(with(f, op.valid, fl.at, raw)))
		}
	}
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"a":1}`, string(valid) + "x", string(valid[:len(valid)-1]),
		`{"` + op.fields[0].at[0].(string) + `":"\ud800"}`, "\xff", strings.Repeat("[", 10001)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkAnswer(t, op.method+" "+op.path, e.serve(op.method, op.path, body))
	})
}

func FuzzE1Body(f *testing.F)                { fuzzBody(f, "E1") }
func FuzzE2Body(f *testing.F)                { fuzzBody(f, "E2") }
func FuzzE5Body(f *testing.F)                { fuzzBody(f, "E5") }
func FuzzE7Body(f *testing.F)                { fuzzBody(f, "E7") }
func FuzzE8Body(f *testing.F)                { fuzzBody(f, "E8") }
func FuzzE14Body(f *testing.F)               { fuzzBody(f, "E14") }
func FuzzE21Body(f *testing.F)               { fuzzBody(f, "E21") }
func FuzzGradebookSettingsBody(f *testing.F) { fuzzBody(f, "GB") }
func FuzzEvaluationSessionBody(f *testing.F) { fuzzBody(f, "ES") }
func FuzzNotificationReadBody(f *testing.F)  { fuzzBody(f, "NR") }
func FuzzQuizSectionBody(f *testing.F)       { fuzzBody(f, "QS") }

// TestEveryBodyOperationIsFuzzed fails when an operation that decodes a
// body has no fuzz target above: a new one must get its own.
func TestEveryBodyOperationIsFuzzed(t *testing.T) {
	fuzzed := map[string]bool{"E1": true, "E2": true, "E5": true, "E7": true, "E8": true, "E14": true, "E21": true,
		"GB": true, "ES": true, "NR": true, "QS": true}
	e := newEnv(t, Options{})
	id := "01234567-89ab-4def-8123-456789abcdef"
	for _, op := range registry.All() {
		path := strings.NewReplacer("{id}", id, "{evaluationid}", id, "{ID}", id, "{$}", "").Replace(op.Path)
		r := e.do("owner", op.Method, path, "\x00")
		decodes := r.status == http.StatusBadRequest && strings.Contains(string(r.body), "request body")
		if decodes != fuzzed[string(op.ID)] {
			t.Errorf("%s: decodes a body %t, has a fuzz target %t", op.ID, decodes, fuzzed[string(op.ID)])
		}
	}
}

// FuzzListQuery fuzzes the query decoders (offset, limit, sortby, where,
// populate, the date bounds and SearchText) on every operation that reads
// a query.
func FuzzListQuery(f *testing.F) {
	e := fuzzEnv(f)
	rec := e.fx.Records
	targets := []struct{ method, path string }{
		{"GET", "/files/" + rec.Folder + "/downloaded"},
		{"GET", "/files/FileAnnotation/" + rec.File + "/all"},
		{"GET", "/module/Weblink/" + rec.Weblink + "/Log"},
		{"GET", "/multimedia/statistics/channel/" + rec.Channel + "/users"},
		{"GET", "/multimedia/capture/" + rec.Capture + "/medias"},
		{"GET", "/survey/question/" + rec.SurveyQuestion + "/response"},
		{"GET", "/poll/Question/" + rec.PollQuestion + "/Response"},
		{"GET", "/resource/" + rec.Resource + "/students"},
		{"GET", "/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion},
		{"GET", "/notification/group/" + rec.Notification.GroupID},
		{"POST", "/bank/" + rec.BankFolder + "/copy"},
	}
	for i := range targets {
		for _, q := range []string{"", "offset=1&limit=2", "limit=99999999999", "offset=-1", "sortby=name%20desc",
			"sortby=logDate", "where=action:Download%20File", "where=x", "populate=Creator,photo,ancestor",
			"StartDate=2025-01-06T08:00:00Z&EndDate=2025-02-01T00:00:00Z&SearchText=a", "startDate=2025-01-06T08:00:00Z",
			"limit=%zz", "sortby=%00", "offset=0&offset=1"} {
			f.Add(uint8(i), q)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, query string) {
		tg := targets[int(which)%len(targets)]
		checkAnswer(t, tg.method+" "+tg.path+"?"+query, e.serve(tg.method, tg.path+"?"+query, nil))
	})
}

// FuzzPathID fuzzes the uuid path parameters of every operation that has
// one.
func FuzzPathID(f *testing.F) {
	all := registry.All()
	e := fuzzEnv(f)
	for _, s := range []string{e.fx.Records.Folder, strings.ToUpper(e.fx.Records.Folder), "x", "", "%", "%2F", "..", "a/b",
		"01234567-89ab-cdef-0123-456789abcdeg", "\xff"} {
		for i := range all {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, id string) {
		op := all[int(which)%len(all)]
		path := strings.NewReplacer("{id}", id, "{evaluationid}", id, "{ID}", id, "{$}", "").Replace(op.Path)
		body := []byte(`{}`)
		checkAnswer(t, op.Method+" "+path, e.serve(op.Method, path, body))
	})
}

// FuzzRequestTarget sends arbitrary request targets (path and query) with
// each method: whatever the target, the rules of checkAnswer hold, and a
// redirect too carries a JSON string. A target net/http cannot parse is
// refused before the handler (TestServerLevelAnswersAreJSON).
func FuzzRequestTarget(f *testing.F) {
	e := fuzzEnv(f)
	folder := e.fx.Records.Folder
	for _, seed := range []string{
		"/files/" + folder + "/downloaded?limit=2", "/files/" + folder + "/downloaded?limit=%zz",
		"/files/" + folder + "/downloaded?limit=2;offset=1", "//files/" + folder + "/downloaded",
		"/files/../healthz", "/files/./x/downloaded", "/Attendance", "/Attendance/", "/_sim/reset",
		"/files/%2e%2e/x", "/files/a%2Fb/downloaded", "*", "", "/?%", "/healthz?a=1&&b=%41",
	} {
		f.Add(seed)
	}
	methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"}
	f.Fuzz(func(t *testing.T, target string) {
		for _, m := range methods {
			req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(m + " " + target + " HTTP/1.1\r\nHost: sim\r\n\r\n")))
			if err != nil {
				return
			}
			req.Header.Set("Ocp-Apim-Subscription-Key", e.fx.SubscriptionKey)
			for k, v := range e.fx.Users["owner"].Headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			e.sim.ServeHTTP(rec, req)
			r := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
			what := m + " " + target
			checkAnswer(t, what, r)
			if r.status >= 300 && r.status < 400 {
				var msg string
				if ct := r.header.Get("Content-Type"); ct != "application/json" || json.Unmarshal(r.body, &msg) != nil {
					t.Fatalf("%s: redirect %d with Content-Type %q and body %.200q, want a JSON string", what, r.status, ct, r.body)
				}
			}
		}
	})
}
