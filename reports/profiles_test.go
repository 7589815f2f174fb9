package reports

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/version"
)

func TestProfileStatusOf(t *testing.T) {
	tests := []struct {
		name       string
		claimed    bool
		c          ProfileCounts
		failedMust int
		want       ProfileStatus
	}{
		{"not claimed", false, ProfileCounts{Passed: 3}, 1, ProfileUnsupported},
		{"all passed", true, ProfileCounts{Passed: 3}, 0, ProfileSuccess},
		{"a SHOULD failure", true, ProfileCounts{Passed: 3, Failed: 1}, 0, ProfileSuccess},
		{"unobservable skips only", true, ProfileCounts{Passed: 3, Unobservable: 2}, 0, ProfileSuccess},
		{"a MUST failure beats a skip", true, ProfileCounts{Passed: 1, Failed: 1, Skipped: 1}, 1, ProfileFailure},
		{"a skip --strict counts", true, ProfileCounts{Passed: 3, Skipped: 1}, 0, ProfilePartial},
		{"not configured", true, ProfileCounts{Passed: 3, NotConfigured: 1}, 0, ProfilePartial},
		{"nothing judged", true, ProfileCounts{Unobservable: 1}, 0, ProfilePartial},
		{"no scenario at all", true, ProfileCounts{}, 0, ProfilePartial},
	}
	for _, tt := range tests {
		if got := ProfileStatusOf(tt.claimed, tt.c, tt.failedMust); got != tt.want {
			t.Errorf("%s: ProfileStatusOf(%v, %+v, %d): expected %s, got %s", tt.name, tt.claimed, tt.c, tt.failedMust, tt.want, got)
		}
	}
}

// profileReport is a finalized report with real catalogue ids of an
// implementation claiming second-factor and attendance: E7 passes, E8
// fails a MUST, E1 is skipped twice (once unobservably), the key rule's
// cross-cutting generated property passes, QS is unsupported.
func profileReport(t *testing.T) *Report {
	t.Helper()
	cat, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	v := version.Get()
	r := &Report{
		Schema:  SchemaVersion,
		Tool:    Tool{Name: "campusconf", Version: "v1.2.3", Commit: "0123456789abcdef", SuiteVersion: v.Suite, SpecDigest: v.SpecDigest},
		Target:  Target{URL: "http://127.0.0.1:8080"},
		Started: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
		// a selection: its few scenarios are not a run of the whole suite
		Mode:       Mode{Tags: "@E1,@E7,@E8,@QS"},
		Implements: []string{"attendance", "second-factor"},
		Implementation: &Implementation{Organization: "example.edu", Project: "campus-timetable", Version: "v2.4.0",
			URL: "https://git.example.edu/campus-timetable", Contact: []string{"timetable@example.edu"}},
		Scenarios: []Scenario{
			{ID: "attendance: default", Operation: "E7", Requirements: []string{"E7.default-publish"}, Strictness: Must, Outcome: Passed},
			{ID: "attendance: key", Operation: "E7", Requirements: []string{"ALL.key"}, Strictness: Must, Outcome: Passed},
			{ID: "attendance: delete", Operation: "E8", Requirements: []string{"E8.204"}, Strictness: Must, Outcome: Failed,
				Failure: &Failure{Requirements: []string{"E8.204"}, Message: "expected 204, got 200", Exchange: -1}},
			{ID: "attendance: type", Operation: "E7", Requirements: []string{"E7.400.type"}, Strictness: Should, Outcome: Failed,
				Failure: &Failure{Requirements: []string{"E7.400.type"}, Message: "expected 400, got 201", Exchange: -1}},
			{ID: "second factor: otp", Operation: "E1", Requirements: []string{"E1.200"}, Strictness: Must, Outcome: Passed},
			{ID: "second factor: reject", Operation: "E1", Requirements: []string{"E1.reject"}, Strictness: Must, Outcome: Skipped,
				SkipCause: CauseUnobservable, SkipReason: "the response leaves out status"},
			{ID: "generated: no-5xx", Operation: features.AllOperations, Kind: KindGenerated, Requirements: []string{"GEN.no-5xx"}, Strictness: Must, Outcome: Passed},
			{ID: "quiz: 200", Operation: "QS", Requirements: []string{"QS.200", "ALL.key"}, Strictness: Must, Outcome: Unsupported,
				SkipReason: "profile quizzes is not claimed"},
		},
	}
	AddCatalogue(r, cat, true)
	Finalize(r)
	return r
}

