package openapi

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Benchmark figures (BenchmarkCheckFileLog25 about 270-440 µs/op, 1050
// allocs; BenchmarkCheckAttendance about 16-28 µs/op, 52 allocs, on the
// shared 2-vCPU machine) and how they divide up: see README.md.

const (
	u1 = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
	u2 = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	u3 = "0d5c0b4e-8f5e-4a8e-9b8c-7a1e2f3d4c5b"
	t1 = "2025-03-01T09:30:00Z"
	t2 = "2025-03-02T10:00:00.123+08:00"
)

// example is a valid body for one operation and status.
type example struct {
	op     string
	status int
	record string // the record the body carries (or holds, for nested ones)
	body   string
}

var examples = []example{
	{"E1", 200, "SecondFactorResult", `{"status":"0000","credentialId":"c-1","requestId":"r-1","statusMessage":"ok"}`},
	{"E2", 200, "PushResult", `{"status":"7002","transactionId":"tx-1","credentialId":"c-1","statusMessage":"denied"}`},
	{"E3", 200, "PushResult", `{"status":"0000","transactionId":"tx-2"}`},
	{"E4", 200, "Faculty", `[{"deptC":"CS","deptT1":"Computing","deptT2":"School of Computing","facC":"SOC","defunctF":"N","sapDeptT2":"x","sapDeptC":"y","sapDeptT1":"z","deptClstrC":"c","isisAcadorgnunitN":"n","deptCreateD":"` + t1 + `","deptStD":"` + t1 + `","deptUpdD":"` + t2 + `"}]`},
	{"E5", 200, "", `["` + u1 + `","` + u2 + `"]`},
	{"E5", 204, "", ``},
	{"E6", 201, "BankFolder", `{"id":"` + u1 + `","name":"Shared","description":"d","type":"Question","is2FaEnabled":false,"createdDate":"` + t1 + `","creatorID":"` + u2 + `","userID":"e0123","userName":"Tan","email":"tan@example.edu","readonlyAccess":true}`},
	{"E7", 201, "Attendance", `{"id":"` + u1 + `","name":"Week 1","resourceID":"` + u2 + `","publish":true,"createdDate":"` + t1 + `","creatorID":"` + u3 + `","photoUrl":"https://example.edu/p.png","userName":"Tan","userID":"e0123","userMatricNo":"A0123456X","email":"tan@example.edu","description":"","isDefault":true}`},
	{"E8", 204, "", ``},
	{"E9", 200, "EvaluationQuestion", `{"id":"` + u1 + `","resourceID":"` + u2 + `","parentID":"` + u3 + `","type":"essay","forAssessment":false,"text":"Why?","solution":"Because.","publish":true,"mark":10000,"requireRationale":false,"difficultyLevel":3,"videoTimeStamp":2147483647,"createdDate":"` + t1 + `","lastUpdatedDate":"` + t2 + `","lastUpdatedBy":"Tan","kutags":[{"id":"` + u1 + `","tagName":"week1","targetId":"` + u2 + `","rootId":"` + u3 + `","tagType":1,"userId":"` + u1 + `","operationType":"add"}]}`},
	{"E10", 200, "FileLog", `[{"action":"Download File","targetID":"` + u1 + `","userGuid":"` + u2 + `","userID":"e0123","name":"Tan","userMatricNo":"A0123456X","email":"tan@example.edu","fileName":"a.pdf","folderName":"Week 1","folderID":"f-1","logDate":"` + t1 + `"},{"action":"Update Folder","logDate":"` + t2 + `"}]`},
	{"E11", 200, "FileAnnotation", `[{"annotationId":"` + u1 + `","documentId":"` + u2 + `","xfdfString":"<xfdf/>"}]`},
	{"E12", 200, "WeblinkLog", `[{"targetID":"` + u1 + `","logDate":"` + t1 + `","ip":"10.0.0.1","userGuid":"` + u2 + `","creatorUserMatricNo":"A0123456X","creatorUserID":"e0123","creatorName":"Tan","creatorEmail":"tan@example.edu"}]`},
	{"E13", 200, "MediaLog", `{"title":"Lecture 1","userID":"e0123","name":"Tan","email":"tan@example.edu","department":"CS","logDate":"` + t1 + `"}`},
	{"E14", 200, "", `3`},
	{"E15", 200, "ChannelUser", `[{"name":"Tan","matrixNo":"A0123456X","photoUrl":"p","plays":2147483647,"downloads":0,"comments":-2147483648,"minutesViewed":12.5}]`},
	{"E16", 200, "CaptureSession", `[{"sessionID":"` + u1 + `","urlID":"` + u2 + `","mP4Url":"a.mp4","mP3Url":"a.mp3","viewerURL":"v","sessionName":"L1","startTime":"` + t1 + `","endTime":"` + t2 + `","duration":3600.5}]`},
	{"E17", 200, "SurveyResponse", `[{"id":"` + u1 + `","createdDate":"` + t1 + `","creatorID":"` + u2 + `","userId":"e0123","userName":"Tan","userMatrixNo":"A0123456X","questionID":"` + u3 + `","options":[2,0,1],"text":"other","tof":true,"blank":["a","b"]}]`},
	{"E18", 200, "PollResponse", `[{"id":"` + u1 + `","questionID":"` + u2 + `","createdDate":"` + t1 + `","creatorId":"` + u3 + `","userId":"e0123","userName":"Tan","userMatrixNo":"A0123456X","photo":"p","selectedOptions":[0,2],"text":"t"}]`},
	{"E19", 200, "PollResponse", `{"id":"` + u1 + `","questionID":"` + u2 + `","selectedOptions":[]}`},
	{"E20", 200, "Student", `[{"id":"` + u1 + `","userID":"e0123","userName":"Tan","userMatricNo":"A0123456X","officialEmail":"tan@u.example.edu","email":"tan@example.edu","userFaculty":"SOC","loginDomain":"u","photo":"p"}]`},
	{"E21", 200, "", `0`},
	{"GB", 200, "GradebookSettings", `{"resourceID":"` + u1 + `","iD_Weightage":[{"key":"` + u2 + `","value":40},{"key":"` + u3 + `","value":60.5}],"gradingSchema":[{"letterGrade":"A","maxMark":100},{"letterGrade":"B","maxMark":79.5}]}`},
	{"ES", 200, "Evaluation", `{"id":"` + u1 + `","parentID":"` + u2 + `","name":"Peer review","startDate":"` + t1 + `","endDate":"` + t2 + `","instructionalText":"Be kind","evaluationMethod":2,"evaluationType":5,"maximumScore":100,"isTask":false,"rubricID":"` + u3 + `","groupIDs":["` + u1 + `"],"publish":true,"creatorID":"` + u2 + `","updatedby":"` + u3 + `","createdDate":"` + t1 + `","updatedDate":"` + t2 + `","displayAnonymous":true,"displayNothing":false,"publishResultDate":"` + t2 + `","displayScore":true,"displayAverageScore":false,"displayComment":true,"displayDetailsMapping":false}`},
	{"NG", 200, "Notification", `{"id":9223372036854775807,"targetID":"` + u1 + `","notifyGroupId":"` + u2 + `","type":"Module","recordDate":"` + t1 + `","notifyMessage":"New file","notifyStatus":10,"ancestor":[{"id":"` + u3 + `","name":"CS1010","typeID":1006,"typeName":"Module","isResourceType":true}]}`},
	{"NR", 200, "Notification", `{"id":1,"notifyStatus":11}`},
	{"QS", 200, "QuizSection", `{"id":"` + u1 + `","assessmentId":"` + u2 + `","name":"Part A","description":"d","displayQuestionMark":false,"displayedRandomQuestions":5,"randomizeQuestions":true,"randomizeOptions":false,"requireRational":true}`},
	// Error bodies are bare JSON strings.
	{"E9", 404, "", `"question not found"`},
	{"E1", 503, "", `"second factor service unavailable"`},
	// Extra fields that are no near miss are fine.
	{"E7", 201, "Attendance", `{"id":"` + u1 + `","tenantCode":"x","links":{"self":"/a"}}`},
	// An empty object: every field of Attendance is optional.
	{"E7", 201, "Attendance", `{}`},
	// Nested records named in the document.
	{"E9", 200, "Tag", `{"text":"q","kutags":[]}`},
	{"GB", 200, "Weightage", `{"iD_Weightage":[{}]}`},
	{"GB", 200, "GradingSchemaEntry", `{"gradingSchema":[{"letterGrade":"C","maxMark":0}]}`},
	{"NG", 200, "Target", `{"ancestor":[{"typeID":1}]}`},
	// Formats: lower-case separators and a leap second are RFC 3339.
	{"E13", 200, "MediaLog", `{"logDate":"2016-12-31t23:59:60z"}`},
	{"E13", 200, "MediaLog", `{"logDate":"2024-02-29T00:00:00-23:59"}`},
}

func TestValidExamplesPass(t *testing.T) {
	v := mustValidator(t)
	for _, ex := range examples {
		t.Run(fmt.Sprintf("%s_%d_%s", ex.op, ex.status, ex.record), func(t *testing.T) {
			if got := v.Check(ex.op, ex.status, []byte(ex.body)); len(got) != 0 {
				t.Errorf("valid body: got problems %v, want none", got)
			}
		})
	}
}

// TestEveryRecordHasAnExample keeps the table above complete.
func TestEveryRecordHasAnExample(t *testing.T) {
	have := map[string]bool{}
	for _, ex := range examples {
		have[ex.record] = true
	}
	for _, name := range []string{"SecondFactorResult", "PushResult", "BankFolder", "Attendance",
		"EvaluationQuestion", "Tag", "Evaluation", "Faculty", "GradebookSettings", "Weightage",
		"GradingSchemaEntry", "FileLog", "FileAnnotation", "WeblinkLog", "MediaLog", "ChannelUser",
		"CaptureSession", "SurveyResponse", "PollResponse", "Student", "Notification", "Target",
		"QuizSection"} {
		if !have[name] {
			t.Errorf("no valid example for %s", name)
		}
	}
}

// base returns the first example body of op (status 200 or 201).
func base(t *testing.T, op string) string {
	t.Helper()
	for _, ex := range examples {
		if ex.op == op && ex.status < 300 && ex.body != "" {
			return ex.body
		}
	}
	t.Fatalf("no example for %s", op)
	return ""
}

// edit returns body with the value at the JSON pointer ptr replaced by the
// JSON text val, or removed when val is "".
func edit(t *testing.T, body, ptr, val string) string {
	t.Helper()
	doc := decodeNumbers(t, body)
	var newVal any
	if val != "" {
		newVal = decodeNumbers(t, val)
	}
	parent, tok := parentOf(t, doc, ptr)
	switch c := parent.(type) {
	case map[string]any:
		if val == "" {
			delete(c, tok)
		} else {
			c[tok] = newVal
		}
	case []any:
		c[index(t, c, tok)] = newVal
	}
	return encodeJSON(t, doc)
}

// rename moves the member at ptr to the name newName in the same object.
func rename(t *testing.T, body, ptr, newName string) string {
	t.Helper()
	doc := decodeNumbers(t, body)
	c, old := parentOf(t, doc, ptr)
	obj := c.(map[string]any)
	obj[newName] = obj[old]
	delete(obj, old)
	return encodeJSON(t, doc)
}

// parentOf returns the object or array in doc that holds the value at the
// JSON pointer ptr, and the last token of ptr.
func parentOf(t *testing.T, doc any, ptr string) (any, string) {
	t.Helper()
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	cur := doc
	for _, tok := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			cur = c[index(t, c, tok)]
		default:
			t.Fatalf("%s: cannot descend into %T at %q", ptr, cur, tok)
		}
	}
	switch cur.(type) {
	case map[string]any, []any:
	default:
		t.Fatalf("%s: cannot descend into %T", ptr, cur)
	}
	return cur, toks[len(toks)-1]
}

