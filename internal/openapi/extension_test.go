package openapi

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// decisionAnchors are the anchors of the sections of docs/decisions.md, as
// a Markdown renderer makes them from the headings.
func decisionAnchors(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("../../docs/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	drop := regexp.MustCompile(`[^a-z0-9 \-]`)
	out := map[string]bool{}
	for line := range strings.Lines(string(data)) {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			out[strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(strings.TrimSpace(h)), ""), " ", "-")] = true
		}
	}
	return out
}

// documentTree is openapi.yaml decoded as plain values.
func documentTree(t *testing.T) map[string]any {
	t.Helper()
	var tree map[string]any
	if err := yaml.Unmarshal(YAML(), &tree); err != nil {
		t.Fatal(err)
	}
	return tree
}

// walk calls f for every member of every object below v, with its path.
func walk(path string, v any, f func(path, key string, value any)) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			f(path, k, t[k])
			walk(path+"/"+k, t[k], f)
		}
	case []any:
		for i, e := range t {
			walk(fmt.Sprintf("%s/%d", path, i), e, f)
		}
	}
}

// TestSimulatorChoices holds the one extension of choices (beside the
// operations' IDExtension): its only name, a valid
// value naming a section of docs/decisions.md wherever it is, and the
// places it must be: every unplaced operation, every operation's 401,
// offset and limit with the simulator's bounds.
func TestSimulatorChoices(t *testing.T) {
	anchors := decisionAnchors(t)
	walk("", documentTree(t), func(path, key string, value any) {
		if !strings.HasPrefix(key, "x-") {
			return
		}
		if key == IDExtension {
			// the operation's registry id, not a choice
			if _, ok := value.(string); !ok {
				t.Errorf("%s: %s: expected a string on an operation, got %v", path, IDExtension, value)
			}
			return
		}
		if key != Extension {
			t.Errorf("%s: extension %s: expected only %s (one name for the simulator's choices) and %s on operations", path, key, Extension, IDExtension)
			return
		}
		c, _, err := ChoiceOf(map[string]any{key: value})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		anchor, ok := strings.CutPrefix(c.Decision, "docs/decisions.md#")
		if !ok || !anchors[anchor] {
			t.Errorf("%s: decision %q: expected docs/decisions.md#ANCHOR naming one of its sections (%s)", path, c.Decision, strings.Join(slices.Sorted(maps.Keys(anchors)), ", "))
		}
	})

	doc := mustLoad(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			reg, known := registry.Lookup(IDOf(op))
			if _, marked, _ := ChoiceOf(op.Extensions); known && marked != reg.Unplaced() {
				t.Errorf("%s %s (%s): %s on the operation = %v, expected it exactly on the operations the specification does not place", method, path, IDOf(op), Extension, marked)
			}
			if r := op.Responses.Value("401"); r == nil || !Unlisted(op.Responses.Map()["401"]) {
				t.Errorf("%s: expected a 401 marked with %s (the simulator answers it to a missing key; the specification lists none)", IDOf(op), Extension)
			}
		}
	}

	// The simulator's paging bounds are in the extension, not in standard
	// keywords; simulator.TestDocumentGivesListBounds holds their values.
	for _, name := range []string{"Offset", "Limit"} {
		p := doc.Components.Parameters[name].Value.Schema.Value
		c, ok, err := ChoiceOf(p.Extensions)
		if !ok || err != nil || c.Minimum == nil || c.Default == nil {
			t.Errorf("%s: expected %s with the simulator's minimum and default, got %+v (%v)", name, Extension, c, err)
		}
		if p.Min != nil || p.Max != nil || p.Default != nil {
			t.Errorf("%s: expected no standard minimum, maximum or default (the specification states none), got minimum %v maximum %v default %v", name, deref(p.Min), deref(p.Max), p.Default)
		}
	}
}

