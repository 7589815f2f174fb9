package simulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/google/go-cmp/cmp"
)

// badRequest is one malformed request of the hardening corpus.
type badRequest struct {
	name   string
	method string
	path   string
	body   string
	// header overrides the defaults of env.doWith ("" deletes).
	header map[string]string
	// want is the documented status; 0 accepts any 4xx.
	want int
}

// bodyField is one field of a request body: where it sits (names and
// array indexes) and the JSON type the simulator reads it as.
type bodyField struct {
	at   []any
	kind string
}

// bodyOp is an operation taking a body, with a body it would accept.
type bodyOp struct {
	id, method, path string
	valid            map[string]any
	fields           []bodyField
}

// wrongValues are JSON values of the wrong type, or outside the type's
// range, for each kind of field.
var wrongValues = map[string][]string{
	"str":      {`1`, `true`, `[]`, `{}`, `-1.5e3`},
	"bool":     {`"true"`, `1`, `[]`, `{}`, `0`},
	"int32":    {`"1"`, `true`, `1.5`, `2147483648`, `-2147483649`, `1e400`, `[]`, `11e0`},
	"int64":    {`"1"`, `9223372036854775808`, `-9223372036854775809`, `1.5`, `true`, `1e19`},
	"num":      {`"1"`, `true`, `[]`, `1e400`, `{}`},
	"uuid":     {`12`, `"not-a-uuid"`, `"0123456789abcdef0123456789abcdef"`, `"{01234567-89ab-cdef-0123-456789abcdef}"`, `"01234567-89ab-cdef-0123-456789abcdefa"`, `"g1234567-89ab-cdef-0123-456789abcdef"`, `true`, `""`},
	"uuids":    {`"01234567-89ab-cdef-0123-456789abcdef"`, `[1]`, `["nope"]`, `{}`, `[null]`, `[["01234567-89ab-cdef-0123-456789abcdef"]]`},
	"datetime": {`"nonsense"`, `"2025-13-01T00:00:00Z"`, `"2025-01-06"`, `1`, `"2025-01-06T08:00:00"`},
	"objs":     {`"x"`, `[1]`, `{}`, `[[]]`, `["x"]`, `[null]`},
}

