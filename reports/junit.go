package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// junitBodyLimit caps the response body quoted in a JUnit failure: CI
// systems show the text inline, and the full body is in report.json.
const junitBodyLimit = 4 << 10

// junitTally is what <testsuites> and each <testsuite> say of
// themselves, in the same attributes: a name, the counts and the time.
type junitTally struct {
	Name      string `xml:"name,attr"`
	Tests     int    `xml:"tests,attr"`
	Failures  int    `xml:"failures,attr"`
	Errors    int    `xml:"errors,attr"`
	Skipped   int    `xml:"skipped,attr"`
	Time      string `xml:"time,attr"`
	Timestamp string `xml:"timestamp,attr,omitempty"`
}

// add counts the cases of u in t as well.
func (t *junitTally) add(u junitTally) {
	t.Tests += u.Tests
	t.Failures += u.Failures
	t.Errors += u.Errors
	t.Skipped += u.Skipped
}

type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	junitTally
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	junitTally
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name       string          `xml:"name,attr"`
	Classname  string          `xml:"classname,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitFailure   `xml:"failure,omitempty"`
	Error      *junitFailure   `xml:"error,omitempty"`
	Skipped    *junitSkipped   `xml:"skipped,omitempty"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes r as JUnit XML (junit.xml): one <testsuite> per
