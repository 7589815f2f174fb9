package openapi

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"

	"github.com/campusconf/campusconf/internal/registry"
)

func TestDocumentValidates(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(YAML())
	if err != nil {
		t.Fatalf("load openapi.yaml: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.yaml does not validate: %v", err)
	}
	if got, want := doc.OpenAPI, "3.0.3"; got != want {
		t.Errorf("openapi version: got %q, want %q (3.1 is much slower in kin-openapi)", got, want)
	}
	if _, err := Load(); err != nil {
		t.Fatalf("Load: %v", err)
	}
}

func TestLoadIsCachedAndConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	docs := make([]*openapi3.T, 8)
	for i := range docs {
		wg.Go(func() {
			d, err := Load()
			if err != nil {
				t.Error(err)
			}
			docs[i] = d
		})
	}
	wg.Wait()
	for i, d := range docs {
		if d != docs[0] {
			t.Errorf("Load call %d returned a different document", i)
		}
	}
}

// TestJSONEqualsYAML decodes the YAML with a YAML library of its own, not
// kin-openapi's loader that JSON() goes through, so anything the loader
// dropped or changed on the way would show.
func TestJSONEqualsYAML(t *testing.T) {
	var fromYAML any
	if err := yaml.Unmarshal(YAML(), &fromYAML); err != nil {
		t.Fatalf("decode YAML: %v", err)
	}
	// Round-trip through encoding/json so both sides use the same Go types.
	b, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatalf("YAML as JSON: %v", err)
	}
	var want, got any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(JSON(), &got); err != nil {
		t.Fatalf("JSON() is not JSON: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON() differs from openapi.yaml (-yaml +json):\n%s", diff)
	}
}

func TestOperationIDsAndPlacement(t *testing.T) {
	doc := mustLoad(t)
	type place struct{ Method, Path string }
	got := map[string]place{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			got[IDOf(op)] = place{method, path}
		}
	}
	// The registry names each operation's place (for the unplaced five,
	// the simulator's choice: docs/decisions.md).
	want := map[string]place{}
	for _, op := range registry.All() {
		want[string(op.ID)] = place{op.Method, op.Path}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}

	v := mustValidator(t)
	wantIDs := registry.Strings(registry.IDs())
	slices.SortFunc(wantIDs, compareNatural)
	if diff := cmp.Diff(wantIDs, v.Operations()); diff != "" {
		t.Errorf("Operations() (-want +got):\n%s", diff)
	}
}

func TestStatuses(t *testing.T) {
	doc := mustLoad(t)
	std := []string{"400", "403", "500"}
	with := func(extra ...string) []string {
		s := append(slices.Clone(std), extra...)
		slices.Sort(s)
		return s
	}
	want := map[string][]string{}
	for _, op := range registry.All() {
		var extra []string
		for _, st := range op.Statuses {
			extra = append(extra, strconv.Itoa(st))
		}
		want[string(op.ID)] = with(extra...)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			var got []string
			for status, r := range op.Responses.Map() {
				if Unlisted(r) {
					// the simulator's 401, which the specification does
					// not list; TestSimulatorChoices holds it
					continue
				}
				got = append(got, status)
				code := status[0]
				mt := r.Value.Content.Get("application/json")
				switch {
				case status == "204":
					if len(r.Value.Content) != 0 {
						t.Errorf("%s 204: got content, want none", IDOf(op))
					}
				case mt == nil || mt.Schema == nil:
					t.Errorf("%s %s: no application/json schema", IDOf(op), status)
				case code == '4' || code == '5':
					if !mt.Schema.Value.Type.Is(openapi3.TypeString) {
						t.Errorf("%s %s: error body type %v, want string", IDOf(op), status, mt.Schema.Value.Type)
					}
				}
			}
			slices.Sort(got)
			if diff := cmp.Diff(want[IDOf(op)], got); diff != "" {
				t.Errorf("%s statuses (-want +got):\n%s", IDOf(op), diff)
			}
		}
	}
}

