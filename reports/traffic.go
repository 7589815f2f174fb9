package reports

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	textTemplate "text/template"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports/redact"
)

// The traffic report: what a front end did against the simulator
// (`campusconf serve --report-dir`), for the team that will move it to a
// real implementation. It is not a conformance run: it has its own model
// and JSON schema (traffic.schema.json, version TrafficSchemaVersion) and
// the same three files a run's report has for people (report.json,
// summary.md, report.html), written the same way (whole files, replacing
// the earlier report's).

// TrafficSchemaVersion is the version of the TrafficReport JSON form, on
// the rule of SchemaVersion: added fields keep it.
const TrafficSchemaVersion = "campusconf.traffic/v1"

//go:embed traffic.schema.json
var trafficSchema []byte

// TrafficJSONSchema returns the JSON Schema (draft 2020-12) of a traffic
// report's report.json.
func TrafficJSONSchema() []byte { return bytes.Clone(trafficSchema) }

// TrafficReport is what an app did against the simulator: the
// simulator's record of it (wire.Traffic, its members at the top level of
// report.json), which simulator answered, and the operations not called.
type TrafficReport struct {
	Schema string `json:"schema"`
	Tool   Tool   `json:"tool"`
	// Simulator says which simulator answered.
	Simulator TrafficSimulator `json:"simulator"`
	// Traffic: since, until, the requests counted, the operations called
	// (in report order), the request rules broken (which a real
	// implementation refuses) and the simulator's choices relied on
	// (which a real implementation may make otherwise).
	wire.Traffic
	// Unused are the operations not called.
	Unused []string `json:"unused"`
}

// TrafficSimulator is the simulator that answered the traffic.
type TrafficSimulator struct {
	URL      string   `json:"url"`
	Seed     int64    `json:"seed"`
	Scale    int      `json:"scale"`
	Variants []string `json:"variants,omitempty"`
	Defects  []string `json:"defects,omitempty"`
}

// The elements of a traffic report are the simulator's record of the
// traffic (internal/wire), under the report's names: one set of types, so
// the report holds what the simulator recorded as it stands.
type (
	// TrafficOperation is one operation the app called.
	TrafficOperation = wire.OperationUse
	// TrafficViolation is one request rule broken, with the first request
	// that broke it (redacted: it never holds a header, and a secret in
	// its path, query or body is replaced).
	TrafficViolation = wire.ViolationUse
	// TrafficExample is one request: method, path and query, body.
	TrafficExample = wire.Example
	// TrafficReliance is one documented choice (docs/decisions.md, by id)
	// the app's answers depended on, with what a real implementation may
	// do instead and how to make the app robust to it.
	TrafficReliance = wire.Reliance
)

// Redact replaces every secret r knows in the examples (a key or token an
// app put in a query or a body).
func (t *TrafficReport) Redact(r *redact.Redactor) {
	for i := range t.Violations {
		redactExample(r, &t.Violations[i].Example)
		t.Violations[i].What = r.String(t.Violations[i].What)
	}
	for i := range t.Operations {
		redactExample(r, t.Operations[i].Example)
	}
	for i := range t.Relies {
		redactExample(r, t.Relies[i].Example)
	}
}

// redactExample replaces every secret r knows in e (nil: nothing to do).
func redactExample(r *redact.Redactor, e *TrafficExample) {
	if e == nil {
		return
	}
	e.Target, e.Body, e.ContentType = r.String(e.Target), r.String(e.Body), r.String(e.ContentType)
	if len(e.FixtureIDs) > 0 {
		ids := make(map[string]string, len(e.FixtureIDs))
		for v, k := range e.FixtureIDs {
			ids[r.String(v)] = k
		}
		e.FixtureIDs = ids
	}
}

// TrafficFiles are the files WriteTraffic writes.
var TrafficFiles = []struct {
	Name  string
	Write func(io.Writer, *TrafficReport) error
}{
	{JSONFile, WriteTrafficJSON},
	{MarkdownFile, WriteTrafficMarkdown},
	{HTMLFile, WriteTrafficHTML},
}

// WriteTraffic writes the traffic report into dir (created if needed):
// report.json, summary.md and report.html, each rendered first and then
// written whole, the report files of an earlier report removed. It returns
// the absolute path of report.html.
func WriteTraffic(dir string, t *TrafficReport) (string, error) {
	if t.Schema == "" {
		t.Schema = TrafficSchemaVersion
	}
	rendered := map[string][]byte{}
	var names []string
	for _, f := range TrafficFiles {
		var b bytes.Buffer
		if err := f.Write(&b, t); err != nil {
			return "", err
		}
		rendered[f.Name] = b.Bytes()
		names = append(names, f.Name)
	}
	return replaceFiles(dir, "write traffic report", names, rendered)
}

// WriteTrafficJSON writes t as indented JSON (report.json).
func WriteTrafficJSON(w io.Writer, t *TrafficReport) error {
	return writeIndentedJSON(w, t, JSONFile)
}

// trafficFuncs are the helpers both traffic templates use.
var trafficFuncs = map[string]any{
	"md":     markdownAny,
	"code":   markdownCode,
	"ccode":  markdownCellCode,
	"status": wire.StatusList,
}

var trafficMarkdown = textTemplate.Must(textTemplate.New("traffic.md.tmpl").Funcs(trafficFuncs).ParseFS(templateFS, "templates/traffic.md.tmpl"))

var trafficHTML = template.Must(template.New("traffic.html.tmpl").Funcs(trafficFuncs).ParseFS(templateFS, "templates/traffic.html.tmpl"))

// WriteTrafficMarkdown writes t as summary.md.
func WriteTrafficMarkdown(w io.Writer, t *TrafficReport) error {
	if err := trafficMarkdown.Execute(w, t); err != nil {
		return fmt.Errorf("write %s: %w", MarkdownFile, err)
	}
	return nil
}

// WriteTrafficHTML writes t as report.html, one self-contained page.
func WriteTrafficHTML(w io.Writer, t *TrafficReport) error {
	css, err := templateFS.ReadFile("templates/report.css")
	if err != nil {
		return err
	}
	v := struct {
		T   *TrafficReport
		CSS template.CSS
	}{t, template.CSS(css)}
	if err := trafficHTML.Execute(w, v); err != nil {
		return fmt.Errorf("write %s: %w", HTMLFile, err)
	}
	return nil
}