// bodyOps lists every operation that reads a body, with a valid body.
func (e *env) bodyOps() []bodyOp {
	rec := e.fx.Records
	gb := rec.GradebookModule
	_, gradebook := e.opPath("GB", gb.ID)
	_, session := e.opPath("ES", rec.Evaluation)
	f := func(kind string, at ...any) bodyField { return bodyField{at: at, kind: kind} }
	return []bodyOp{
		{"E1", "POST", "/campus/2FA/Auth", map[string]any{"userid": e.fx.SecondFactor.UserID, "otp": "000000"},
			[]bodyField{f("str", "userid"), f("str", "otp")}},
		{"E2", "POST", "/campus/2FA/Poll", map[string]any{"transactionId": "t"},
			[]bodyField{f("str", "transactionId")}},
		{"E5", "DELETE", "/consultation/Slot", map[string]any{"iDs": []string{rec.DeletableSlots[0]}},
			[]bodyField{f("uuids", "iDs")}},
		{"E7", "POST", "/Attendance/Default", map[string]any{"resourceID": rec.AttendanceResource, "publish": true},
			[]bodyField{f("uuid", "resourceID"), f("bool", "publish")}},
		{"E8", "DELETE", "/Attendance/", map[string]any{"resourceID": rec.AttendanceResource, "iDs": []string{rec.Media}},
			[]bodyField{f("uuid", "resourceID"), f("uuids", "iDs")}},
		{"E14", "DELETE", "/multimedia/media", map[string]any{"iDs": []string{rec.DeletableMedia[0]}},
			[]bodyField{f("uuids", "iDs")}},
		{"E21", "PUT", "/weblecture/session/publish", map[string]any{"iDs": []string{rec.LectureSessions[0]}, "publish": false},
			[]bodyField{f("uuids", "iDs"), f("bool", "publish")}},
		{"GB", "PATCH", gradebook, map[string]any{
			"iD_Weightage":  []any{map[string]any{"key": gb.GradeItems[0], "value": 10}},
			"gradingSchema": []any{map[string]any{"letterGrade": "A", "maxMark": 100}},
		}, []bodyField{
			f("objs", "iD_Weightage"), f("objs", "gradingSchema"),
			f("uuid", "iD_Weightage", 0, "key"), f("num", "iD_Weightage", 0, "value"),
			f("str", "gradingSchema", 0, "letterGrade"), f("num", "gradingSchema", 0, "maxMark"),
		}},
		{"ES", "PATCH", session, map[string]any{
			"name": "n", "startDate": "2025-01-06T08:00:00Z", "endDate": "2025-02-06T08:00:00Z",
			"instructionalText": "t", "evaluationMethod": 1, "evaluationType": 2, "maximumScore": 20,
			"publish": true, "displayAnonymous": false, "displayNothing": false, "publishResultDate": "2025-03-01T00:00:00Z",
			"displayScore": true, "displayAverageScore": true, "displayComment": true, "displayDetailsMapping": true,
			"questions": []any{map[string]any{
				"id": rec.EvaluationQuestion, "text": "q", "solution": "s", "publish": true, "mark": 5,
				"requireRationale": false, "difficultyLevel": 1, "videoTimeStamp": 30, "forAssessment": true,
			}},
		}, []bodyField{
			f("str", "name"), f("datetime", "startDate"), f("datetime", "endDate"), f("str", "instructionalText"),
			f("int32", "evaluationMethod"), f("int32", "evaluationType"), f("num", "maximumScore"),
			f("bool", "publish"), f("bool", "displayAnonymous"), f("bool", "displayNothing"),
			f("datetime", "publishResultDate"), f("bool", "displayScore"), f("bool", "displayAverageScore"),
			f("bool", "displayComment"), f("bool", "displayDetailsMapping"), f("objs", "questions"),
			f("uuid", "questions", 0, "id"), f("str", "questions", 0, "text"), f("str", "questions", 0, "solution"),
			f("bool", "questions", 0, "publish"), f("num", "questions", 0, "mark"),
			f("bool", "questions", 0, "requireRationale"), f("int32", "questions", 0, "difficultyLevel"),
			f("num", "questions", 0, "videoTimeStamp"), f("bool", "questions", 0, "forAssessment"),
		}},
		{"NR", "PUT", "/notification/read", map[string]any{"id": rec.Notification.ID, "read": 11},
			[]bodyField{f("int64", "id"), f("int32", "read")}},
		{"QS", "PUT", "/quiz/section", map[string]any{
			"id": rec.QuizSection.ID, "name": "S", "description": "d", "displayQuestionMark": true,
			"displayedRandomQuestions": 2, "randomizeQuestions": true, "randomizeOptions": true, "requireRational": true,
		}, []bodyField{
			f("uuid", "id"), f("str", "name"), f("str", "description"), f("bool", "displayQuestionMark"),
			f("int32", "displayedRandomQuestions"), f("bool", "randomizeQuestions"), f("bool", "randomizeOptions"),
			f("bool", "requireRational"),
		}},
	}
}

// with returns the JSON of v with the value at path replaced by raw.
func with(t testing.TB, v map[string]any, at []any, raw string) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var c any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	cur := c
	for i, step := range at {
		last := i == len(at)-1
		switch s := step.(type) {
		case string:
			m := cur.(map[string]any)
			if last {
				m[s] = json.RawMessage(raw)
			}
			cur = m[s]
		case int:
			l := cur.([]any)
			if last {
				l[s] = json.RawMessage(raw)
			}
			cur = l[s]
		}
	}
	b, err = json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// malformedCorpus is the corpus: every operation, every way a request can
