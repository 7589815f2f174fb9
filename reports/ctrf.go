package reports

import (
	"io"
	"strings"
	"time"
)

// CTRFSpecVersion is the version of the Common Test Report Format
// (https://ctrf.io) that ctrf.json follows; reports/testdata/ctrf holds its
// JSON schema, which the tests validate ctrf.json against.
const CTRFSpecVersion = "1.0.0"

// ctrfTestType is the CTRF test type of every scenario.
const ctrfTestType = "conformance"

// The CTRF document, as far as ctrf.json fills it in. Field names and
// required members are CTRF's.
type ctrfDoc struct {
	ReportFormat string         `json:"reportFormat"`
	SpecVersion  string         `json:"specVersion"`
	Timestamp    string         `json:"timestamp,omitempty"`
	GeneratedBy  string         `json:"generatedBy"`
	Results      ctrfResults    `json:"results"`
	Extra        map[string]any `json:"extra,omitempty"`
}

type ctrfResults struct {
	Tool    ctrfTool       `json:"tool"`
	Summary ctrfSummary    `json:"summary"`
	Tests   []ctrfTest     `json:"tests"`
	Extra   map[string]any `json:"extra,omitempty"`
}

type ctrfTool struct {
	Name    string         `json:"name"`
	Version string         `json:"version,omitempty"`
	Extra   map[string]any `json:"extra,omitempty"`
}

type ctrfSummary struct {
	Tests    int   `json:"tests"`
	Passed   int   `json:"passed"`
	Failed   int   `json:"failed"`
	Pending  int   `json:"pending"`
	Skipped  int   `json:"skipped"`
	Other    int   `json:"other"`
	Flaky    int   `json:"flaky"`
	Suites   int   `json:"suites"`
	Start    int64 `json:"start"`
	Stop     int64 `json:"stop"`
	Duration int64 `json:"duration"`
}

type ctrfTest struct {
	Name      string        `json:"name"`
	Status    string        `json:"status"`
	Duration  int64         `json:"duration"`
	Suite     []string      `json:"suite,omitempty"`
	Message   string        `json:"message,omitempty"`
	Trace     string        `json:"trace,omitempty"`
	RawStatus string        `json:"rawStatus,omitempty"`
	Tags      []string      `json:"tags,omitempty"`
	Type      string        `json:"type,omitempty"`
	Retries   int           `json:"retries,omitempty"`
	Flaky     bool          `json:"flaky,omitempty"`
	Extra     ctrfTestExtra `json:"extra"`
}

// ctrfTestExtra is what a CTRF test carries of the scenario beyond CTRF's
// own fields: the requirement ids, their severity, the outcome in the
// report's words, the skip reason and cause and, for a failure, expected,
// got and the curl line.
type ctrfTestExtra struct {
	ID                 string     `json:"id"`
	Operation          string     `json:"operation,omitempty"`
	Kind               Kind       `json:"kind,omitempty"`
	Requirements       []string   `json:"requirements"`
	FailedRequirements []string   `json:"failedRequirements,omitempty"`
	Severity           Strictness `json:"severity,omitempty"`
	Outcome            string     `json:"outcome"`
	SkipReason         string     `json:"skipReason,omitempty"`
	SkipCause          SkipCause  `json:"skipCause,omitempty"`
	Expected           string     `json:"expected,omitempty"`
	Got                string     `json:"got,omitempty"`
	Curl               string     `json:"curl,omitempty"`
}

// CTRF statuses.
const (
	ctrfPassed  = "passed"
	ctrfFailed  = "failed"
	ctrfSkipped = "skipped"
	ctrfOther   = "other"
)

// ctrfStatus is the CTRF status of an outcome: the one place outcomes map
// to CTRF. ok is false for an outcome it does not know, which is then
// written as "other" (TestCTRFMapsEveryOutcome fails until it is mapped).
// Not configured is CTRF's "skipped": the fixture does not place the
// operation, so nothing was checked, and extra.outcome says which kind of
// skip it was. Unsupported is "skipped" too (extra.outcome
// "unsupported"): the implementation does not claim the profile, so nothing
// was sent. An error (no HTTP answer) is CTRF's "other", extra.outcome
// "error": it is neither a failure nor a skip. A flaky pass stays "passed",
// with CTRF's flaky and retries. WriteCTRF then holds failures and errors
// to the gate (see NotCounted): "failed" where the gate fails on them,
// "other" with a message saying why not elsewhere.
func ctrfStatus(o Outcome) (status string, ok bool) {
	switch o {
	case Passed:
		return ctrfPassed, true
	case Failed:
		return ctrfFailed, true
	case Skipped, NotConfigured, Unsupported:
		return ctrfSkipped, true
	case Error:
		return ctrfOther, true
	}
	return ctrfOther, false
}