func TestFinalizeProfiles(t *testing.T) {
	r := profileReport(t)
	byName := map[string]ProfileResult{}
	for _, p := range r.Profiles {
		byName[p.Name] = p
	}
	if len(r.Profiles) != 16 || r.Profiles[0].Name != "second-factor" || r.Profiles[15].Name != "quizzes" {
		t.Fatalf("Profiles: expected the 16 profiles in report order, got %d: %v", len(r.Profiles), r.Profiles)
	}
	// each profile's operations are the registry's
	// (TestFinalizeListsTheRegistrysProfiles)
	want := map[string]ProfileResult{
		// E1 passed, the other E1 unobservable; the generated property of
		// every operation counts in no profile
		"second-factor": {Name: "second-factor", Result: ProfileSuccess,
			Counts: ProfileCounts{Passed: 1, Unobservable: 1}},
		"attendance": {Name: "attendance", Result: ProfileFailure,
			Counts:             ProfileCounts{Passed: 2, Failed: 2},
			FailedRequirements: []string{"E8.204"}, Warnings: []string{"E7.400.type"}},
		"quizzes": {Name: "quizzes", Result: ProfileUnsupported, Counts: ProfileCounts{Unsupported: 1}},
		"bank":    {Name: "bank", Result: ProfileUnsupported},
	}
	for name, w := range want {
		w.Operations = byName[name].Operations
		if diff := cmp.Diff(w, byName[name]); diff != "" {
			t.Errorf("profile %s (-want +got):\n%s", name, diff)
		}
	}
	results := map[string]Result{}
	for _, q := range r.Requirements {
		results[q.ID] = q.Result
	}
	for id, w := range map[string]Result{
		"QS.200":   ResultUnsupported, // only the unsupported scenario lists it
		"ALL.key":  ResultPassed,      // listed by an unsupported scenario and a passed one
		"QS.given": ResultNotRun,      // listed by none
		"E8.204":   ResultFailed,
	} {
		if results[id] != w {
			t.Errorf("requirement %s: expected result %q, got %q", id, w, results[id])
		}
	}
	if r.Counts.Unsupported != 1 || r.Counts.RequirementsUnsupported != 1 {
		t.Errorf("counts: expected 1 unsupported scenario and 1 unsupported requirement, got %d and %d", r.Counts.Unsupported, r.Counts.RequirementsUnsupported)
	}
	if r.Verdict != VerdictNotConformant {
		t.Errorf("verdict: expected %q (E8.204 failed), got %q", VerdictNotConformant, r.Verdict)
	}
	// an outcome the profiles do not know keeps its profile from success
	r.Scenarios = append(r.Scenarios, Scenario{ID: "second factor: no answer", Operation: "E2", Outcome: "error"})
	Finalize(r)
	if p := r.Profiles[0]; p.Result != ProfilePartial || p.Counts.Skipped != 1 {
		t.Errorf("an unknown outcome in second-factor: expected partial with 1 skipped, got %s %+v", p.Result, p.Counts)
	}
	// without implements, every profile is claimed: one with no scenario
	// is partial, never unsupported
	r.Implements = nil
	Finalize(r)
	for _, p := range r.Profiles {
		if p.Name == "bank" && p.Result != ProfilePartial {
			t.Errorf("every profile claimed: bank expected %s (nothing judged), got %s", ProfilePartial, p.Result)
		}
	}
}

