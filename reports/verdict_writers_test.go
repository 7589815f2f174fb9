package reports

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// verdictCase is a report that ends in one row of VerdictRules.
type verdictCase struct {
	name string
	rule int // index in VerdictRules
	r    func() *Report
}

// verdictCases make a report for every row of VerdictRules, and the two
// runs exiting 0 whose failures the gate does not count (SHOULD
// failures, baseline-excused MUST failures).
func verdictCases() []verdictCase {
	pass := Scenario{ID: "p", Name: "passes", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Passed}
	fail := Scenario{ID: "f", Name: "fails", Operation: "E1", Requirements: []string{"M1"}, Strictness: Must, Outcome: Failed, Failure: &Failure{Message: "expected 200, got 403", Requirements: []string{"M1"}, Exchange: -1}}
	should := Scenario{ID: "s", Name: "warns", Operation: "E1", Requirements: []string{"S1"}, Strictness: Should, Outcome: Failed, Failure: &Failure{Message: "expected a limit", Requirements: []string{"S1"}, Exchange: -1}}
	errored := Scenario{ID: "e", Name: "errs", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Error, Failure: &Failure{Message: "no HTTP answer", Exchange: -1}}
	cut := Scenario{ID: "c", Name: "cut", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Skipped, SkipCause: CauseCutShort, SkipReason: "cut short"}
	skip := Scenario{ID: "k", Name: "skipped", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: Skipped, SkipCause: CauseFixture, SkipReason: "records.x"}
	notConf := Scenario{ID: "n", Name: "not configured", Operation: "E2", Requirements: []string{"M2"}, Strictness: Must, Outcome: NotConfigured}
	report := func(edit func(r *Report), s ...Scenario) func() *Report {
		return func() *Report {
			r := &Report{Tool: NewTool("campusconf"), Started: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), Target: Target{URL: "http://target.test"},
				Scenarios: slices.Clone(s), Requirements: catalogue(), Implements: []string{"second-factor"},
				Implementation: &Implementation{Organization: "Org", Project: "Project"}}
			if edit != nil {
				edit(r)
			}
			Finalize(r)
			return r
		}
	}
	rule := func(v Verdict, c InconclusiveCause, strict bool) int {
		for i, r := range VerdictRules {
			if r.Verdict == v && r.Cause == c && (v != VerdictNotConformant || strings.Contains(r.When, "--strict") == strict) {
				return i
			}
		}
		panic("no rule")
	}
	stop := &Stopped{Since: time.Date(2026, 11, 29, 9, 0, 12, 0, time.UTC), After: Duration(12 * time.Second), Errors: 5, Why: "5 transport errors in a row"}
	return []verdictCase{
		{"setup", rule(VerdictInconclusive, InconclusiveSetup, false), report(func(r *Report) {
			r.Setup = []string{"credentials: user staff: E3 answered 403 with header X-Token; fix users.staff in the fixture"}
		}, pass, fail)},
		{"unreachable", rule(VerdictInconclusive, InconclusiveUnreachable, false), report(func(r *Report) { r.Reason = "target unreachable: dial tcp: refused" })},
		{"a MUST failure", rule(VerdictNotConformant, "", false), report(nil, pass, fail, should)},
		{"stopped", rule(VerdictInconclusive, InconclusiveStopped, false), report(func(r *Report) { r.Stopped = stop }, pass, errored, cut)},
		{"cut short", rule(VerdictInconclusive, InconclusiveCutShort, false), report(func(r *Report) { r.Interrupted = true }, pass, cut)},
		{"--strict", rule(VerdictNotConformant, "", true), report(func(r *Report) { r.Strict = true }, pass, notConf)},
		{"nothing judged", rule(VerdictInconclusive, InconclusiveNothingJudged, false), report(nil, skip)},
		{"partial", rule(VerdictPartial, "", false), report(func(r *Report) { r.Mode.ReadOnly = true }, pass, errored, should)},
		{"SHOULD failures", rule(VerdictWarnings, "", false), report(nil, pass, should)},
		{"baseline-excused MUST failures", rule(VerdictWarnings, "", false), report(func(r *Report) {
			r.Gate = &GateResult{Pass: true, Ran: true, Known: []string{"M1"}}
		}, pass, fail)},
		{"conformant", rule(VerdictConformant, "", false), report(nil, pass)},
	}
}

