package simulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

func (e *env) opPath(key, id string) (string, string) {
	op := e.fx.Operations[registry.ID(key)]
	return op.Method, strings.ReplaceAll(op.Path, "{id}", id)
}

func weightBody(weights map[string]float64, schema string) string {
	var parts []string
	for k, v := range weights {
		parts = append(parts, fmt.Sprintf(`{"key":%q,"value":%v}`, k, v))
	}
	return `{"iD_Weightage":[` + strings.Join(parts, ",") + `],"gradingSchema":` + schema + `}`
}

func TestGradebookTotal(t *testing.T) {
	// The seeded module's four grade items weigh 10, 20, 15 and 15.
	const schema = `[{"letterGrade":"A","maxMark":100},{"letterGrade":"F","maxMark":49.5}]`
	tests := []struct {
		name    string
		weights func(items []string) map[string]float64
		want    int
		total   float64
	}{
		{"raise one item to exactly 100", func(i []string) map[string]float64 { return map[string]float64{i[0]: 50} }, 200, 100},
		{"one past 100", func(i []string) map[string]float64 { return map[string]float64{i[0]: 50.01} }, 400, 60},
		{"all items at 25", func(i []string) map[string]float64 { return map[string]float64{i[0]: 25, i[1]: 25, i[2]: 25, i[3]: 25} }, 200, 100},
		{"thirds", func(i []string) map[string]float64 {
			return map[string]float64{i[0]: 33.33, i[1]: 33.33, i[2]: 33.34, i[3]: 0}
		}, 200, 100},
		{"request alone under 100, module over", func(i []string) map[string]float64 { return map[string]float64{i[0]: 70} }, 400, 60},
		{"zero", func(i []string) map[string]float64 { return map[string]float64{i[0]: 0} }, 200, 50},
		{"negative", func(i []string) map[string]float64 { return map[string]float64{i[0]: -1} }, 400, 60},
		{"not a grade item", func(i []string) map[string]float64 { return map[string]float64{absent: 1} }, 400, 60},
		{"empty list keeps weights", func(i []string) map[string]float64 { return map[string]float64{} }, 200, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Options{})
			mod := e.fx.Records.GradebookModule
			method, path := e.opPath("GB", mod.ID)
			r := e.do("owner", method, path, weightBody(tt.weights(mod.GradeItems), schema)).want(t, tt.want)
			g, _ := e.sim.store.Gradebook(mod.ID)
			total := 0.0
			for _, w := range g.IDWeightage {
				total += w.Value
			}
			if diff := total - tt.total; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("stored total = %g, want %g", total, tt.total)
			}
			if tt.want != 200 {
				r.errorString(t)
				if len(g.GradingSchema) != 5 {
					t.Errorf("rejected update changed the grading schema to %v", g.GradingSchema)
				}
				return
			}
			m := r.object(t)
			if m["resourceID"] != mod.ID || len(m["iD_Weightage"].([]any)) != len(mod.GradeItems) || len(m["gradingSchema"].([]any)) != 2 {
				t.Errorf("answer = %s, want the module's settings with all grade items and the new schema", r.body)
			}
		})
	}
}

func TestGradebookBodies(t *testing.T) {
	e := newEnv(t, Options{})
	mod := e.fx.Records.GradebookModule
	method, path := e.opPath("GB", mod.ID)
	item := mod.GradeItems[0]
	tests := []struct {
		name, body string
		want       int
	}{
		{"missing iD_Weightage", `{"gradingSchema":[]}`, 400},
		{"missing gradingSchema", `{"iD_Weightage":[]}`, 400},
		{"missing letterGrade", `{"iD_Weightage":[],"gradingSchema":[{"maxMark":1}]}`, 400},
		{"missing maxMark", `{"iD_Weightage":[],"gradingSchema":[{"letterGrade":"A"}]}`, 400},
		{"missing key", `{"iD_Weightage":[{"value":1}],"gradingSchema":[]}`, 400},
		{"missing value", `{"iD_Weightage":[{"key":"` + item + `"}],"gradingSchema":[]}`, 400},
		{"duplicate key", `{"iD_Weightage":[{"key":"` + item + `","value":1},{"key":"` + item + `","value":2}],"gradingSchema":[]}`, 400},
		{"value as string", `{"iD_Weightage":[{"key":"` + item + `","value":"1"}],"gradingSchema":[]}`, 400},
		{"element not an object", `{"iD_Weightage":[1],"gradingSchema":[]}`, 400},
		{"valid", `{"iD_Weightage":[{"key":"` + item + `","value":1}],"gradingSchema":[]}`, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.do("owner", method, path, tt.body).want(t, tt.want)
		})
	}
	_, other := e.opPath("GB", absent)
	e.do("owner", method, other, `{"iD_Weightage":[],"gradingSchema":[]}`).want(t, http.StatusNotFound).errorString(t)
}

