package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/wire"
)

// sampleApps is an app check with a reliance of each result and an
// operation that differs.
func sampleApps() []App {
	a := App{Name: "app/report.json", Recorded: wire.Recorded{Requests: 12},
		Relies: []AppReliance{
			{ID: "D-auth-401", Ops: []string{"E10"}, Result: Differs, Request: "GET /files/x/downloaded (without credentials)", Simulator: "401 with a JSON string", Target: "403 with a JSON string", Robust: "handle 400, 401 and 403 alike"},
			{ID: "D-limit-default", Ops: []string{"E10"}, Result: Holds, Request: "GET /files/x/downloaded", Simulator: "a page of 100", Target: "a page of 100"},
			{ID: "D-delete-204", Ops: []string{"E5"}, Result: Unobservable, Simulator: "204", Why: "the run is read-only"},
		},
		Operations: []AppOperation{{Op: "E10", Result: Differs, Request: "GET /files/x/downloaded", Simulator: "answered 200 ×2", Target: "answered 404"}},
	}
	a.Conclude()
	return []App{a}
}

func TestAppConclude(t *testing.T) {
	cases := []struct {
		name   string
		relies []Holding
		want   AppVerdict
	}{
		{"one differs", []Holding{Holds, Differs, Unobservable}, AppAtRisk},
		{"all hold", []Holding{Holds, Holds}, AppCompatible},
		{"some hold, none differs", []Holding{Holds, Unobservable}, AppCompatible},
		{"nothing observed", []Holding{Unobservable}, AppUnknown},
		{"nothing relied on", nil, AppUnknown},
	}
	for _, c := range cases {
		a := App{Name: "app"}
		for i, h := range c.relies {
			a.Relies = append(a.Relies, AppReliance{ID: "D-" + string(rune('a'+i)), Result: h})
		}
		a.Conclude()
		if a.Verdict != c.want {
			t.Errorf("%s: verdict %q (%s), want %q", c.name, a.Verdict, a.VerdictReason, c.want)
		}
	}
}

// TestAppSections: summary.md, report.html and the diff show what an app
// relies on and what the target does, and the diff names a reliance that
// newly fails.
func TestAppSections(t *testing.T) {
	r := sampleReport()
	Finalize(r)
	r.Apps = sampleApps()
	md := written(t, WriteMarkdown, r)
	for _, want := range []string{"What app/report.json relies on, and what this implementation does", "at risk", "`D-auth-401`", "403 with a JSON string", "the run is read-only"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	page := written(t, WriteHTML, r)
	for _, want := range []string{`data-app-verdict="at risk"`, `data-reliance="D-auth-401" data-result="differs"`, "relies on, and what this implementation does"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	base := sampleReport()
	Finalize(base)
	base.Apps = sampleApps()
	base.Apps[0].Relies[0].Result = Holds
	d := CompareReports(base, r)
	if len(d.AppRegressions) != 1 || d.AppRegressions[0].ID != "D-auth-401" || d.AppRegressions[0].Base != Holds {
		t.Fatalf("app regressions %+v, want D-auth-401 holds → differs (E10 differed in both)", d.AppRegressions)
	}
	diff := written(t, WriteDiffMarkdown, d)
	if !strings.Contains(string(diff), "newly fail") || !strings.Contains(string(diff), "D-auth-401") {
		t.Errorf("diff.md does not name the reliance that newly fails:\n%s", diff)
	}
}

// TestAppsMatchSchema: a report with an app check matches
// report.schema.json, and an app verdict outside the closed set does not.
func TestAppsMatchSchema(t *testing.T) {
	sch := compileSchema(t)
	r := sampleReport()
	Finalize(r)
	r.Apps = sampleApps()
	for _, c := range []struct {
		name    string
		verdict AppVerdict
		ok      bool
	}{{"as written", r.Apps[0].Verdict, true}, {"unknown verdict", "fine", false}} {
		r.Apps[0].Verdict = c.verdict
		if err := schemaError(t, sch, written(t, WriteJSON, r)); (err == nil) != c.ok {
			t.Errorf("%s: validation error %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