// TestEveryWriterGivesTheVerdict holds every output of a run to the
// verdict table: for a report ending in each row of VerdictRules, the one
// word (with its cause) in report.json, summary.md, report.html,
// junit.xml, ctrf.json, conformance-report.yaml (whose keys make the same
// word, so it verifies) and badge.svg, and the row's exit code; junit.xml
// and ctrf.json count a failure or error exactly when the exit code is not
// 0.
func TestEveryWriterGivesTheVerdict(t *testing.T) {
	seen := map[int]bool{}
	for _, tc := range verdictCases() {
		t.Run(tc.name, func(t *testing.T) {
			rule := VerdictRules[tc.rule]
			seen[tc.rule] = true
			r := tc.r()
			if r.Verdict != rule.Verdict || r.VerdictCause != rule.Cause {
				t.Fatalf("verdict: expected %q, got %q (%s)", Word(rule.Verdict, rule.Cause), Word(r.Verdict, r.VerdictCause), r.VerdictReason)
			}
			if got := r.ExitCode(); got != rule.Exit {
				t.Errorf("exit code: expected %d, got %d", rule.Exit, got)
			}
			word := Word(rule.Verdict, rule.Cause)
			head := Headline(r)
			dir := t.TempDir()
			if _, err := WriteAll(dir, r); err != nil {
				t.Fatal(err)
			}
			read := func(name string) []byte {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				return data
			}
			var js struct {
				Verdict Verdict           `json:"verdict"`
				Cause   InconclusiveCause `json:"verdictCause"`
			}
			if err := json.Unmarshal(read(JSONFile), &js); err != nil || js.Verdict != rule.Verdict || js.Cause != rule.Cause {
				t.Errorf("report.json: expected verdict %q cause %q, got %q %q (%v)", rule.Verdict, rule.Cause, js.Verdict, js.Cause, err)
			}
			if md, _, _ := strings.Cut(string(read(MarkdownFile)), "\n"); !strings.Contains(md, markdownText(head)) && !strings.Contains(md, verdictHeadline(rule.Verdict, rule.Cause)) {
				t.Errorf("summary.md: expected the first line to give %q, got %q", head, md)
			}
			if page := html.UnescapeString(string(read(HTMLFile))); !strings.Contains(page, `<div class="verdict-word">`+verdictHeadline(rule.Verdict, rule.Cause)) {
				t.Errorf("report.html: expected the verdict %q", verdictHeadline(rule.Verdict, rule.Cause))
			}
			var ju junitSuites
			if err := xml.Unmarshal(read(JUnitFile), &ju); err != nil {
				t.Fatal(err)
			}
			props := map[string]string{}
			for _, p := range ju.Suites[0].Properties {
				props[p.Name] = p.Value
			}
			if props["verdict"] != string(rule.Verdict) || props["verdictCause"] != string(rule.Cause) {
				t.Errorf("junit.xml: expected properties verdict %q, verdictCause %q, got %q, %q", rule.Verdict, rule.Cause, props["verdict"], props["verdictCause"])
			}
			if bad := ju.Failures + ju.Errors; (bad > 0) != (rule.Exit != 0) {
				t.Errorf("junit.xml: %d failures and %d errors for a run exiting %d: a consumer counting them must see one exactly where the gate fails", ju.Failures, ju.Errors, rule.Exit)
			}
			var ct ctrfDoc
			if err := json.Unmarshal(read(CTRFFile), &ct); err != nil {
				t.Fatal(err)
			}
			if ct.Extra["verdict"] != string(rule.Verdict) || fmt.Sprint(ct.Extra["verdictCause"]) != fmt.Sprint(cmpOrNil(rule.Cause)) {
				t.Errorf("ctrf.json: expected extra.verdict %q, verdictCause %q, got %v, %v", rule.Verdict, rule.Cause, ct.Extra["verdict"], ct.Extra["verdictCause"])
			}
			if failed := ct.Results.Summary.Failed; (failed > 0) != (rule.Exit != 0) {
				t.Errorf("ctrf.json: %d failed for a run exiting %d: a consumer counting them must see one exactly where the gate fails", failed, rule.Exit)
			}
			var c ConformanceReport
			if err := yaml.Unmarshal(read(ConformanceFile), &c); err != nil {
				t.Fatal(err)
			}
			if c.Status != rule.Verdict || c.Cause != rule.Cause && rule.Verdict == VerdictInconclusive {
				t.Errorf("conformance-report.yaml: expected status %q cause %q, got %q %q", rule.Verdict, rule.Cause, c.Status, c.Cause)
			}
			if st, why := ConformanceStatusOf(&c); st != c.Status {
				t.Errorf("conformance-report.yaml: its keys make %q (%s), not its status %q: it would not verify", st, why, c.Status)
			}
			if badge := string(read(BadgeFile)); !strings.Contains(badge, ">"+esc(word)) {
				t.Errorf("badge.svg: expected the word %q", word)
			}
		})
	}
	for i, rule := range VerdictRules {
		if !seen[i] {
			t.Errorf("VerdictRules[%d] (%s: %s) has no case here: add one to verdictCases", i, Word(rule.Verdict, rule.Cause), rule.When)
		}
	}
}

