package defects

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// Rewrite is a response defect: one edit of the encoded bodies of the
// operations that answer a record. The simulator carries it out after the
// handler has written a 2xx JSON body, so the handler stays faithful and the
// mistake is exactly the edit.
type Rewrite struct {
	// Record is the OpenAPI component name of the record edited, e.g.
	// "Attendance". Empty means every operation whose body is a list (for
	// the body-level edit Envelope).
	Record string
	// Op, when set, limits the edit to that operation's answers, for a
	// record more than one operation answers.
	Op registry.OpID
	// Nested, when set, is the array member of Record holding the records
	// edited (Notification.ancestor holds Targets).
	Nested string
	// Field is the member edited.
	Field string
	Edit  Edit
	// Arg is the edit's argument: the new name (Rename), a JSON value
	// (Replace), a JSON object mapping values to values (Map), a Go time
	// layout (DateLayout), a format with one %s (Format).
	Arg string
}

// Edit is what a Rewrite does to a field's member.
type Edit int

// The edits.
const (
	// Rename gives the member another name, in place.
	Rename Edit = iota + 1
	// Replace replaces the value by Arg.
	Replace
	// Map replaces a value found in the object Arg by its mapping.
	Map
	// Quote sends the value's JSON text as a JSON string: 12 -> "12",
	// [0,2] -> "[0,2]".
	Quote
	// Unquote sends a string of digits as a JSON number: "0000" -> 0.
	Unquote
	// DateLayout re-formats an RFC 3339 string with the Go layout Arg.
	DateLayout
	// Format re-formats a string with Arg, e.g. "{%s}".
	Format
	// Envelope wraps a list body in {"items": [...], "total": n}.
	Envelope
	// ArrayOfOne sends a record body as an array of that one record.
	ArrayOfOne
)

// shape is one response defect of a record: its name suffix, what a
// reader is told, the requirement it breaks and the edit.
type shape struct {
	name                     Name
	description, requirement string
	rewrite                  Rewrite
}

