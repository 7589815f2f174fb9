package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return compileJSONSchema(t, "https://github.com/campusconf/campusconf/reports/report.schema.json", JSONSchema())
}

// compileJSONSchema compiles the schema data, known by url, with formats
// asserted.
func compileJSONSchema(t *testing.T, url string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", url, err)
	}
	return sch
}

func TestGoldenReportMatchesSchema(t *testing.T) {
	sch := compileSchema(t)
	data, err := os.ReadFile(filepath.Join("testdata", "report.json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if err := schemaError(t, sch, data); err != nil {
		t.Errorf("testdata/report.json.golden does not match report.schema.json:\n%v", err)
	}
}

// TestSchemaRejects checks that the schema is not vacuous: each broken
// report must be refused.
func TestSchemaRejects(t *testing.T) {
	sch := compileSchema(t)
	tests := []struct {
		name    string
		breakIt func(m map[string]any)
	}{
		{"other schema version", func(m map[string]any) { m["schema"] = "campusconf.report/v4" }},
		{"unknown outcome error form", func(m map[string]any) { scenario(m, 0)["outcome"] = "errored" }},
		{"unknown skip cause", func(m map[string]any) { scenario(m, 0)["skipCause"] = "tired" }},
		{"unknown verdict", func(m map[string]any) { m["verdict"] = "mostly fine" }},
		{"no counts", func(m map[string]any) { delete(m, "counts") }},
		{"negative count", func(m map[string]any) { m["counts"].(map[string]any)["passed"] = -1 }},
		{"unknown outcome", func(m map[string]any) { scenario(m, 0)["outcome"] = "flaky" }},
		{"failed without failure", func(m map[string]any) {
			for i := range m["scenarios"].([]any) {
				if s := scenario(m, i); s["outcome"] == "failed" {
					delete(s, "failure")
					return
				}
			}
		}},
		{"negative duration", func(m map[string]any) { scenario(m, 0)["durationMs"] = -3.5 }},
		{"bad start time", func(m map[string]any) { m["started"] = "yesterday" }},
		{"unknown result", func(m map[string]any) { m["requirements"].([]any)[0].(map[string]any)["result"] = "maybe" }},
		{"bad strictness", func(m map[string]any) { scenario(m, 0)["strictness"] = "MAY" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := spoiled(t, written(t, WriteJSON, sampleReport()), tt.breakIt)
			if err := schemaError(t, sch, data); err == nil {
				t.Errorf("schema accepted a report with %s", tt.name)
			}
		})
	}
}

func scenario(m map[string]any, i int) map[string]any {
	return m["scenarios"].([]any)[i].(map[string]any)
}

// TestSchemaCoversModel walks the model's JSON field names and checks the
// schema names each one, so a field added to model.go cannot be forgotten
// in report.schema.json.
func TestSchemaCoversModel(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	props := func(obj map[string]any) map[string]any {
		p, _ := obj["properties"].(map[string]any)
		return p
	}
	tests := []struct {
		typ  reflect.Type
		obj  map[string]any
		name string
	}{
		{reflect.TypeFor[Report](), schema, "report"},
		{reflect.TypeFor[Tool](), props(schema)["tool"].(map[string]any), "tool"},
		{reflect.TypeFor[Target](), props(schema)["target"].(map[string]any), "target"},
		{reflect.TypeFor[Counts](), defs["counts"].(map[string]any), "counts"},
		{reflect.TypeFor[Scenario](), defs["scenario"].(map[string]any), "scenario"},
		{reflect.TypeFor[Failure](), defs["failure"].(map[string]any), "failure"},
		{reflect.TypeFor[Exchange](), defs["exchange"].(map[string]any), "exchange"},
		{reflect.TypeFor[Requirement](), defs["requirement"].(map[string]any), "requirement"},
		{reflect.TypeFor[OpenPoint](), defs["openPoint"].(map[string]any), "openPoint"},
		{reflect.TypeFor[GateResult](), defs["gate"].(map[string]any), "gate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := props(tt.obj)
			fields := 0
			for i := range tt.typ.NumField() {
				name, _, _ := strings.Cut(tt.typ.Field(i).Tag.Get("json"), ",")
				if name == "" || name == "-" {
					continue
				}
				fields++
				if _, ok := p[name]; !ok {
					t.Errorf("%s.%s (json %q) is missing from report.schema.json", tt.typ.Name(), tt.typ.Field(i).Name, name)
				}
			}
			if len(p) != fields {
				t.Errorf("schema %s has %d properties, model %s has %d fields written", tt.name, len(p), tt.typ.Name(), fields)
			}
		})
	}
}

func TestReadJSONRoundTrip(t *testing.T) {
	want := sampleReport()
	path := filepath.Join(t.TempDir(), JSONFile)
	buf := written(t, WriteJSON, want)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report after WriteJSON and ReadJSON (-want +got):\n%s", diff)
	}
	finalize(got, sampleProfiles()) // the profiles it was finalized with
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("finalizing a read report changed it (-want +got):\n%s", diff)
	}
}