func TestRequestBodiesAndParameters(t *testing.T) {
	doc := mustLoad(t)
	wantBody := map[string]string{}
	for _, op := range registry.All() {
		if op.Input != "" {
			wantBody[string(op.ID)] = op.Input
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			id := IDOf(op)
			want, hasBody := wantBody[id]
			if (op.RequestBody != nil) != hasBody {
				t.Errorf("%s: request body present = %v, want %v", id, op.RequestBody != nil, hasBody)
				continue
			}
			if hasBody {
				for _, media := range []string{"application/json-patch+json", "application/json"} {
					mt := op.RequestBody.Value.Content.Get(media)
					if mt == nil {
						t.Errorf("%s: no request body under %s", id, media)
						continue
					}
					if got := strings.TrimPrefix(mt.Schema.Ref, "#/components/schemas/"); got != want {
						t.Errorf("%s %s body: got %q, want %q", id, media, got, want)
					}
				}
			}
			for _, p := range op.Parameters {
				s := p.Value.Schema.Value
				if p.Value.In == openapi3.ParameterInPath && (s.Format != "uuid" || !p.Value.Required) {
					t.Errorf("%s path parameter %s: want a required uuid", id, p.Value.Name)
				}
				switch p.Value.Name {
				case "offset", "limit":
					if s.Format != "int32" {
						t.Errorf("%s %s: format %q, want int32", id, p.Value.Name, s.Format)
					}
				case "StartDate", "EndDate", "startDate", "endDate":
					if s.Format != "date-time" {
						t.Errorf("%s %s: format %q, want date-time", id, p.Value.Name, s.Format)
					}
				}
			}
		}
	}
	inputs := map[string][]string{
		"OtpInput":               {"userid", "otp"},
		"PushPollInput":          {"transactionId"},
		"DefaultAttendanceInput": {"resourceID"},
		"AttendanceDeleteInput":  {"resourceID"},
		"GradebookSettingsInput": {"iD_Weightage", "gradingSchema"},
		"NotificationReadInput":  {"id", "read"},
		"QuizSectionInput":       {"id", "name"},
		"SlotDeleteInput":        nil,
		"MediaDeleteInput":       nil,
		"SessionPublishInput":    nil,
		"EvaluationSessionInput": nil,
	}
	for name, want := range inputs {
		s := doc.Components.Schemas[name]
		if s == nil {
			t.Errorf("component %s missing", name)
			continue
		}
		if diff := cmp.Diff(want, s.Value.Required); diff != "" {
			t.Errorf("%s required (-want +got):\n%s", name, diff)
		}
	}
	read := doc.Components.Schemas["NotificationReadInput"].Value.Properties["read"].Value
	if read.Min == nil || *read.Min != 10 || read.Max == nil || *read.Max != 11 {
		t.Errorf("NotificationReadInput.read: want minimum 10 maximum 11")
	}
}

func TestSecurity(t *testing.T) {
	doc := mustLoad(t)
	key := doc.Components.SecuritySchemes["subscriptionKey"].Value
	if key.Type != "apiKey" || key.In != "header" || key.Name != "Ocp-Apim-Subscription-Key" {
		t.Errorf("subscriptionKey: got %s in %s named %s", key.Type, key.In, key.Name)
	}
	bearer := doc.Components.SecuritySchemes["bearerAuth"].Value
	if bearer.Type != "http" || bearer.Scheme != "bearer" {
		t.Errorf("bearerAuth: got %s %s", bearer.Type, bearer.Scheme)
	}
	if len(doc.Security) != 1 || len(doc.Security[0]) != 2 {
		t.Errorf("want one global requirement of both schemes, got %v", doc.Security)
	}
}

func TestRecordSchemas(t *testing.T) {
	doc := mustLoad(t)
	required := map[string][]string{
		"SecondFactorResult": nil, "PushResult": nil, "BankFolder": {"id"}, "Attendance": nil,
		"EvaluationQuestion": {"text"}, "Tag": nil, "Evaluation": nil, "Faculty": nil,
		"GradebookSettings": nil, "Weightage": nil, "GradingSchemaEntry": {"letterGrade", "maxMark"},
		"FileLog": nil, "FileAnnotation": nil, "WeblinkLog": nil, "MediaLog": nil, "ChannelUser": nil,
		"CaptureSession": nil, "SurveyResponse": {"questionID"}, "PollResponse": nil, "Student": nil,
		"Notification": nil, "Target": nil, "QuizSection": {"name"},
	}
	for name, want := range required {
		ref := doc.Components.Schemas[name]
		if ref == nil {
			t.Errorf("component %s missing", name)
			continue
		}
		s := ref.Value
		if diff := cmp.Diff(want, s.Required); diff != "" {
			t.Errorf("%s required (-want +got):\n%s", name, diff)
		}
		if s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has {
			t.Errorf("%s forbids additional properties; implementations may add fields", name)
		}
	}
}

func TestOptional(t *testing.T) {
	tests := []struct {
		record, field string
		want          bool
	}{
		{"Notification", "notifyStatus", true},
		{"QuizSection", "name", false}, // required
		{"BankFolder", "id", false},    // required
		{"Attendance", "publish", true},
		{"Attendance", "nonsense", false},
		{"", "publish", false},
	}
	for _, tt := range tests {
		if got := Optional(tt.record, tt.field); got != tt.want {
			t.Errorf("Optional(%q, %q): expected %v, got %v", tt.record, tt.field, tt.want, got)
		}
	}
}