// shapes are the record defects: for each record one near-miss name
// (REC.<Record>.names) and one wrong type or format (REC.<Record>.types),
// and one value outside each stated enum or range. Fields the scenarios read
// for other rules (status, id, transactionId, notifyStatus, the sort and
// search fields) are left alone where another field serves, so each defect
// is seen as the rule it breaks; where the suite reads the field anyway, the
// body check runs first on every response and names the record's rule.
var shapes = []shape{
	// Second-factor result (E1).
	misnamed("e1-result", "E1 spells requestId as requestID",
		"SecondFactorResult", "requestId", "requestID"),
	mistyped("e1-result", "E1 sends status as a number (0) instead of the string \"0000\"",
		Rewrite{Record: "SecondFactorResult", Field: "status", Edit: Unquote}),
	// Push / poll result (E2, E3).
	misnamed("push-result", "E2 and E3 spell credentialId as credentialID",
		"PushResult", "credentialId", "credentialID"),
	mistyped("push-result", "E2 and E3 send status as a number (0, 7002) instead of a string",
		Rewrite{Record: "PushResult", Field: "status", Edit: Unquote}),
	// Faculty (E4).
	misnamed("faculty", "E4 spells isisAcadorgnunitN as isisAcadOrgnUnitN",
		"Faculty", "isisAcadorgnunitN", "isisAcadOrgnUnitN"),
	mistyped("faculty", "E4 sends deptCreateD as a bare date (2006-01-02), not an RFC 3339 date-time",
		Rewrite{Record: "Faculty", Field: "deptCreateD", Edit: DateLayout, Arg: "2006-01-02"}),
	// Bank folder (E6).
	misnamed("bank-folder", "E6 spells is2FaEnabled as is2FAEnabled",
		"BankFolder", "is2FaEnabled", "is2FAEnabled"),
	mistyped("bank-folder", "E6 sends createdDate as \"2006-01-02 15:04:05\", not RFC 3339",
		Rewrite{Record: "BankFolder", Field: "createdDate", Edit: DateLayout, Arg: "2006-01-02 15:04:05"}),
	// Attendance (E7).
	misnamed("attendance", "E7 spells the attendance's userMatricNo as userMatrixNo",
		"Attendance", "userMatricNo", "userMatrixNo"),
	mistyped("attendance", "E7 sends createdDate without an offset (2006-01-02T15:04:05), not RFC 3339",
		Rewrite{Record: "Attendance", Field: "createdDate", Edit: DateLayout, Arg: "2006-01-02T15:04:05"}),
	// Evaluation question (E9).
	misnamed("question", "E9 spells requireRationale as requireRational (the quiz section's spelling)",
		"EvaluationQuestion", "requireRationale", "requireRational"),
	mistyped("question", "E9 sends mark as a string (\"5\") instead of a number",
		Rewrite{Record: "EvaluationQuestion", Field: "mark", Edit: Quote}),
	outOfRange("question-mark-range", "E9 answers mark 10001, one over the stated maximum of 10000",
		Rewrite{Record: "EvaluationQuestion", Field: "mark", Edit: Replace, Arg: "10001"}),
	outOfRange("question-difficulty-range", "E9 answers difficultyLevel 4, outside 0..3",
		Rewrite{Record: "EvaluationQuestion", Field: "difficultyLevel", Edit: Replace, Arg: "4"}),
	outOfRange("question-timestamp-range", "E9 answers videoTimeStamp -1 for a question without a video time, outside 0..2147483647",
		Rewrite{Record: "EvaluationQuestion", Field: "videoTimeStamp", Edit: Replace, Arg: "-1"}),
	// Evaluation (evaluation session update).
	misnamed("evaluation", "evaluation session update spells updatedby as updatedBy",
		"Evaluation", "updatedby", "updatedBy"),
	mistyped("evaluation", "evaluation session update sends startDate without an offset, not RFC 3339",
		Rewrite{Record: "Evaluation", Field: "startDate", Edit: DateLayout, Arg: "2006-01-02T15:04:05"}),
	outOfRange("evaluation-method-range", "evaluation session update answers evaluationMethod 4, outside 0..3",
		Rewrite{Record: "Evaluation", Field: "evaluationMethod", Edit: Replace, Arg: "4"}),
	outOfRange("evaluation-type-range", "evaluation session update answers evaluationType 6, outside 0..5",
		Rewrite{Record: "Evaluation", Field: "evaluationType", Edit: Replace, Arg: "6"}),
	// Gradebook settings.
	misnamed("gradebook", "gradebook update spells iD_Weightage as ID_Weightage",
		"GradebookSettings", "iD_Weightage", "ID_Weightage"),
	mistyped("gradebook", "gradebook update sends the grading schema's maxMark as strings (\"100\")",
		Rewrite{Record: "GradebookSettings", Nested: "gradingSchema", Field: "maxMark", Edit: Quote}),
	// File activity log entry (E10).
	misnamed("file-log", "E10 spells userGuid as userGUID",
		"FileLog", "userGuid", "userGUID"),
	{"file-log-types", "E10 sends targetID in braces ({...}), not a uuid", "REC.FileLog.types",
		Rewrite{Record: "FileLog", Field: "targetID", Edit: Format, Arg: "{%s}"}},
	outOfRange("file-log-action-range", "E10 answers the action \"Downloaded\" instead of one of the listed kinds",
		Rewrite{Record: "FileLog", Field: "action", Edit: Replace, Arg: `"Downloaded"`}),
	// File annotation (E11).
	misnamed("annotation", "E11 spells annotationId as annotationID",
		"FileAnnotation", "annotationId", "annotationID"),
	{"annotation-types", "E11 sends documentId in braces ({...}), not a uuid", "REC.FileAnnotation.types",
		Rewrite{Record: "FileAnnotation", Field: "documentId", Edit: Format, Arg: "{%s}"}},
	// Weblink view log entry (E12).
	misnamed("weblink-log", "E12 spells creatorUserMatricNo as creatorUserMatrixNo",
		"WeblinkLog", "creatorUserMatricNo", "creatorUserMatrixNo"),
	mistyped("weblink-log", "E12 sends logDate as \"02/01/2006 15:04:05\", not RFC 3339",
		Rewrite{Record: "WeblinkLog", Field: "logDate", Edit: DateLayout, Arg: "02/01/2006 15:04:05"}),
	// Media log entry (E13).
	misnamed("media-log", "E13 spells userID as userId",
		"MediaLog", "userID", "userId"),
	mistyped("media-log", "E13 sends logDate without an offset, not RFC 3339",
		Rewrite{Record: "MediaLog", Field: "logDate", Edit: DateLayout, Arg: "2006-01-02T15:04:05"}),
	// Channel user statistics entry (E15).
	misnamed("channel-user", "E15 spells matrixNo as matricNo",
		"ChannelUser", "matrixNo", "matricNo"),
	mistyped("channel-user", "E15 sends plays as a string (\"12\") instead of an integer",
		Rewrite{Record: "ChannelUser", Field: "plays", Edit: Quote}),
	// Lecture-capture session (E16).
	misnamed("capture", "E16 spells mP4Url as mp4Url",
		"CaptureSession", "mP4Url", "mp4Url"),
	mistyped("capture", "E16 sends duration as a string (\"3600\") instead of a number",
		Rewrite{Record: "CaptureSession", Field: "duration", Edit: Quote}),
	// Survey response (E17).
	misnamed("survey-response", "E17 spells creatorID as creatorId (the poll response's spelling)",
		"SurveyResponse", "creatorID", "creatorId"),
	mistyped("survey-response", "E17 sends options as JSON text in a string (\"[0,2]\") instead of an array",
		Rewrite{Record: "SurveyResponse", Field: "options", Edit: Quote}),
	// Poll response (E18, E19).
	misnamed("poll-response", "E18 and E19 spell creatorId as creatorID (the survey response's spelling)",
		"PollResponse", "creatorId", "creatorID"),
	mistyped("poll-response", "E18 and E19 send selectedOptions as JSON text in a string (\"[0,2]\")",
		Rewrite{Record: "PollResponse", Field: "selectedOptions", Edit: Quote}),
	// Student entry (E20).
	misnamed("student", "E20 spells the student's userMatricNo as userMatrixNo",
		"Student", "userMatricNo", "userMatrixNo"),
	{"student-types", "E20 sends the student's id in braces ({...}), not a uuid", "REC.Student.types",
		Rewrite{Record: "Student", Field: "id", Edit: Format, Arg: "{%s}"}},
	// Notification (NG, NR).
	misnamed("notification", "notifications spell targetID as targetId",
		"Notification", "targetID", "targetId"),
	mistyped("notification", "notifications send the int64 id as a string (\"1000001\")",
		Rewrite{Record: "Notification", Field: "id", Edit: Quote}),
	{"notification-status-range", "notifications answer notifyStatus 0 (unread) and 1 (read) instead of 10 and 11", "REC.Notification.notifyStatus",
		Rewrite{Record: "Notification", Field: "notifyStatus", Edit: Map, Arg: `{"10": 0, "11": 1}`}},
	{"target-type-range", "notification ancestors answer typeID 3, not one of the allowed type ids", "REC.Target.typeID",
		Rewrite{Record: "Notification", Nested: "ancestor", Field: "typeID", Edit: Replace, Arg: "3"}},
	// Which record an answer is about.
	{"survey-response-question", "E17 fills each response's questionID with the survey's id instead of the question's", "E17.question",
		Rewrite{Record: "SurveyResponse", Field: "questionID", Edit: Replace, Arg: `"5b2f1c3e-7a40-4c1e-9d1a-0c0ffee00017"`}},
	{"poll-response-question", "E18 and E19 fill each response's questionID with the poll's id instead of the question's", "E18.question",
		Rewrite{Record: "PollResponse", Field: "questionID", Edit: Replace, Arg: `"5b2f1c3e-7a40-4c1e-9d1a-0c0ffee00018"`}},
	{"notification-group", "notifications answer the notification's own target in notifyGroupId instead of its group", "NG.group",
		Rewrite{Record: "Notification", Field: "notifyGroupId", Edit: Replace, Arg: `"5b2f1c3e-7a40-4c1e-9d1a-0c0ffee000a6"`}},
	// Quiz section (QS).
	misnamed("quiz-section", "quiz section update spells requireRational as requireRationale (the question's spelling)",
		"QuizSection", "requireRational", "requireRationale"),
	mistyped("quiz-section", "quiz section update sends displayedRandomQuestions as a string (\"0\")",
		Rewrite{Record: "QuizSection", Field: "displayedRandomQuestions", Edit: Quote}),
}

