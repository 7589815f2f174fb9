package reports

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// diffReport builds a finalized report from requirement ids with their
// strictness and scenario outcomes: each scenario checks the requirement
// named after it ("A" checks requirement A).
func diffReport(tool Tool, reqs map[string]Strictness, outcomes map[string]Outcome) *Report {
	r := &Report{Schema: SchemaVersion, Tool: tool, Target: Target{URL: "http://127.0.0.1:8080"},
		Started: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	for _, id := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		st, ok := reqs[id]
		if !ok {
			continue
		}
		r.Requirements = append(r.Requirements, Requirement{ID: id, Operation: "E7", Kind: KindStatus, Strictness: st, Text: "rule " + id})
	}
	for _, id := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		o, ok := outcomes[id]
		if !ok {
			continue
		}
		s := Scenario{ID: "attendance: " + id, Name: "scenario " + id, Operation: "E7", Kind: KindStatus, Requirements: []string{id}, Strictness: reqs[id], Outcome: o}
		if o == Failed {
			s.Failure = &Failure{Step: "step", Message: "broke " + id, Expected: "201", Got: "500 <script>" + id + "</script>", Exchange: -1}
		}
		if o == Skipped {
			s.SkipReason = "records.x"
		}
		if o == Unsupported {
			s.SkipReason = "profile attendance is not claimed"
		}
		r.Scenarios = append(r.Scenarios, s)
	}
	Finalize(r)
	return r
}

var (
	diffTool = Tool{Name: "campusconf", Version: "v1.0.0", Commit: "0123456789abcdef", SuiteVersion: "3.0.0", SpecDigest: "sha256:" + strings.Repeat("ab", 32)}
	diffReqs = map[string]Strictness{"A": Must, "B": Must, "C": Should, "D": Must, "E": Must, "F": Must, "H": Must}
)

func TestCompareReports(t *testing.T) {
	base := diffReport(diffTool, diffReqs, map[string]Outcome{"A": Passed, "B": Failed, "C": Passed, "D": Failed, "F": Passed, "H": Passed})
	headReqs := map[string]Strictness{"A": Must, "B": Must, "C": Should, "D": Must, "E": Must, "G": Must, "H": Must}
	head := diffReport(diffTool, headReqs, map[string]Outcome{"A": Failed, "B": Passed, "C": Failed, "D": Failed, "E": Failed, "G": Skipped, "H": Unsupported})
	d := CompareReports(base, head)
	ch := func(id string, st Strictness, b, h Result, why string) RequirementChange {
		return RequirementChange{ID: id, Operation: "E7", Strictness: st, Text: "rule " + id, Base: b, Head: h, Reason: why}
	}
	want := Diff{
		Base: sideOf(base), Head: sideOf(head),
		Regressions: []RequirementChange{
			ch("A", Must, ResultPassed, ResultFailed, "expected 201, got 500 <script>A</script>"),
			ch("C", Should, ResultPassed, ResultFailed, "expected 201, got 500 <script>C</script>"),
		},
		Fixes:          []RequirementChange{ch("B", Must, ResultFailed, ResultPassed, "expected 201, got 500 <script>B</script>")},
		NewlyCovered:   []RequirementChange{ch("E", Must, ResultNotRun, ResultFailed, "expected 201, got 500 <script>E</script>")},
		NewlyUncovered: []RequirementChange{ch("F", Must, ResultPassed, "", "")},
		// H passed in BASE; HEAD does not claim its profile: no regression
		NewlyUnsupported: []RequirementChange{ch("H", Must, ResultPassed, ResultUnsupported, "")},
		StillFailing:     1,
		Scenarios: []ScenarioChange{
			{ID: "attendance: A", Name: "scenario A", Operation: "E7", Base: Passed, Head: Failed},
			{ID: "attendance: B", Name: "scenario B", Operation: "E7", Base: Failed, Head: Passed},
			{ID: "attendance: C", Name: "scenario C", Operation: "E7", Base: Passed, Head: Failed},
			{ID: "attendance: E", Name: "scenario E", Operation: "E7", Head: Failed},
			{ID: "attendance: F", Name: "scenario F", Operation: "E7", Base: Passed},
			{ID: "attendance: G", Name: "scenario G", Operation: "E7", Head: Skipped},
			{ID: "attendance: H", Name: "scenario H", Operation: "E7", Base: Passed, Head: Unsupported},
		},
	}
	// E was not run in BASE (no scenario); F is not in HEAD's catalogue
	want.NewlyCovered[0].Base = ResultNotRun
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("CompareReports (-want +got):\n%s", diff)
	}
	if got := d.MustRegressions(); len(got) != 1 || got[0].ID != "A" {
		t.Errorf("MustRegressions: expected [A], got %+v", got)
	}
	md := written(t, WriteDiffMarkdown, d)
	golden(t, "diff.md.golden", md)
	js := written(t, WriteDiffJSON, d)
	var back Diff
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, back); diff != "" {
		t.Errorf("diff after WriteDiffJSON and decoding (-want +got):\n%s", diff)
	}
}

