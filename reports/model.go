// Package reports holds the result model of a conformance run and the
// writers that turn it into report.json, junit.xml, report.html and
// summary.md. One model feeds every format; the package knows nothing of
// HTTP serving or of how the suite runs.
package reports

import (
	"fmt"
	"strconv"
	"time"

	"github.com/campusconf/campusconf/internal/rules"
)

// SchemaVersion is the version of the Report JSON form. It changes when a
// field is removed or changes meaning, or a closed set (outcomes,
// verdicts) grows; added fields keep it. Version 2 added the outcome
// "error", the verdict "error" and the verdict's reason, and made the
// verdict the gate's conclusion (--strict and --baseline included).
// Version 3 made the verdict the one model of every output (Verdicts:
// conformant, conformant with warnings, partial, not conformant,
// inconclusive with its InconclusiveCause) and added the setup problems;
// DecodeJSON still reads versions 1 and 2 (SchemaV1, SchemaV2).
const SchemaVersion = "campusconf.report/v3"

// SchemaV2 is the second version of the Report JSON form, still read:
// its verdicts "no scenarios", "target unreachable" and "error" read as
// inconclusive (nothing judged, target unreachable, target stopped
// answering).
const SchemaV2 = "campusconf.report/v2"

// SchemaV1 is the first version of the Report JSON form, still read.
const SchemaV1 = "campusconf.report/v1"

// Outcome is the result of one scenario. The set is closed.
type Outcome string

// Outcomes, from best to worst for verdict purposes.
const (
	Passed Outcome = "passed"
	// Skipped: the scenario could not run (a fixture key is missing, or
	// --read-only excluded it). SkipReason says why.
	Skipped Outcome = "skipped"
	// NotConfigured: the scenario needs an operation the specification does
	// not place and the fixture does not place either.
	NotConfigured Outcome = "not configured"
	Failed        Outcome = "failed"
	// Unsupported: the scenario's operation belongs to a profile the
	// implementation does not claim (the fixture's "implements"), so no
	// request was sent. It is never failed and --strict does not count
	// it; SkipReason names the profile.
	Unsupported Outcome = "unsupported"
	// Error: an exchange of the scenario got no HTTP answer (connection
	// refused or reset, timeout, TLS failure), so nothing was judged. It
	// is never a failed requirement; Failure says what went wrong.
	Error Outcome = "error"
)

// Outcomes is the closed set of outcomes, best first. Every format that
// maps outcomes (CTRF, JUnit, HTML, Markdown, the console, the diff, the
// profiles) is tested over this list, so an outcome added here fails those
// tests until each maps it.
var Outcomes = []Outcome{Passed, Skipped, NotConfigured, Unsupported, Failed, Error}

// SkipCause says why a skipped scenario judged nothing. The set is closed.
// `--strict` counts every cause but Unobservable: an implementation may
// leave an optional field out, so a check that found nothing to observe
// is no gap of the run.
type SkipCause string

// Skip causes.
const (
	// CauseFixture: a fixture key is missing, or a record it names is gone.
	CauseFixture SkipCause = "fixture"
	// CauseReadOnly: the scenario would send a request to an operation
	// that changes state, and the run is read-only.
	CauseReadOnly SkipCause = "read-only"
	// CauseRunnerLimit: a bound of the runner (body or header size, page
	// walk, time budget) stopped the check; the reason names the flag
	// that raises it.
	CauseRunnerLimit SkipCause = "runner-limit"
	// CauseUnobservable: what the check reads was absent (an optional
	// field left out) and no other way of observing it was available.
	CauseUnobservable SkipCause = "unobservable"
	// CauseCutShort: the run ended (budget, signal, dead target) before
	// the scenario finished.
	CauseCutShort SkipCause = "cut-short"
)

// SkipCauses is the closed set of skip causes; the report's JSON Schema
// lists the same.
var SkipCauses = []SkipCause{CauseFixture, CauseReadOnly, CauseRunnerLimit, CauseUnobservable, CauseCutShort}

// StrictCounts reports whether `--strict` fails a run for a skip of this
// cause. A skip whose producer named no cause counts.
func (c SkipCause) StrictCounts() bool { return c != CauseUnobservable }

// SkipCounts counts skipped scenarios by cause; Other counts those whose
// producer named none (or a cause this version does not know).
type SkipCounts struct {
	Fixture      int `json:"fixture"`
	ReadOnly     int `json:"readOnly"`
	RunnerLimit  int `json:"runnerLimit"`
	Unobservable int `json:"unobservable"`
	CutShort     int `json:"cutShort"`
	Other        int `json:"other,omitempty"`
}