// WriteCTRF writes r in the Common Test Report Format (ctrf.json), for CI
// dashboards and reporters that read CTRF: one test per scenario, named by
// the scenario (with its id where the name repeats), its status mapped by
// ctrfStatus, the operation as its suite, and in extra the scenario id,
// requirement ids, severity (MUST or SHOULD), outcome, skip reason,
// expected, got and curl line. A run that could not start has one failed
// test, "target reachable", with the reason; another verdict the counted
// scenarios do not show (inconclusive, --strict) one failed test named by
// its cause. The tool's extra carries the
// commit, suite version and specification digest; the document's extra the
// report schema, verdict and target. r should be finalized.
func WriteCTRF(w io.Writer, r *Report) error {
	start := r.Started.UnixMilli()
	if r.Started.IsZero() {
		start = 0
	}
	stop := start + ms(r.Duration)
	doc := ctrfDoc{
		ReportFormat: "CTRF",
		SpecVersion:  CTRFSpecVersion,
		GeneratedBy:  r.Tool.Name,
		Results: ctrfResults{
			Tool: ctrfTool{Name: r.Tool.Name, Version: r.Tool.Version, Extra: ctrfToolExtra(r.Tool)},
			Summary: ctrfSummary{
				Start: start, Stop: stop, Duration: ms(r.Duration),
			},
			Tests: []ctrfTest{},
		},
		Extra: map[string]any{"schema": r.Schema, "verdict": r.Verdict, "target": r.Target},
	}
	if doc.Results.Tool.Name == "" {
		doc.Results.Tool.Name = "campusconf" // CTRF requires a name
		doc.GeneratedBy = doc.Results.Tool.Name
	}
	if !r.Started.IsZero() {
		doc.Timestamp = r.Started.Add(time.Duration(r.Duration)).UTC().Format(time.RFC3339)
	}
	if r.Interrupted {
		doc.Extra["interrupted"] = true
	}
	if r.Reason != "" {
		doc.Extra["reason"] = r.Reason
	}
	if r.Gate != nil {
		doc.Extra["gate"] = r.Gate
	}
	if r.VerdictReason != "" {
		doc.Extra["verdictReason"] = r.VerdictReason
		doc.Extra["headline"] = Headline(r)
	}
	if r.Stopped != nil {
		doc.Extra["stopped"] = r.Stopped
	}
	if r.RateLimits != nil {
		doc.Extra["rateLimits"] = r.RateLimits
	}
	if r.VerdictCause != "" {
		doc.Extra["verdictCause"] = r.VerdictCause
	}
	if len(r.Setup) > 0 {
		doc.Extra["setup"] = r.Setup
	}
	gv := gateViewOf(r)
	strict := gv.strict
	names := map[string]int{}
	for _, s := range r.Scenarios {
		names[s.Name]++
	}
	suites := map[string]bool{}
	for _, s := range r.Scenarios {
		t := ctrfTestOf(s, strict)
		if s.Outcome == Failed || s.Outcome == Error {
			switch counted, why := gv.counted(s); {
			case !counted:
				t.Status, t.Message = ctrfOther, notCountedMessage(why, t.Message)
			case !r.StrictJUnit:
				// an error the gate fails on is counted as a failure:
				// CTRF has no status of its own for it
				t.Status = ctrfFailed
			}
		}
		if names[s.Name] > 1 || s.Name == "" {
			t.Name = strings.TrimSpace(s.Name + " [" + s.ID + "]")
		}
		doc.Results.Tests = append(doc.Results.Tests, t)
		suites[operationLabel(s.Operation)] = true
	}
	if name, why, _, ok := gv.runCase(); ok {
		// a verdict the counted scenarios do not show: one test says why
		doc.Results.Tests = append(doc.Results.Tests, ctrfTest{
			Name: name, Status: ctrfFailed, Duration: ms(r.Duration), Message: why,
			RawStatus: Word(r.Verdict, r.VerdictCause), Type: ctrfTestType,
			Extra: ctrfTestExtra{ID: name, Requirements: []string{}, Outcome: Word(r.Verdict, r.VerdictCause)},
		})
	}
	if r.Verdict == VerdictInconclusive && r.VerdictCause == InconclusiveUnreachable {
		doc.Results.Tests = append(doc.Results.Tests, ctrfTest{
			Name: "target reachable", Status: ctrfFailed, Duration: ms(r.Duration), Message: r.Reason,
			RawStatus: string(r.Verdict), Type: ctrfTestType,
			Extra: ctrfTestExtra{ID: "target reachable", Requirements: []string{}, Outcome: string(r.Verdict)},
		})
	}
	if r.StrictJUnit && r.VerdictCause == InconclusiveStopped {
		// the run stopped: one test says why, beside the errored scenarios
		doc.Results.Tests = append(doc.Results.Tests, ctrfTest{
			Name: "target answering", Status: ctrfOther, Duration: ms(r.Duration), Message: r.VerdictReason,
			RawStatus: string(r.Verdict), Type: ctrfTestType,
			Extra: ctrfTestExtra{ID: "target answering", Requirements: []string{}, Outcome: string(r.Verdict)},
		})
	}
	sum := &doc.Results.Summary
	sum.Suites = len(suites)
	for _, t := range doc.Results.Tests {
		sum.Tests++
		switch t.Status {
		case ctrfPassed:
			sum.Passed++
		case ctrfFailed:
			sum.Failed++
		case ctrfSkipped:
			sum.Skipped++
		default:
			sum.Other++
		}
		if t.Flaky {
			sum.Flaky++
		}
	}
	return writeIndentedJSON(w, doc, CTRFFile)
}

