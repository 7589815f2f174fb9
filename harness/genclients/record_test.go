package genclients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/variants"
)

// answer is one answer recorded from the simulator, as the harness reads
// it: the operation it answers, its status, media type and body, and how
// it was produced (for failure messages).
type answer struct {
	Op          string `json:"op"`
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
	How         string `json:"how"`
}

// absent is a uuid no seeded world holds.
const absent = "00000000-0000-4000-8000-000000000000"

// call is one request: a path with its parameters filled in, a body ("":
// none), the fixture user sending it, and whether the subscription key is
// left out.
type call struct {
	path, body, user string
	noKey            bool
}

// sims are the simulators answers are recorded from: the default one and
// three faithful variants that answer what the default never does (400 and
// 403 to a missing key, E5's 200 with the deleted ids).
type sims struct {
	def, key400, key403, e5IDs *simulator.Simulator
	fx                         *fixtures.File
}

func newSims(t *testing.T) *sims {
	t.Helper()
	mk := func(vs ...variants.Name) *simulator.Simulator {
		names := make([]string, len(vs))
		for i, v := range vs {
			names[i] = string(v)
		}
		// the answers are recorded in process, from httptest's requests to
		// the made-up host example.com, which the simulator is told to answer
		s, err := simulator.New(simulator.Options{Seed: 1, Variants: names, AllowedHosts: []string{"example.com"}})
		if err != nil {
			t.Fatalf("simulator.New(variants %v): %v", vs, err)
		}
		return s
	}
	s := &sims{def: mk(), key400: mk(variants.Key400), key403: mk(variants.Key403), e5IDs: mk(variants.E5200IDs)}
	s.fx = s.def.Fixtures()
	return s
}

// send makes c to operation op on sim and records the answer.
func (s *sims) send(t *testing.T, sim *simulator.Simulator, op string, c call, how string) answer {
	t.Helper()
	o := registry.Must(registry.OpID(op))
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req := httptest.NewRequest(o.Method, c.path, body)
	if !c.noKey {
		req.Header.Set("Ocp-Apim-Subscription-Key", s.fx.SubscriptionKey)
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json-patch+json")
	}
	user := c.user
	if user == "" {
		user = "owner"
	}
	for k, v := range s.fx.Users[user].Headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, req)
	return answer{Op: op, Status: rec.Code, ContentType: rec.Header().Get("Content-Type"), Body: rec.Body.String(), How: how}
}