// TestCompareReportsHeadlines: the headline says whether a MUST regressed,
// and an unchanged pair says so.
func TestCompareReportsHeadlines(t *testing.T) {
	tests := []struct {
		name       string
		base, head map[string]Outcome
		want       string
	}{
		{"same", map[string]Outcome{"A": Passed}, map[string]Outcome{"A": Passed}, "## ✅ campusconf diff: no regression"},
		{"a fix", map[string]Outcome{"A": Failed}, map[string]Outcome{"A": Passed}, "## ✅ campusconf diff: no regression"},
		{"a SHOULD regression", map[string]Outcome{"C": Passed}, map[string]Outcome{"C": Failed}, "## ⚠️ campusconf diff: 1 SHOULD regression, no MUST regression"},
		{"MUST regressions", map[string]Outcome{"A": Passed, "B": Passed}, map[string]Outcome{"A": Failed, "B": Failed}, "## ❌ campusconf diff: 2 MUST regressions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := CompareReports(diffReport(diffTool, diffReqs, tt.base), diffReport(diffTool, diffReqs, tt.head))
			md := written(t, WriteDiffMarkdown, d)
			if first, _, _ := strings.Cut(string(md), "\n"); first != tt.want {
				t.Errorf("headline: expected %q, got %q", tt.want, first)
			}
		})
	}
}

// TestCompareReportsWarnings: reports of another suite or specification,
// or that say neither, runs cut short or not started are compared with a
// warning naming why.
func TestCompareReportsWarnings(t *testing.T) {
	other := diffTool
	other.SuiteVersion, other.SpecDigest = "3.1.0", "sha256:"+strings.Repeat("cd", 32)
	outcomes := map[string]Outcome{"A": Passed}
	interrupted := diffReport(diffTool, diffReqs, outcomes)
	interrupted.Interrupted = true
	unreachable := &Report{Tool: diffTool, Reason: "target unreachable: connection refused", Requirements: []Requirement{{ID: "A", Strictness: Must}}}
	Finalize(unreachable)
	tests := []struct {
		name       string
		base, head *Report
		want       []string
	}{
		{"same suite and specification", diffReport(diffTool, diffReqs, outcomes), diffReport(diffTool, diffReqs, outcomes), nil},
		{"another suite and specification", diffReport(diffTool, diffReqs, outcomes), diffReport(other, diffReqs, outcomes), []string{
			"the reports were checked against different suite versions (BASE 3.0.0, HEAD 3.1.0): requirements may differ between them, compare with care",
			"the reports were checked against different specification digests (BASE sha256:abab",
		}},
		{"a report that says neither", diffReport(Tool{Name: "campusconf", Version: "dev"}, diffReqs, outcomes), diffReport(diffTool, diffReqs, outcomes), []string{
			"BASE does not say which suite version it was checked against (a report written before campusconf recorded it); compare with care",
			"BASE does not say which specification digest",
		}},
		{"a run cut short", diffReport(diffTool, diffReqs, outcomes), interrupted, []string{"HEAD was cut short (interrupted)"}},
		{"a run that did not start", unreachable, diffReport(diffTool, diffReqs, outcomes), []string{"BASE did not run (target unreachable: connection refused)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := CompareReports(tt.base, tt.head)
			if len(d.Warnings) != len(tt.want) {
				t.Fatalf("warnings: expected %d, got %d: %q", len(tt.want), len(d.Warnings), d.Warnings)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(d.Warnings[i], w) {
					t.Errorf("warning %d: expected it to start %q, got %q", i, w, d.Warnings[i])
				}
			}
		})
	}
}

// TestCompareReportsAcrossSchemas: a report of the first schema version,
// as an earlier release wrote it, compares with one of this build.
func TestCompareReportsAcrossSchemas(t *testing.T) {
	old, err := ReadJSON(filepath.Join("testdata", "schemas", "v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := CompareReports(old, sampleReport())
	if len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "BASE does not say which suite version") {
		t.Errorf("expected a warning that BASE does not record its suite version, got %q", d.Warnings)
	}
	if d.Base.Counts != old.Counts {
		t.Errorf("base counts: expected %+v, got %+v", old.Counts, d.Base.Counts)
	}
}

// TestDiffNamesExpiredEntries: the expired baseline entries of HEAD's gate
// are in the diff and its Markdown.
func TestDiffNamesExpiredEntries(t *testing.T) {
	d := CompareReports(sampleReport(), sampleReport())
	if len(d.Expired) != 1 || d.Expired[0].ID != "E5-PERM-1" {
		t.Fatalf("expired: expected E5-PERM-1 from the head's gate, got %+v", d.Expired)
	}
	md := written(t, WriteDiffMarkdown, d)
	want := "- **E5-PERM-1** (expired 2026-11-01, owner team &lt;timetable&gt;, still fails): role model lands in 2.4"
	if !strings.Contains(string(md), want) {
		t.Errorf("Markdown: expected %q, got:\n%s", want, string(md))
	}
}