// index is the entry of c a pointer token names.
func index(t *testing.T, c []any, tok string) int {
	t.Helper()
	n, err := strconv.Atoi(tok)
	if err != nil || n < 0 || n >= len(c) {
		t.Fatalf("bad index %q", tok)
	}
	return n
}

// decodeNumbers decodes the JSON text s, keeping numbers as written.
func decodeNumbers(t *testing.T, s string) any {
	t.Helper()
	var v any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}

// encodeJSON is v as JSON text.
func encodeJSON(t *testing.T, v any) string {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// want is a Problem without its message, which is checked separately.
type want struct{ Pointer, Record, Field, Rule string }

func TestBreaks(t *testing.T) {
	v := mustValidator(t)
	type tc struct {
		name   string
		op     string
		status int
		body   string
		want   []want
	}
	tcs := []tc{
		// Wrong type: one per record.
		{"SecondFactorResult type", "E1", 200, edit(t, base(t, "E1"), "/status", `0`), []want{{"/status", "SecondFactorResult", "status", "type"}}},
		{"PushResult type", "E2", 200, edit(t, base(t, "E2"), "/transactionId", `{}`), []want{{"/transactionId", "PushResult", "transactionId", "type"}}},
		{"Faculty type", "E4", 200, edit(t, base(t, "E4"), "/0/deptC", `["CS"]`), []want{{"/0/deptC", "Faculty", "deptC", "type"}}},
		{"BankFolder type", "E6", 201, edit(t, base(t, "E6"), "/is2FaEnabled", `"false"`), []want{{"/is2FaEnabled", "BankFolder", "is2FaEnabled", "type"}}},
		{"Attendance type", "E7", 201, edit(t, base(t, "E7"), "/publish", `1`), []want{{"/publish", "Attendance", "publish", "type"}}},
		{"EvaluationQuestion type", "E9", 200, edit(t, base(t, "E9"), "/mark", `"10"`), []want{{"/mark", "EvaluationQuestion", "mark", "type"}}},
		{"Tag type", "E9", 200, edit(t, base(t, "E9"), "/kutags/0/tagType", `"1"`), []want{{"/kutags/0/tagType", "Tag", "tagType", "type"}}},
		{"FileLog type", "E10", 200, edit(t, base(t, "E10"), "/1/folderID", `7`), []want{{"/1/folderID", "FileLog", "folderID", "type"}}},
		{"FileAnnotation type", "E11", 200, edit(t, base(t, "E11"), "/0/xfdfString", `42`), []want{{"/0/xfdfString", "FileAnnotation", "xfdfString", "type"}}},
		{"FileAnnotation null optional is absent", "E11", 200, edit(t, base(t, "E11"), "/0/xfdfString", `null`), nil},
		{"BankFolder null required id", "E6", 201, edit(t, base(t, "E6"), "/id", `null`), []want{{"/id", "BankFolder", "id", "required"}}},
		{"WeblinkLog type", "E12", 200, edit(t, base(t, "E12"), "/0/ip", `10`), []want{{"/0/ip", "WeblinkLog", "ip", "type"}}},
		{"MediaLog type", "E13", 200, edit(t, base(t, "E13"), "/title", `true`), []want{{"/title", "MediaLog", "title", "type"}}},
		{"ChannelUser type", "E15", 200, edit(t, base(t, "E15"), "/0/plays", `1.5`), []want{{"/0/plays", "ChannelUser", "plays", "type"}}},
		{"CaptureSession type", "E16", 200, edit(t, base(t, "E16"), "/0/duration", `"1h"`), []want{{"/0/duration", "CaptureSession", "duration", "type"}}},
		{"SurveyResponse type", "E17", 200, edit(t, base(t, "E17"), "/0/blank", `"a"`), []want{{"/0/blank", "SurveyResponse", "blank", "type"}}},
		{"SurveyResponse item type", "E17", 200, edit(t, base(t, "E17"), "/0/options/1", `"0"`), []want{{"/0/options/1", "SurveyResponse", "options", "type"}}},
		{"PollResponse type", "E19", 200, edit(t, base(t, "E19"), "/selectedOptions", `{}`), []want{{"/selectedOptions", "PollResponse", "selectedOptions", "type"}}},
		{"Student type", "E20", 200, edit(t, base(t, "E20"), "/0/officialEmail", `1`), []want{{"/0/officialEmail", "Student", "officialEmail", "type"}}},
		{"GradebookSettings type", "GB", 200, edit(t, base(t, "GB"), "/iD_Weightage", `{}`), []want{{"/iD_Weightage", "GradebookSettings", "iD_Weightage", "type"}}},
		{"Weightage type", "GB", 200, edit(t, base(t, "GB"), "/iD_Weightage/1/value", `"60"`), []want{{"/iD_Weightage/1/value", "Weightage", "value", "type"}}},
		{"GradingSchemaEntry type", "GB", 200, edit(t, base(t, "GB"), "/gradingSchema/0/letterGrade", `1`), []want{{"/gradingSchema/0/letterGrade", "GradingSchemaEntry", "letterGrade", "type"}}},
		{"Evaluation type", "ES", 200, edit(t, base(t, "ES"), "/groupIDs", `"`+u1+`"`), []want{{"/groupIDs", "Evaluation", "groupIDs", "type"}}},
		{"Notification type", "NG", 200, edit(t, base(t, "NG"), "/id", `"1"`), []want{{"/id", "Notification", "id", "type"}}},
		{"Target type", "NG", 200, edit(t, base(t, "NG"), "/ancestor/0/isResourceType", `"yes"`), []want{{"/ancestor/0/isResourceType", "Target", "isResourceType", "type"}}},
		{"QuizSection type", "QS", 200, edit(t, base(t, "QS"), "/displayedRandomQuestions", `"5"`), []want{{"/displayedRandomQuestions", "QuizSection", "displayedRandomQuestions", "type"}}},
		{"enum field with wrong type is a type problem", "E9", 200, edit(t, base(t, "E9"), "/difficultyLevel", `"2"`), []want{{"/difficultyLevel", "EvaluationQuestion", "difficultyLevel", "type"}}},

		// Bad uuid.
		{"BankFolder uuid", "E6", 201, edit(t, base(t, "E6"), "/id", `"3f2504e0-4f89-11d3-9a0c-0305e82c330"`), []want{{"/id", "BankFolder", "id", "format"}}},
		{"Attendance uuid", "E7", 201, edit(t, base(t, "E7"), "/resourceID", `"{`+u1+`}"`), []want{{"/resourceID", "Attendance", "resourceID", "format"}}},
		{"Tag uuid", "E9", 200, edit(t, base(t, "E9"), "/kutags/0/rootId", `"3f2504e04f8911d39a0c0305e82c3301"`), []want{{"/kutags/0/rootId", "Tag", "rootId", "format"}}},
		{"FileLog uuid", "E10", 200, edit(t, base(t, "E10"), "/0/userGuid", `"e0123"`), []want{{"/0/userGuid", "FileLog", "userGuid", "format"}}},
		{"FileAnnotation uuid", "E11", 200, edit(t, base(t, "E11"), "/0/documentId", `"3f2504e0-4f89-11d3-9a0c-0305e82c33zz"`), []want{{"/0/documentId", "FileAnnotation", "documentId", "format"}}},
		{"WeblinkLog uuid", "E12", 200, edit(t, base(t, "E12"), "/0/targetID", `""`), []want{{"/0/targetID", "WeblinkLog", "targetID", "format"}}},
		{"CaptureSession uuid", "E16", 200, edit(t, base(t, "E16"), "/0/urlID", `"urn:uuid:`+u1+`"`), []want{{"/0/urlID", "CaptureSession", "urlID", "format"}}},
		{"SurveyResponse uuid", "E17", 200, edit(t, base(t, "E17"), "/0/questionID", `"q1"`), []want{{"/0/questionID", "SurveyResponse", "questionID", "format"}}},
		{"PollResponse uuid", "E18", 200, edit(t, base(t, "E18"), "/0/creatorId", `"x"`), []want{{"/0/creatorId", "PollResponse", "creatorId", "format"}}},
		{"Student uuid", "E20", 200, edit(t, base(t, "E20"), "/0/id", `"1"`), []want{{"/0/id", "Student", "id", "format"}}},
		{"Weightage uuid", "GB", 200, edit(t, base(t, "GB"), "/iD_Weightage/0/key", `"k"`), []want{{"/iD_Weightage/0/key", "Weightage", "key", "format"}}},
		{"GradebookSettings uuid", "GB", 200, edit(t, base(t, "GB"), "/resourceID", `"m"`), []want{{"/resourceID", "GradebookSettings", "resourceID", "format"}}},
		{"Evaluation uuid in array", "ES", 200, edit(t, base(t, "ES"), "/groupIDs/0", `"g"`), []want{{"/groupIDs/0", "Evaluation", "groupIDs", "format"}}},
		{"Notification uuid", "NG", 200, edit(t, base(t, "NG"), "/notifyGroupId", `"g"`), []want{{"/notifyGroupId", "Notification", "notifyGroupId", "format"}}},
		{"Target uuid", "NG", 200, edit(t, base(t, "NG"), "/ancestor/0/id", `"t"`), []want{{"/ancestor/0/id", "Target", "id", "format"}}},
		{"QuizSection uuid", "QS", 200, edit(t, base(t, "QS"), "/assessmentId", `"a"`), []want{{"/assessmentId", "QuizSection", "assessmentId", "format"}}},
		{"E5 uuid item", "E5", 200, `["` + u1 + `","nope"]`, []want{{"/1", "", "", "format"}}},

		// 30 February and other impossible or malformed date-times.
		{"Faculty Feb 30", "E4", 200, edit(t, base(t, "E4"), "/0/deptStD", `"2025-02-30T00:00:00Z"`), []want{{"/0/deptStD", "Faculty", "deptStD", "format"}}},
		{"BankFolder Feb 30", "E6", 201, edit(t, base(t, "E6"), "/createdDate", `"2025-02-30T10:00:00Z"`), []want{{"/createdDate", "BankFolder", "createdDate", "format"}}},
		{"Attendance Feb 30", "E7", 201, edit(t, base(t, "E7"), "/createdDate", `"2025-02-30T10:00:00+08:00"`), []want{{"/createdDate", "Attendance", "createdDate", "format"}}},
		{"EvaluationQuestion Feb 30", "E9", 200, edit(t, base(t, "E9"), "/lastUpdatedDate", `"2024-02-30T10:00:00Z"`), []want{{"/lastUpdatedDate", "EvaluationQuestion", "lastUpdatedDate", "format"}}},
		{"FileLog Feb 30", "E10", 200, edit(t, base(t, "E10"), "/1/logDate", `"2025-02-30T00:00:00Z"`), []want{{"/1/logDate", "FileLog", "logDate", "format"}}},
		{"WeblinkLog Feb 30", "E12", 200, edit(t, base(t, "E12"), "/0/logDate", `"2025-02-30T00:00:00Z"`), []want{{"/0/logDate", "WeblinkLog", "logDate", "format"}}},
		{"MediaLog Feb 30", "E13", 200, edit(t, base(t, "E13"), "/logDate", `"2025-02-30T00:00:00Z"`), []want{{"/logDate", "MediaLog", "logDate", "format"}}},
		{"CaptureSession Feb 30", "E16", 200, edit(t, base(t, "E16"), "/0/endTime", `"2025-02-30T00:00:00Z"`), []want{{"/0/endTime", "CaptureSession", "endTime", "format"}}},
		{"SurveyResponse Feb 30", "E17", 200, edit(t, base(t, "E17"), "/0/createdDate", `"2025-02-30T00:00:00Z"`), []want{{"/0/createdDate", "SurveyResponse", "createdDate", "format"}}},
		{"PollResponse Feb 30", "E18", 200, edit(t, base(t, "E18"), "/0/createdDate", `"2025-02-30T00:00:00Z"`), []want{{"/0/createdDate", "PollResponse", "createdDate", "format"}}},
		{"Evaluation Feb 30", "ES", 200, edit(t, base(t, "ES"), "/publishResultDate", `"2025-02-30T00:00:00Z"`), []want{{"/publishResultDate", "Evaluation", "publishResultDate", "format"}}},
		{"Notification Feb 30", "NG", 200, edit(t, base(t, "NG"), "/recordDate", `"2025-02-30T00:00:00Z"`), []want{{"/recordDate", "Notification", "recordDate", "format"}}},
		{"date-time without offset", "E13", 200, edit(t, base(t, "E13"), "/logDate", `"2025-03-01T09:30:00"`), []want{{"/logDate", "MediaLog", "logDate", "format"}}},
		{"date only", "E13", 200, edit(t, base(t, "E13"), "/logDate", `"2025-03-01"`), []want{{"/logDate", "MediaLog", "logDate", "format"}}},
		{"hour 24", "E13", 200, edit(t, base(t, "E13"), "/logDate", `"2025-03-01T24:00:00Z"`), []want{{"/logDate", "MediaLog", "logDate", "format"}}},
		{"offset hour 24", "E13", 200, edit(t, base(t, "E13"), "/logDate", `"2025-03-01T10:00:00+24:00"`), []want{{"/logDate", "MediaLog", "logDate", "format"}}},
		{"Feb 29 of a common year", "E13", 200, edit(t, base(t, "E13"), "/logDate", `"2025-02-29T00:00:00Z"`), []want{{"/logDate", "MediaLog", "logDate", "format"}}},

		// Enum out.
		{"difficultyLevel 4", "E9", 200, edit(t, base(t, "E9"), "/difficultyLevel", `4`), []want{{"/difficultyLevel", "EvaluationQuestion", "difficultyLevel", "enum"}}},
		{"difficultyLevel -1", "E9", 200, edit(t, base(t, "E9"), "/difficultyLevel", `-1`), []want{{"/difficultyLevel", "EvaluationQuestion", "difficultyLevel", "enum"}}},
		{"evaluationMethod 4", "ES", 200, edit(t, base(t, "ES"), "/evaluationMethod", `4`), []want{{"/evaluationMethod", "Evaluation", "evaluationMethod", "enum"}}},
		{"evaluationType 6", "ES", 200, edit(t, base(t, "ES"), "/evaluationType", `6`), []want{{"/evaluationType", "Evaluation", "evaluationType", "enum"}}},
		{"evaluationType -1", "ES", 200, edit(t, base(t, "ES"), "/evaluationType", `-1`), []want{{"/evaluationType", "Evaluation", "evaluationType", "enum"}}},
		{"notifyStatus 12", "NR", 200, edit(t, base(t, "NR"), "/notifyStatus", `12`), []want{{"/notifyStatus", "Notification", "notifyStatus", "enum"}}},
		{"notifyStatus 9", "NR", 200, edit(t, base(t, "NR"), "/notifyStatus", `9`), []want{{"/notifyStatus", "Notification", "notifyStatus", "enum"}}},
		{"typeID 3", "NG", 200, edit(t, base(t, "NG"), "/ancestor/0/typeID", `3`), []want{{"/ancestor/0/typeID", "Target", "typeID", "enum"}}},
		{"typeID 1007", "NG", 200, edit(t, base(t, "NG"), "/ancestor/0/typeID", `1007`), []want{{"/ancestor/0/typeID", "Target", "typeID", "enum"}}},
		{"FileLog action", "E10", 200, edit(t, base(t, "E10"), "/0/action", `"Download"`), []want{{"/0/action", "FileLog", "action", "enum"}}},
		{"FileLog action case", "E10", 200, edit(t, base(t, "E10"), "/1/action", `"download file"`), []want{{"/1/action", "FileLog", "action", "enum"}}},

		// Ranges: one past each bound.
		{"mark below", "E9", 200, edit(t, base(t, "E9"), "/mark", `-0.5`), []want{{"/mark", "EvaluationQuestion", "mark", "minimum"}}},
		{"mark above", "E9", 200, edit(t, base(t, "E9"), "/mark", `10001`), []want{{"/mark", "EvaluationQuestion", "mark", "maximum"}}},
		{"videoTimeStamp below", "E9", 200, edit(t, base(t, "E9"), "/videoTimeStamp", `-1`), []want{{"/videoTimeStamp", "EvaluationQuestion", "videoTimeStamp", "minimum"}}},
		{"videoTimeStamp above", "E9", 200, edit(t, base(t, "E9"), "/videoTimeStamp", `2147483648`), []want{{"/videoTimeStamp", "EvaluationQuestion", "videoTimeStamp", "maximum"}}},
		{"selectedOptions below 0", "E18", 200, edit(t, base(t, "E18"), "/0/selectedOptions/1", `-1`), []want{{"/0/selectedOptions/1", "PollResponse", "selectedOptions", "minimum"}}},
		{"int32 above", "E15", 200, edit(t, base(t, "E15"), "/0/plays", `2147483648`), []want{{"/0/plays", "ChannelUser", "plays", "format"}}},
		{"int32 below", "E15", 200, edit(t, base(t, "E15"), "/0/comments", `-2147483649`), []want{{"/0/comments", "ChannelUser", "comments", "format"}}},
		{"int32 count above", "E14", 200, `2147483648`, []want{{"", "", "", "format"}}},
		{"int64 above", "NG", 200, edit(t, base(t, "NG"), "/id", `9223372036854775808`), []want{{"/id", "Notification", "id", "format"}}},
		{"int64 below", "NG", 200, edit(t, base(t, "NG"), "/id", `-9223372036854775809`), []want{{"/id", "Notification", "id", "format"}}},
		{"int64 far above", "NG", 200, edit(t, base(t, "NG"), "/id", `1e30`), []want{{"/id", "Notification", "id", "format"}}},
		{"int64 not an integer", "NR", 200, edit(t, base(t, "NR"), "/id", `1.5`), []want{{"/id", "Notification", "id", "type"}}},
		{"int32 count not an integer", "E21", 200, `2.5`, []want{{"", "", "", "type"}}},
		{"float beyond float32", "GB", 200, edit(t, base(t, "GB"), "/gradingSchema/0/maxMark", `1e39`), []want{{"/gradingSchema/0/maxMark", "GradingSchemaEntry", "maxMark", "format"}}},

		// Missing required.
		{"BankFolder id", "E6", 201, edit(t, base(t, "E6"), "/id", ``), []want{{"/id", "BankFolder", "id", "required"}}},
		{"EvaluationQuestion text", "E9", 200, edit(t, base(t, "E9"), "/text", ``), []want{{"/text", "EvaluationQuestion", "text", "required"}}},
		{"SurveyResponse questionID", "E17", 200, edit(t, base(t, "E17"), "/0/questionID", ``), []want{{"/0/questionID", "SurveyResponse", "questionID", "required"}}},
		{"GradingSchemaEntry letterGrade", "GB", 200, edit(t, base(t, "GB"), "/gradingSchema/1/letterGrade", ``), []want{{"/gradingSchema/1/letterGrade", "GradingSchemaEntry", "letterGrade", "required"}}},
		{"GradingSchemaEntry maxMark", "GB", 200, edit(t, base(t, "GB"), "/gradingSchema/0/maxMark", ``), []want{{"/gradingSchema/0/maxMark", "GradingSchemaEntry", "maxMark", "required"}}},
		{"QuizSection name", "QS", 200, edit(t, base(t, "QS"), "/name", ``), []want{{"/name", "QuizSection", "name", "required"}}},

		// Near-miss names.
		{"userMatrixNo on Attendance", "E7", 201, rename(t, base(t, "E7"), "/userMatricNo", "userMatrixNo"), []want{{"/userMatrixNo", "Attendance", "userMatrixNo", "near-miss"}}},
		{"case on Attendance", "E7", 201, rename(t, base(t, "E7"), "/userMatricNo", "UserMatricNo"), []want{{"/UserMatricNo", "Attendance", "UserMatricNo", "near-miss"}}},
		{"userMatricNo on SurveyResponse", "E17", 200, rename(t, base(t, "E17"), "/0/userMatrixNo", "userMatricNo"), []want{{"/0/userMatricNo", "SurveyResponse", "userMatricNo", "near-miss"}}},
		{"ids for iD_Weightage", "GB", 200, rename(t, base(t, "GB"), "/iD_Weightage", "id_weightage"), []want{{"/id_weightage", "GradebookSettings", "id_weightage", "near-miss"}}},
		{"short name case-insensitively", "E11", 200, `[{"ID":"x","annotationId":"` + u1 + `"}]`, nil},
		{"groupIds", "ES", 200, rename(t, base(t, "ES"), "/groupIDs", "groupIds"), []want{{"/groupIds", "Evaluation", "groupIds", "near-miss"}}},
		{"nested Tag", "E9", 200, rename(t, base(t, "E9"), "/kutags/0/tagName", "tag_name"), []want{{"/kutags/0/tag_name", "Tag", "tag_name", "near-miss"}}},
		{"nested Target", "NG", 200, rename(t, base(t, "NG"), "/ancestor/0/typeID", "typeId"), []want{{"/ancestor/0/typeId", "Target", "typeId", "near-miss"}}},
		{"distance 2", "E13", 200, `{"departmnt":"CS"}`, []want{{"/departmnt", "MediaLog", "departmnt", "near-miss"}}},
		{"distance 3 is no near miss", "E13", 200, `{"dprtmnt":"CS"}`, nil},
		{"a populated object is no misspelt uuid", "E6", 201, `{"id":"0b8f5c1e-8d1a-4c57-9a0e-0a8d8b5a8f11","creator":{"name":"A"}}`, nil},
		{"a populated list is no misspelt string", "E13", 200, `{"titles":["a"]}`, nil},
		{"a string of the misspelt name still is one", "E6", 201, `{"id":"0b8f5c1e-8d1a-4c57-9a0e-0a8d8b5a8f11","creatorId":"0b8f5c1e-8d1a-4c57-9a0e-0a8d8b5a8f12"}`, []want{{"/creatorId", "BankFolder", "creatorId", "near-miss"}}},
		{"4-letter names need an exact case-insensitive match", "E13", 200, `{"nme":"x","Name":"y"}`, []want{{"/Name", "MediaLog", "Name", "near-miss"}}},
		{"look-alike next to the real field is an extra", "E7", 201, `{"userMatricNo":"A1","userMatrixNo":"A1"}`, nil},

		// Shape of the whole body.
		{"E13 array instead of object", "E13", 200, "[" + base(t, "E13") + "]", []want{{"", "", "", "type"}}},
		{"E10 object instead of array", "E10", 200, `{"action":"Download File"}`, []want{{"", "", "", "type"}}},
		{"E10 item not an object", "E10", 200, `["Download File"]`, []want{{"/0", "", "", "type"}}},
		{"E9 kutags item not an object", "E9", 200, edit(t, base(t, "E9"), "/kutags/0", `"week1"`), []want{{"/kutags/0", "EvaluationQuestion", "kutags", "type"}}},
		{"E14 count as string", "E14", 200, `"3"`, []want{{"", "", "", "type"}}},
		{"error body not a string", "E9", 404, `{"message":"not found"}`, []want{{"", "", "", "type"}}},
		{"not JSON", "E13", 200, `{"title":`, []want{{"", "", "", "type"}}},
		{"two JSON values", "E14", 200, `1 2`, []want{{"", "", "", "type"}}},
		{"empty body where one is due", "E13", 200, ``, []want{{"", "", "", "type"}}},
		{"body on 204", "E8", 204, `"done"`, []want{{"", "", "", "type"}}},

		// Statuses.
		{"undocumented status", "E6", 200, base(t, "E6"), []want{{"", "", "", "status"}}},
		{"401 is the simulator's, not the specification's", "E9", 401, `"unauthorized"`, []want{{"", "", "", "status"}}},
		{"unknown operation", "E99", 200, `{}`, []want{{"", "", "", "status"}}},

		// All problems are collected, in pointer order.
		{"several at once", "E10", 200, `[{"action":"Send File","targetID":"x","logDate":"2025-02-30T00:00:00Z","userMatrixNo":"A"},{},{"userGuid":5}]`, []want{
			{"/0/action", "FileLog", "action", "enum"},
			{"/0/logDate", "FileLog", "logDate", "format"},
			{"/0/targetID", "FileLog", "targetID", "format"},
			{"/0/userMatrixNo", "FileLog", "userMatrixNo", "near-miss"},
			{"/2/userGuid", "FileLog", "userGuid", "type"},
		}},
		{"problems in items 2 and 10 sort numerically", "E11", 200, `[{},{},{"annotationId":"a"},{},{},{},{},{},{},{},{"annotationId":"b"}]`, []want{
			{"/2/annotationId", "FileAnnotation", "annotationId", "format"},
			{"/10/annotationId", "FileAnnotation", "annotationId", "format"},
		}},
		{"pointer escaping", "E13", 200, `{"a/b~c":1,"Title":"x"}`, []want{{"/Title", "MediaLog", "Title", "near-miss"}}},
	}
	for _, tc := range tcs {
		t.Run(tc.name, func(t *testing.T) {
			got := v.Check(tc.op, tc.status, []byte(tc.body))
			var gotW []want
			for _, p := range got {
				gotW = append(gotW, want{p.Pointer, p.Record, p.Field, p.Rule})
				if !strings.Contains(p.Message, "expected") && !strings.Contains(p.Message, "did you mean") {
					t.Errorf("message %q says nothing of what was expected", p.Message)
				}
			}
			if diff := cmp.Diff(tc.want, gotW); diff != "" {
				t.Errorf("Check(%s, %d, %s)\nproblems (-want +got):\n%s\nmessages: %v", tc.op, tc.status, tc.body, diff, got)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	v := mustValidator(t)
	tcs := []struct {
		name, op string
		status   int
		body     string
		want     string
	}{
		{"near miss", "E7", 201, `{"UserMatricNo":"A1"}`, `field "UserMatricNo" is not a field of Attendance; did you mean "userMatricNo"?`},
		{"near miss iDs", "GB", 200, `{"ID_WEIGHTAGE":[]}`, `field "ID_WEIGHTAGE" is not a field of GradebookSettings; did you mean "iD_Weightage"?`},
		{"Feb 30", "E13", 200, `{"logDate":"2025-02-30T00:00:00Z"}`, `expected a string (date-time), got string "2025-02-30T00:00:00Z": not a real date and time: day out of range`},
		{"uuid", "E6", 201, `{"id":"abc"}`, `expected a string (uuid), got string "abc": not 8-4-4-4-12 hexadecimal digits`},
		{"enum", "E9", 200, `{"text":"q","difficultyLevel":4}`, `expected one of [0,1,2,3], got number 4`},
		{"maximum", "E9", 200, `{"text":"q","mark":10001}`, `expected at most 10000, got number 10001`},
		{"minimum", "E9", 200, `{"text":"q","mark":-1}`, `expected at least 0, got number -1`},
		{"required", "E6", 201, `{}`, `expected field "id", which BankFolder requires, got an object without it`},
		{"type", "E13", 200, `[]`, `expected an object (MediaLog), got an array of 0 items`},
		{"int32", "E14", 200, `2147483648`, `expected an integer (int32), got number 2147483648: outside -2147483648..2147483647`},
		{"int64", "NR", 200, `{"id":9223372036854775808}`, `expected an integer (int64), got number 9223372036854775808: outside -9223372036854775808..9223372036854775807`},
		{"status", "E8", 200, ``, `expected one of the statuses documented for E8 (204, 400, 403, 500), got 200`},
		{"array", "E4", 200, `{}`, `expected an array of Faculty objects, got an object`},
	}
	for _, tc := range tcs {
		t.Run(tc.name, func(t *testing.T) {
			got := v.Check(tc.op, tc.status, []byte(tc.body))
			if len(got) != 1 {
				t.Fatalf("got %d problems %v, want 1", len(got), got)
			}
			if got[0].Message != tc.want {
				t.Errorf("message:\n got %s\nwant %s", got[0].Message, tc.want)
			}
		})
	}
}

func TestRecordOf(t *testing.T) {
	v := mustValidator(t)
	type res struct {
		Name    string
		IsArray bool
	}
	tcs := []struct {
		op     string
		status int
		want   res
	}{
		{"E1", 200, res{"SecondFactorResult", false}},
		{"E3", 200, res{"PushResult", false}},
		{"E4", 200, res{"Faculty", true}},
		{"E5", 200, res{"", true}},
		{"E5", 204, res{"", false}},
		{"E6", 201, res{"BankFolder", false}},
		{"E7", 201, res{"Attendance", false}},
		{"E9", 200, res{"EvaluationQuestion", false}},
		{"E10", 200, res{"FileLog", true}},
		{"E13", 200, res{"MediaLog", false}},
		{"E14", 200, res{"", false}},
		{"E19", 200, res{"PollResponse", false}},
		{"E20", 200, res{"Student", true}},
		{"GB", 200, res{"GradebookSettings", false}},
		{"ES", 200, res{"Evaluation", false}},
		{"NG", 200, res{"Notification", false}},
		{"QS", 200, res{"QuizSection", false}},
		{"E9", 404, res{"", false}},
		{"E9", 201, res{"", false}},
		{"nope", 200, res{"", false}},
	}
	for _, tc := range tcs {
		name, isArray := v.RecordOf(tc.op, tc.status)
		if got := (res{name, isArray}); got != tc.want {
			t.Errorf("RecordOf(%s, %d) = %v, want %v", tc.op, tc.status, got, tc.want)
		}
	}
}

func TestCheckConcurrent(t *testing.T) {
	v := mustValidator(t)
	bad := `[{"action":"Send File","targetID":"x","userMatrixNo":"A"}]`
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 50 {
				for _, ex := range examples {
					if p := v.Check(ex.op, ex.status, []byte(ex.body)); len(p) != 0 {
						t.Errorf("%s %d: %v", ex.op, ex.status, p)
						return
					}
				}
				if p := v.Check("E10", 200, []byte(bad)); len(p) != 3 {
					t.Errorf("got %d problems, want 3: %v", len(p), p)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestOperationsIsACopy(t *testing.T) {
	v := mustValidator(t)
	ops := v.Operations()
	ops[0] = "changed"
	if v.Operations()[0] != "E1" {
		t.Error("Operations() exposes the validator's own slice")
	}
}

func fileLogArray(n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"action":"Download File","targetID":"%s","userGuid":"%s","userID":"e%04d","name":"Student %d","userMatricNo":"A%07dX","email":"s%d@example.edu","fileName":"week%d.pdf","folderName":"Week %d","folderID":"f-%d","logDate":"2025-03-%02dT09:30:00Z"}`,
			u1, u2, i, i, i, i, i, i, i, i%28+1)
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func BenchmarkCheckFileLog25(b *testing.B) {
	v := mustValidator(b)
	benchmarkCheck(b, v, "E10", 200, fileLogArray(25))
}

func BenchmarkCheckAttendance(b *testing.B) {
	v := mustValidator(b)
	var body []byte
	for _, ex := range examples {
		if ex.op == "E7" {
			body = []byte(ex.body)
			break
		}
	}
	benchmarkCheck(b, v, "E7", 201, body)
}

// benchmarkCheck times v.Check of a body the check finds valid, per byte
// of the body.
func benchmarkCheck(b *testing.B, v *Validator, op string, status int, body []byte) {
	b.Helper()
	if p := v.Check(op, status, body); len(p) != 0 {
		b.Fatalf("benchmark body is invalid: %v", p)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		v.Check(op, status, body)
	}
}
