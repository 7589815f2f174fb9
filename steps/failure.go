package steps

import (
	"errors"
	"fmt"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// Failure is a failed check. It names the requirements it belongs to, so a
// report can say which rule broke, and carries what was expected and what
// came back.
type Failure struct {
	// Requirements the failed check belongs to. Empty means "the
	// scenario's own requirements".
	Requirements []string
	Expected     string
	Got          string
	// Detail is an optional explanation (e.g. schema problems).
	Detail string
	// Exchange is the index of the exchange the check is about, -1 if none.
	Exchange int
}

func (f *Failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "expected %s, got %s", f.Expected, f.Got)
	if f.Detail != "" {
		b.WriteString("\n")
		b.WriteString(f.Detail)
	}
	return b.String()
}

// fail builds a Failure about the last exchange of s.
func (s *state) fail(reqs []string, expected, got string, detail ...string) *Failure {
	return &Failure{Requirements: reqs, Expected: expected, Got: got, Detail: strings.Join(detail, "\n"), Exchange: len(s.exchanges) - 1}
}

// skip is returned by a step that cannot judge: for want of a fixture
// value or an unplaced operation's placement, because what it checks could
// not be observed, because the run is read-only, or because a bound of the
// runner stops it; and by the start of a scenario of a profile the fixture
// does not claim. It wraps godog.ErrSkip.
type skip struct {
	notConfigured bool
	// unsupported: op is of a profile the fixture does not claim
	unsupported bool
	op          registry.OpID
	reason      string
	// cause sorts the skip for the report (reports.SkipCause).
	cause reports.SkipCause
}

func (e *skip) Error() string { return e.reason }

func (e *skip) Unwrap() error { return errSkip }

// missing says that the fixture lacks key.
func missing(key string) error {
	return &skip{reason: "fixture key " + key + " is missing", cause: reports.CauseFixture}
}

// fixtureShort says that a record the fixture names cannot serve the check
// (too few entries, too few items).
func fixtureShort(format string, args ...any) error {
	return &skip{reason: fmt.Sprintf(format, args...), cause: reports.CauseFixture}
}

// notPlaced says that the fixture does not place an operation.
func notPlaced(opID registry.OpID, key string) error {
	return &skip{notConfigured: true, reason: fmt.Sprintf("%s is not configured: the fixture has no operations.%s", opID, key), cause: reports.CauseFixture}
}

// unobservable says that what a check reads was not there to read: an
// optional field left out, an answer without a body, a list the
// implementation caps. Leaving it out is the implementation's right, so
// the check is skipped, never passed (and --strict does not count it).
func unobservable(format string, args ...any) error {
	return &skip{reason: fmt.Sprintf(format, args...), cause: reports.CauseUnobservable}
}

// runnerLimit says that a bound of the runner stopped the check.
func runnerLimit(format string, args ...any) error {
	return &skip{reason: fmt.Sprintf(format, args...), cause: reports.CauseRunnerLimit}
}

// unsupportedSkip says that the fixture does not claim the profile of op:
// the scenario is not run.
func unsupportedSkip(op registry.OpID, f *fixtures.File) error {
	p, _ := registry.ProfileOf(string(op))
	claims := "it claims " + strings.Join(f.Implements, ", ")
	return &skip{unsupported: true, op: op, reason: fmt.Sprintf("%s is in profile %s, which the fixture does not claim (%s): nothing sent", op, p, claims)}
}

func asSkip(err error) (*skip, bool) {
	var s *skip
	ok := errors.As(err, &s)
	return s, ok
}

// noAnswer is the error of a step whose request got no HTTP answer: the
// connection was refused or reset, the exchange timed out, TLS failed, or
// the body broke off. It makes the scenario an error, never a failure.
type noAnswer struct {
	// what names the request ("GET /files/…/downloaded").
	what string
	err  string
	// retried is true when the request was a read sent a second time,
	// with no answer either.
	retried bool
}

func (e *noAnswer) Error() string {
	if e.retried {
		return "no HTTP answer to " + e.what + ", and none on the retry: " + e.err
	}
	return "no HTTP answer to " + e.what + ": " + e.err
}

// waitedOut is the error of a step whose request got rate-limited answers
// (429, or 503 with Retry-After) past the runner's waits (internal/pace):
// nothing was judged, so the scenario is an error, never a failure.
type waitedOut struct {
	what string
	err  error
}

func (e *waitedOut) Error() string { return e.what + ": " + e.err.Error() }

func (e *waitedOut) Unwrap() error { return e.err }

// ended is the error of a step that could not finish because the run
// ended first: its budget ran out, it was interrupted, or the target
// stopped answering. The scenario is skipped, cause cut-short.
type ended struct{ why string }

func (e *ended) Error() string { return "not finished: the run ended first (" + e.why + ")" }
