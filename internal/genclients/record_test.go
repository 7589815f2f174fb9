package genclients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

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
		s, err := simulator.New(simulator.Options{Seed: 1, Variants: names})
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
	o := registry.Must(op)
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
	p := registry.Must(op).Path
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

// successCall is a request the default simulator answers with op's
// success status; txn is a push transaction the owner opened (for E2).
func (s *sims) successCall(op, txn string) call {
	r := s.fx.Records
	switch op {
	case "E1":
		return call{path: fill(op), body: jsonOf(map[string]string{"userid": s.fx.SecondFactor.UserID, "otp": "000000"})}
	case "E2":
		return call{path: fill(op), body: jsonOf(map[string]string{"transactionId": txn})}
	case "E3":
		return call{path: fill(op)}
	case "E4":
		return call{path: fill(op), user: "admin"}
	case "E5":
		return call{path: fill(op), body: jsonOf(map[string][]string{"iDs": r.DeletableSlots[:1]})}
	case "E6":
		return call{path: fill(op, r.BankFolder)}
	case "E7":
		return call{path: fill(op), body: jsonOf(map[string]string{"resourceID": r.AttendanceResource})}
	case "E8":
		return call{path: fill(op), body: jsonOf(map[string]any{"resourceID": r.AttendanceResource, "iDs": []string{absent}})}
	case "E9":
		return call{path: fill(op, r.Evaluation, r.EvaluationQuestion)}
	case "E10":
		return call{path: fill(op, r.Folder)}
	case "E11":
		return call{path: fill(op, r.File)}
	case "E12":
		return call{path: fill(op, r.Weblink)}
	case "E13":
		return call{path: fill(op, r.Media)}
	case "E14":
		return call{path: fill(op), body: jsonOf(map[string][]string{"iDs": r.DeletableMedia[:1]})}
	case "E15":
		return call{path: fill(op, r.Channel)}
	case "E16":
		return call{path: fill(op, r.Capture)}
	case "E17":
		return call{path: fill(op, r.SurveyQuestion)}
	case "E18":
		return call{path: fill(op, r.PollQuestion)}
	case "E19":
		return call{path: fill(op, r.PollResponse)}
	case "E20":
		return call{path: fill(op, r.Resource)}
	case "E21":
		return call{path: fill(op), body: jsonOf(map[string]any{"iDs": r.LectureSessions, "publish": true})}
	case "GB":
		return call{path: fill(op, r.GradebookModule.ID), body: `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}`}
	case "ES":
		return call{path: fill(op, r.Evaluation), body: jsonOf(s.fx.Operations["ES"].Body)}
	case "NG":
		return call{path: fill(op, r.Notification.GroupID)}
	case "NR":
		return call{path: fill(op), body: jsonOf(map[string]any{"id": r.Notification.ID, "read": 11})}
	case "QS":
		return call{path: fill(op), body: jsonOf(map[string]string{"id": r.QuizSection.ID, "name": "Section one"})}
	}
	panic("genclients: no success call for " + op)
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
	push := s.send(t, s.def, "E3", s.successCall("E3", ""), "E3 as the owner, to open a transaction for E2")
	var opened struct {
		TransactionID string `json:"transactionId"`
	}
	if err := json.Unmarshal([]byte(push.Body), &opened); err != nil || opened.TransactionID == "" {
		t.Fatalf("E3 answered %d %s: expected a transactionId to poll", push.Status, push.Body)
	}
	var out []answer
	for _, o := range registry.All() {
		op := o.ID
		ok := s.successCall(op, opened.TransactionID)
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
					c, how = call{path: registry.Must(op).Path + "/" + absent}, "a path below the operation's, which the simulator does not serve"
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
