package generate

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/rules"
)

// Property is a property every answer to a generated request must have.
// Its value is the id of its requirement in the catalogue (kind
// "generated").
type Property string

// The properties, in report order.
const (
	// NoServerError: a valid request never gets a 5xx.
	NoServerError Property = "GEN.no-5xx"
	// InvalidRefused: a request breaking a rule the specification states
	// (a uuid or date-time format, a required member, a stated range) is
	// refused with a 4xx.
	InvalidRefused Property = "GEN.invalid-refused"
	// InvalidUnchanged: a refused request changes nothing a read shows.
	InvalidUnchanged Property = "GEN.invalid-unchanged"
	// InvalidRefusedShould: a request breaking a rule that follows from a
	// declared type or list (a JSON type, an int32 paging value, a populate
	// entity) is refused with a 4xx.
	InvalidRefusedShould Property = "GEN.invalid-refused-should"
	// StatusListed: the status is one the operation lists.
	StatusListed Property = "GEN.status-listed"
	// Shape: a success body passes the shape validation.
	Shape Property = "GEN.shape"
	// ErrorBody: an error body is a JSON string.
	ErrorBody Property = "GEN.error-body"
	// RepeatableRead: the same GET twice gives the same answer.
	RepeatableRead Property = "GEN.repeatable-read"
)

// Properties lists every property, in report order.
var Properties = []Property{NoServerError, InvalidRefused, InvalidUnchanged, InvalidRefusedShould, StatusListed, Shape, ErrorBody, RepeatableRead}

// failure is one property an answer breaks.
type failure struct {
	prop          Property
	expected, got string
}

// notChecked are statuses the status-listed property lets pass: the
// catalogue's open points leave the status of a refused credential (401)
// and of an absent record where 404 is not listed to the implementation.
var notChecked = map[int]bool{http.StatusUnauthorized: true, http.StatusNotFound: true}

// check returns every property out breaks.
func (ru *runner) check(s *opSpec, out outcome) []failure {
	var fs []failure
	st := out.ex.Status
	bad := out.req.Bad
	if out.kind != answered {
		return nil // no answer, or one past the runner's bound: nothing to judge
	}
	switch {
	case st == http.StatusServiceUnavailable && s.lists(st):
		// an outage the operation documents (the second-factor service
		// out of reach) says nothing about the request
	case bad == nil && st >= 500:
		fs = append(fs, failure{NoServerError, "a valid request answered without a server error (below 500)", fmt.Sprintf("%d %s", st, clip(out.ex.ResponseBody))})
	case bad != nil && !rules.ClientError(st):
		p := InvalidRefusedShould
		if bad.Must {
			p = InvalidRefused
		}
		fs = append(fs, failure{p, fmt.Sprintf("a 4xx refusal of a request with a %s (%s)", bad.What, bad.Where), fmt.Sprintf("%d %s", st, clip(out.ex.ResponseBody))})
	}
	if !s.lists(st) && !notChecked[st] {
		fs = append(fs, failure{StatusListed, fmt.Sprintf("one of the statuses %s lists (%s)", s.id, statusList(s.statuses)), fmt.Sprint(st)})
	}
	if st >= 200 && st < 300 && s.lists(st) {
		var problems []string
		for _, p := range ru.validator.Check(string(s.id), st, out.raw) {
			if p.Rule != rules.RuleStatus {
				problems = append(problems, p.String())
			}
		}
		if len(problems) > 0 {
			if len(problems) > 3 {
				problems = append(problems[:3], fmt.Sprintf("and %d more", len(problems)-3))
			}
			fs = append(fs, failure{Shape, fmt.Sprintf("a %d body of %s as the document describes it", st, s.id), strings.Join(problems, "; ")})
		}
	}
	if b := rules.ErrorBody(st, out.raw); b != nil {
		fs = append(fs, failure{ErrorBody, b.Expected, clip(out.ex.ResponseBody)})
	}
	if out.second != nil && (out.second.Status != st || !sameRecords(s.id, out.raw, out.secondRaw, nil)) {
		fs = append(fs, failure{RepeatableRead, fmt.Sprintf("the same answer to the same GET sent twice: %d %s", st, clip(out.ex.ResponseBody)),
			fmt.Sprintf("%d %s", out.second.Status, clip(out.second.ResponseBody))})
	}
	return fs
}

// applies lists the properties out was checked against, for the counts.
func (ru *runner) applies(req Request, out outcome) []Property {
	st := out.ex.Status
	ps := []Property{StatusListed}
	if st == 0 {
		ps = nil
	}
	switch {
	case req.Bad == nil:
		ps = append(ps, NoServerError)
	case req.Bad.Must:
		ps = append(ps, InvalidRefused)
	default:
		ps = append(ps, InvalidRefusedShould)
	}
	if st >= 200 && st < 300 {
		ps = append(ps, Shape)
	}
	if st >= 400 {
		ps = append(ps, ErrorBody)
	}
	if out.second != nil {
		ps = append(ps, RepeatableRead)
	}
	return ps
}

func statusList(sts []int) string {
	parts := make([]string, len(sts))
	for i, s := range sts {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, ", ")
}

// clip shortens a text of an answer for a failure message. It takes the
// exchange's body, which is redacted before it is cut, never the raw one:
// a cut through a secret would leave a part of it no redactor finds.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

func failsProp(fs []failure, p Property) (failure, bool) {
	for _, f := range fs {
		if f.prop == p {
			return f, true
		}
	}
	return failure{}, false
}