// be wrong.
func (e *env) malformedCorpus(t *testing.T) []badRequest {
	t.Helper()
	rec := e.fx.Records
	var out []badRequest
	add := func(r badRequest) { out = append(out, r) }

	// Bodies: each field with a value of the wrong type or range, then
	// bodies broken as a whole.
	nest := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	for _, op := range e.bodyOps() {
		for _, f := range op.fields {
			for _, raw := range wrongValues[f.kind] {
				add(badRequest{name: fmt.Sprintf("%s %v=%s", op.id, f.at, raw), method: op.method, path: op.path,
					body: with(t, op.valid, f.at, raw), want: http.StatusBadRequest})
			}
		}
		valid := mustJSON(t, op.valid)
		first := op.fields[0].at[0].(string)
		for _, b := range []struct{ name, body string }{
			{"whitespace body", " \n\t "},
			{"unterminated", valid[:len(valid)-1]},
			{"trailing garbage", valid + " x"},
			{"two objects", valid + valid},
			{"trailing comma", valid[:len(valid)-1] + ",}"},
			{"single quotes", strings.ReplaceAll(valid, `"`, `'`)},
			{"array", `[` + valid + `]`},
			{"string", `"` + first + `"`},
			{"null", `null`},
			{"number", `12`},
			{"nested 10000 arrays", `{"` + first + `":` + nest("[", "]", 10000) + `}`},
			{"nested 10000 objects", nest(`{"a":`, "}", 10000)},
			{"nested 5000 arrays", `{"` + first + `":` + nest("[", "]", 5000) + `}`},
			{"invalid UTF-8 in a value", `{"` + first + `":"\xff\xfe"}`},
			{"invalid UTF-8 in a name", strings.Replace(valid, `"`+first+`"`, `"`+first+"\xc3\x28"+`"`, 1)},
			{"invalid UTF-8 after the body", valid + "\xff"},
			{"NUL byte", "\x00" + valid},
			{"byte order mark", "\xef\xbb\xbf" + valid},
		} {
			add(badRequest{name: op.id + " " + b.name, method: op.method, path: op.path, body: b.body, want: http.StatusBadRequest})
		}
		huge := `{"` + first + `":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
		add(badRequest{name: op.id + " body over 1 MiB", method: op.method, path: op.path, body: huge, want: http.StatusRequestEntityTooLarge})
		for _, ct := range []string{"text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset", "json", "application/jsonp"} {
			add(badRequest{name: op.id + " Content-Type " + ct, method: op.method, path: op.path, body: valid,
				header: map[string]string{"Content-Type": ct}, want: http.StatusUnsupportedMediaType})
		}
	}

	// Values of the right type that break a stated rule or name nothing.
	gb := rec.GradebookModule
	_, gradebook := e.opPath("GB", gb.ID)
	_, session := e.opPath("ES", rec.Evaluation)
	unknown := "01234567-89ab-4def-8123-456789abcdef"
	weights := func(w string) string { return `{"iD_Weightage":` + w + `,"gradingSchema":[]}` }
	for _, r := range []struct{ method, path, body string }{
		{"PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":9}`, rec.Notification.ID)},
		{"PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":12}`, rec.Notification.ID)},
		{"PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":-0}`, rec.Notification.ID)},
		{"PUT", "/notification/read", fmt.Sprintf(`{"id":%d}`, rec.Notification.ID)},
		{"PUT", "/notification/read", `{"id":-1,"read":11}`},
		{"PUT", "/notification/read", `{"id":9223372036854775807,"read":11}`},
		{"PUT", "/notification/read", `{"ID":1000001,"Read":11}`},
		{"PATCH", gradebook, weights(`[{"key":"` + gb.GradeItems[0] + `","value":-1}]`)},
		{"PATCH", gradebook, weights(`[{"key":"` + gb.GradeItems[0] + `","value":101}]`)},
		{"PATCH", gradebook, weights(`[{"key":"` + gb.GradeItems[0] + `","value":1e39}]`)},
		{"PATCH", gradebook, weights(`[{"key":"` + gb.GradeItems[0] + `","value":1e308}]`)},
		{"PATCH", gradebook, weights(`[{"key":"` + gb.GradeItems[0] + `","value":1},{"key":"` + gb.GradeItems[0] + `","value":2}]`)},
		{"PATCH", gradebook, weights(`[{"key":"` + unknown + `","value":1}]`)},
		{"PATCH", gradebook, weights(`[{"value":1}]`)},
		{"PATCH", gradebook, `{"iD_Weightage":[]}`},
		{"PATCH", gradebook, `{"gradingSchema":[]}`},
		{"PATCH", "/gradebook/" + unknown + "/settings", weights(`[]`)},
		{"PATCH", session, `{"evaluationMethod":4}`},
		{"PATCH", session, `{"evaluationMethod":-1}`},
		{"PATCH", session, `{"evaluationType":6}`},
		{"PATCH", session, `{"maximumScore":-0.5}`},
		{"PATCH", session, `{"startDate":"2030-01-01T00:00:00Z","endDate":"2020-01-01T00:00:00Z"}`},
		{"PATCH", session, `{"questions":[{"id":"` + rec.EvaluationQuestion + `","mark":10001}]}`},
		{"PATCH", session, `{"questions":[{"id":"` + rec.EvaluationQuestion + `","mark":-1}]}`},
		{"PATCH", session, `{"questions":[{"id":"` + rec.EvaluationQuestion + `","difficultyLevel":4}]}`},
		{"PATCH", session, `{"questions":[{"id":"` + rec.EvaluationQuestion + `","videoTimeStamp":2147483648}]}`},
		{"PATCH", session, `{"questions":[{"id":"` + rec.EvaluationQuestion + `","videoTimeStamp":-1}]}`},
		{"PATCH", session, `{"questions":[{"id":"` + rec.EvaluationQuestion + `","text":""}]}`},
		{"PATCH", session, `{"questions":[{"text":"no id"}]}`},
		{"PATCH", session, `{"questions":[{"id":"` + unknown + `"}]}`},
		{"PATCH", session, `{"name":"ok","questions":[{"id":"` + rec.EvaluationQuestion + `"},{"id":"` + rec.EvaluationQuestion + `","mark":1e9}]}`},
		{"PATCH", "/evaluation/" + unknown + "/session", `{"name":"x"}`},
		{"PUT", "/quiz/section", `{"id":"` + rec.QuizSection.ID + `","name":""}`},
		{"PUT", "/quiz/section", `{"id":"` + rec.QuizSection.ID + `"}`},
		{"PUT", "/quiz/section", `{"id":"` + rec.QuizSection.ID + `","name":"S","displayedRandomQuestions":-1}`},
		{"PUT", "/quiz/section", `{"id":"` + unknown + `","name":"S"}`},
		{"PUT", "/quiz/section", `{"name":"S"}`},
		{"PUT", "/weblecture/session/publish", `{"iDs":["` + rec.LectureSessions[0] + `"]}`},
		{"POST", "/Attendance/Default", `{"resourceID":"` + unknown + `"}`},
		{"POST", "/Attendance/Default", `{}`},
		{"DELETE", "/Attendance/", `{"resourceID":"` + unknown + `","iDs":[]}`},
		{"DELETE", "/Attendance/", `{"iDs":[]}`},
		{"DELETE", "/consultation/Slot", `{"iDs":["` + unknown + `"]}`},
		{"DELETE", "/consultation/Slot", `{}`},
		{"POST", "/campus/2FA/Auth", `{"userid":"nobody","otp":"000000"}`},
		{"POST", "/campus/2FA/Auth", `{"otp":"000000"}`},
		{"POST", "/campus/2FA/Poll", `{"transactionId":"` + unknown + `"}`},
		{"POST", "/campus/2FA/Poll", `{}`},
	} {
		add(badRequest{name: r.method + " " + r.path + " " + front.Clip(r.body), method: r.method, path: r.path, body: r.body})
	}

	// Path parameters that are not uuids, on every operation that has one.
	ev, q := rec.Evaluation, rec.EvaluationQuestion
	for _, bad := range []string{"nope", "123", strings.Repeat("g", 36), "0123456789abcdef0123456789abcdef",
		"%7B" + unknown + "%7D", unknown + "0", "%00", "%FF%FE"} {
		for _, p := range []struct{ method, path, body string }{
			{"POST", "/bank/" + bad + "/copy", ""},
			{"GET", "/evaluation/" + bad + "/Question/" + q, ""},
			{"GET", "/evaluation/" + ev + "/Question/" + bad, ""},
			{"GET", "/files/" + bad + "/downloaded", ""},
			{"GET", "/files/FileAnnotation/" + bad + "/all", ""},
			{"GET", "/module/Weblink/" + bad + "/Log", ""},
			{"GET", "/multimedia/" + bad + "/downloadlog", ""},
			{"GET", "/multimedia/statistics/channel/" + bad + "/users", ""},
			{"GET", "/multimedia/capture/" + bad + "/medias", ""},
			{"GET", "/survey/question/" + bad + "/response", ""},
			{"GET", "/poll/Question/" + bad + "/Response", ""},
			{"GET", "/poll/Response/" + bad, ""},
			{"GET", "/resource/" + bad + "/students", ""},
			{"PATCH", "/gradebook/" + bad + "/settings", `{"iD_Weightage":[],"gradingSchema":[]}`},
			{"PATCH", "/evaluation/" + bad + "/session", `{"name":"x"}`},
			{"GET", "/notification/group/" + bad, ""},
		} {
			add(badRequest{name: p.method + " " + p.path, method: p.method, path: p.path, body: p.body, want: http.StatusBadRequest})
		}
	}

	// Query parameters of the list operations.
	lists := map[registry.OpID]string{}
	for _, r := range recordPaths(e) {
		if _, ok := registry.List(r.op); !ok {
			continue
		}
		lists[r.op] = r.path
		for _, query := range []string{"offset=-1", "offset=abc", "offset=2147483648", "offset=1e3", "limit=abc",
			"limit=-1", "limit=99999999999", "limit=1001", "limit=", "sortby=nosuchfield", "sortby=a%20b%20c",
			"sortby=name%20sideways", "where=nocolon", "where=nosuchfield:1", "where=:x"} {
			add(badRequest{name: "GET " + r.path + "?" + query, method: "GET", path: r.path + "?" + query, want: http.StatusBadRequest})
		}
	}
	for _, query := range []string{"StartDate=nonsense", "EndDate=2025-13-01T00:00:00Z", "StartDate=2025-01-06", "EndDate=1736150400"} {
		add(badRequest{name: "E10 " + query, method: "GET", path: lists[registry.E10] + "?" + query, want: http.StatusBadRequest})
	}
	for _, query := range []string{"startDate=nonsense", "endDate=tomorrow"} {
		add(badRequest{name: "E15 " + query, method: "GET", path: lists[registry.E15] + "?" + query, want: http.StatusBadRequest})
	}
	for _, p := range []struct{ method, path string }{
		{"POST", "/bank/" + rec.BankFolder + "/copy"},
		{"GET", "/evaluation/" + ev + "/Question/" + q},
		{"GET", lists[registry.E17]}, {"GET", lists[registry.E18]}, {"GET", lists[registry.E20]},
		{"GET", "/notification/group/" + rec.Notification.GroupID},
	} {
		for _, pop := range []string{"Nonsense", "Creator,Nonsense", ",", "%FF"} {
			add(badRequest{name: p.method + " " + p.path + " populate=" + pop, method: p.method, path: p.path + "?populate=" + pop, want: http.StatusBadRequest})
		}
	}

	// Methods an operation's path does not take.
	for _, op := range registry.All() {
		path := strings.NewReplacer("{id}", unknown, "{evaluationid}", unknown, "{ID}", unknown, "{$}", "").Replace(op.Path)
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "FOO"} {
			if m == op.Method || m == "GET" && op.Method == "DELETE" && op.ID == "E8" {
				continue
			}
			add(badRequest{name: m + " " + op.Path, method: m, path: path, body: `{}`, want: http.StatusMethodNotAllowed})
		}
	}
	return out
}