func TestEvaluationSessionLimits(t *testing.T) {
	q := func(field, value string) string {
		return `{"questions":[{"id":"%s","` + field + `":` + value + `}]}` // the id filled in below
	}
	tests := []struct {
		name, body string
		want       int
	}{
		{"fixture body", "", 200},
		{"mark 0", q("mark", "0"), 200},
		{"mark 10000", q("mark", "10000"), 200},
		{"mark -0.01", q("mark", "-0.01"), 400},
		{"mark 10000.01", q("mark", "10000.01"), 400},
		{"difficultyLevel 0", q("difficultyLevel", "0"), 200},
		{"difficultyLevel 3", q("difficultyLevel", "3"), 200},
		{"difficultyLevel -1", q("difficultyLevel", "-1"), 400},
		{"difficultyLevel 4", q("difficultyLevel", "4"), 400},
		{"difficultyLevel 1.5", q("difficultyLevel", "1.5"), 400},
		{"videoTimeStamp 0", q("videoTimeStamp", "0"), 200},
		{"videoTimeStamp 2147483647", q("videoTimeStamp", "2147483647"), 200},
		{"videoTimeStamp -1", q("videoTimeStamp", "-1"), 400},
		{"videoTimeStamp 2147483648", q("videoTimeStamp", "2147483648"), 400},
		{"empty text", q("text", `""`), 400},
		{"evaluationMethod 0", `{"evaluationMethod":0}`, 200},
		{"evaluationMethod 3", `{"evaluationMethod":3}`, 200},
		{"evaluationMethod -1", `{"evaluationMethod":-1}`, 400},
		{"evaluationMethod 4", `{"evaluationMethod":4}`, 400},
		{"evaluationType 0", `{"evaluationType":0}`, 200},
		{"evaluationType 5", `{"evaluationType":5}`, 200},
		{"evaluationType 6", `{"evaluationType":6}`, 400},
		{"endDate before startDate", `{"startDate":"2025-03-01T00:00:00Z","endDate":"2025-02-01T00:00:00Z"}`, 400},
		{"date not RFC 3339", `{"startDate":"01/03/2025"}`, 400},
		{"question of another evaluation", `{"questions":[{"id":"` + absent + `","mark":1}]}`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Options{})
			rec := e.fx.Records
			body := strings.ReplaceAll(tt.body, "%s", rec.EvaluationQuestion)
			if tt.body == "" {
				body = fmt.Sprint(mustJSON(t, e.fx.Operations["ES"].Body))
			}
			before, _ := e.sim.store.Question(rec.Evaluation, rec.EvaluationQuestion)
			method, path := e.opPath("ES", rec.Evaluation)
			r := e.do("owner", method, path, body).want(t, tt.want)
			after, _ := e.sim.store.Question(rec.Evaluation, rec.EvaluationQuestion)
			if tt.want != 200 {
				r.errorString(t)
				if after.Mark != before.Mark || after.DifficultyLevel != before.DifficultyLevel || after.LastUpdatedDate != before.LastUpdatedDate {
					t.Errorf("rejected update changed the question: %+v -> %+v", before, after)
				}
				return
			}
			if m := r.object(t); m["id"] != rec.Evaluation {
				t.Errorf("answer id = %v, want the evaluation %s", m["id"], rec.Evaluation)
			}
			got := e.do("owner", "GET", "/evaluation/"+rec.Evaluation+"/Question/"+rec.EvaluationQuestion, "").want(t, 200).object(t)
			if strings.Contains(tt.name, "mark") && fmt.Sprint(got["mark"]) != strings.Fields(tt.name)[1] {
				t.Errorf("E9 mark = %v after the update, want %s", got["mark"], strings.Fields(tt.name)[1])
			}
		})
	}
	e := newEnv(t, Options{})
	method, path := e.opPath("ES", absent)
	e.do("owner", method, path, `{"publish":true}`).want(t, http.StatusBadRequest)
}

