package appcheck_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/harness/appcheck"
	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
)

// base is where the in-process simulators are addressed.
const base = "http://127.0.0.1:8080"

// appStep is one request of the scripted app: who sends it, and where.
type appStep struct {
	user, method, path, body string
}

// scriptedApp is a front end's requests, each relying on one or a few of
// the simulator's choices: a log read without limit (the default page
// size, the default order), a date range, a sorted and filtered list, a
// limit beyond 100, an unknown id, a call without credentials, a log
// read as a student, an unplaced operation, a slot deletion, a publish.
func scriptedApp(fx *fixtures.File) []appStep {
	rec := fx.Records
	ng := fx.Operations["NG"]
	return []appStep{
		{"owner", "GET", "/files/" + rec.Folder + "/downloaded", ""},
		{"owner", "GET", "/files/" + rec.Folder + "/downloaded?limit=5&StartDate=2020-01-01T00:00:00Z&EndDate=2030-01-01T00:00:00Z", ""},
		{"owner", "GET", "/poll/Question/" + rec.PollQuestion + "/Response?limit=5&sortby=id%20desc&where=id:x", ""},
		{"owner", "GET", "/module/Weblink/" + rec.Weblink + "/Log?limit=500", ""},
		{"owner", "GET", "/poll/Response/00000000-0000-4000-8000-000000000000", ""},
		{"", "GET", "/multimedia/" + rec.Media + "/downloadlog", ""},
		{"student", "GET", "/multimedia/" + rec.Media + "/downloadlog", ""},
		{"owner", ng.Method, strings.ReplaceAll(ng.Path, "{id}", rec.Notification.GroupID), ""},
		{"owner", "DELETE", "/consultation/Slot", `{"iDs":["` + rec.DeletableSlots[0] + `"]}`},
		{"owner", "PUT", "/weblecture/session/publish", `{"iDs":["` + rec.LectureSessions[0] + `"],"publish":true}`},
	}
}