// snapshot is what a client can observe of the seeded records, through the
// interface and the store's readers.
func (e *env) snapshot(t *testing.T) map[string]any {
	t.Helper()
	rec := e.fx.Records
	s := map[string]any{}
	read := func(path string) {
		r := e.do("owner", "GET", path, "")
		var v any
		if len(r.body) > 0 {
			r.decode(t, &v)
		}
		s[path] = []any{r.status, v}
	}
	for _, p := range recordReads(e, map[registry.OpID]string{registry.E10: "limit=1000", registry.E17: "populate=Creator", registry.NG: "populate=ancestor"}) {
		read(p)
	}
	for _, m := range rec.DeletableMedia {
		read("/multimedia/" + m + "/downloadlog")
	}
	st := e.sim.store
	for _, id := range rec.DeletableSlots {
		s["slot "+id] = st.SlotExists(id)
	}
	for _, id := range rec.LectureSessions {
		p, ok := st.SessionPublished(id)
		s["session "+id] = []bool{p, ok}
	}
	s["gradebook"], _ = st.Gradebook(rec.GradebookModule.ID)
	s["quiz"], _ = st.QuizSection(rec.QuizSection.ID)
	s["evaluation"], _ = st.Evaluation(rec.Evaluation)
	s["notification"], _ = st.Notification(rec.Notification.ID)
	s["bank"], _ = st.BankFolder(rec.BankFolder)
	return s
}