// field is the counter of cause c.
func (k *SkipCounts) field(c SkipCause) *int {
	switch c {
	case CauseFixture:
		return &k.Fixture
	case CauseReadOnly:
		return &k.ReadOnly
	case CauseRunnerLimit:
		return &k.RunnerLimit
	case CauseUnobservable:
		return &k.Unobservable
	case CauseCutShort:
		return &k.CutShort
	}
	return &k.Other
}

// Of is the number of scenarios skipped for cause c.
func (k SkipCounts) Of(c SkipCause) int { return *k.field(c) }

// Strictness of a requirement: its level, rules.Level (MUST decides the
// verdict, SHOULD only warns). The name stays for the report's readers.
type Strictness = rules.Level

// Strictness levels: rules.Must and rules.Should.
const (
	Must   = rules.Must
	Should = rules.Should
)

// Report is one conformance run.
type Report struct {
	Schema   string    `json:"schema"`
	Tool     Tool      `json:"tool"`
	Target   Target    `json:"target"`
	Started  time.Time `json:"started"`
	Duration Duration  `json:"durationMs"`
	// Options are the effective run options, redacted.
	Options map[string]string `json:"options,omitempty"`
	// Verdict is the run's conclusion, the one word the console, every
	// report file and the exit code give (VerdictRules); VerdictCause says
	// why an inconclusive run is, VerdictReason why in a phrase. Finalize
	// sets the three from Setup, the scenarios, Stopped, Interrupted,
	// Strict and Gate.
	Verdict       Verdict           `json:"verdict"`
	VerdictCause  InconclusiveCause `json:"verdictCause,omitempty"`
	VerdictReason string            `json:"verdictReason,omitempty"`
	// Setup are the setup mistakes found, each a line saying what to fix:
	// by the checks before the suite (the fixture against the target) or
	// by the symptoms of the run (SetupSymptoms). Any makes the verdict
	// inconclusive (setup).
	Setup []string `json:"setup,omitempty"`
	// Reason says why nothing ran when the verdict is inconclusive
	// (target unreachable), such as "target unreachable: dial tcp
	// 127.0.0.1:1: connection refused".
	Reason string `json:"reason,omitempty"`
	// Interrupted is true when the run was cut short by a signal or by its
	// time budget: the scenarios not finished by then are skipped, cause
	// cut-short.
	Interrupted bool `json:"interrupted,omitempty"`
	// Stopped is set when the run stopped because the target stopped
	// answering; the verdict is then inconclusive (target stopped
	// answering), unless a MUST requirement failed before.
	Stopped *Stopped `json:"stopped,omitempty"`
	// Strict is true when the run was asked to fail for every scenario
	// that judged nothing (--strict): skipped for a cause that
	// SkipCause.StrictCounts, not configured, or errored.
	Strict bool `json:"strict,omitempty"`
	// Gate is the baseline gate's result, when the run had a baseline: it
	// decides between conformant and not conformant.
	Gate *GateResult `json:"gate,omitempty"`
	// ReadOnlyUnchecked are the requirements no scenario concluded on
	// because the run was read-only: each is listed by a scenario skipped
	// with cause read-only. Finalize sets it.
	ReadOnlyUnchecked []string `json:"readOnlyUnchecked,omitempty"`
	// RateLimits are the target's rate limits the run waited out (nil
	// when it waited none out and no --rate capped it).
	RateLimits *RateLimits `json:"rateLimits,omitempty"`
	// Notes say what the runner left out to keep the report within its
	// bounds (exchanges, headers or bodies dropped or cut).
	Notes        []string      `json:"notes,omitempty"`
	Counts       Counts        `json:"counts"`
	Scenarios    []Scenario    `json:"scenarios"`
	Requirements []Requirement `json:"requirements"`
	OpenPoints   []OpenPoint   `json:"openPoints,omitempty"`
	// Mode says how much of the suite the run asked for.
	Mode Mode `json:"mode"`
	// Implements are the profiles the implementation claims, as its
	// fixture (or --implements) names them; absent, every profile. The
	// scenarios of the others are Unsupported.
	Implements []string `json:"implements,omitempty"`
	// Implementation says who was tested, for the conformance report.
	Implementation *Implementation `json:"implementation,omitempty"`
	// Profiles are the results per profile, in report order. Finalize
	// sets them.
	Profiles []ProfileResult `json:"profiles"`
	// StrictJUnit keeps junit.xml's and ctrf.json's older mapping, in
	// which every failed scenario is a failure and every errored one an
	// error, whether the gate fails on it or not (--strict-junit).
	StrictJUnit bool `json:"-"`
	// Apps are the app checks of the run (--app-traffic), one per
	// traffic report, in the order given. They never change Verdict.
	Apps []App `json:"apps,omitempty"`
}