// ctrfTestOf is the CTRF test of one scenario.
func ctrfTestOf(s Scenario, strict map[string]Strictness) ctrfTest {
	status, _ := ctrfStatus(s.Outcome)
	t := ctrfTest{
		Name: s.Name, Status: status, Duration: ms(s.Duration), Suite: []string{operationLabel(s.Operation)},
		RawStatus: string(s.Outcome), Tags: s.Tags, Type: ctrfTestType, Retries: s.Retries, Flaky: s.Flaky,
		Extra: ctrfTestExtra{
			ID: s.ID, Operation: s.Operation, Kind: s.Kind, Requirements: s.Requirements,
			Severity: s.Strictness, Outcome: string(s.Outcome), SkipReason: s.SkipReason, SkipCause: s.SkipCause,
		},
	}
	if t.Extra.Requirements == nil {
		t.Extra.Requirements = []string{}
	}
	switch {
	case s.SkipReason != "":
		t.Message = string(s.Outcome) + ": " + s.SkipReason
	case s.Failure != nil:
		f := s.Failure
		t.Message = failureReason(s)
		t.Trace = strings.TrimSpace(f.Message + "\n" + "step: " + f.Step)
		t.Extra.FailedRequirements = FailedRequirements(s)
		t.Extra.Expected, t.Extra.Got, t.Extra.Curl = f.Expected, f.Got, f.Curl
		// the severity of a failure is that of what it failed, which for a
		// cross-cutting requirement may differ from the scenario's own
		if failedMust(s, t.Extra.FailedRequirements, strict) {
			t.Extra.Severity = Must
		} else {
			t.Extra.Severity = Should
		}
	}
	return t
}

// ctrfToolExtra is what CTRF's tool object carries beyond name and
// version: the commit, suite version and specification digest.
func ctrfToolExtra(t Tool) map[string]any {
	extra := map[string]any{}
	if t.Commit != "" {
		extra["commit"] = t.Commit
	}
	if t.Modified {
		extra["modified"] = true
	}
	if t.SuiteVersion != "" {
		extra["suiteVersion"] = t.SuiteVersion
	}
	if t.SpecDigest != "" {
		extra["specDigest"] = t.SpecDigest
	}
	if len(extra) == 0 {
		return nil
	}
	return extra
}

// ms is d in whole milliseconds, never negative (CTRF wants integers).
func ms(d Duration) int64 {
	return max(time.Duration(d).Milliseconds(), 0)
}