// record runs the scripted app against a plain simulator that keeps a
// traffic record, and returns the record.
func record(t *testing.T) *appcheck.Traffic {
	t.Helper()
	sim, err := simulator.New(simulator.Options{TrafficReport: func(wire.Traffic) (string, error) { return "", nil }})
	if err != nil {
		t.Fatal(err)
	}
	fx := sim.Fixtures()
	client := inproc.Client(sim)
	for _, st := range scriptedApp(fx) {
		var body io.Reader
		if st.body != "" {
			body = strings.NewReader(st.body)
		}
		req, err := http.NewRequest(st.method, base+st.path, body)
		if err != nil {
			t.Fatal(err)
		}
		if st.body != "" {
			req.Header.Set("Content-Type", "application/json-patch+json")
		}
		if st.user != "" {
			req.Header.Set(wire.KeyHeader, fx.SubscriptionKey)
			for k, v := range fx.Users[st.user].Headers {
				req.Header.Set(k, v)
			}
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
	}
	tr := appcheck.FromWire(sim.Traffic())
	var ids []string
	for _, r := range tr.Relies {
		ids = append(ids, r.ID)
	}
	t.Logf("the scripted app relied on %s", strings.Join(ids, ", "))
	return tr
}

// checkAgainst checks tr against a fresh simulator with the variants on,
// with the fixture the simulator describes itself with.
func checkAgainst(t *testing.T, tr *appcheck.Traffic, variants ...string) reports.App {
	t.Helper()
	sim, err := simulator.New(simulator.Options{Variants: variants})
	if err != nil {
		t.Fatal(err)
	}
	return appcheck.Check(t.Context(), appcheck.Target{BaseURL: base, Client: inproc.Client(sim), Fixture: sim.Fixtures()}, "app", tr)
}

// reliedOn are the decisions the scripted app must have relied on: each
// is probed below.
var reliedOn = []string{"D-unplaced-paths", "D-auth-401", "D-extra-permissions", "D-limit-default", "D-limit-bounds",
	"D-sort-default", "D-sortby-syntax", "D-where-syntax", "D-date-bounds", "D-unknown-id", "D-delete-204", "D-counts"}

func TestScriptedAppReliesOnEveryDecision(t *testing.T) {
	tr := record(t)
	for _, id := range reliedOn {
		if !slices.ContainsFunc(tr.Relies, func(r appcheck.Reliance) bool { return r.ID == id }) {
			t.Errorf("the scripted app did not rely on %s: the traffic record's relies are %+v", id, tr.Relies)
		}
	}
}

// TestPlainSimulatorIsCompatible: the simulator the app was recorded
// against gives compatible, every reliance observed holding.
func TestPlainSimulatorIsCompatible(t *testing.T) {
	tr := record(t)
	app := checkAgainst(t, tr)
	if app.Verdict != reports.AppCompatible {
		t.Errorf("verdict %q (%s), want compatible", app.Verdict, app.VerdictReason)
	}
	for _, r := range app.Relies {
		if r.Result != reports.Holds {
			t.Errorf("%s: %s (%s%s) against the plain simulator, want holds; request %s", r.ID, r.Result, r.Target, r.Why, r.Request)
		}
	}
	for _, o := range app.Operations {
		if o.Result == reports.Differs {
			t.Errorf("operation %s differs against the plain simulator: %s, simulator %s; request %s", o.Op, o.Target, o.Simulator, o.Request)
		}
	}
}

// TestVariantsNamedAgainstTheirReliance: a simulator variant that decides
// one of the app's reliances otherwise makes the app at risk, naming that
// reliance, and only the reliances the variant decides otherwise.
func TestVariantsNamedAgainstTheirReliance(t *testing.T) {
	tr := record(t)
	cases := []struct {
		variant string
		differ  []string // the reliances that differ
	}{
		{"page-10", []string{"D-limit-default", "D-limit-bounds"}},
		{"paging-capped", []string{"D-limit-default", "D-limit-bounds"}},
		{"newest-first", []string{"D-sort-default"}},
		{"sortby-dash", []string{"D-sortby-syntax"}},
		{"no-sortby-syntax", []string{"D-sortby-syntax"}},
		{"where-ignored", []string{"D-where-syntax"}},
		{"dates-start-exclusive", []string{"D-date-bounds"}},
		{"dates-end-exclusive", []string{"D-date-bounds"}},
		{"unknown-id-404", []string{"D-unknown-id"}},
		{"key-403", []string{"D-auth-401"}},
		{"key-400", []string{"D-auth-401"}},
		{"no-forbidden-table", []string{"D-extra-permissions"}},
		{"alt-paths", []string{"D-unplaced-paths"}},
		{"e5-200-ids", []string{"D-delete-204"}},
		{"e21-changed-count", []string{"D-counts"}},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			app := checkAgainst(t, tr, c.variant)
			var got []string
			for _, r := range app.Relies {
				if r.Result == reports.Differs {
					got = append(got, r.ID)
				}
				if r.Result == reports.Unobservable && slices.Contains(c.differ, r.ID) {
					t.Errorf("%s: unobservable (%s), want differs", r.ID, r.Why)
				}
			}
			if !slices.Equal(got, c.differ) {
				t.Errorf("reliances that differ: got %v, want %v; reproduce: campusconf serve --variant %s, then campusconf run --app-traffic", got, c.differ, c.variant)
				for _, r := range app.Relies {
					t.Logf("  %s %s: simulator %q, target %q %s; request %s", r.ID, r.Result, r.Simulator, r.Target, r.Why, r.Request)
				}
			}
			if app.Verdict != reports.AppAtRisk {
				t.Errorf("verdict %q (%s), want at risk", app.Verdict, app.VerdictReason)
			}
			for _, id := range c.differ {
				if !strings.Contains(app.VerdictReason, id) {
					t.Errorf("verdict reason %q does not name %s", app.VerdictReason, id)
				}
			}
		})
	}
}

// TestReadOnlyLeavesWritesUnobserved: a read-only run sends no write, so
// what only a write shows is unobservable, not a difference.
func TestReadOnlyLeavesWritesUnobserved(t *testing.T) {
	tr := record(t)
	sim, err := simulator.New(simulator.Options{Variants: []string{"e5-200-ids"}})
	if err != nil {
		t.Fatal(err)
	}
	app := appcheck.Check(t.Context(), appcheck.Target{BaseURL: base, Client: inproc.Client(sim), Fixture: sim.Fixtures(), ReadOnly: true}, "app", tr)
	for _, r := range app.Relies {
		if (r.ID == "D-delete-204" || r.ID == "D-counts") && r.Result != reports.Unobservable {
			t.Errorf("%s in a read-only run: %s, want unobservable", r.ID, r.Result)
		}
	}
	if app.Verdict != reports.AppCompatible {
		t.Errorf("verdict %q (%s), want compatible (the difference is in a write)", app.Verdict, app.VerdictReason)
	}
}