// shapeCollateral are the second rules a record defect of the table
// really touches, by defect.
var shapeCollateral = map[Name][]string{
	// E19's response names a question whose responses (E18) do not list
	// it: the two answers of one record disagree.
	"poll-response-question": {"E19.agrees"},
}

// misnamed is the near-miss name defect <prefix>-names of record rec
// (REC.<rec>.names): its member field is sent as respelled.
func misnamed(prefix, description, rec, field, respelled string) shape {
	return shape{Name(prefix + "-names"), description, "REC." + rec + ".names",
		Rewrite{Record: rec, Field: field, Edit: Rename, Arg: respelled}}
}

// mistyped is the wrong type or format defect <prefix>-types of the record
// rw edits (REC.<Record>.types).
func mistyped(prefix, description string, rw Rewrite) shape {
	return shape{Name(prefix + "-types"), description, "REC." + rw.Record + ".types", rw}
}

// outOfRange is a defect answering the member rw edits outside its stated
// enum or range (REC.<Record>.<Field>).
func outOfRange(name Name, description string, rw Rewrite) shape {
	return shape{name, description, "REC." + rw.Record + "." + rw.Field, rw}
}

// shapeDefects returns the record defects as Defects: those of the table,
// then a default pair for every record an operation answers that the
// table does not cover (defaultShapes).
func shapeDefects() []Defect {
	all := append(slices.Clone(shapes), defaultShapes()...)
	out := make([]Defect, len(all))
	for i, s := range all {
		rw := s.rewrite
		out[i] = Defect{Name: s.name, Description: s.description, Requirements: []string{s.requirement}, Rewrite: &rw, Collateral: shapeCollateral[s.name]}
	}
	return out
}

