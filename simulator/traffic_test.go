package simulator

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/devserver"
)

// appStep is one request of an app-like sequence and what its log line
// must say.
type appStep struct {
	op, user, method, path, body string
	status                       int
	violations, relies           []string
}

// appSequence is one request per operation as a front end might send
// them: most valid, some relying on the simulator's choices, some
// breaking request rules.
func appSequence(e *env) []appStep {
	rec := e.fx.Records
	ops := e.fx.Operations
	place := func(op, id string) string { return strings.ReplaceAll(ops[op].Path, "{id}", id) }
	return []appStep{
		{"E1", "owner", "POST", "/campus/2FA/Auth", `{"userid":"` + e.fx.SecondFactor.UserID + `"}`, 400, []string{"E1.400.required"}, nil},
		{"E3", "owner", "POST", "/campus/2FA/Push", "", 200, nil, nil},
		{"E4", "owner", "POST", "/campus/Faculty", "", 403, nil, nil},
		{"E5", "owner", "DELETE", "/consultation/Slot", `{"iDs":["` + rec.DeletableSlots[0] + `"]}`, 204, nil, []string{"D-delete-204"}},
		{"E6", "owner", "POST", "/bank/not-a-uuid/copy", "", 400, []string{"E6.400.uuid"}, nil},
		{"E7", "student", "POST", "/Attendance/Default", `{"resourceID":"` + rec.AttendanceResource + `"}`, 403, nil, []string{"D-extra-permissions"}},
		{"E8", "owner", "DELETE", "/Attendance/", `{"resourceID":"00000000-0000-4000-8000-000000000000","iDs":[]}`, 400, nil, []string{"D-unknown-id"}},
		{"E9", "owner", "GET", "/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion, "", 200, nil, nil},
		{"E10", "owner", "GET", "/files/" + rec.Folder + "/downloaded?StartDate=yesterday", "", 400, []string{"E10.400.date"}, []string{"D-limit-default", "D-sort-default", "D-date-bounds"}},
		{"E11", "owner", "GET", "/files/FileAnnotation/" + rec.File + "/all", "", 200, nil, []string{"D-sort-default"}},
		{"E12", "owner", "GET", "/module/Weblink/" + rec.Weblink + "/Log?limit=500", "", 200, nil, []string{"D-limit-bounds", "D-sort-default"}},
		{"E13", "owner", "GET", "/multimedia/" + rec.Media + "/downloadlog", "", 200, nil, nil},
		{"E14", "owner", "DELETE", "/multimedia/media", `{"iDs":["` + rec.DeletableMedia[0] + `"]}`, 200, nil, []string{"D-counts"}},
		{"E15", "owner", "GET", "/multimedia/statistics/channel/" + rec.Channel + "/users?limit=10&sortby=name%20desc", "", 200, nil, []string{"D-sortby-syntax"}},
		{"E16", "owner", "GET", "/multimedia/capture/" + rec.Capture + "/medias?limit=5&sortby=sessionName", "", 200, nil, []string{"D-sortby-syntax"}},
		{"E17", "owner", "GET", "/survey/question/" + rec.SurveyQuestion + "/response?limit=5&sortby=id", "", 200, nil, []string{"D-sortby-syntax"}},
		{"E18", "owner", "GET", "/poll/Question/" + rec.PollQuestion + "/Response?limit=5&sortby=id&where=id:x", "", 200, nil, []string{"D-sortby-syntax", "D-where-syntax"}},
		{"E19", "owner", "GET", "/poll/Response/" + rec.PollResponse, "", 200, nil, nil},
		{"E20", "owner", "GET", "/resource/00000000-0000-4000-8000-000000000000/students?limit=5&sortby=id", "", 200, nil, []string{"D-sortby-syntax", "D-unknown-id"}},
		{"E21", "owner", "PUT", "/weblecture/session/publish", `{"iDs":["` + rec.LectureSessions[0] + `"],"publish":true}`, 200, nil, []string{"D-counts"}},
		{"GB", "owner", ops["GB"].Method, place("GB", rec.GradebookModule.ID),
			`{"iD_Weightage":[{"key":"` + rec.GradebookModule.GradeItems[0] + `","value":300}],"gradingSchema":[{"letterGrade":"A","maxMark":100}]}`, 400, []string{"GB.total-over"}, []string{"D-unplaced-paths"}},
		{"ES", "owner", ops["ES"].Method, place("ES", rec.Evaluation), `{"publish":true}`, 200, nil, []string{"D-unplaced-paths"}},
		{"NG", "owner", ops["NG"].Method, place("NG", rec.Notification.GroupID) + "?populate=ancestor", "", 200, nil, []string{"D-unplaced-paths"}},
		{"NR", "owner", ops["NR"].Method, ops["NR"].Path, `{"id":1000001,"read":11}`, 200, nil, []string{"D-unplaced-paths"}},
		{"QS", "owner", ops["QS"].Method, ops["QS"].Path, `{"id":"` + rec.QuizSection.ID + `","name":"Renamed"}`, 200, nil, []string{"D-unplaced-paths"}},
		{"E2", "", "POST", "/campus/2FA/Poll", `{"transactionId":"x"}`, 401, nil, []string{"D-auth-401"}},
	}
}

func TestJSONLogHasViolationsAndRelies(t *testing.T) {
	var buf bytes.Buffer
	e := newEnv(t, Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	for _, st := range appSequence(e) {
		buf.Reset()
		r := e.do(st.user, st.method, st.path, st.body)
		if r.status != st.status {
			t.Errorf("%s %s %s: status %d, want %d; body %s", st.op, st.method, st.path, r.status, st.status, r.body)
		}
		var line struct {
			Op         string   `json:"op"`
			Violations []string `json:"violations"`
			Relies     []string `json:"relies"`
		}
		if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
			t.Fatalf("%s: log line %q: %v", st.op, buf.String(), err)
		}
		if !slices.Equal(line.Violations, st.violations) || !slices.Equal(line.Relies, st.relies) {
			t.Errorf("%s %s %s: log line has violations %q and relies %q, want %q and %q\nline: %s",
				st.op, st.method, st.path, line.Violations, line.Relies, st.violations, st.relies, buf.String())
		}
		if len(st.violations) == 0 && strings.Contains(buf.String(), `"violations"`) {
			t.Errorf("%s: log line %s: want no violations field when there are none", st.op, buf.String())
		}
	}
}

// TestTrafficRecord drives the app sequence with a traffic record and
// checks what the report will hold: the operations with counts and
// statuses, each violation once with its first request (no header), and
// each reliance with its warning text.
func TestTrafficRecord(t *testing.T) {
	var reported []wire.Traffic
	e := newEnv(t, Options{TrafficReport: func(tr wire.Traffic) (string, error) {
		reported = append(reported, tr)
		return "/reports", nil
	}, Control: true})
	steps := appSequence(e)
	for _, st := range steps {
		e.do(st.user, st.method, st.path, st.body)
	}
	// a second request breaking E10's date rule: counted, not a second example
	e.do("owner", "GET", e.fileLog()+"?EndDate=tomorrow", "")
	tr := e.sim.Traffic()
	if tr.Requests != len(steps)+1 || len(tr.Operations) != len(steps) {
		t.Fatalf("traffic: %d requests on %d operations, want %d on %d", tr.Requests, len(tr.Operations), len(steps)+1, len(steps))
	}
	for _, u := range tr.Operations {
		want := 1
		if u.Op == "E10" {
			want = 2
		}
		if u.Count != want || u.Method == "" || u.Path == "" {
			t.Errorf("operation %s: count %d at %s %s, want %d with its method and path", u.Op, u.Count, u.Method, u.Path, want)
		}
	}
	wantViol := map[string]bool{}
	wantRely := map[string]bool{}
	for _, st := range steps {
		for _, v := range st.violations {
			wantViol[v] = true
		}
		for _, d := range st.relies {
			wantRely[d] = true
		}
	}
	for _, v := range tr.Violations {
		if !wantViol[v.Requirement] {
			t.Errorf("violation %s: not broken by the sequence", v.Requirement)
		}
		delete(wantViol, v.Requirement)
		if v.Example.Method == "" || v.Example.Target == "" || v.What == "" || v.Status == 0 {
			t.Errorf("violation %s: example %+v, what %q, status %d: want the request, what broke it and the answer", v.Requirement, v.Example, v.What, v.Status)
		}
		if v.Requirement == "E10.400.date" && (v.Count != 2 || !strings.Contains(v.Example.Target, "StartDate=yesterday")) {
			t.Errorf("violation E10.400.date: count %d, example %s; want 2 and the first request", v.Count, v.Example.Target)
		}
	}
	if len(wantViol) > 0 {
		t.Errorf("violations missing from the record: %v", wantViol)
	}
	for _, r := range tr.Relies {
		if !wantRely[r.ID] {
			t.Errorf("reliance %s: not in the sequence", r.ID)
		}
		delete(wantRely, r.ID)
		if r.Instead == "" || r.Robust == "" || r.Count == 0 || len(r.Ops) == 0 {
			t.Errorf("reliance %+v: want what a real implementation may do, how to be robust, a count and the operations", r)
		}
	}
	if len(wantRely) > 0 {
		t.Errorf("reliances missing from the record: %v", wantRely)
	}
	b, _ := json.Marshal(tr)
	for _, secret := range e.fx.Secrets() {
		if strings.Contains(string(b), secret) {
			t.Errorf("traffic record holds the secret %q", secret)
		}
	}
	// on demand through the control API
	r := e.doWith("", "POST", e.sim.ControlPath()+"/report", "", map[string]string{"Ocp-Apim-Subscription-Key": ""})
	r.want(t, http.StatusOK)
	if len(reported) != 1 || reported[0].Requests != tr.Requests {
		t.Errorf("POST report: TrafficReport called %d times, want once with the record", len(reported))
	}
	if got := e.sim.Traffic().Requests; got != tr.Requests {
		t.Errorf("control API calls counted in the traffic: %d requests, want %d", got, tr.Requests)
	}
}

// TestTrafficReportNeedsAHook: without TrafficReport the control API says
// how to get one, and Traffic is empty.
func TestTrafficReportNeedsAHook(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	e.do("owner", "GET", e.fileLog(), "").want(t, 200)
	r := e.doWith("", "POST", e.sim.ControlPath()+"/report", "", nil)
	if r.status != http.StatusNotFound || !strings.Contains(r.errorString(t), "--report-dir") {
		t.Errorf("POST report without a hook: %d %s, want 404 naming --report-dir", r.status, r.body)
	}
	r = e.doWith("", "GET", e.sim.ControlPath()+"/traffic", "", nil)
	if r.status != http.StatusNotFound || !strings.Contains(r.errorString(t), "--report-dir") {
		t.Errorf("GET traffic without a record: %d %s, want 404 naming --report-dir (an empty record dated 0001-01-01 before)", r.status, r.body)
	}
	if tr := e.sim.Traffic(); tr.Requests != 0 {
		t.Errorf("Traffic without a record: %d requests, want 0", tr.Requests)
	}
}

// TestTextLogNotes: the text log carries the ids as a short note.
func TestTextLogNotes(t *testing.T) {
	var buf bytes.Buffer
	e := newEnv(t, Options{LogTo: &buf})
	e.do("owner", "GET", e.fileLog()+"?StartDate=x", "")
	want := "violations=E10.400.date relies=D-limit-default,D-sort-default,D-date-bounds"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("text log line %q: want %q", buf.String(), want)
	}
}