// TestReadTrafficReport reads a traffic report's report.json as serve
// writes it, and refuses another file.
func TestReadTrafficReport(t *testing.T) {
	dir := t.TempDir()
	tr := reports.TrafficReport{Traffic: wire.Traffic{Requests: 3, Relies: []wire.Reliance{{ID: "D-auth-401", Ops: []string{"E10"}}}}}
	if _, err := reports.WriteTraffic(dir, &tr); err != nil {
		t.Fatal(err)
	}
	got, err := appcheck.Read(filepath.Join(dir, reports.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if got.Requests != 3 || len(got.Relies) != 1 || got.Relies[0].ID != "D-auth-401" {
		t.Errorf("read %+v, want 3 requests relying on D-auth-401", got)
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"schema":"campusconf.report/v2"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := appcheck.Read(other); err == nil || !strings.Contains(err.Error(), "campusconf serve --report-dir") {
		t.Errorf("reading a run's report as a traffic report: error %v, want one naming what to give", err)
	}
}

// TestEveryDecisionHasAProbe holds the app check's decision ids (strings:
// it links no simulator) to the simulator's.
func TestEveryDecisionHasAProbe(t *testing.T) {
	var all []string
	for _, d := range simulator.Decisions() {
		all = append(all, d.ID)
	}
	if got := appcheck.Probed(); !slices.Equal(got, all) {
		t.Errorf("decisions probed %v, want the simulator's %v", got, all)
	}
}

// TestExamplesAreUsed: where the traffic report gives the app's example
// request (its ids as fixture placeholders), the probes send its query,
// filled from the target's fixture; an unknown decision is unobservable.
func TestExamplesAreUsed(t *testing.T) {
	tr, err := appcheck.Parse([]byte(`{"schema": "campusconf.traffic/v1", "requests": 2,
		"operations": [{"op": "E18", "method": "GET", "path": "/poll/Question/{id}/Response", "count": 1, "statuses": {"200": 1},
			"example": {"method": "GET", "target": "/poll/Question/{records.pollQuestion}/Response?limit=7&sortby=userName%20desc"}}],
		"relies": [
			{"id": "D-sortby-syntax", "ops": ["E18"], "count": 1,
				"example": {"method": "GET", "target": "/poll/Question/{records.pollQuestion}/Response?limit=7&sortby=userName%20desc"}},
			{"id": "D-new-choice", "ops": ["E18"], "count": 1}]}`), "inline")
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fx := sim.Fixtures()
	app := appcheck.Check(t.Context(), appcheck.Target{BaseURL: base, Client: inproc.Client(sim), Fixture: fx}, "inline", tr)
	if got := app.Operations[0].Request; !strings.Contains(got, "limit=7") || !strings.Contains(got, fx.Records.PollQuestion) {
		t.Errorf("E18's probe %q, want the app's query (limit=7) on the fixture's poll question %s", got, fx.Records.PollQuestion)
	}
	if r := app.Relies[0]; r.Result != reports.Holds || !strings.Contains(r.Request, "sortby=userName+desc") {
		t.Errorf("D-sortby-syntax: %s with %q (%s%s), want holds, sorted by the app's key (userName)", r.Result, r.Request, r.Target, r.Why)
	}
	if r := app.Relies[1]; r.Result != reports.Unobservable || !strings.Contains(r.Why, "does not know") {
		t.Errorf("an unknown decision: %s (%s), want unobservable naming why", r.Result, r.Why)
	}
}

// TestPlaceholders: a traffic report's example names the simulator's ids
// and maps them to fixture keys (fixtureIds, issue 42); the check reads
// them as the placeholders of those keys, in the path, the query and the
// body (a string quoted, a number bare), so a probe names the target's
// records.
func TestPlaceholders(t *testing.T) {
	e := wire.Example{Method: "PUT", Target: "/files/fold-1/downloaded?limit=77&group=grp%2D9",
		Body:       `{"id":77,"iDs":["slot-a","other"],"read":11}`,
		FixtureIDs: map[string]string{"fold-1": "records.folder", "grp-9": "records.notification.groupId", "77": "records.notification.id", "slot-a": "records.deletableSlots.0"}}
	data, err := json.Marshal(map[string]any{"schema": "campusconf.traffic/v1",
		"operations": []any{map[string]any{"op": "E10", "method": "GET", "path": "/files/{id}/downloaded", "count": 1, "statuses": map[string]int{"200": 1}, "example": e}}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := appcheck.Parse(data, "report.json")
	if err != nil {
		t.Fatal(err)
	}
	got := tr.Operations[0].Example
	if want := "/files/{records.folder}/downloaded?limit={records.notification.id}&group={records.notification.groupId}"; got.Target != want {
		t.Errorf("target: expected %s, got %s", want, got.Target)
	}
	if want := `{"iDs":["{records.deletableSlots.0}","other"],"id":{records.notification.id},"read":11}`; got.Body != want {
		t.Errorf("body: expected %s, got %s", want, got.Body)
	}
}
