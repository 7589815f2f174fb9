package simulator

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
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
		{"E20", "owner", "GET", "/resource/" + rec.Resource + "/students?limit=5&sortby=id", "", 200, nil, []string{"D-sortby-syntax"}},
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
	_ = http.StatusOK
}