// TestConsoleEventsCarryIDs: with a stream open, the console's entries
// carry the violations and reliances; with none open, nothing is worked
// out.
func TestConsoleEventsCarryIDs(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	if (&devserver.Watch{Events: e.sim.events, Traffic: e.sim.traffic}).Inspecting() {
		t.Fatal("inspecting with no log, no record and no stream: want off, so a request costs nothing")
	}
	next, _ := e.events(t)
	e.do("owner", "GET", e.fileLog()+"?StartDate=x", "")
	got := next()
	if !slices.Equal(got.Violations, []string{"E10.400.date"}) || !slices.Contains(got.Relies, "D-date-bounds") {
		t.Errorf("console entry %+v: want violations [E10.400.date] and relies with D-date-bounds", got)
	}
}

// BenchmarkInspectCost is the in-process cost of the violations and
// reliances on a hot list read (E10, a page of 20): with no reader
// (nothing is worked out), and with the JSON log as reader (the request
// read against the rules, the ids logged).
func BenchmarkInspectCost(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"off", Options{}},
		{"json-log", Options{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}},
		{"json-log-bad-date", Options{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.opts.AllowedHosts = []string{testHost}
			sim, err := New(c.opts)
			if err != nil {
				b.Fatal(err)
			}
			fx := sim.Fixtures()
			path := "/files/" + fx.Records.Folder + "/downloaded?offset=10&limit=20"
			want := http.StatusOK
			if c.name == "json-log-bad-date" {
				path += "&StartDate=yesterday"
				want = http.StatusBadRequest
			}
			req := httptest.NewRequest("GET", path, nil)
			req.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
			req.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				sim.ServeHTTP(rec, req)
				if rec.Code != want {
					b.Fatalf("status %d, want %d", rec.Code, want)
				}
			}
		})
	}
}

// TestInspectedKeepsTheBody: reading the body for the rules leaves the
// handler the same bytes, and its limits: a body over MaxBodyBytes is
// still 413, its problems unjudged (the body was cut).
func TestInspectedKeepsTheBody(t *testing.T) {
	var buf bytes.Buffer
	e := newEnv(t, Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	big := `{"resourceID":"` + e.fx.Records.AttendanceResource + `","pad":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	e.do("owner", "POST", "/Attendance/Default", big).want(t, http.StatusRequestEntityTooLarge)
	if strings.Contains(buf.String(), `"violations"`) {
		t.Errorf("a cut body was judged: %s", buf.String())
	}
	e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).want(t, http.StatusCreated)
}