// fill puts the values into the operation's path template, in order.
func fill(op string, values ...string) string {
	p := registry.Must(registry.OpID(op)).Path
	for _, v := range values {
		i, j := strings.Index(p, "{"), strings.Index(p, "}")
		p = p[:i] + v + p[j+1:]
	}
	return p
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// successCalls are, per operation, a request the default simulator
// answers with the operation's success status; txn is a push transaction
// the owner opened (for E2).
func (s *sims) successCalls(txn string) map[string]call {
	r := s.fx.Records
	at := func(op string, ids ...string) call { return call{path: fill(op, ids...)} }
	send := func(op string, body any) call { return call{path: fill(op), body: jsonOf(body)} }
	gb := at("GB", r.GradebookModule.ID)
	gb.body = `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}`
	es := at("ES", r.Evaluation)
	es.body = jsonOf(s.fx.Operations["ES"].Body)
	return map[string]call{
		"E1":  send("E1", map[string]string{"userid": s.fx.SecondFactor.UserID, "otp": "000000"}),
		"E2":  send("E2", map[string]string{"transactionId": txn}),
		"E3":  at("E3"),
		"E4":  {path: fill("E4"), user: "admin"},
		"E5":  send("E5", map[string][]string{"iDs": r.DeletableSlots[:1]}),
		"E6":  at("E6", r.BankFolder),
		"E7":  send("E7", map[string]string{"resourceID": r.AttendanceResource}),
		"E8":  send("E8", map[string]any{"resourceID": r.AttendanceResource, "iDs": []string{absent}}),
		"E9":  at("E9", r.Evaluation, r.EvaluationQuestion),
		"E10": at("E10", r.Folder),
		"E11": at("E11", r.File),
		"E12": at("E12", r.Weblink),
		"E13": at("E13", r.Media),
		"E14": send("E14", map[string][]string{"iDs": r.DeletableMedia[:1]}),
		"E15": at("E15", r.Channel),
		"E16": at("E16", r.Capture),
		"E17": at("E17", r.SurveyQuestion),
		"E18": at("E18", r.PollQuestion),
		"E19": at("E19", r.PollResponse),
		"E20": at("E20", r.Resource),
		"E21": send("E21", map[string]any{"iDs": r.LectureSessions, "publish": true}),
		"GB":  gb,
		"ES":  es,
		"NG":  at("NG", r.Notification.GroupID),
		"NR":  send("NR", map[string]any{"id": r.Notification.ID, "read": 11}),
		"QS":  send("QS", map[string]string{"id": r.QuizSection.ID, "name": "Section one"}),
	}
}

// typical is op's typical call (registry.Operation.Typical) with the
// fixture's values: a success call too, unless it names an absent record
// (ok false).
func (s *sims) typical(o registry.Operation) (c call, ok bool) {
	doc := gjson.ParseBytes(s.fx.JSON())
	lookup := func(key string) (string, error) {
		v := doc.Get(key)
		if key == "absent" || !v.Exists() {
			return "", fmt.Errorf("no %s", key)
		}
		if v.Type == gjson.String {
			return v.Str, nil
		}
		return v.Raw, nil
	}
	u := url.URL{Path: o.Path}
	for name, v := range o.Typical.Params {
		val, err := registry.Fill(v, lookup)
		if err != nil {
			return call{}, false
		}
		u.Path = strings.ReplaceAll(u.Path, "{"+name+"}", val)
	}
	q := url.Values{}
	for name, v := range o.Typical.Query {
		val, err := registry.Fill(v, lookup)
		if err != nil {
			return call{}, false
		}
		q.Set(name, val)
	}
	u.RawQuery = q.Encode()
	if o.Typical.HasBody {
		body, err := registry.Fill(o.Typical.Body, lookup)
		if err != nil {
			return call{}, false
		}
		c.body = body
	}
	c.path, c.user = u.String(), o.TypicalUser
	return c, true
}

// notFoundCall is a request the default simulator answers with 404 for
// op; ok is false where it never does (E3 and E4 name no record).
func (s *sims) notFoundCall(op string) (c call, ok bool) {
	r := s.fx.Records
	switch op {
	case "E1":
		return call{path: fill(op), body: `{"userid": "nobody", "otp": "000000"}`}, true
	case "E2":
		return call{path: fill(op), body: jsonOf(map[string]string{"transactionId": absent})}, true
	case "E5":
		return call{path: fill(op), body: jsonOf(map[string][]string{"iDs": {absent}})}, true
	case "E6", "E12", "E13", "E17", "GB":
		c := call{path: fill(op, absent)}
		if op == "GB" {
			c.body = `{"iD_Weightage": [], "gradingSchema": []}`
		}
		return c, true
	case "E9":
		return call{path: fill(op, r.Evaluation, absent)}, true
	}
	return call{}, false
}

// record gathers, for every operation, one answer of each status it
// documents (want), and fails t when the simulator answers otherwise than
// the recording plan expects. Each comes from the simulator in process:
//   - the success status(es): a valid request as the owner (E4: admin);
//   - 400 and 403: the key-400 and key-403 variants refusing a request
//     without a subscription key (the default simulator answers 401);
//   - 401: the default simulator refusing a request without a key;
//   - 404: a request naming an absent record; for E3 and E4, which name
//     none, the simulator's 404 to a path just below the operation's;
//   - 500 and 503: an injected fault (Options.Faults).
func record(t *testing.T, want map[string][]int) []answer {
	t.Helper()
	s := newSims(t)
	push := s.send(t, s.def, "E3", s.successCalls("")["E3"], "E3 as the owner, to open a transaction for E2")
	var opened struct {
		TransactionID string `json:"transactionId"`
	}
	if err := json.Unmarshal([]byte(push.Body), &opened); err != nil || opened.TransactionID == "" {
		t.Fatalf("E3 answered %d %s: expected a transactionId to poll", push.Status, push.Body)
	}
	success := s.successCalls(opened.TransactionID)
	var out []answer
	for _, o := range registry.All() {
		op := string(o.ID)
		ok, known := success[op]
		if !known {
			ok, known = s.typical(o)
		}
		if !known {
			t.Fatalf("%s: no success call: its typical call (the registry's) names an absent record or a value the fixture lacks; add one to successCalls", op)
		}
		noKey := ok
		noKey.noKey = true
		for _, st := range want[op] {
			var a answer
			switch {
			case st == 200 && op == "E5":
				a = s.send(t, s.e5IDs, op, ok, "a deletable slot, variant e5-200-ids")
			case st >= 200 && st < 300:
				a = s.send(t, s.def, op, ok, "a valid request")
			case st == 400:
				a = s.send(t, s.key400, op, noKey, "no subscription key, variant key-400")
			case st == 401:
				a = s.send(t, s.def, op, noKey, "no subscription key")
			case st == 403:
				a = s.send(t, s.key403, op, noKey, "no subscription key, variant key-403")
			case st == 404:
				c, found := s.notFoundCall(op)
				how := "an absent record"
				if !found {
					c, how = call{path: registry.Must(registry.OpID(op)).Path + "/" + absent}, "a path below the operation's, which the simulator does not serve"
				}
				a = s.send(t, s.def, op, c, how)
			case st == 500 || st == 503:
				f := simulator.Faults{Operation: op, OperationRate: 1}
				if st == 503 {
					f = simulator.Faults{TwoFactorRate: 1}
				}
				if err := s.def.SetFaults(f); err != nil {
					t.Fatal(err)
				}
				a = s.send(t, s.def, op, ok, fmt.Sprintf("a valid request with an injected fault (%+v)", f))
				if err := s.def.SetFaults(simulator.Faults{}); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("%s: the document lists status %d, which this test cannot record: add it to record", op, st)
			}
			if a.Status != st {
				t.Fatalf("%s: recording %d by %s, the simulator answered %d %.200s", op, st, a.How, a.Status, a.Body)
			}
			out = append(out, a)
		}
	}
	return out
}