// operation in natural order, one <testcase> per scenario named by the
// scenario name, classname the operation. A failed scenario carries a
// <failure> whose type is the strictness of what it failed (MUST or
// SHOULD) and whose text gives expected, got and the curl line; an errored
// one (no HTTP answer) an <error> of type "transport" — each only where
// the gate fails on it, else in the form consumers do not count (see
// NotCounted); skipped and not
// configured scenarios carry <skipped> with the reason (and cause). A
// flaky scenario has the properties flaky and retries. Names that repeat
// within a suite (rows of one outline) get the scenario id appended, so CI
// systems show each row. Every suite carries the verdict and its headline
// (Headline) as properties; a verdict the counted scenarios do not show
// (inconclusive, --strict) adds one case saying so. r should be finalized.
func WriteJUnit(w io.Writer, r *Report) error {
	gv := gateViewOf(r)
	strict := gv.strict
	ts := ""
	if !r.Started.IsZero() {
		ts = r.Started.UTC().Format("2006-01-02T15:04:05")
	}
	props := []junitProperty{
		{"verdict", string(r.Verdict)},
		{"verdictCause", string(r.VerdictCause)},
		{"headline", xmlText(Headline(r))},
		{"target", xmlText(r.Target.URL)},
		{"tool", xmlText(strings.TrimSpace(r.Tool.Name + " " + toolBuild(r.Tool)))},
		{"suiteVersion", xmlText(r.Tool.SuiteVersion)},
		{"schema", r.Schema},
	}
	if r.Interrupted {
		props = append(props, junitProperty{"interrupted", "true"})
	}
	if r.Reason != "" {
		props = append(props, junitProperty{"reason", xmlText(r.Reason)})
	}
	if r.RateLimits != nil {
		props = append(props, junitProperty{"rateLimits", xmlText(r.RateLimits.String())})
	}
	for _, n := range r.Notes {
		props = append(props, junitProperty{"note", xmlText(n)})
	}
	out := junitSuites{junitTally: junitTally{Name: "campusconf", Timestamp: ts, Time: seconds(r.Duration)}}
	for _, g := range groupByOperation(r.Scenarios) {
		suite := junitSuite{junitTally: junitTally{Name: operationLabel(g.Operation), Timestamp: ts}, Properties: props}
		names := map[string]int{}
		for _, s := range g.Scenarios {
			names[s.Name]++
		}
		var total Duration
		for _, s := range g.Scenarios {
			total += max(s.Duration, 0)
			c := junitCase{Name: xmlText(s.Name), Classname: xmlText(operationLabel(s.Operation)), Time: seconds(s.Duration)}
			if names[s.Name] > 1 || s.Name == "" {
				c.Name = xmlText(strings.TrimSpace(s.Name + " [" + s.ID + "]"))
			}
			counted, why := gv.counted(s)
			switch s.Outcome {
			case Failed, Error:
				f := junitFailureOf(s, strict)
				if s.Outcome == Error {
					f = junitErrorOf(s)
				}
				switch {
				case !counted:
					suite.Skipped++
					c.Skipped = &junitSkipped{Message: xmlText(notCountedMessage(why, f.Message))}
					c.SystemOut = f.Body
				case s.Outcome == Failed:
					suite.Failures++
					c.Failure = f
				default:
					suite.Errors++
					c.Error = f
				}
			case Skipped, NotConfigured, Unsupported:
				suite.Skipped++
				msg := string(s.Outcome)
				if s.SkipCause != "" {
					msg += " (" + string(s.SkipCause) + ")"
				}
				if s.SkipReason != "" {
					msg += ": " + s.SkipReason
				}
				c.Skipped = &junitSkipped{Message: xmlText(msg)}
			}
			if s.Flaky {
				c.Properties = append(c.Properties, junitProperty{"flaky", "true"})
			}
			if s.Retries > 0 {
				c.Properties = append(c.Properties, junitProperty{"retries", strconv.Itoa(s.Retries)})
			}
			suite.Tests++
			suite.Cases = append(suite.Cases, c)
		}
		suite.Time = seconds(total)
		out.add(suite.junitTally)
		out.Suites = append(out.Suites, suite)
	}
	if name, why, isError, ok := gv.runCase(); ok {
		// a verdict the counted scenarios do not show: one case says why
		one := junitTally{Name: "campusconf", Tests: 1, Time: seconds(r.Duration), Timestamp: ts}
		c := junitCase{Name: name, Classname: "campusconf", Time: seconds(r.Duration)}
		f := &junitFailure{Message: xmlText(oneLine(why)), Type: string(r.VerdictCause), Body: xmlText(why)}
		if isError {
			one.Errors, c.Error = 1, f
		} else {
			one.Failures, f.Type, c.Failure = 1, string(r.Verdict), f
		}
		if r.VerdictCause == InconclusiveStopped {
			f.Type = "stopped"
		}
		out.add(one)
		out.Suites = append(out.Suites, junitSuite{junitTally: one, Properties: props, Cases: []junitCase{c}})
	} else if r.StrictJUnit && r.VerdictCause == InconclusiveStopped {
		one := junitTally{Name: "campusconf", Tests: 1, Errors: 1, Time: seconds(r.Duration), Timestamp: ts}
		out.add(one)
		out.Suites = append(out.Suites, junitSuite{
			junitTally: one, Properties: props,
			Cases: []junitCase{{Name: "target answering", Classname: "campusconf", Time: seconds(r.Duration),
				Error: &junitFailure{Message: xmlText(oneLine(r.VerdictReason)), Type: "stopped", Body: xmlText(r.VerdictReason)}}},
		})
	}
	if r.Verdict == VerdictInconclusive && r.VerdictCause == InconclusiveUnreachable {
		// nothing ran: one errored case says why, so CI shows a red test
		// rather than an empty suite
		one := junitTally{Name: "campusconf", Tests: 1, Errors: 1, Time: seconds(r.Duration), Timestamp: ts}
		out.Errors, out.Tests = one.Errors, one.Tests
		out.Suites = []junitSuite{{
			junitTally: one, Properties: props,
			Cases: []junitCase{{Name: "target reachable", Classname: "campusconf", Time: seconds(r.Duration),
				Error: &junitFailure{Message: xmlText(oneLine(r.Reason)), Type: "unreachable", Body: xmlText(r.Reason)}}},
		}}
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit.xml: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write junit.xml: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write junit.xml: %w", err)
	}
	return nil
}

// junitErrorOf is the <error> of a scenario whose exchange got no HTTP
// answer: the step, the request and the transport error.
func junitErrorOf(s Scenario) *junitFailure {
	f, msg := failureOf(s, "no HTTP answer")
	var b strings.Builder
	line := textLines(&b)
	line("step", f.Step)
	line("message", f.Message)
	if ex, ok := failureExchange(s); ok {
		line("request", ex.Method+" "+ex.URL)
		line("error", ex.Error)
	}
	line("curl", curlOf(s))
	return &junitFailure{Message: xmlText(msg), Type: "transport", Body: xmlText(b.String())}
}

