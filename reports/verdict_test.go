package reports

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

// TestVerdictAndReason holds the rules of the verdict and its reason (see
// decide): what --strict counts, errors beside failures, the baseline, a
// stopped or cut-short run.
func TestVerdictAndReason(t *testing.T) {
	pass := Scenario{ID: "p", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Passed}
	fail := Scenario{ID: "f", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Failed, Failure: &Failure{Requirements: []string{"M1"}, Exchange: -1}}
	skip := func(id string, c SkipCause) Scenario {
		return Scenario{ID: id, Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Skipped, SkipCause: c, SkipReason: "why"}
	}
	notConf := Scenario{ID: "n", Operation: "GB", Requirements: []string{"M2"}, Strictness: Must, Outcome: NotConfigured}
	errored := Scenario{ID: "e", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Error, Failure: &Failure{Message: "no HTTP answer", Exchange: -1}}
	stop := &Stopped{Since: time.Date(2026, 11, 21, 9, 0, 12, 0, time.UTC), After: Duration(12 * time.Second), Errors: 5, Why: "5 transport errors in a row"}
	should := Scenario{ID: "s", Operation: "E1", Requirements: []string{"S1"}, Strictness: Should, Outcome: Failed, Failure: &Failure{Requirements: []string{"S1"}, Exchange: -1}}
	tests := []struct {
		name      string
		scenarios []Scenario
		edit      func(r *Report)
		want      Verdict
		headline  string
	}{
		{"all passed", []Scenario{pass}, nil, VerdictConformant, "Conformant"},
		{"a SHOULD failure", []Scenario{pass, should}, nil, VerdictWarnings, "Conformant with warnings: 1 failed SHOULD requirement"},
		{"a MUST failure", []Scenario{pass, fail}, nil, VerdictNotConformant, "Not conformant: 1 failed MUST requirement"},
		{"skips make a run partial without --strict", []Scenario{pass, skip("s", CauseFixture), notConf}, nil, VerdictPartial, "Partial: profile second-factor had scenarios skipped"},
		{"a selection is partial", []Scenario{pass}, func(r *Report) { r.Mode.Tags = "@E1" }, VerdictPartial, "Partial: the run selected scenarios (tags @E1)"},
		{"read-only is partial", []Scenario{pass}, func(r *Report) { r.Mode.ReadOnly = true }, VerdictPartial, "Partial: the run was read-only"},
		{"--strict counts not configured", []Scenario{pass, notConf, notConf}, func(r *Report) { r.Strict = true },
			VerdictNotConformant, "Not conformant: 2 scenarios not configured (--strict)"},
		{"--strict counts every cause but unobservable", []Scenario{pass, skip("a", CauseFixture), skip("b", CauseReadOnly), skip("c", CauseRunnerLimit), skip("d", CauseCutShort), skip("e", CauseUnobservable), skip("f", "")},
			func(r *Report) { r.Strict = true }, VerdictNotConformant, "Not conformant: 5 scenarios skipped (--strict)"},
		{"--strict and only unobservable skips", []Scenario{pass, skip("e", CauseUnobservable)}, func(r *Report) { r.Strict = true }, VerdictConformant, "Conformant"},
		{"isolated errors: partial, judged on the rest", []Scenario{pass, errored}, nil,
			VerdictPartial, "Partial: profile second-factor had scenarios skipped, not configured or errored"},
		{"errors beside a failure", []Scenario{fail, errored}, nil, VerdictNotConformant, "Not conformant: 1 failed MUST requirement"},
		{"--strict counts errors", []Scenario{pass, errored, notConf}, func(r *Report) { r.Strict = true },
			VerdictNotConformant, "Not conformant: 1 scenario not configured, 1 errored (--strict)"},
		{"a flaky pass is a pass, even with --strict", []Scenario{{ID: "p", Operation: "E1", Outcome: Passed, Flaky: true, Retries: 1}}, func(r *Report) { r.Strict = true },
			VerdictConformant, "Conformant"},
		{"known failures excused by the baseline", []Scenario{pass, fail}, func(r *Report) { r.Gate = &GateResult{Pass: true, Ran: true, Known: []string{"M1"}} },
			VerdictWarnings, "Conformant with warnings except 1 known failure (baseline)"},
		{"a new failure the baseline lacks", []Scenario{pass, fail}, func(r *Report) {
			r.Gate = &GateResult{Pass: false, Ran: true, New: []string{"M1"}, NewMust: []string{"M1"}}
		},
			VerdictNotConformant, "Not conformant: 1 failed MUST requirement not in the baseline"},
		{"baseline and --strict", []Scenario{pass, fail, notConf}, func(r *Report) {
			r.Strict = true
			r.Gate = &GateResult{Pass: true, Ran: true, Known: []string{"M1"}}
		}, VerdictNotConformant, "Not conformant: 1 scenario not configured (--strict)"},
		{"cut short", []Scenario{pass, skip("c", CauseCutShort)}, func(r *Report) { r.Interrupted = true },
			VerdictInconclusive, "Inconclusive (cut short): the run was cut short, 1 scenario not finished"},
		{"a MUST failure wins over cut short", []Scenario{fail, skip("c", CauseCutShort)}, func(r *Report) { r.Interrupted = true },
			VerdictNotConformant, "Not conformant: 1 failed MUST requirement"},
		{"the target stopped answering", []Scenario{pass, errored, skip("c", CauseCutShort), skip("d", CauseCutShort)}, func(r *Report) { r.Stopped = stop },
			VerdictInconclusive, "Inconclusive (target stopped answering): the target stopped answering after 12s (5 transport errors in a row since 09:00:12 UTC); 1 scenario errored, 2 scenarios not finished"},
		{"stopped before any answer", []Scenario{errored, errored}, func(r *Report) { r.Stopped = stop; r.Reason = "x" }, VerdictInconclusive, "Inconclusive (target stopped answering): the target stopped"},
		{"unreachable", nil, func(r *Report) { r.Reason = "target unreachable: dial tcp: refused" }, VerdictInconclusive, "Inconclusive (target unreachable): dial tcp: refused"},
		{"a setup mistake wins over failures", []Scenario{fail}, func(r *Report) { r.Setup = []string{"fix the token"} }, VerdictInconclusive, "Inconclusive (setup): fix the token"},
		{"only errors, not stopped", []Scenario{errored}, nil, VerdictInconclusive, "Inconclusive (nothing judged): nothing was judged: 1 scenario errored"},
		{"nothing", []Scenario{skip("s", CauseFixture)}, nil, VerdictInconclusive, "Inconclusive (nothing judged): every scenario was skipped, not configured or unsupported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Scenarios: tt.scenarios, Requirements: catalogue(), Implements: []string{"second-factor"}}
			if tt.edit != nil {
				tt.edit(r)
			}
			Finalize(r)
			if r.Verdict != tt.want {
				t.Errorf("verdict: expected %q, got %q (%s)", tt.want, r.Verdict, r.VerdictReason)
			}
			if got := Headline(r); !strings.HasPrefix(got, tt.headline) {
				t.Errorf("headline: expected it to start with %q, got %q", tt.headline, got)
			}
		})
	}
}