// Mode says how much of the suite a run asked for. The zero Mode is a
// run of every scenario; only such a run can make a conformance report
// "conformant".
type Mode struct {
	// ReadOnly: the scenarios that change state were left out.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Tags is the tag expression that selected the scenarios, "" for all.
	Tags string `json:"tags,omitempty"`
	// Generated is the number of generated requests per operation sent
	// after the scenarios (0: none).
	Generated int `json:"generated,omitempty"`
	// GenerateSeed seeded the generated requests (when Generated > 0):
	// the same seed sends the same requests again.
	GenerateSeed int64 `json:"generateSeed,omitempty"`
	// Traffic: the report judges live traffic (campusconf proxy), not the
	// suite's scenarios.
	Traffic bool `json:"traffic,omitempty"`
}

// Implementation names the implementation under test, as a conformance
// report submitted to the platform owner names it (the fixture's
// "implementation" section, or run's --implementation flags).
type Implementation struct {
	Organization string   `json:"organization,omitempty" yaml:"organization"`
	Project      string   `json:"project,omitempty" yaml:"project"`
	Version      string   `json:"version,omitempty" yaml:"version"`
	URL          string   `json:"url,omitempty" yaml:"url"`
	Contact      []string `json:"contact,omitempty" yaml:"contact"`
}

// Tool identifies the program that produced the report, and the suite and
// specification it checked against (NewTool fills it in).
type Tool struct {
	Name string `json:"name"`
	// Version is the module version of the build: a release tag, a
	// pseudo-version, "devel" or "devel, built by go run" (version.Info).
	Version string `json:"version"`
	// Commit is the version control revision of the build, or "not
	// recorded";
	// Modified is true when it had uncommitted changes.
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// SuiteVersion is the version of the conformance suite, and SpecDigest
	// the SHA-256 digest ("sha256:…") of the specification text its
	// requirements were written from: two reports that agree on both
	// checked the same rules.
	SuiteVersion string `json:"suiteVersion,omitempty"`
	SpecDigest   string `json:"specDigest,omitempty"`
}

// Target says what was tested. Credentials never appear here.
type Target struct {
	// URL is the base URL, or "embedded simulator".
	URL string `json:"url"`
	// Seed is the simulator seed when the target is the embedded simulator.
	Seed *int64 `json:"seed,omitempty"`
	// Fixtures is the fixture file name, or "embedded".
	Fixtures string `json:"fixtures,omitempty"`
	// Image is the container image, when the run started one.
	Image string `json:"image,omitempty"`
	// Defects lists simulator defects switched on (kill-matrix runs).
	Defects []string `json:"defects,omitempty"`
}

// Counts summarise scenario outcomes and requirement results.
type Counts struct {
	Scenarios     int `json:"scenarios"`
	Passed        int `json:"passed"`
	Failed        int `json:"failed"`
	Skipped       int `json:"skipped"`
	NotConfigured int `json:"notConfigured"`
	// Errored counts the scenarios with outcome Error; Flaky those that
	// passed only after a read was sent again.
	Errored int `json:"errored"`
	Flaky   int `json:"flaky"`
	// SkippedBy counts the skipped scenarios by cause.
	SkippedBy SkipCounts `json:"skippedBy"`
	// StrictCounted is what --strict fails a run for: scenarios skipped
	// for a cause it counts, not configured, or errored.
	StrictCounted int `json:"strictCounted"`
	// Unsupported counts the scenarios of profiles the implementation
	// does not claim.
	Unsupported int `json:"unsupported"`
	// FailedMust and FailedShould count failed scenarios by the strictness
	// of the requirements they failed.
	FailedMust   int `json:"failedMust"`
	FailedShould int `json:"failedShould"`
	// Requirements: catalogue size, covered by at least one scenario that
	// ran, and of those, passing.
	Requirements        int `json:"requirements"`
	RequirementsCovered int `json:"requirementsCovered"`
	RequirementsPassing int `json:"requirementsPassing"`
	// RequirementsUnsupported: requirements only the scenarios of
	// unclaimed profiles list (result ResultUnsupported).
	RequirementsUnsupported int `json:"requirementsUnsupported"`
}

