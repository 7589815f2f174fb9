package reports

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/campusconf/campusconf/internal/registry"
)

func catalogue() []Requirement {
	return []Requirement{
		{ID: "M1", Operation: "E1", Kind: "status", Strictness: Must},
		{ID: "M2", Operation: "E2", Kind: "status", Strictness: Must},
		{ID: "S1", Operation: "E1", Kind: "query", Strictness: Should},
		{ID: "X1", Operation: "", Kind: "error-form", Strictness: Must},
	}
}

func TestFinalize(t *testing.T) {
	fail := func(ids ...string) *Failure { return &Failure{Requirements: ids, Exchange: -1} }
	tests := []struct {
		name        string
		scenarios   []Scenario
		wantResult  map[string]Result
		wantCounts  Counts
		wantVerdict Verdict
	}{
		{
			name:        "nothing",
			wantResult:  map[string]Result{"M1": ResultNotRun, "M2": ResultNotRun, "S1": ResultNotRun, "X1": ResultNotRun},
			wantCounts:  Counts{Requirements: 4},
			wantVerdict: VerdictInconclusive,
		},
		{
			name: "only skipped and not configured",
			scenarios: []Scenario{
				{ID: "a", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Skipped, SkipReason: "no fixture"},
				{ID: "b", Operation: "GB", Requirements: []string{"M2"}, Strictness: Must, Outcome: NotConfigured},
			},
			wantResult:  map[string]Result{"M1": ResultNotRun, "M2": ResultNotRun, "S1": ResultNotRun, "X1": ResultNotRun},
			wantCounts:  Counts{Scenarios: 2, Skipped: 1, NotConfigured: 1, SkippedBy: SkipCounts{Other: 1}, StrictCounted: 2, Requirements: 4},
			wantVerdict: VerdictInconclusive,
		},
		{
			name: "all passed",
			scenarios: []Scenario{
				{ID: "a", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Passed},
				{ID: "b", Operation: "E1", Requirements: []string{"M1", "S1"}, Strictness: Must, Outcome: Passed},
			},
			wantResult:  map[string]Result{"M1": ResultPassed, "M2": ResultNotRun, "S1": ResultPassed, "X1": ResultNotRun},
			wantCounts:  Counts{Scenarios: 2, Passed: 2, Requirements: 4, RequirementsCovered: 2, RequirementsPassing: 2},
			wantVerdict: VerdictConformant,
		},
		{
			name: "a SHOULD failure only warns",
			scenarios: []Scenario{
				{ID: "a", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Passed},
				{ID: "b", Operation: "E1", Requirements: []string{"S1"}, Strictness: Should, Outcome: Failed, Failure: fail("S1")},
			},
			wantResult:  map[string]Result{"M1": ResultPassed, "M2": ResultNotRun, "S1": ResultFailed, "X1": ResultNotRun},
			wantCounts:  Counts{Scenarios: 2, Passed: 1, Failed: 1, FailedShould: 1, Requirements: 4, RequirementsCovered: 2, RequirementsPassing: 1},
			wantVerdict: VerdictWarnings,
		},
		{
			name: "a MUST failure decides, even when another scenario passed it",
			scenarios: []Scenario{
				{ID: "a", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Passed},
				{ID: "b", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Failed, Failure: fail("M1")},
			},
			wantResult:  map[string]Result{"M1": ResultFailed, "M2": ResultNotRun, "S1": ResultNotRun, "X1": ResultNotRun},
			wantCounts:  Counts{Scenarios: 2, Passed: 1, Failed: 1, FailedMust: 1, Requirements: 4, RequirementsCovered: 1},
			wantVerdict: VerdictNotConformant,
		},
		{
			name: "a cross-cutting failure fails the id it names, not the scenario's own",
			scenarios: []Scenario{
				{ID: "a", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Failed, Failure: fail("X1")},
			},
			wantResult:  map[string]Result{"M1": ResultNotRun, "M2": ResultNotRun, "S1": ResultNotRun, "X1": ResultFailed},
			wantCounts:  Counts{Scenarios: 1, Failed: 1, FailedMust: 1, Requirements: 4, RequirementsCovered: 1},
			wantVerdict: VerdictNotConformant,
		},
		{
			name: "a failure naming no id fails the scenario's own",
			scenarios: []Scenario{
				{ID: "a", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Failed, Failure: fail()},
				{ID: "b", Operation: "E1", Requirements: []string{"S1"}, Strictness: Should, Outcome: Failed},
			},
			wantResult:  map[string]Result{"M1": ResultNotRun, "M2": ResultFailed, "S1": ResultFailed, "X1": ResultNotRun},
			wantCounts:  Counts{Scenarios: 2, Failed: 2, FailedMust: 1, FailedShould: 1, Requirements: 4, RequirementsCovered: 2},
			wantVerdict: VerdictNotConformant,
		},
		{
			name: "an id missing from the catalogue takes the scenario's strictness",
			scenarios: []Scenario{
				{ID: "a", Operation: "E1", Requirements: []string{"S1"}, Strictness: Should, Outcome: Failed, Failure: fail("NEW-1")},
			},
			wantResult:  map[string]Result{"M1": ResultNotRun, "M2": ResultNotRun, "S1": ResultNotRun, "X1": ResultNotRun},
			wantCounts:  Counts{Scenarios: 1, Failed: 1, FailedShould: 1, Requirements: 4},
			wantVerdict: VerdictWarnings,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Scenarios: slices.Clone(tt.scenarios), Requirements: catalogue(), Implements: []string{"second-factor"}}
			Finalize(r)
			got := map[string]Result{}
			for _, q := range r.Requirements {
				got[q.ID] = q.Result
			}
			if diff := cmp.Diff(tt.wantResult, got); diff != "" {
				t.Errorf("requirement results (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCounts, r.Counts); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			if r.Verdict != tt.wantVerdict {
				t.Errorf("verdict: got %q, want %q", r.Verdict, tt.wantVerdict)
			}
			if r.Schema != SchemaVersion {
				t.Errorf("schema: got %q, want %q", r.Schema, SchemaVersion)
			}
		})
	}
}

