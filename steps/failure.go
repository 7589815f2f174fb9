package steps

import (
	"errors"
	"fmt"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
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

// skip is returned by a step that cannot run for want of a fixture value or
// an unplaced operation's placement, and by the start of a scenario of a
// profile the fixture does not claim. It wraps godog.ErrSkip.
type skip struct {
	notConfigured bool
	// unsupported: op is of a profile the fixture does not claim
	unsupported bool
	op          string
	reason      string
}

func (e *skip) Error() string { return e.reason }

func (e *skip) Unwrap() error { return errSkip }

// missing says that the fixture lacks key.
func missing(key string) error {
	return &skip{reason: "fixture key " + key + " is missing"}
}

// notPlaced says that the fixture does not place an operation.
func notPlaced(opID, key string) error {
	return &skip{notConfigured: true, reason: fmt.Sprintf("%s is not configured: the fixture has no operations.%s", opID, key)}
}

// unsupportedSkip says that the fixture does not claim the profile of op:
// the scenario is not run.
func unsupportedSkip(op string, f *fixtures.File) error {
	p, _ := registry.ProfileOf(op)
	claims := "it claims " + strings.Join(f.Implements, ", ")
	return &skip{unsupported: true, op: op, reason: fmt.Sprintf("%s is in profile %s, which the fixture does not claim (%s): nothing sent", op, p, claims)}
}

func asSkip(err error) (*skip, bool) {
	var s *skip
	ok := errors.As(err, &s)
	return s, ok
}