// TestReadOnlyUnchecked: the requirements a read-only run left unchecked
// are those no scenario concluded on that a read-only skip lists.
func TestReadOnlyUnchecked(t *testing.T) {
	r := &Report{Requirements: catalogue(), Scenarios: []Scenario{
		{ID: "a", Requirements: []string{"M1"}, Outcome: Skipped, SkipCause: CauseReadOnly},
		{ID: "b", Requirements: []string{"M1"}, Outcome: Passed},
		{ID: "c", Requirements: []string{"M2", "S1"}, Outcome: Skipped, SkipCause: CauseReadOnly},
		{ID: "d", Requirements: []string{"X1"}, Outcome: Skipped, SkipCause: CauseFixture},
	}}
	Finalize(r)
	if got, want := strings.Join(r.ReadOnlyUnchecked, ","), "M2,S1"; got != want {
		t.Errorf("ReadOnlyUnchecked: expected %s, got %s", want, got)
	}
	if r.Counts.SkippedBy.ReadOnly != 2 || r.Counts.SkippedBy.Fixture != 1 {
		t.Errorf("SkippedBy: expected 2 read-only and 1 fixture, got %+v", r.Counts.SkippedBy)
	}
	md := written(t, WriteMarkdown, r)
	if want := "**Read-only:** 2 scenarios not run, as each would send a request to an operation that changes state; 2 requirements left unchecked (M2, S1)"; !strings.Contains(string(md), want) {
		t.Errorf("summary.md: expected %q, got:\n%s", want, string(md))
	}
}

// TestEveryOutcomeInEveryFormat renders a report with one scenario of
// each outcome of Outcomes and requires each format to show it as what it
// is: an outcome added to the closed set fails here until every writer
// maps it.
func TestEveryOutcomeInEveryFormat(t *testing.T) {
	junitElement := map[Outcome]string{Passed: "", Failed: "failure", Skipped: "skipped", NotConfigured: "skipped", Unsupported: "skipped", Error: "error"}
	for _, o := range Outcomes {
		t.Run(string(o), func(t *testing.T) {
			sc := Scenario{ID: "x", Name: "the scenario", Operation: "E9", Requirements: []string{"M1"}, Strictness: Must, Outcome: o, SkipReason: "a reason"}
			if o == Failed || o == Error {
				sc.Failure = &Failure{Message: "a message", Exchange: -1}
			}
			r := &Report{Requirements: catalogue(), Scenarios: []Scenario{sc}, StrictJUnit: true}
			Finalize(r)
			want, ok := junitElement[o]
			if !ok {
				t.Fatalf("no JUnit element known for outcome %q: map it in WriteJUnit and here", o)
			}
			j := written(t, WriteJUnit, r)
			var doc junitSuites
			if err := xml.Unmarshal(j, &doc); err != nil {
				t.Fatal(err)
			}
			c := doc.Suites[0].Cases[0]
			got := ""
			switch {
			case c.Failure != nil:
				got = "failure"
			case c.Error != nil:
				got = "error"
			case c.Skipped != nil:
				got = "skipped"
			}
			if got != want {
				t.Errorf("junit.xml: expected <%s>, got <%s>", want, got)
			}
			if cls := outcomeClass(o); cls == "other" {
				t.Errorf("report.html: outcome %q has no class of its own", o)
			}
			h := written(t, WriteHTML, r)
			if !strings.Contains(string(h), `data-filter-outcome="`+string(o)+`"`) {
				t.Errorf("report.html: no filter button for outcome %q", o)
			}
			m := written(t, WriteMarkdown, r)
			if o == Error && !strings.Contains(string(m), "### Errors: no HTTP answer (1)") {
				t.Errorf("summary.md: expected the errored scenario listed, got:\n%s", string(m))
			}
		})
	}
}
