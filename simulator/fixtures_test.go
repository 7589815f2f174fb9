package simulator

import (
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/uuid"

	"github.com/campusconf/campusconf/fixtures"
)

func TestFixtureFile(t *testing.T) {
	const token = "fixture-test-token-0123"
	for _, control := range []bool{false, true} {
		sim, err := New(Options{Control: control, ControlToken: token})
		if err != nil {
			t.Fatal(err)
		}
		f, err := fixtures.Parse(sim.Fixtures().JSON())
		if err != nil {
			t.Fatalf("fixture file does not parse: %v", err)
		}
		if want := map[bool]string{false: "", true: "/_sim/" + token}[control]; f.Control != want {
			t.Errorf("control = %q with Control %v, want %q", f.Control, control, want)
		}
		rec := f.Records
		for name, id := range map[string]string{
			"bankFolder": rec.BankFolder, "attendanceResource": rec.AttendanceResource, "evaluation": rec.Evaluation,
			"evaluationQuestion": rec.EvaluationQuestion, "folder": rec.Folder, "file": rec.File, "weblink": rec.Weblink,
			"media": rec.Media, "channel": rec.Channel, "capture": rec.Capture, "surveyQuestion": rec.SurveyQuestion,
			"pollQuestion": rec.PollQuestion, "pollResponse": rec.PollResponse, "resource": rec.Resource,
		} {
			if _, err := uuid.Parse(id); err != nil || id != strings.ToLower(id) {
				t.Errorf("records.%s = %q, want a lower-case uuid", name, id)
			}
		}
		for name, n := range map[string]int{"deletableMedia": len(rec.DeletableMedia), "deletableSlots": len(rec.DeletableSlots), "lectureSessions": len(rec.LectureSessions), "gradeItems": len(rec.GradebookModule.GradeItems)} {
			if n < 2 {
				t.Errorf("records.%s has %d ids, want at least 2", name, n)
			}
		}
		if rec.Notification == nil || rec.Notification.ID == 0 || rec.QuizSection == nil || rec.QuizSection.ID == "" {
			t.Error("records.notification or records.quizSection missing")
		}
		for _, role := range []string{"admin", "owner", "staff", "student"} {
			if f.Users[role].Headers["Authorization"] == "" {
				t.Errorf("users.%s has no Authorization header", role)
			}
		}
		if len(f.Operations) != len(registry.Unplaced()) || f.Operations["ES"].Body == nil {
			t.Errorf("operations = %v, want all five, the session update with a body", f.Operations)
		}
		sf := f.SecondFactor
		if sf.UserID == "" || sf.TOTPSecret == "" || sf.ApprovingUser != "owner" || sf.DenyingUser != "staff" {
			t.Errorf("secondFactor = %+v", sf)
		}
		if f.Conventions.Sortby.Key("name", true) != "name desc" || f.Conventions.Sortby.Separator != "," {
			t.Errorf("conventions.sortby = %+v", f.Conventions.Sortby)
		}
	}
}