// failureOf is the failure of s (an empty one when it has none) and its
// message in one line, fallback when it has none.
func failureOf(s Scenario, fallback string) (*Failure, string) {
	f := s.Failure
	if f == nil {
		f = &Failure{Exchange: -1}
	}
	msg := oneLine(f.Message)
	if msg == "" {
		msg = fallback
	}
	return f, msg
}

// textLines returns a writer of "key: value" lines to b that leaves out
// empty values.
func textLines(b *strings.Builder) func(k, v string) {
	return func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "%s: %s\n", k, v)
		}
	}
}

func junitFailureOf(s Scenario, strict map[string]Strictness) *junitFailure {
	failed := FailedRequirements(s)
	kind := Should
	if failedMust(s, failed, strict) {
		kind = Must
	}
	f, msg := failureOf(s, "failed")
	var b strings.Builder
	line := textLines(&b)
	line("requirements", strings.Join(failed, ", "))
	line("step", f.Step)
	line("message", f.Message)
	line("expected", f.Expected)
	line("got", f.Got)
	if ex, ok := failureExchange(s); ok {
		line("request", ex.Method+" "+ex.URL)
		if ex.Error != "" {
			line("error", ex.Error)
		} else {
			line("status", strconv.Itoa(ex.Status))
		}
		if ex.ResponseBody != "" {
			body, cut := ex.ResponseBody, ex.Truncated
			if len(body) > junitBodyLimit {
				body, cut = truncateString(body, junitBodyLimit), true
			}
			if cut {
				body += "\n[body cut; the full recorded body is in report.json]"
			}
			b.WriteString("response body:\n" + body + "\n")
		}
	}
	line("curl", curlOf(s))
	return &junitFailure{Message: xmlText(msg), Type: string(kind), Body: xmlText(b.String())}
}

// failureExchange returns the exchange a failure is about: the one it
// points at, else the scenario's last.
func failureExchange(s Scenario) (Exchange, bool) {
	i := failureExchangeIndex(s)
	if i < 0 {
		return Exchange{}, false
	}
	return s.Exchanges[i], true
}

// failureExchangeIndex is the index of the exchange failureExchange
// returns, or -1 when the scenario has none.
func failureExchangeIndex(s Scenario) int {
	if s.Failure != nil && s.Failure.Exchange >= 0 && s.Failure.Exchange < len(s.Exchanges) {
		return s.Failure.Exchange
	}
	return len(s.Exchanges) - 1
}

// curlOf returns the curl line of a failure: the one recorded, else one
// built from the exchange the failure is about.
func curlOf(s Scenario) string {
	if s.Failure != nil && s.Failure.Curl != "" {
		return s.Failure.Curl
	}
	if ex, ok := failureExchange(s); ok {
		return Curl(ex)
	}
	return ""
}

// truncateString cuts s to at most n bytes on a UTF-8 boundary.
func truncateString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// xmlText removes what XML 1.0 cannot carry (control characters other
// than tab, newline and carriage return, U+FFFE, U+FFFF, surrogates) and
// replaces invalid UTF-8 with U+FFFD, as in every format. encoding/xml
// would write U+FFFD for the former in attributes and character data, and
// writes CDATA as given.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0xFFFE && r <= 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// seconds writes d in seconds with millisecond precision, never negative.
func seconds(d Duration) string {
	return strconv.FormatFloat(max(time.Duration(d), 0).Seconds(), 'f', 3, 64)
}

// oneLine collapses runs of white space, newlines included, to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// operationGroup is the scenarios of one operation, in report order.
type operationGroup struct {
	Operation string
	Scenarios []Scenario
}

// groupByOperation groups scenarios by operation in natural operation order.
func groupByOperation(scenarios []Scenario) []operationGroup {
	var groups []operationGroup
	index := map[string]int{}
	for _, s := range scenarios {
		i, ok := index[s.Operation]
		if !ok {
			i = len(groups)
			index[s.Operation] = i
			groups = append(groups, operationGroup{Operation: s.Operation})
		}
		groups[i].Scenarios = append(groups[i].Scenarios, s)
	}
	slices.SortStableFunc(groups, func(a, b operationGroup) int { return CompareOperations(a.Operation, b.Operation) })
	return groups
}

// operationLabel names the operation of a cross-cutting scenario or
// requirement, which has none.
func operationLabel(op string) string {
	if op == "" {
		return "general"
	}
	return op
}