func TestFinalizeRequirementScenarios(t *testing.T) {
	r := &Report{
		Requirements: catalogue(),
		Scenarios: []Scenario{
			{ID: "f.feature:10", Operation: "E2", Requirements: []string{"M2"}, Outcome: Failed, Failure: &Failure{Requirements: []string{"X1"}}},
			{ID: "f.feature:9", Operation: "E2", Requirements: []string{"M2"}, Outcome: Passed},
			{ID: "g.feature:3", Operation: "E1", Requirements: []string{"M1", "M1"}, Outcome: Skipped},
		},
	}
	Finalize(r)
	got := map[string][]string{}
	for _, q := range r.Requirements {
		got[q.ID] = q.Scenarios
	}
	want := map[string][]string{
		"M1": {"g.feature:3"},
		"M2": {"f.feature:9", "f.feature:10"},
		"S1": nil,
		"X1": {"f.feature:10"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requirement scenarios (-want +got):\n%s", diff)
	}
}

func TestFinalizeSortsAndIsIdempotent(t *testing.T) {
	r := &Report{Requirements: catalogue()}
	for _, id := range []struct{ op, id string }{
		{"QS", "q:1"}, {"E10", "e10:2"}, {"GB", "gb:1"}, {"E2", "e2:10"}, {"", "x:1"},
		{"E2", "e2:9"}, {"E1", "e1:1"}, {"ZZ", "z:1"}, {"NR", "nr:1"}, {"E21", "e21:1"}, {"ES", "es:1"}, {"NG", "ng:1"},
	} {
		r.Scenarios = append(r.Scenarios, Scenario{ID: id.id, Operation: id.op, Outcome: Passed, Duration: -5})
	}
	Finalize(r)
	var got []string
	for _, s := range r.Scenarios {
		got = append(got, s.ID)
		if s.Duration < 0 {
			t.Errorf("scenario %s: negative duration %v after Finalize", s.ID, s.Duration)
		}
	}
	want := []string{"e1:1", "e2:9", "e2:10", "e10:2", "e21:1", "gb:1", "es:1", "ng:1", "nr:1", "q:1", "z:1", "x:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scenario order (-want +got):\n%s", diff)
	}
	once := *r
	once.Scenarios = slices.Clone(r.Scenarios)
	once.Requirements = slices.Clone(r.Requirements)
	Finalize(r)
	if diff := cmp.Diff(&once, r); diff != "" {
		t.Errorf("a second Finalize changed the report (-first +second):\n%s", diff)
	}
	Finalize(nil) // must not panic
}

