package steps

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// A run's setup symptoms are read when it ends, from every answer and
// every scenario's outcome, so that they do not depend on the order the
// scenarios ran in. Each names a mistake of the fixture that explains the
// failures beside it; any makes the verdict inconclusive (setup), exit 2
// (docs/reports.md, "Setup mistakes"):
//
//   - credentials: of the answers to one fixture user in scenarios that
//     expected success (none checking a refusal: ALL.key, ALL.key-unknown,
//     ALL.forbidden, E4.403, E5.403; the fixture's own key sent; an
//     operation the fixture does not forbid the user), at least
//     symptomMinAnswers, most were 401 or 403;
//   - placement: every answer to an operation the fixture places (at
//     least two) was 404 or 405; or every answer of the run (at least
//     symptomMinAnswers) was 404, a wrong base URL;
//   - second factor: E1 refused the fixture's password (E1.200 failed
//     with the answer E1.reject passed with);
//   - second factor: E2's approve and deny outcomes exactly swapped
//     (E2.approve polled "7002", E2.deny "0000").
//
// A 404 of a placed operation alone stays a failure of the
// implementation.

// symptomMinAnswers is the fewest answers a symptom of a user or of the
// whole run is read from.
const symptomMinAnswers = 4

// heard is one answer of a scenario, as the symptoms read it.
type heard struct {
	op     registry.OpID
	user   string
	status int
	// ownKey: the request carried the fixture's subscription key
	ownKey bool
	// requirements are those of the answer's scenario
	requirements []string
}

// refusalChecks are the requirements whose scenarios expect a refusal.
var refusalChecks = []string{"ALL.key", "ALL.key-unknown", "ALL.forbidden", "E4.403", "E5.403"}

// callerName is the fixture user a request is sent as: name, or the
// default one.
func callerName(name string) string {
	if name == "" {
		return defaultUser
	}
	return name
}

// setupSymptoms reads the symptoms of setup mistakes from a run's answers
// and results, each a line saying what to fix.
func (e *env) setupSymptoms(results []reports.Scenario) []string {
	var out []string
	refused, total := map[string]int{}, map[string]int{}
	opAll404, opN := map[registry.OpID]bool{}, map[registry.OpID]int{}
	all404, n := true, 0
	for _, a := range e.answers {
		n++
		all404 = all404 && a.status == http.StatusNotFound
		if o, ok := registry.Lookup(string(a.op)); ok && !o.Placed {
			if _, seen := opAll404[a.op]; !seen {
				opAll404[a.op] = true
			}
			opAll404[a.op] = opAll404[a.op] && (a.status == http.StatusNotFound || a.status == http.StatusMethodNotAllowed)
			opN[a.op]++
		}
		if !a.ownKey || e.forbids(a.user, a.op) || slices.ContainsFunc(a.requirements, func(id string) bool { return slices.Contains(refusalChecks, id) }) {
			continue
		}
		total[a.user]++
		if a.status == http.StatusUnauthorized || a.status == http.StatusForbidden {
			refused[a.user]++
		}
	}
	if all404 && n >= symptomMinAnswers {
		return []string{fmt.Sprintf("placement: every answer of the run was 404 (%d answers): the target URL is wrong (campusconf run --target)", n)}
	}
	for _, u := range slices.Sorted(mapsKeys(total)) {
		if t := total[u]; t >= symptomMinAnswers && 2*refused[u] > t {
			out = append(out, fmt.Sprintf("credentials: %d of %d answers to fixture user %q were 401 or 403 in scenarios expecting success: correct users.%s (its headers) or subscriptionKey in the fixture",
				refused[u], t, u, u))
		}
	}
	for _, o := range registry.All() {
		op := o.ID
		placed, ok := e.cfg.Fixture.Operations[string(op)]
		if ok && opAll404[op] && opN[op] >= 2 {
			out = append(out, fmt.Sprintf("placement: every call to operations.%s (%s %s) answered 404 or 405 (%d calls): correct its method and path in the fixture",
				op, strings.ToUpper(placed.Method), placed.Path, opN[op]))
		}
	}
	by := map[string]reports.Scenario{}
	for _, s := range results {
		for _, id := range s.Requirements {
			if _, seen := by[id]; !seen {
				by[id] = s
			}
		}
	}
	if ok, rej := by["E1.200"], by["E1.reject"]; ok.Outcome == reports.Failed && rej.Outcome == reports.Passed {
		a, b := lastExchange(ok), lastExchange(rej)
		if a.Status == b.Status && gjson.Get(a.ResponseBody, "status").String() == gjson.Get(b.ResponseBody, "status").String() {
			out = append(out, fmt.Sprintf("second factor: E1 refused the fixture's one-time password as it refuses a wrong one (%d): correct secondFactor.totpSecret (or secondFactor.userid) in the fixture", a.Status))
		}
	}
	if ap, de := by["E2.approve"], by["E2.deny"]; ap.Outcome == reports.Failed && de.Outcome == reports.Failed {
		if gjson.Get(lastExchange(ap).ResponseBody, "status").String() == "7002" && gjson.Get(lastExchange(de).ResponseBody, "status").String() == "0000" {
			out = append(out, "second factor: E2's approve and deny outcomes are exactly swapped: exchange secondFactor.approvingUser and secondFactor.denyingUser in the fixture")
		}
	}
	return out
}

// lastExchange is a scenario's last exchange, or none.
func lastExchange(s reports.Scenario) reports.Exchange {
	if len(s.Exchanges) == 0 {
		return reports.Exchange{}
	}
	return s.Exchanges[len(s.Exchanges)-1]
}

func mapsKeys(m map[string]int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
