package simulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestEveryOperationAnswers sends one valid request to every operation as
// the owner and checks the success status.
func TestEveryOperationAnswers(t *testing.T) {
	e := newEnv(t, Options{})
	rec := e.fx.Records
	ops := e.fx.Operations
	otp := ""
	tests := []struct {
		op, method, path, body string
		want                   int
	}{
		{"E1", "POST", "/campus/2FA/Auth", `{"userid":"` + e.fx.SecondFactor.UserID + `","otp":"` + otp + `000000"}`, 200},
		{"E3", "POST", "/campus/2FA/Push", "", 200},
		{"E5", "DELETE", "/consultation/Slot", `{"iDs":["` + rec.DeletableSlots[0] + `"]}`, 204},
		{"E6", "POST", "/bank/" + rec.BankFolder + "/copy?populate=Creator", "", 201},
		{"E7", "POST", "/Attendance/Default", `{"resourceID":"` + rec.AttendanceResource + `"}`, 201},
		{"E8", "DELETE", "/Attendance/", `{"resourceID":"` + rec.AttendanceResource + `","iDs":[]}`, 204},
		{"E9", "GET", "/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion, "", 200},
		{"E10", "GET", "/files/" + rec.Folder + "/downloaded", "", 200},
		{"E11", "GET", "/files/FileAnnotation/" + rec.File + "/all", "", 200},
		{"E12", "GET", "/module/Weblink/" + rec.Weblink + "/Log", "", 200},
		{"E13", "GET", "/multimedia/" + rec.Media + "/downloadlog", "", 200},
		{"E14", "DELETE", "/multimedia/media", `{"iDs":["` + rec.DeletableMedia[0] + `"]}`, 200},
		{"E15", "GET", "/multimedia/statistics/channel/" + rec.Channel + "/users", "", 200},
		{"E16", "GET", "/multimedia/capture/" + rec.Capture + "/medias", "", 200},
		{"E17", "GET", "/survey/question/" + rec.SurveyQuestion + "/response", "", 200},
		{"E18", "GET", "/poll/Question/" + rec.PollQuestion + "/Response", "", 200},
		{"E19", "GET", "/poll/Response/" + rec.PollResponse, "", 200},
		{"E20", "GET", "/resource/" + rec.Resource + "/students", "", 200},
		{"E21", "PUT", "/weblecture/session/publish", `{"iDs":["` + rec.LectureSessions[0] + `"],"publish":true}`, 200},
		{"GB", ops["GB"].Method, strings.ReplaceAll(ops["GB"].Path, "{id}", rec.GradebookModule.ID),
			`{"iD_Weightage":[{"key":"` + rec.GradebookModule.GradeItems[0] + `","value":30}],"gradingSchema":[{"letterGrade":"A","maxMark":100}]}`, 200},
		{"ES", ops["ES"].Method, strings.ReplaceAll(ops["ES"].Path, "{id}", rec.Evaluation), `{"publish":true}`, 200},
		{"NG", ops["NG"].Method, strings.ReplaceAll(ops["NG"].Path, "{id}", rec.Notification.GroupID) + "?populate=ancestor", "", 200},
		{"NR", ops["NR"].Method, ops["NR"].Path, `{"id":1000001,"read":11}`, 200},
		{"QS", ops["QS"].Method, ops["QS"].Path, `{"id":"` + rec.QuizSection.ID + `","name":"Renamed"}`, 200},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			r := e.do("owner", tt.method, tt.path, tt.body)
			if r.status != tt.want {
				t.Fatalf("%s %s: status = %d, want %d; body %s", tt.method, tt.path, r.status, tt.want, r.body)
			}
			t.Logf("%s", r.body[:min(len(r.body), 300)])
		})
	}
	r := e.do("admin", "POST", "/campus/Faculty", "")
	r.want(t, http.StatusOK)
}
