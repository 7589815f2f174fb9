package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports/redact"
)

// sampleTraffic is a traffic report with one of everything; the body of
// its example holds the secret "key-0123456789abcdef".
func sampleTraffic() *TrafficReport {
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	return &TrafficReport{
		Tool:      Tool{Name: "campusconf", Version: "test"},
		Simulator: TrafficSimulator{URL: "http://127.0.0.1:8080", Seed: 1, Scale: 1, Variants: []string{"page-10"}},
		Traffic: wire.Traffic{Since: at, Until: at.Add(time.Minute), Restarts: 1, Requests: 3,
			Operations: []TrafficOperation{
				{Op: "E10", Method: "GET", Path: "/files/{id}/downloaded", Count: 2, Statuses: map[string]int{"200": 1, "400": 1},
					Example: &TrafficExample{Method: "GET", Target: "/files/f-1/downloaded?limit=2", Op: "E10", User: "owner", Status: 200,
						FixtureIDs: map[string]string{"f-1": "records.folder"}}},
				{Op: "GB", Method: "PATCH", Path: "/gradebook/{id}/settings", Count: 1, Statuses: map[string]int{"200": 1}},
			},
			Violations: []TrafficViolation{{Requirement: "E10.400.date", Ops: []string{"E10"}, Count: 1,
				What: "query StartDate: not a date-time", Status: 400,
				Example: TrafficExample{Method: "GET", Target: "/files/x/downloaded?StartDate=<b>yesterday</b>&k=key-0123456789abcdef", Body: `{"a":"key-0123456789abcdef"}`}}},
			Relies: []TrafficReliance{{ID: "D-limit-default", Simulator: "gives a list without limit its first 100 entries",
				Instead: "another default page size", Robust: "send limit on every list read", Section: "Lists", Count: 1, Ops: []string{"E10"},
				Example: &TrafficExample{Method: "GET", Target: "/files/f-1/downloaded", Op: "E10", User: "owner", Status: 200}}}},
		Unused: []string{"E1", "E2"},
	}
}

func TestTrafficReportFiles(t *testing.T) {
	tr := sampleTraffic()
	tr.Redact(redact.With(map[string]string{"key-0123456789abcdef": "<SUBSCRIPTION_KEY>"}))
	dir := t.TempDir()
	html, err := WriteTraffic(dir, tr)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(html) != HTMLFile {
		t.Errorf("WriteTraffic returned %q, want the path of %s", html, HTMLFile)
	}
	for _, f := range TrafficFiles {
		data, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if strings.Contains(s, "key-0123456789abcdef") {
			t.Errorf("%s holds the secret: expected it redacted", f.Name)
		}
		for _, want := range []string{"E10.400.date", "D-limit-default", "another default page size", "send limit on every list read", "GB"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: expected it to contain %q", f.Name, want)
			}
		}
		if f.Name == HTMLFile && strings.Contains(s, "<b>yesterday") {
			t.Errorf("%s: the example's markup is not escaped", f.Name)
		}
	}
	sch := compileJSONSchema(t, "https://github.com/campusconf/campusconf/reports/traffic.schema.json", TrafficJSONSchema())
	data, _ := os.ReadFile(filepath.Join(dir, JSONFile))
	if err := schemaError(t, sch, data); err != nil {
		t.Errorf("report.json does not match traffic.schema.json:\n%v", err)
	}
	var back TrafficReport
	if err := json.Unmarshal(data, &back); err != nil || back.Schema != TrafficSchemaVersion {
		t.Errorf("report.json: schema %q (%v), want %q", back.Schema, err, TrafficSchemaVersion)
	}
}

// TestTrafficSchemaRejects: the schema is not vacuous.
func TestTrafficSchemaRejects(t *testing.T) {
	sch := compileJSONSchema(t, "https://github.com/campusconf/campusconf/reports/traffic.schema.json", TrafficJSONSchema())
	for _, tt := range []struct {
		name  string
		spoil func(m map[string]any)
	}{
		{"another version", func(m map[string]any) { m["schema"] = "campusconf.traffic/v2" }},
		{"no relies", func(m map[string]any) { delete(m, "relies") }},
		{"a reliance without its advice", func(m map[string]any) {
			m["relies"].([]any)[0].(map[string]any)["robust"] = ""
		}},
		{"a negative count", func(m map[string]any) { m["requests"] = -1 }},
		{"a status that is not one", func(m map[string]any) {
			m["operations"].([]any)[0].(map[string]any)["statuses"] = map[string]any{"ok": 1}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTrafficJSON(&b, withSchema(sampleTraffic())); err != nil {
				t.Fatal(err)
			}
			if schemaError(t, sch, spoiled(t, b.Bytes(), tt.spoil)) == nil {
				t.Errorf("traffic.schema.json accepted a report with %s", tt.name)
			}
		})
	}
}

func withSchema(t *TrafficReport) *TrafficReport {
	t.Schema = TrafficSchemaVersion
	return t
}

// TestTrafficSchemaCoversModel: every field of the model is in the
// schema, so one added cannot be forgotten there.
func TestTrafficSchemaCoversModel(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(TrafficJSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	props := func(obj any) map[string]any {
		p, _ := obj.(map[string]any)["properties"].(map[string]any)
		return p
	}
	items := func(obj any) any { return obj.(map[string]any)["items"] }
	top := props(schema)
	viol := props(items(top["violations"]))
	for _, tt := range []struct {
		typ reflect.Type
		obj map[string]any
	}{
		{reflect.TypeFor[TrafficReport](), top},
		{reflect.TypeFor[TrafficSimulator](), props(top["simulator"])},
		{reflect.TypeFor[TrafficOperation](), props(items(top["operations"]))},
		{reflect.TypeFor[TrafficViolation](), viol},
		{reflect.TypeFor[TrafficExample](), props(schema["$defs"].(map[string]any)["example"])},
		{reflect.TypeFor[TrafficReliance](), props(items(top["relies"]))},
	} {
		n := 0
		for _, f := range reflect.VisibleFields(tt.typ) {
			if f.Anonymous {
				continue // an embedded struct's members stand at this level
			}
			n++
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if _, ok := tt.obj[name]; !ok {
				t.Errorf("%s.%s (json %q) is missing from traffic.schema.json", tt.typ.Name(), f.Name, name)
			}
		}
		if len(tt.obj) != n {
			t.Errorf("schema of %s has %d properties, the model %d fields", tt.typ.Name(), len(tt.obj), n)
		}
	}
}