// firstWrites are valid writes whose answers depend on every earlier
// write: new ids come from one seeded generator and dates from the world
// clock, which advances on each write.
func (e *env) firstWrites(t *testing.T) []any {
	t.Helper()
	rec := e.fx.Records
	var out []any
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/bank/" + rec.BankFolder + "/copy?populate=Creator", ""},
		{"POST", "/Attendance/Default", `{"resourceID":"` + rec.AttendanceResource + `"}`},
		{"PUT", "/quiz/section", `{"id":"` + rec.QuizSection.ID + `","name":"After"}`},
	} {
		r := e.do("owner", c.method, c.path, c.body)
		var v any
		r.decode(t, &v)
		out = append(out, c.path, r.status, v)
	}
	return out
}

// TestMalformedCorpus sends every request of the corpus as a valid caller:
// each gets its documented 4xx with a JSON string body, none a 5xx, and
// afterwards the world is exactly as before, down to the ids and dates
// the next writes receive.
func TestMalformedCorpus(t *testing.T) {
	e := newEnv(t, Options{})
	corpus := e.malformedCorpus(t)
	if len(corpus) < 200 {
		t.Fatalf("corpus holds %d requests, want at least 200", len(corpus))
	}
	before := e.snapshot(t)
	for _, c := range corpus {
		r := e.doWith("owner", c.method, c.path, c.body, c.header)
		if c.want != 0 && r.status != c.want || r.status < 400 || r.status > 499 {
			want := fmt.Sprint(c.want)
			if c.want == 0 {
				want = "a 4xx"
			}
			t.Errorf("%s: status %d, want %s; body %.200s", c.name, r.status, want, r.body)
			continue
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q, want application/json", c.name, ct)
		}
		var msg string
		if err := json.Unmarshal(r.body, &msg); err != nil || msg == "" {
			t.Errorf("%s: body %.200s, want a non-empty JSON string", c.name, r.body)
		}
	}
	t.Logf("%d malformed requests", len(corpus))
	if diff := cmp.Diff(before, e.snapshot(t)); diff != "" {
		t.Errorf("the corpus changed the world (-before +after):\n%s", diff)
	}
	fresh := newEnv(t, Options{})
	if diff := cmp.Diff(fresh.firstWrites(t), e.firstWrites(t)); diff != "" {
		t.Errorf("after the corpus, the first writes answer differently from a fresh world's (-fresh +after):\n%s", diff)
	}
}

// TestCorpusCoversEveryOperation keeps the corpus honest: every operation
// of the route table is the target of some malformed requests.
func TestCorpusCoversEveryOperation(t *testing.T) {
	e := newEnv(t, Options{})
	mux := http.NewServeMux()
	hit := map[string]int{}
	for _, op := range registry.All() {
		mux.HandleFunc(op.Path, func(http.ResponseWriter, *http.Request) { hit[string(op.ID)]++ })
	}
	for _, c := range e.malformedCorpus(t) {
		path, _, _ := strings.Cut(c.path, "?")
		r, err := http.NewRequest(c.method, "http://x"+path, nil)
		if err != nil {
			continue
		}
		h, _ := mux.Handler(r)
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	for _, id := range OperationIDs() {
		if hit[id] < 5 {
			t.Errorf("%s: %d malformed requests in the corpus, want at least 5", id, hit[id])
		}
	}
}