// Scenario is the result of one scenario (one example row of an outline).
type Scenario struct {
	// ID is stable across runs: feature file, line and example row.
	ID        string `json:"id"`
	Feature   string `json:"feature"`
	Name      string `json:"name"`
	Operation string `json:"operation"`
	// Kind is the rule kind: one of RuleKinds, or KindGenerated.
	Kind         Kind       `json:"kind"`
	Requirements []string   `json:"requirements"`
	Strictness   Strictness `json:"strictness"`
	Tags         []string   `json:"tags,omitempty"`
	Outcome      Outcome    `json:"outcome"`
	// SkipReason names the missing fixture key or the option that excluded
	// the scenario, or, for Unsupported, the profile not claimed.
	SkipReason string `json:"skipReason,omitempty"`
	// SkipCause sorts a skip by why nothing was judged (see SkipCause).
	SkipCause SkipCause `json:"skipCause,omitempty"`
	// Failure is set when Outcome is Failed, and when it is Error (then
	// with no requirement: it says which exchange got no answer and why).
	Failure  *Failure `json:"failure,omitempty"`
	Duration Duration `json:"durationMs"`
	// Exchanges are the HTTP exchanges of the scenario, in order, at most
	// MaxExchanges of them: past that, each new exchange takes the last
	// place, so the last one kept is always the last one made.
	Exchanges []Exchange `json:"exchanges,omitempty"`
	// ExchangesDropped counts the exchanges made but not kept.
	ExchangesDropped int `json:"exchangesDropped,omitempty"`
	// Retries counts the requests of the scenario sent a second time
	// after a transport error (reads only: GET and the E2 poll), each
	// retry an exchange of its own. Flaky is true when the scenario passed
	// only thanks to such a retry.
	Retries int  `json:"retries,omitempty"`
	Flaky   bool `json:"flaky,omitempty"`
}

// Stopped says how a run ended when its target stopped answering.
type Stopped struct {
	// LastAnswer is when the target last answered HTTP (the run's start
	// when it never did); Since is the first transport error of the run
	// of errors that stopped it.
	LastAnswer time.Time `json:"lastAnswer"`
	Since      time.Time `json:"since"`
	// After is the time from the run's start to the stop.
	After Duration `json:"afterMs"`
	// Errors is the number of transport errors in that run of errors.
	Errors int `json:"errors"`
	// Why is the rule that stopped the run, such as "5 transport errors
	// in a row" or "no answer for 10s".
	Why string `json:"why"`
}

// Failure explains a failed scenario in one read.
type Failure struct {
	// Requirements are the ids the failing check belongs to (a scenario's
	// own requirement, or a cross-cutting one such as the error body form).
	Requirements []string `json:"requirements"`
	Step         string   `json:"step"`
	Message      string   `json:"message"`
	Expected     string   `json:"expected,omitempty"`
	Got          string   `json:"got,omitempty"`
	// Exchange is the index in Exchanges of the request the check is
	// about, or -1.
	Exchange int `json:"exchange"`
	// Curl reproduces that request, credentials replaced by placeholders.
	Curl string `json:"curl,omitempty"`
}

// Exchange is one HTTP request and its response, secrets redacted and
// bodies cut at MaxBody bytes.
type Exchange struct {
	Method          string            `json:"method"`
	URL             string            `json:"url"`
	RequestHeaders  map[string]string `json:"requestHeaders,omitempty"`
	RequestBody     string            `json:"requestBody,omitempty"`
	Status          int               `json:"status"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`
	ResponseBody    string            `json:"responseBody,omitempty"`
	// Truncated is true when a body was cut.
	Truncated bool `json:"truncated,omitempty"`
	// ResponseHeadersDropped counts response header fields not kept, past
	// MaxHeaders names or MaxHeaderValue bytes of one value.
	ResponseHeadersDropped int `json:"responseHeadersDropped,omitempty"`
	// Error is the transport error when no response came back.
	Error    string   `json:"error,omitempty"`
	Duration Duration `json:"durationMs"`
}

// Bounds of what a report keeps of a target's answers, whatever it sends.
const (
	// MaxBody is the number of body bytes kept per exchange.
	MaxBody = 16 << 10
	// MaxExchanges is the number of exchanges kept per scenario.
	MaxExchanges = 50
	// MaxHeaders is the number of header names kept per response.
	MaxHeaders = 64
	// MaxHeaderValue is the number of bytes kept of one header value.
	MaxHeaderValue = 1 << 10
	// MaxHeaderBytes is the number of header value bytes kept per
	// response, all names together.
	MaxHeaderBytes = 8 << 10
	// MaxKept is the number of body and header bytes a run keeps in its
	// exchanges, all scenarios together. Past it, each body keeps
	// LeanBody bytes and each response LeanHeaders header names.
	MaxKept     = 16 << 20
	LeanBody    = 512
	LeanHeaders = 16
	// MaxReportFile is the size of each report file. A report that would
	// be larger is written with its exchanges cut down (see Notes).
	MaxReportFile = 16 << 20
)