func TestConformanceStatusOf(t *testing.T) {
	p := func(name string, res ProfileStatus, passed int, failed ...string) ProfileResult {
		return ProfileResult{Name: name, Result: res, Counts: ProfileCounts{Passed: passed, Failed: len(failed)}, FailedRequirements: failed}
	}
	tests := []struct {
		name     string
		profiles []ProfileResult
		mode     string
		tags     string
		cut      bool
		want     ConformanceStatus
		reason   string
	}{
		{"every claimed profile succeeds", []ProfileResult{p("bank", ProfileSuccess, 3), p("poll", ProfileUnsupported, 0)}, ModeFull, "", false,
			StatusConformant, "every claimed profile succeeded: bank"},
		{"a claimed profile fails", []ProfileResult{p("bank", ProfileFailure, 1, "E6.201"), p("poll", ProfilePartial, 2)}, ModeFull, "", false,
			StatusNotConformant, "profile bank failed 1 MUST requirement: E6.201"},
		{"a failure beats a selection", []ProfileResult{p("bank", ProfileFailure, 1, "E6.201", "E6.404"), p("files", ProfileFailure, 0, "E6.201")}, ModeReadOnly, "@E6", true,
			StatusNotConformant, "profiles bank, files failed 2 MUST requirements: E6.201, E6.404"},
		{"a partial profile", []ProfileResult{p("bank", ProfileSuccess, 1), p("poll", ProfilePartial, 1)}, ModeFull, "", false,
			StatusPartial, "profile poll had scenarios skipped, not configured or errored"},
		{"read-only", []ProfileResult{p("bank", ProfileSuccess, 1)}, ModeReadOnly, "", false,
			StatusPartial, "the run was read-only"},
		{"a tag selection", []ProfileResult{p("bank", ProfileSuccess, 1)}, ModeFull, "@E6", false,
			StatusPartial, "the run selected scenarios (tags @E6)"},
		{"live traffic", []ProfileResult{p("bank", ProfileSuccess, 1)}, ModeTraffic, "", false,
			StatusPartial, "judged on live traffic, not the whole suite"},
		{"cut short", []ProfileResult{p("bank", ProfileSuccess, 1)}, ModeFull, "", true,
			VerdictInconclusive, "the run was cut short"},
		{"a SHOULD failure warns", []ProfileResult{{Name: "bank", Result: ProfileSuccess, Counts: ProfileCounts{Passed: 1, Failed: 1}, Warnings: []string{"E6.x"}}}, ModeFull, "", false,
			VerdictWarnings, "1 failed SHOULD requirement"},
		{"everything at once", []ProfileResult{p("bank", ProfilePartial, 1)}, ModeReadOnly, "@E6", false,
			StatusPartial, "profile bank had scenarios skipped, not configured or errored; the run was read-only; the run selected scenarios (tags @E6)"},
		{"nothing judged", []ProfileResult{p("bank", ProfilePartial, 0)}, ModeFull, "", false,
			StatusInconclusive, "no scenario of a claimed profile was judged"},
		{"nothing claimed", []ProfileResult{p("bank", ProfileUnsupported, 0)}, ModeFull, "", false,
			StatusInconclusive, "no profile is claimed"},
	}
	for _, tt := range tests {
		c := &ConformanceReport{Profiles: tt.profiles, Mode: tt.mode, Tags: tt.tags, Interrupted: tt.cut}
		if tt.cut {
			c.Cause = InconclusiveCutShort
		}
		got, why := ConformanceStatusOf(c)
		if got != tt.want || why != tt.reason {
			t.Errorf("%s: expected %s (%s), got %s (%s)", tt.name, tt.want, tt.reason, got, why)
		}
	}
}