// specified lists every standard keyword of the document that constrains
// a value beyond its type, with the section of the specification that
// states it. A keyword found in the document and missing here fails the
// test: state a bound, default or enum the specification does not give in
// x-campusconf-simulator instead, since the suite, the proxy and the
// generator enforce the standard keywords on every implementation. The
// ranges and defaults are internal/rules' stated limits.
func specified() map[string]string {
	n := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	const sc, rb = "components/schemas/", "components/requestBodies/"
	out := map[string]string{}
	for _, e := range []struct{ keyword, section string }{
		{rb + "AttendanceDeleteBody required true", "E8: resourceID required"},
		{rb + "DefaultAttendanceBody required true", "E7: resourceID required"},
		{rb + "GradebookSettingsBody required true", "Gradebook update: both members required"},
		{rb + "NotificationReadBody required true", "Notification read update: id and read required"},
		{rb + "OtpBody required true", "E1: userid and otp required"},
		{rb + "PushPollBody required true", "E2: transactionId required"},
		{rb + "QuizSectionBody required true", "Quiz section update: id and name required"},
		{sc + "AttendanceDeleteInput required [resourceID]", "E8"},
		{sc + "BankFolder required [id]", "Bank folder: id required"},
		{sc + "DefaultAttendanceInput required [resourceID]", "E7"},
		{sc + "DefaultAttendanceInput/properties/publish default " + fmt.Sprint(rules.DefaultAttendancePublish), "E7; Limits: publish default true"},
		{sc + "Evaluation/properties/evaluationMethod enum [0 1 2 3]", "Evaluation: evaluationMethod enum 0,1,2,3"},
		{sc + "Evaluation/properties/evaluationType enum [0 1 2 3 4 5]", "Evaluation: evaluationType enum 0..5"},
		{sc + "EvaluationQuestion required [text]", "Evaluation question: text required"},
		{sc + "EvaluationQuestion/properties/difficultyLevel enum [0 1 2 3]", "Limits: difficultyLevel 0, 1, 2 or 3"},
		{sc + "EvaluationQuestion/properties/mark maximum " + n(rules.Mark.Max), "Limits: mark 0 to 10000"},
		{sc + "EvaluationQuestion/properties/mark minimum " + n(rules.Mark.Min), "Limits: mark 0 to 10000"},
		{sc + "EvaluationQuestion/properties/videoTimeStamp maximum " + n(rules.VideoTimeStamp.Max), "Limits: videoTimeStamp 0 to 2147483647"},
		{sc + "EvaluationQuestion/properties/videoTimeStamp minimum " + n(rules.VideoTimeStamp.Min), "Limits: videoTimeStamp 0 to 2147483647"},
		{sc + "FileLog/properties/action enum [Download File Upload File Delete File Create File Create Folder Delete Folder Update Folder]", "File activity log entry: one of the kinds"},
		{sc + "GradebookSettings/properties/resourceID readOnly true", "Gradebook settings: only in responses"},
		{sc + "GradebookSettingsInput required [iD_Weightage gradingSchema]", "Gradebook update"},
		{sc + "GradingSchemaEntry required [letterGrade maxMark]", "Gradebook settings: both members required"},
		{sc + "Notification/properties/notifyStatus enum [10 11]", "Notification: 10 unread, 11 read; States"},
		{sc + "NotificationReadInput required [id read]", "Notification read update"},
		{sc + "NotificationReadInput/properties/read maximum " + n(rules.NotificationRead.Max), "Limits: read 10 to 11"},
		{sc + "NotificationReadInput/properties/read minimum " + n(rules.NotificationRead.Min), "Limits: read 10 to 11"},
		{sc + "OtpInput required [userid otp]", "E1"},
		{sc + "PollResponse/properties/selectedOptions/items minimum 0", "Poll response: selectedOptions are 0-based positions"},
		{sc + "PushPollInput required [transactionId]", "E2"},
		{sc + "QuizSection required [name]", "Quiz section: name required"},
		{sc + "QuizSection/properties/assessmentId readOnly true", "Quiz section: response only"},
		{sc + "QuizSection/properties/displayQuestionMark default " + fmt.Sprint(rules.DefaultDisplayQuestionMark), "Limits: displayQuestionMark default false"},
		{sc + "QuizSectionInput required [id name]", "Quiz section update: id and name required"},
		{sc + "QuizSectionInput/properties/displayQuestionMark default " + fmt.Sprint(rules.DefaultDisplayQuestionMark), "Limits: displayQuestionMark default false"},
		{sc + "Student/properties/officialEmail readOnly true", "Student entry: officialEmail read-only"},
		{sc + "SurveyResponse required [questionID]", "Survey response: questionID required"},
		{sc + "Target/properties/typeID enum of 73 values", "Notification: allowed typeID values"},
	} {
		out[e.keyword] = e.section
	}
	return out
}

// constraining are the keywords that narrow a value beyond its type.
var constraining = strings.Fields("minimum maximum exclusiveMinimum exclusiveMaximum multipleOf minLength maxLength pattern minItems maxItems uniqueItems minProperties maxProperties enum default required readOnly writeOnly nullable additionalProperties")

// formats are the formats the specification's conventions and types name.
var formats = []string{"uuid", "date-time", "int32", "int64", "float", "double"}

// TestStandardKeywordsAreTheSpecifications audits the document: every
// constraining keyword outside the extension is one the specification
// states (specified), and every format is one it names.
func TestStandardKeywordsAreTheSpecifications(t *testing.T) {
	tree := documentTree(t)
	specified := specified()
	found := map[string]bool{}
	for _, top := range []string{"paths", "components"} {
		walk(top, tree[top], func(path, key string, value any) {
			if strings.Contains(path, "/x-") || strings.HasPrefix(key, "x-") {
				return // the simulator's choices, enforced by no checker
			}
			if key == "format" && !strings.HasSuffix(path, "/properties") {
				if f, _ := value.(string); !slices.Contains(formats, f) {
					t.Errorf("%s: format %v: expected one the specification names (%v)", path, value, formats)
				}
				return
			}
			if !slices.Contains(constraining, key) || strings.HasSuffix(path, "/properties") {
				return
			}
			if key == "required" && value == true && strings.Contains(path, "/parameters/") {
				return // OpenAPI requires it of every path parameter
			}
			rendered := fmt.Sprint(value)
			if l, ok := value.([]any); ok && len(l) > 10 {
				rendered = fmt.Sprintf("of %d values", len(l))
			}
			found[path+" "+key+" "+rendered] = true
		})
	}
	for _, k := range slices.Sorted(maps.Keys(found)) {
		if _, ok := specified[k]; !ok {
			t.Errorf("openapi.yaml: %s: the specification does not state it: move it into %s, or add it to specified with the section that states it", k, Extension)
		}
	}
	for k := range specified {
		if !found[k] {
			t.Errorf("openapi.yaml: %s: expected (the specification states it), not found", k)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