func TestCompareOperations(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"E1", "E2", -1},
		{"E2", "E10", -1},
		{"E21", "GB", -1},
		{"GB", "ES", -1},
		{"ES", "NG", -1},
		{"NG", "NR", -1},
		{"NR", "QS", -1},
		{"QS", "AA", -1},
		{"AA", "", -1},
		{"E9", "E9", 0},
		{"E10", "E9", +1},
		{"", "E1", +1},
	}
	for _, tt := range tests {
		if got := CompareOperations(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareOperations(%q, %q): got %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCompareNatural(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a.feature:9", "a.feature:10", -1},
		{"a.feature:10:2", "a.feature:10:11", -1},
		{"a.feature:010", "a.feature:10", +1},
		{"a", "b", -1},
		{"a", "a1", -1},
		{"x2y", "x2y", 0},
	}
	for _, tt := range tests {
		if got := compareNatural(tt.a, tt.b); got != tt.want {
			t.Errorf("compareNatural(%q, %q): got %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := compareNatural(tt.b, tt.a); got != -tt.want {
			t.Errorf("compareNatural(%q, %q): got %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// profileTable is the profiles a report lists, by name and operations in
// its order: what the registry's Profiles gives.
func profileTable(ps []ProfileResult) []registry.ProfileOps {
	out := make([]registry.ProfileOps, len(ps))
	for i, p := range ps {
		out[i] = registry.ProfileOps{Name: registry.Profile(p.Name)}
		for _, id := range p.Operations {
			out[i].Operations = append(out[i].Operations, registry.OpID(id))
		}
	}
	return out
}

// TestFinalizeListsTheRegistrysProfiles: whatever a run claimed and ran,
// the reports the suite writes (WriteAll, which finalizes) list the
// registry's profiles, each once, in its order, with its operations, in
// report.json and conformance-report.yaml alike. The golden files' sample
// lists a fixed table instead (sampleProfiles), so a change of the
// registry's profiles shows here and leaves the golden files alone.
func TestFinalizeListsTheRegistrysProfiles(t *testing.T) {
	gb, _ := registry.ProfileOf("GB")
	tests := []struct {
		name   string
		report func() *Report
	}{
		{"nothing run", func() *Report { return &Report{} }},
		{"one profile claimed, its operation named by its alias", func() *Report {
			return &Report{Implements: []string{string(gb)}, Scenarios: []Scenario{
				{ID: "gb:1", Operation: registry.Must("GB").Alias, Strictness: Must, Outcome: Passed},
			}}
		}},
		{"the golden files' sample, finalized by the suite", sampleReport},
	}
	want := registry.Profiles()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.report()
			dir := t.TempDir()
			if _, err := WriteAll(dir, r); err != nil {
				t.Fatal(err)
			}
			read, err := ReadJSON(filepath.Join(dir, JSONFile))
			if err != nil {
				t.Fatal(err)
			}
			c, err := ReadConformance(filepath.Join(dir, ConformanceFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, got := range []struct {
				where    string
				profiles []ProfileResult
			}{{"the finalized report", r.Profiles}, {JSONFile, read.Profiles}, {ConformanceFile, c.Profiles}} {
				if diff := cmp.Diff(want, profileTable(got.profiles)); diff != "" {
					t.Errorf("%s: expected registry.Profiles() (names, order, operations), got (-want +got):\n%s\nreproduce: go test ./reports -run 'TestFinalizeListsTheRegistrysProfiles'", got.where, diff)
				}
			}
		})
	}
	// the scenario named by an alias counts in its operation's profile
	r := tests[1].report()
	Finalize(r)
	for _, p := range r.Profiles {
		if p.Name == string(gb) && (p.Counts.Passed != 1 || p.Result != ProfileSuccess) {
			t.Errorf("profile %s: expected its scenario named %q counted (1 passed, success), got %s %+v", gb, registry.Must("GB").Alias, p.Result, p.Counts)
		}
	}
}