func TestNotificationTransitions(t *testing.T) {
	e := newEnv(t, Options{})
	n := e.fx.Records.Notification
	method, path := e.opPath("NR", "")
	gmethod, gpath := e.opPath("NG", n.GroupID)
	status := func() float64 {
		return e.do("owner", gmethod, gpath, "").want(t, 200).object(t)["notifyStatus"].(float64)
	}
	if got := status(); got != 10 {
		t.Fatalf("fixture notification status = %v, want 10 (unread)", got)
	}
	for _, step := range []struct {
		read int
		want int
	}{{11, 200}, {10, 200}, {11, 200}, {11, 200}, {9, 400}, {12, 400}, {10, 200}} {
		before := status()
		r := e.do("owner", method, path, fmt.Sprintf(`{"id":%d,"read":%d}`, n.ID, step.read)).want(t, step.want)
		if step.want != 200 {
			if after := status(); after != before {
				t.Errorf("rejected read=%d moved the status %v -> %v", step.read, before, after)
			}
			continue
		}
		m := r.object(t)
		if m["notifyStatus"] != float64(step.read) || m["id"] != float64(n.ID) {
			t.Errorf("read=%d answered %s, want the record with notifyStatus %d", step.read, r.body, step.read)
		}
		if got := status(); got != float64(step.read) {
			t.Errorf("after read=%d the stored status is %v", step.read, got)
		}
	}
	e.do("owner", method, path, `{"id":1,"read":11}`).want(t, http.StatusBadRequest)
	e.do("owner", method, path, `{"read":11}`).want(t, http.StatusBadRequest)
	e.do("owner", method, path, fmt.Sprintf(`{"id":%d}`, n.ID)).want(t, http.StatusBadRequest)
}

func TestNotificationPopulate(t *testing.T) {
	e := newEnv(t, Options{})
	method, path := e.opPath("NG", e.fx.Records.Notification.GroupID)
	plain := e.do("owner", method, path, "").want(t, 200).object(t)
	if _, ok := plain["ancestor"]; ok {
		t.Errorf("without populate, ancestor = %v, want absent", plain["ancestor"])
	}
	full := e.do("owner", method, path+"?populate=ancestor", "").want(t, 200).object(t)
	anc, _ := full["ancestor"].([]any)
	if len(anc) == 0 {
		t.Fatalf("populate=ancestor: ancestor = %v, want targets", full["ancestor"])
	}
	allowed := map[float64]bool{}
	for _, id := range []float64{1, 2, 6, 7, 8, 10, 11, 13, 14, 15, 16, 17, 19, 20, 22, 24, 25, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 39, 41, 42, 44, 45, 47, 48, 51, 54, 55, 56, 57, 58, 59, 60, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 83, 100, 200, 1000, 1001, 1002, 1003, 1004, 1005, 1006} {
		allowed[id] = true
	}
	for _, a := range anc {
		if !allowed[a.(map[string]any)["typeID"].(float64)] {
			t.Errorf("ancestor typeID %v is not in the allowed list", a.(map[string]any)["typeID"])
		}
	}
	e.do("owner", method, path+"?populate=parent", "").want(t, http.StatusBadRequest)
	_, other := e.opPath("NG", absent)
	e.do("owner", method, other, "").want(t, http.StatusBadRequest)
}

func TestUpdateQuizSection(t *testing.T) {
	e := newEnv(t, Options{})
	qs := e.fx.Records.QuizSection
	method, path := e.opPath("QS", "")
	before, _ := e.sim.store.QuizSection(qs.ID)
	if !before.DisplayQuestionMark {
		t.Fatal("fixture section should show marks, so that the default is visible")
	}
	tests := []struct {
		name, body string
		want       int
		wantMarks  bool
	}{
		{"default displayQuestionMark", `{"id":"` + qs.ID + `","name":"Part 1"}`, 200, false},
		{"given displayQuestionMark", `{"id":"` + qs.ID + `","name":"Part 1","displayQuestionMark":true,"randomizeQuestions":true,"displayedRandomQuestions":2}`, 200, true},
		{"missing name", `{"id":"` + qs.ID + `"}`, 400, true},
		{"empty name", `{"id":"` + qs.ID + `","name":""}`, 400, true},
		{"missing id", `{"name":"x"}`, 400, true},
		{"negative displayedRandomQuestions", `{"id":"` + qs.ID + `","name":"x","displayedRandomQuestions":-1}`, 400, true},
		{"unknown section", `{"id":"` + absent + `","name":"x"}`, 400, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do("owner", method, path, tt.body).want(t, tt.want)
			got, _ := e.sim.store.QuizSection(qs.ID)
			if got.DisplayQuestionMark != tt.wantMarks {
				t.Errorf("stored displayQuestionMark = %v, want %v", got.DisplayQuestionMark, tt.wantMarks)
			}
			if got.AssessmentID != before.AssessmentID {
				t.Errorf("assessmentId changed to %s", got.AssessmentID)
			}
			if tt.want == 200 {
				if m := r.object(t); m["displayQuestionMark"] != tt.wantMarks || m["assessmentId"] != before.AssessmentID {
					t.Errorf("answer %s, want displayQuestionMark %v and assessmentId %s", r.body, tt.wantMarks, before.AssessmentID)
				}
			}
		})
	}
}