// writtenConformance is r's conformance report as written and read back.
func writtenConformance(t *testing.T, r *Report) *ConformanceReport {
	t.Helper()
	path := filepath.Join(t.TempDir(), ConformanceFile)
	if err := os.WriteFile(path, written(t, WriteConformanceYAML, r), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadConformance(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestConformanceReportRoundTrip: conformance-report.yaml reads back as
// the report it was written from, and verifies.
func TestConformanceReportRoundTrip(t *testing.T) {
	r := profileReport(t)
	buf := written(t, WriteConformanceYAML, r)
	path := filepath.Join(t.TempDir(), ConformanceFile)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadConformance(path)
	if err != nil {
		t.Fatal(err)
	}
	want := ConformanceOf(r)
	if !digestPattern.MatchString(got.ReportDigest) {
		t.Errorf("reportDigest: expected the digest of report.json, got %q", got.ReportDigest)
	}
	want.ReportDigest = got.ReportDigest
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("ReadConformance(WriteConformanceYAML(r)) (-want +got):\n%s", diff)
	}
	if want.Status != StatusNotConformant || !slices.Equal(want.Implements, []string{"second-factor", "attendance"}) {
		t.Errorf("expected not conformant claiming second-factor and attendance, got %s claiming %v", want.Status, want.Implements)
	}
	if probs := got.Verify(); len(probs) > 0 {
		t.Errorf("Verify of a written report: expected no problem, got:\n%s", strings.Join(probs, "\n"))
	}
}

// TestVerifyFindsEachInconsistency edits one thing of a consistent report
// at a time and requires Verify to name it.
func TestVerifyFindsEachInconsistency(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *ConformanceReport)
		want string
	}{
		{"another suite", func(c *ConformanceReport) { c.SuiteVersion = "9.0.0" }, `suiteVersion "9.0.0" and specDigest`},
		{"another specification", func(c *ConformanceReport) { c.SpecDigest = "sha256:" + strings.Repeat("0", 64) }, "expected this build's or an earlier release's"},
		{"no implementation", func(c *ConformanceReport) { c.Implementation = Implementation{} }, "implementation: expected an organization and a project"},
		{"no date", func(c *ConformanceReport) { c.Date = "yesterday" }, `date: expected an RFC 3339 time, got "yesterday"`},
		{"unknown mode", func(c *ConformanceReport) { c.Mode = "quick" }, `mode: expected full, read-only or traffic, got "quick"`},
		{"status raised", func(c *ConformanceReport) { c.Status = StatusConformant }, `status "conformant": expected "not conformant"`},
		{"a failure hidden", func(c *ConformanceReport) {
			c.Profiles[4].FailedRequirements = nil
		}, "profiles[4] (attendance): result failure, but its counts passed 2, failed 2"},
		{"a count changed", func(c *ConformanceReport) { c.Profiles[0].Counts.Skipped = 1 }, "profiles[0] (second-factor): result success, but its counts"},
		{"a profile dropped", func(c *ConformanceReport) { c.Profiles = c.Profiles[1:] }, "profiles: expected the suite's 16 profiles, got 15"},
		{"a profile renamed", func(c *ConformanceReport) { c.Profiles[1].Name = "campus" }, "profiles[1] (campus): expected profile faculty, got campus"},
		{"a profile's operations changed", func(c *ConformanceReport) { c.Profiles[1].Operations = []string{"E4", "E22"} }, "profiles[1] (faculty): expected profile faculty with operations [E4]"},
		{"implements disagrees", func(c *ConformanceReport) { c.Implements = []string{"attendance"} }, "implements [attendance]: expected the profiles whose result is not unsupported, [second-factor attendance]"},
		{"an unsupported profile that ran", func(c *ConformanceReport) { c.Profiles[15].Counts.Passed = 2 }, "profiles[15] (quizzes): unsupported, but scenarios of it ran"},
		{"an unknown requirement", func(c *ConformanceReport) {
			c.Profiles[4].FailedRequirements = append(c.Profiles[4].FailedRequirements, "E8.teleport")
		}, "lists E8.teleport, which is not in the suite's catalogue"},
		{"a SHOULD listed as failed", func(c *ConformanceReport) {
			c.Profiles[4].FailedRequirements = append(c.Profiles[4].FailedRequirements, "E7.400.type")
		}, "failedRequirements lists E7.400.type, a SHOULD requirement"},
		{"another profile's requirement", func(c *ConformanceReport) {
			c.Profiles[4].FailedRequirements = append(c.Profiles[4].FailedRequirements, "QS.200")
		}, "lists QS.200, a requirement of QS (profile quizzes)"},
		{"failures without a failed scenario", func(c *ConformanceReport) { c.Profiles[4].Counts.Failed = 0 }, "lists failed requirements, but no failed scenario"},
		{"a reason of another status", func(c *ConformanceReport) { c.Reason = "every claimed profile succeeded: second-factor, attendance" },
			`reason "every claimed profile succeeded: second-factor, attendance": expected "profile attendance failed 1 MUST requirement: E8.204"`},
		{"no report digest", func(c *ConformanceReport) { c.ReportDigest = "" }, "reportDigest: expected the digest of the report.json"},
		{"another reproduction", func(c *ConformanceReport) { c.Reproduce = "campusconf run" }, `reproduce: expected "suite ` + version.Suite + `: campusconf run --target URL --fixtures FILE --implements second-factor,attendance --tags @E1,@E7,@E8,@QS"`},
		{"a seed without generated requests", func(c *ConformanceReport) { c.GenerateSeed = 7 }, "generateSeed 7: expected none"},
		{"version 1 with the keys of version 2", func(c *ConformanceReport) { c.APIVersion = ConformanceAPIV1 }, "reportDigest, reproduce, generateSeed: keys of campusconf.dev/v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := *writtenConformance(t, profileReport(t))
			if probs := c.Verify(); len(probs) > 0 {
				t.Fatalf("before the edit: expected no problem, got %v", probs)
			}
			tt.edit(&c)
			probs := c.Verify()
			if !slices.ContainsFunc(probs, func(p string) bool { return strings.Contains(p, tt.want) }) {
				t.Errorf("expected a problem containing %q, got:\n%s", tt.want, strings.Join(probs, "\n"))
			}
		})
	}
}

func TestReadConformanceRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content, want string
	}{
		{"json.yaml", `{"verdict": "conformant"}`, "field verdict not found"},
		{"kind.yaml", "apiVersion: campusconf.dev/v1\nkind: Report\n", `expected apiVersion campusconf.dev/v2 (or campusconf.dev/v1) and kind ConformanceReport, got "campusconf.dev/v1" and "Report"`},
		{"version.yaml", "apiVersion: campusconf.dev/v9\nkind: ConformanceReport\n", `got "campusconf.dev/v9" and "ConformanceReport"`},
		{"typo.yaml", "apiVersion: campusconf.dev/v1\nkind: ConformanceReport\nstatuss: conformant\n", "field statuss not found"},
		{"binary.yaml", "\x00\x01\x02", "not a campusconf conformance report"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadConformance(path)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), ErrNotConformanceReport.Error()) {
			t.Errorf("%s: expected an error naming %q, got %v", tt.name, tt.want, err)
		}
	}
}

// TestBadge: badge.svg parses as XML, says the status and the claimed
// profiles, and fills its status with the status's colour.
func TestBadge(t *testing.T) {
	full := profileReport(t)
	full.Implements = nil
	Finalize(full)
	four := profileReport(t)
	four.Implements = []string{"second-factor", "attendance", "bank", "poll"}
	Finalize(four)
	tests := []struct {
		name   string
		r      *Report
		status ConformanceStatus
		text   string // of the status half
	}{
		{"two claimed, a failure", profileReport(t), StatusNotConformant, "not conformant · second-factor, attendance"},
		{"four claimed", four, StatusNotConformant, "not conformant · 4 profiles"},
		{"every profile", full, StatusNotConformant, "not conformant · all profiles"},
	}
	for _, tt := range tests {
		buf := written(t, WriteBadge, tt.r)
		var svg struct {
			XMLName xml.Name `xml:"svg"`
			Label   string   `xml:"aria-label,attr"`
			Title   string   `xml:"title"`
			Rects   []struct {
				Fill string `xml:"fill,attr"`
			} `xml:"g>rect"`
			Texts []string `xml:"g>text"`
		}
		if err := xml.Unmarshal(buf, &svg); err != nil {
			t.Fatalf("%s: badge.svg is not XML: %v\n%s", tt.name, err, string(buf))
		}
		if len(svg.Texts) != 2 || svg.Texts[1] != tt.text {
			t.Errorf("%s: expected the status half to read %q, got %q", tt.name, tt.text, svg.Texts)
		}
		for _, p := range ConformanceOf(tt.r).Implements {
			if !strings.Contains(svg.Title, p) || !strings.Contains(svg.Label, p) {
				t.Errorf("%s: expected the title and aria-label to name profile %s, got %q", tt.name, p, svg.Title)
			}
		}
		if len(svg.Rects) != 2 || svg.Rects[1].Fill != badgeColours[tt.status] {
			t.Errorf("%s: expected the status half filled %s, got %+v", tt.name, badgeColours[tt.status], svg.Rects)
		}
		for _, bad := range []string{"href", "http://", "https://", "<image", "<style", "@import", "<script"} {
			if strings.Contains(strings.ReplaceAll(string(buf), `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
				t.Errorf("%s: badge.svg contains %q: it must be self-contained", tt.name, bad)
			}
		}
	}
	for _, st := range ConformanceStatuses {
		if badgeColours[st] == "" {
			t.Errorf("status %q has no badge colour", st)
		}
	}
}

// fullRun is a report of a run of the whole suite of this build: each
// profile holds the scenarios the release says, all passed but, when
// failing, one of attendance that failed E7.default-publish.
func fullRun(t *testing.T, failing bool) *Report {
	t.Helper()
	cat, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	rel, ok := releaseOf(version.Suite, version.SpecDigest)
	if !ok {
		t.Fatal("no release row for this build")
	}
	r := &Report{
		Schema:         SchemaVersion,
		Tool:           Tool{Name: "campusconf", Version: "v1.2.3", Commit: "0123456789abcdef", SuiteVersion: version.Suite, SpecDigest: version.SpecDigest},
		Target:         Target{URL: "http://127.0.0.1:8080"},
		Started:        time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
		Implementation: &Implementation{Organization: "example.edu", Project: "campus-timetable", Version: "v2.4.0"},
	}
	for _, p := range registry.Profiles() {
		op := string(p.Operations[0])
		for i := range rel.Scenarios[string(p.Name)] {
			s := Scenario{ID: fmt.Sprintf("%s: %d", p.Name, i), Operation: op, Requirements: []string{"ALL.key"}, Strictness: Must, Outcome: Passed}
			if failing && p.Name == "attendance" && i == 0 {
				s.Requirements = []string{"E7.default-publish"}
				s.Outcome = Failed
				s.Failure = &Failure{Requirements: []string{"E7.default-publish"}, Message: "expected publish true, got false", Exchange: -1}
			}
			r.Scenarios = append(r.Scenarios, s)
		}
	}
	AddCatalogue(r, cat, true)
	Finalize(r)
	return r
}

// profileAt returns the index of the profile named name.
func profileAt(c *ConformanceReport, name string) int {
	return slices.IndexFunc(c.Profiles, func(p ProfileResult) bool { return p.Name == name })
}

// TestVerifyHoldsAFullRunToItsScenarioCounts reproduces the forgeries of
// issue 45 on the conformance report alone: a failing run's report made
// conformant by dropping its failure from the counts, a read-only run
// made full with one passed scenario per profile; and a report of more
// scenarios than the suite has. Each is refused; the honest reports,
// with an unplaced scenario and with generated findings, verify.
func TestVerifyHoldsAFullRunToItsScenarioCounts(t *testing.T) {
	rel, _ := releaseOf(version.Suite, version.SpecDigest)
	conformant := func(c *ConformanceReport) {
		for i := range c.Profiles {
			c.Profiles[i].Result, c.Profiles[i].FailedRequirements = ProfileSuccess, nil
		}
		c.Status, c.Reason = ConformanceStatusOf(c)
	}
	tests := []struct {
		name    string
		failing bool
		edit    func(c *ConformanceReport)
		want    string // "" verifies
	}{
		{"a passing run", false, func(*ConformanceReport) {}, ""},
		{"a failing run", true, func(*ConformanceReport) {}, ""},
		{"the refusals a fixture declares, counted in a profile", false, func(c *ConformanceReport) {
			c.Profiles[profileAt(c, "bank")].Counts.Passed++
		}, ""},
		{"generated findings on top", true, func(c *ConformanceReport) {
			c.GeneratedRequests, c.GenerateSeed = 3, 1
			c.Profiles[profileAt(c, "files")].Counts.Failed += 2
			c.Profiles[profileAt(c, "files")].Counts.Skipped++
			c.Profiles[profileAt(c, "files")].Result = ProfilePartial
			c.Reproduce = Reproduction(c)
		}, ""},
		{"a failure dropped, made conformant", true, func(c *ConformanceReport) {
			c.Profiles[profileAt(c, "attendance")].Counts.Failed = 0
			conformant(c)
		}, fmt.Sprintf("profiles[4] (attendance): counts %d scenarios, but a run of the whole suite %s has %d in this profile", rel.Scenarios["attendance"]-1, version.Suite, rel.Scenarios["attendance"])},
		{"a read-only run made full, one passed scenario a profile", false, func(c *ConformanceReport) {
			for i := range c.Profiles {
				c.Profiles[i].Counts = ProfileCounts{Passed: 1}
			}
			c.Implementation.Organization = "another.edu"
			conformant(c)
		}, fmt.Sprintf("profiles[0] (second-factor): counts 1 scenarios, but a run of the whole suite %s has %d", version.Suite, rel.Scenarios["second-factor"])},
		{"more scenarios than the suite has", false, func(c *ConformanceReport) {
			c.Profiles[profileAt(c, "bank")].Counts.Passed += rel.Unplaced + 1
		}, fmt.Sprintf("profiles: count %d scenarios more than a run of the whole suite %s has (at most %d", rel.Unplaced+1, version.Suite, rel.Unplaced)},
		{"passes beside generated findings", false, func(c *ConformanceReport) {
			c.GeneratedRequests, c.GenerateSeed = 3, 1
			c.Profiles[profileAt(c, "files")].Counts.Passed += 2
			c.Reproduce = Reproduction(c)
		}, "profiles: count 2 scenarios more than a run of the whole suite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := writtenConformance(t, fullRun(t, tt.failing))
			tt.edit(c)
			probs := c.Verify()
			switch {
			case tt.want == "" && len(probs) > 0:
				t.Errorf("expected it to verify, got:\n%s", strings.Join(probs, "\n"))
			case tt.want != "" && !slices.ContainsFunc(probs, func(p string) bool { return strings.Contains(p, tt.want) }):
				t.Errorf("expected a problem containing %q, got:\n%s", tt.want, strings.Join(probs, "\n"))
			}
		})
	}
}

// TestVerifyKeepsAnEarlierReleaseVerifiable: a report of an earlier
// release lists its profiles' operations as they were then; an operation
// added to a profile since must not make it fail to verify, while its
// counts are still held to its own release's row.
func TestVerifyKeepsAnEarlierReleaseVerifiable(t *testing.T) {
	rel, _ := releaseOf(version.Suite, version.SpecDigest)
	earlier := rel
	earlier.Suite, earlier.SpecDigest = "2.9.0", "sha256:"+strings.Repeat("0", 64)
	saved := version.Releases
	version.Releases = append([]version.Release{earlier}, saved...)
	t.Cleanup(func() { version.Releases = saved })
	for _, tt := range []struct {
		suite, digest string
		want          string // "" verifies
	}{
		{earlier.Suite, earlier.SpecDigest, ""},
		{version.Suite, version.SpecDigest, "profiles[1] (faculty): expected profile faculty with operations [E4]"},
	} {
		c := writtenConformance(t, fullRun(t, false))
		c.SuiteVersion, c.SpecDigest = tt.suite, tt.digest
		c.Profiles[1].Operations = []string{} // E4 not yet in the profile then
		c.Reproduce = Reproduction(c)
		probs := c.Verify()
		switch {
		case tt.want == "" && len(probs) > 0:
			t.Errorf("suite %s: expected it to verify, got:\n%s", tt.suite, strings.Join(probs, "\n"))
		case tt.want != "" && !slices.ContainsFunc(probs, func(p string) bool { return strings.Contains(p, tt.want) }):
			t.Errorf("suite %s: expected a problem containing %q, got:\n%s", tt.suite, tt.want, strings.Join(probs, "\n"))
		}
	}
}

// TestVerifyReportJSON reproduces the forgery of issue 45 that kept the
// counts whole: a failing run's conformance report made conformant with
// its failed scenario counted as passed verifies on its own, and is
// refused beside the report.json written with it; so is a report.json
// edited, or another run's. Only an edit of both files agreeing passes,
// which is what provenance is for.
func TestVerifyReportJSON(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteAll(dir, fullRun(t, true)); err != nil {
		t.Fatal(err)
	}
	c, err := ReadConformance(filepath.Join(dir, ConformanceFile))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if probs := append(c.Verify(), c.VerifyReportJSON(data)...); len(probs) > 0 {
		t.Fatalf("the files as written: expected them to agree, got:\n%s", strings.Join(probs, "\n"))
	}

	forged := *c
	forged.Profiles = slices.Clone(c.Profiles)
	a := &forged.Profiles[profileAt(&forged, "attendance")]
	a.Counts.Failed, a.Counts.Passed, a.Result, a.FailedRequirements = 0, a.Counts.Passed+1, ProfileSuccess, nil
	forged.Status, forged.Reason = ConformanceStatusOf(&forged)
	if forged.Status != StatusConformant {
		t.Fatalf("the forgery: expected conformant, got %s", forged.Status)
	}
	if probs := forged.Verify(); len(probs) > 0 {
		t.Fatalf("the forgery on its own: expected it to pass (what only report.json or provenance shows), got:\n%s", strings.Join(probs, "\n"))
	}
	probs := forged.VerifyReportJSON(data)
	// the forged counts, not a figure of today's suite: a new attendance
	// scenario changes them
	forgedCounts := fmt.Sprintf("profiles[%d] (attendance): this file says result success, passed %d, failed 0", profileAt(&forged, "attendance"), a.Counts.Passed)
	for _, want := range []string{`status: this file says "conformant", report.json makes it "not conformant"`, forgedCounts} {
		if !slices.ContainsFunc(probs, func(p string) bool { return strings.Contains(p, want) }) {
			t.Errorf("the forgery beside its report.json: expected a problem containing %q, got:\n%s", want, strings.Join(probs, "\n"))
		}
	}

	edited := strings.Replace(string(data), `"outcome": "failed"`, `"outcome": "passed"`, 1)
	if probs := c.VerifyReportJSON([]byte(edited)); !slices.ContainsFunc(probs, func(p string) bool {
		return strings.Contains(p, "they were not written together, or one of them was edited")
	}) {
		t.Errorf("an edited report.json: expected its digest refused, got:\n%s", strings.Join(probs, "\n"))
	}

	v1 := *c
	v1.APIVersion, v1.ReportDigest, v1.Reproduce = ConformanceAPIV1, "", ""
	if probs := v1.VerifyReportJSON(data); len(probs) > 0 {
		t.Errorf("a version 1 report beside its report.json: expected them to agree without a digest, got:\n%s", strings.Join(probs, "\n"))
	}
}

// TestVerifyReadsVersion1: a conformance report of the first form, as
// this project wrote it (a run of the whole suite against the embedded
// simulator), still reads and verifies, its counts those of the release.
func TestVerifyReadsVersion1(t *testing.T) {
	c, err := ReadConformance(filepath.Join("testdata", "schemas", "conformance-v1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIVersion != ConformanceAPIV1 {
		t.Fatalf("expected apiVersion %s, got %s", ConformanceAPIV1, c.APIVersion)
	}
	if probs := c.Verify(); len(probs) > 0 {
		t.Errorf("expected a version 1 report to verify, got:\n%s", strings.Join(probs, "\n"))
	}
}