// Result is the result of one requirement in a run. The set is closed.
type Result string

// Results of a requirement.
const (
	ResultPassed Result = "passed"
	ResultFailed Result = "failed"
	ResultNotRun Result = "not run"
	// ResultUnsupported: every scenario listing the requirement was
	// Unsupported (its operation's profile is not claimed).
	ResultUnsupported Result = "unsupported"
)

// Kind is the rule kind of a requirement and of the scenarios that check
// it: rules.Kind, named here for the report's readers.
type Kind = rules.Kind

// Rule kinds: those of package rules.
const (
	KindStatus     = rules.KindStatus
	KindShape      = rules.KindShape
	KindEnumRange  = rules.KindEnumRange
	KindTransition = rules.KindTransition
	KindPermission = rules.KindPermission
	KindDefault    = rules.KindDefault
	KindAuth       = rules.KindAuth
	KindErrorForm  = rules.KindErrorForm
	KindQuery      = rules.KindQuery
	// KindGenerated: a property that generated requests check
	// (generate) rather than a scenario.
	KindGenerated = rules.KindGenerated
)

// RuleKinds are the rule kinds of scenarios and requirements, in the order
// the HTML matrix shows them (rules.RuleKinds). A kind outside this list
// (KindGenerated) still shows, after these.
var RuleKinds = rules.RuleKinds

// Requirement is one catalogue entry with its result in this run.
type Requirement struct {
	ID         string     `json:"id"`
	Operation  string     `json:"operation"`
	Kind       Kind       `json:"kind"`
	Strictness Strictness `json:"strictness"`
	Section    string     `json:"section"`
	Text       string     `json:"text"`
	// Result: ResultPassed, ResultFailed, ResultNotRun (no scenario
	// reached a conclusion on it) or ResultUnsupported. Finalize sets it.
	Result Result `json:"result"`
	// Scenarios are the ids of the scenarios that list the requirement or
	// whose failure names it, in report order. Finalize sets it.
	Scenarios []string `json:"scenarios,omitempty"`
}

// OpenPoint is a matter the specification leaves open, with how the suite
// treats it.
type OpenPoint struct {
	ID        string `json:"id"`
	Section   string `json:"section"`
	Topic     string `json:"topic"`
	Treatment string `json:"treatment"`
}

// Duration is a time.Duration written as milliseconds in JSON.
type Duration time.Duration

// MarshalJSON writes d as a number of milliseconds.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(float64(time.Duration(d))/float64(time.Millisecond), 'f', 3, 64)), nil
}

// UnmarshalJSON reads a number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("duration: want milliseconds, got %s", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// RateLimits are the figures of a run paced by the target's rate limits
// (internal/pace): the answers waited out (429, or 503 with Retry-After)
// and the time the run was held by them. An answer waited out is never a
// verdict; the request was sent again.
type RateLimits struct {
	// Answers is the number of rate-limited answers waited out.
	Answers int `json:"answers"`
	// Requests is the number of requests the run sent, those limited
	// included (0 when not counted: the proxy sends none).
	Requests int `json:"requests,omitempty"`
	// Waited is the wall time requests were held waiting for a
	// Retry-After to pass.
	Waited Duration `json:"waitedMs"`
	// Rate is the cap of --rate, requests per second ("" without one).
	Rate string `json:"rate,omitempty"`
}

// String says the figures in a line, as the console and every report
// give them.
func (l *RateLimits) String() string {
	s := fmt.Sprintf("%d rate-limited answer", l.Answers)
	if l.Answers != 1 {
		s += "s"
	}
	if l.Requests == 0 && l.Waited == 0 && l.Rate == "" {
		return s + " forwarded, not judged" // the proxy: the app waits
	}
	if l.Requests > 0 {
		s += fmt.Sprintf(" (of %d requests)", l.Requests)
	}
	s += fmt.Sprintf(" waited out, %s spent waiting", time.Duration(l.Waited).Round(time.Millisecond))
	if l.Rate != "" {
		s += ", requests capped at " + l.Rate
	}
	return s
}