// defaultShapes are the names and types defects of the records the
// registry's operations answer and the table leaves out, drawn from the
// record's schema in the OpenAPI document: the first optional field
// respelled in another case for REC.<Record>.names (a required one would
// also be missing, which breaks .types), and the first uuid, number,
// boolean or date-time field sent in a wrong type or format for
// REC.<Record>.types. A new kind of record is thus covered
// without an entry here; a hand-written pair in the table, naming a
// mistake a vendor would make, replaces them.
func defaultShapes() []shape {
	covered := map[string]bool{}
	for _, s := range shapes {
		covered[s.requirement] = true
	}
	return defaultShapesBut(covered)
}

// defaultShapesBut is defaultShapes for the records whose requirements
// covered leaves out.
func defaultShapesBut(covered map[string]bool) []shape {
	doc, err := openapi.Load()
	if err != nil {
		return nil // the document's own tests say why
	}
	var out []shape
	seen := map[string]bool{}
	for _, op := range registry.All() {
		rec := op.Record
		ref := doc.Components.Schemas[rec]
		if rec == "" || seen[rec] || ref == nil || ref.Value == nil {
			continue
		}
		seen[rec] = true
		fields := slices.Sorted(maps.Keys(ref.Value.Properties))
		optional := slices.DeleteFunc(slices.Clone(fields), func(f string) bool { return slices.Contains(ref.Value.Required, f) })
		name := kebab(rec)
		if req := "REC." + rec + ".names"; !covered[req] && len(optional) > 0 {
			// an optional field: a required one respelled would be missing too
			f := optional[0]
			respelled := strings.ToUpper(f[:1]) + f[1:]
			if respelled == f {
				respelled = strings.ToLower(f[:1]) + f[1:]
			}
			out = append(out, misnamed(name, fmt.Sprintf("%s spells %s as %s", rec, f, respelled), rec, f, respelled))
		}
		if req := "REC." + rec + ".types"; !covered[req] {
			for _, f := range fields {
				if rw, what, ok := wrongType(rec, f, ref.Value.Properties[f]); ok {
					out = append(out, mistyped(name, fmt.Sprintf("%s sends %s %s", rec, f, what), rw))
					break
				}
			}
		}
	}
	return out
}

// wrongType is an edit that sends field f of record rec in a wrong type or
// format, and says what it sends; ok is false for a plain string, which
// has no wrong form a rewrite can give.
func wrongType(rec, f string, s *openapi3.SchemaRef) (rw Rewrite, what string, ok bool) {
	if s == nil || s.Value == nil {
		return Rewrite{}, "", false
	}
	v := s.Value
	rw = Rewrite{Record: rec, Field: f}
	switch {
	case v.Type.Is(openapi3.TypeString) && v.Format == "uuid":
		rw.Edit, rw.Arg, what = Format, "{%s}", "in braces ({...}), not a uuid"
	case v.Type.Is(openapi3.TypeString) && v.Format == "date-time":
		rw.Edit, rw.Arg, what = DateLayout, "2006-01-02 15:04:05", "as \"2006-01-02 15:04:05\", not RFC 3339"
	case v.Type.Is(openapi3.TypeNumber) || v.Type.Is(openapi3.TypeInteger) || v.Type.Is(openapi3.TypeBoolean):
		rw.Edit, what = Quote, "as a string"
	default:
		return Rewrite{}, "", false
	}
	return rw, what, true
}

// kebab writes a record's name in the defects' spelling: FileComment ->
// file-comment.
func kebab(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// StatusChange is a status defect: the operation Op answers To where the
// specification has it answer From. The simulator carries it out on the
// answer its handler wrote, so the handler stays faithful: the body stays
// as it was, but a 204 has neither body nor Content-Type.
type StatusChange struct {
	Op       registry.OpID
	From, To int
}

// String describes the change, for tests and messages.
func (c StatusChange) String() string { return fmt.Sprintf("%s %d -> %d", c.Op, c.From, c.To) }

// String describes the edit, for tests and messages.
func (r Rewrite) String() string {
	where := r.Record
	if r.Nested != "" {
		where += "." + r.Nested + "[]"
	}
	names := map[Edit]string{Rename: "rename", Replace: "replace", Map: "map", Quote: "quote", Unquote: "unquote", DateLayout: "date-layout", Format: "format", Envelope: "envelope", ArrayOfOne: "array-of-one"}
	return fmt.Sprintf("%s %s.%s %s", names[r.Edit], where, r.Field, r.Arg)
}