// TestDecodeReadsEveryWrittenSchema: testdata/schemas holds a report.json
// of every schema version the project has written (v1.json as the release
// before versioned tools wrote it), each readable, and each version
// DecodeJSON reads has its file there.
func TestDecodeReadsEveryWrittenSchema(t *testing.T) {
	files, err := filepath.Glob("testdata/schemas/*.json")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		r, err := ReadJSON(f)
		if err != nil {
			t.Errorf("%s: expected a readable report, got %v", f, err)
			continue
		}
		seen[r.Schema] = true
		if len(r.Scenarios) == 0 || len(r.Requirements) == 0 || r.Verdict == "" {
			t.Errorf("%s: expected scenarios, requirements and a verdict, got %d, %d and %q", f, len(r.Scenarios), len(r.Requirements), r.Verdict)
		}
	}
	for _, v := range ReadableSchemas() {
		if !seen[v] {
			t.Errorf("schema %s: expected a report of it in testdata/schemas, got none (copy a report.json written by that version there)", v)
		}
	}
	if !seen[SchemaVersion] {
		t.Errorf("expected the current schema %s among the readable ones, got %v", SchemaVersion, ReadableSchemas())
	}
}

func TestDecodeJSONVersion(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr error
	}{
		{"current", `{"schema":"campusconf.report/v3","scenarios":[],"requirements":[],"counts":{}}`, nil},
		{"the version before", `{"schema":"campusconf.report/v2","scenarios":[],"requirements":[],"counts":{}}`, nil},
		{"the first version", `{"schema":"campusconf.report/v1","scenarios":[],"requirements":[],"counts":{}}`, nil},
		{"unknown fields are fine", `{"schema":"campusconf.report/v3","scenarios":[],"requirements":[],"counts":{},"later":{"x":1}}`, nil},
		{"newer", `{"schema":"campusconf.report/v4"}`, ErrVersion},
		{"none", `{"verdict":"conformant"}`, ErrVersion},
		// a head report of nothing read as "no regression" (issue 45)
		{"the schema alone", `{"schema":"campusconf.report/v2"}`, ErrIncomplete},
		{"no counts", `{"schema":"campusconf.report/v2","scenarios":[],"requirements":[]}`, ErrIncomplete},
		{"no scenarios", `{"schema":"campusconf.report/v2","requirements":[],"counts":{}}`, ErrIncomplete},
		{"null scenarios", `{"schema":"campusconf.report/v2","scenarios":null,"requirements":[],"counts":{}}`, ErrIncomplete},
		{"counts not its scenarios'", `{"schema":"campusconf.report/v2","scenarios":[{"id":"a","outcome":"failed"}],"requirements":[],"counts":{"scenarios":1,"passed":1}}`, ErrIncomplete},
		{"an outcome of no kind", `{"schema":"campusconf.report/v2","scenarios":[{"id":"a","outcome":"fine"}],"requirements":[],"counts":{"scenarios":1}}`, ErrIncomplete},
		{"counts that are", `{"schema":"campusconf.report/v2","scenarios":[{"id":"a","outcome":"failed"}],"requirements":[{"id":"x"}],"counts":{"scenarios":1,"failed":1,"requirements":1}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeJSON(strings.NewReader(tt.in))
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("DecodeJSON(%s): got error %v, want %v", tt.in, err, tt.wantErr)
			}
		})
	}
	if _, err := DecodeJSON(strings.NewReader(`{"schema":`)); err == nil {
		t.Error("DecodeJSON of broken JSON: got no error")
	}
	if _, err := ReadJSON(filepath.Join(t.TempDir(), "absent.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadJSON of a missing file: got %v, want os.ErrNotExist", err)
	}
}

// TestReadJSONBound: a report.json past the bound is refused before it is
// decoded, naming the bound and the flag that raises it; within the bound
// it is read; a directory is no report file.
func TestReadJSONBound(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, JSONFile)
	if err := os.WriteFile(path, written(t, WriteJSON, sampleReport()), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	_, err := ReadJSONWithin(path, st.Size()-1, "--max-report")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "--max-report raises the bound") {
		t.Errorf("ReadJSONWithin(a file one byte past the bound): expected ErrTooLarge naming --max-report, got %v", err)
	}
	if _, err := ReadJSONWithin(path, st.Size(), "--max-report"); err != nil {
		t.Errorf("ReadJSONWithin(a file at the bound): expected it read, got %v", err)
	}
	if _, err := ReadJSON(dir); err == nil || !strings.Contains(err.Error(), "is a directory: expected a regular file") {
		t.Errorf("ReadJSON(a directory): expected it refused as no regular file, got %v", err)
	}
}

// TestSchemaListsSkipCauses holds the schema's enum of skip causes to the
// closed set in model.go.
func TestSchemaListsSkipCauses(t *testing.T) {
	var schema struct {
		Defs struct {
			Scenario struct {
				Properties struct {
					SkipCause struct {
						Enum []SkipCause `json:"enum"`
					} `json:"skipCause"`
				} `json:"properties"`
			} `json:"scenario"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	got, want := schema.Defs.Scenario.Properties.SkipCause.Enum, SkipCauses
	if !slices.Equal(got, want) {
		t.Errorf("report.schema.json lists skip causes %q, model.go %q", got, want)
	}
}