func cmpOrNil(c InconclusiveCause) any {
	if c == "" {
		return nil
	}
	return string(c)
}

// TestJUnitAndCTRFCountOnlyWhatTheGateFails: a run exiting 0 with SHOULD
// failures, with baseline-excused MUST failures, or partial with an
// isolated error and a SHOULD failure writes 0
// failures and 0 errors in junit.xml and 0 failed in ctrf.json, each
// such scenario in the form consumers do not count, the reason first;
// --strict-junit keeps every failure a failure.
func TestJUnitAndCTRFCountOnlyWhatTheGateFails(t *testing.T) {
	for _, tc := range verdictCases() {
		if tc.name != "SHOULD failures" && tc.name != "baseline-excused MUST failures" && tc.name != "partial" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r()
			if r.ExitCode() != 0 {
				t.Fatalf("expected a run exiting 0, got %d (%s)", r.ExitCode(), Headline(r))
			}
			var ju junitSuites
			if err := xml.Unmarshal(written(t, WriteJUnit, r), &ju); err != nil {
				t.Fatal(err)
			}
			if ju.Failures != 0 || ju.Errors != 0 {
				t.Errorf("junit.xml: expected 0 failures and 0 errors, got %d and %d", ju.Failures, ju.Errors)
			}
			notCounted := 0
			for _, s := range ju.Suites {
				for _, c := range s.Cases {
					if c.Skipped != nil && strings.HasPrefix(c.Skipped.Message, NotCounted+" (") {
						notCounted++
						if c.SystemOut == "" {
							t.Errorf("junit.xml: case %q: expected the failure's text in <system-out>", c.Name)
						}
					}
				}
			}
			if want := r.Counts.Failed + r.Counts.Errored; notCounted != want {
				t.Errorf("junit.xml: expected %d cases in the not-counted form, got %d", want, notCounted)
			}
			var ct ctrfDoc
			if err := json.Unmarshal(written(t, WriteCTRF, r), &ct); err != nil {
				t.Fatal(err)
			}
			if ct.Results.Summary.Failed != 0 {
				t.Errorf("ctrf.json: expected 0 failed, got %d", ct.Results.Summary.Failed)
			}
			for _, x := range ct.Results.Tests {
				if (x.Extra.Outcome == string(Failed) || x.Extra.Outcome == string(Error)) && (x.Status != ctrfOther || !strings.HasPrefix(x.Message, NotCounted+" (")) {
					t.Errorf("ctrf.json: test %q: expected status other with a message starting %q, got %q %q", x.Name, NotCounted, x.Status, x.Message)
				}
			}
			r.StrictJUnit = true
			if err := xml.Unmarshal(written(t, WriteJUnit, r), &ju); err != nil {
				t.Fatal(err)
			}
			if ju.Failures != r.Counts.Failed {
				t.Errorf("--strict-junit: expected every failed scenario a failure (%d), got %d", r.Counts.Failed, ju.Failures)
			}
		})
	}
}

// TestVerdictTableInDocs holds docs/reports.md's verdict table to
// VerdictRules, row for row.
func TestVerdictTableInDocs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "reports.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := VerdictTableMarkdown()
	if !strings.Contains(string(data), want) {
		t.Errorf("docs/reports.md: expected the verdict table VerdictRules makes:\n%s", want)
	}
	if regexp.MustCompile(`\| *no scenarios *\|`).Match(data) {
		t.Error("docs/reports.md: still names the verdict \"no scenarios\"")
	}
}
