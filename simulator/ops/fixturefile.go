package ops

import (
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// Fixtures returns the fixture file of the world, described as
// description: credentials per role, the ids of the seeded records, where
// the unplaced operations live, and the refusals of the role model beyond
// the two the specification states. It describes the world as seeded
// (Reset restores it); the control API's path and the self-reset are the
// simulator's to add.
func (env *Env) Fixtures(description string) *fixtures.File {
	f := &fixtures.File{
		Version:         fixtures.Version,
		Description:     description,
		SubscriptionKey: env.store.SubscriptionKey(),
		Users:           map[string]fixtures.User{},
		Operations:      map[string]fixtures.Operation{},
		Conventions:     fixtures.Conventions{Sortby: fixtures.Sortby{Ascending: "{field} asc", Descending: "{field} desc", Separator: listing.SortSeparator}},
	}
	for _, u := range env.store.Users() {
		f.Users[u.Fixture] = fixtures.User{Headers: map[string]string{"Authorization": "Bearer " + u.Token}, UserID: u.UserID}
		if u.Fixture == "owner" {
			f.SecondFactor = fixtures.SecondFactor{UserID: u.UserID, TOTPSecret: u.TOTPSecret, ApprovingUser: "owner", DenyingUser: "staff"}
		}
	}
	r := env.refs
	f.Records = fixtures.Records{
		BankFolder: r.BankFolder, AttendanceResource: r.AttendanceResource,
		Evaluation: r.Evaluation, EvaluationQuestion: r.EvaluationQuestion, OtherEvaluationQuestion: r.OtherEvaluationQuestion,
		Folder: r.Folder, File: r.File, Weblink: r.Weblink, Media: r.Media,
		DeletableMedia: append([]string(nil), r.DeletableMedia...),
		Channel:        r.Channel, Capture: r.Capture, SurveyQuestion: r.SurveyQuestion,
		PollQuestion: r.PollQuestion, PollResponse: r.PollResponse, Resource: r.Resource,
		DeletableSlots:  append([]string(nil), r.DeletableSlots...),
		LectureSessions: append([]string(nil), r.LectureSessions...),
		GradebookModule: &fixtures.GradebookModule{ID: r.GradebookModule, GradeItems: append([]string(nil), r.GradeItems...)},
		Notification:    &fixtures.Notification{ID: r.Notification, GroupID: r.NotificationGroup},
		QuizSection:     &fixtures.QuizSection{ID: r.QuizSection, Name: r.QuizSectionName},
	}
	for _, op := range operations {
		if op.Placed {
			continue
		}
		method, path := env.place(op)
		fo := fixtures.Operation{Method: method, Path: path}
		if describe, ok := bodiesNotShown[op.ID]; ok {
			describe(&fo)
		}
		f.Operations[string(op.ID)] = fo
	}
	for _, op := range operations {
		if op.Stated != "" {
			continue // a permission the specification states
		}
		for _, name := range []string{"admin", "owner", "staff", "student"} {
			if op.refuses(roleOf(name)) {
				f.Forbidden = append(f.Forbidden, fixtures.Forbidden{Operation: string(op.ID), User: name})
			}
		}
	}
	env.varyFixtures(f)
	return f
}

// roleOf maps a fixture user name to its role.
func roleOf(name string) store.Role {
	for _, fu := range []struct {
		name string
		role store.Role
	}{{"admin", store.RoleSuperAdmin}, {"owner", store.RoleOwner}, {"staff", store.RoleStaff}, {"student", store.RoleStudent}} {
		if fu.name == name {
			return fu.role
		}
	}
	return ""
}
