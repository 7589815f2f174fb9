package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/version"
)

// fullRun is a report of a run of the whole suite of this build: each
// profile holds the scenarios the release says, all passed but, when
// failing, one of attendance that failed E7.default-publish.
func fullRun(t *testing.T, failing bool) *Report {
	t.Helper()
	cat, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	rel, ok := version.ReleaseOf(version.Suite, version.SpecDigest)
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
	rel, _ := version.ReleaseOf(version.Suite, version.SpecDigest)
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
		}, "profiles[4] (attendance): counts 28 scenarios, but a run of the whole suite 3.0.0 has 29 in this profile"},
		{"a read-only run made full, one passed scenario a profile", false, func(c *ConformanceReport) {
			for i := range c.Profiles {
				c.Profiles[i].Counts = ProfileCounts{Passed: 1}
			}
			c.Implementation.Organization = "another.edu"
			conformant(c)
		}, "profiles[0] (second-factor): counts 1 scenarios, but a run of the whole suite 3.0.0 has 32"},
		{"more scenarios than the suite has", false, func(c *ConformanceReport) {
			c.Profiles[profileAt(c, "bank")].Counts.Passed += rel.Unplaced + 1
		}, fmt.Sprintf("profiles: count %d scenarios more than a run of the whole suite 3.0.0 has (at most %d", rel.Unplaced+1, rel.Unplaced)},
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
	for _, want := range []string{`status: this file says "conformant", report.json makes it "not conformant"`, "profiles[4] (attendance): this file says result success, passed 29, failed 0"} {
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
