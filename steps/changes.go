package steps

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
)

// Change is what the destructive scenarios of one operation do to the
// target: the fixture records they delete or change (or, with none, that
// they add records or have an effect outside the service).
type Change struct {
	Op      registry.OpID
	Name    string
	Deletes bool
	Records []string
}

// Changes lists, in registry order, the operations whose destructive
// scenarios a run with the tag expression tags (either form, see
// CheckTags) selects against an implementation described by f (which
// leaves out the profiles it does not claim; nil: all), with what they use
// up; a read-only run selects none, and the caller knows whether the run
// is read-only. The selection is read
// at the level of operations: an expression naming single requirement ids
// may select fewer scenarios than it lists.
func Changes(tags string, f *fixtures.File) ([]Change, error) {
	expr, err := godogTags(tags)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, o := range registry.All() {
		if !o.Destructive || !selects(expr, o.ID) || f != nil && !f.Supports(string(o.ID)) {
			continue
		}
		c := Change{Op: o.ID, Name: o.Name, Deletes: o.Method == http.MethodDelete}
		for _, r := range o.Records {
			c.Records = append(c.Records, "records."+r)
		}
		out = append(out, c)
	}
	return out, nil
}

// selects reports whether a godog tag expression (a conjunction of
// disjunctions) may select a destructive scenario of op: a literal naming
// op, one of its requirements or @destructive holds, a literal naming
// anything else does not, and a negated one holds unless it names op or
// @destructive.
func selects(expr string, op registry.OpID) bool {
	if expr == "" {
		return true
	}
	mine := func(tag string) bool {
		return tag == string(op) || tag == "destructive" || strings.HasPrefix(tag, op.Requirement("."))
	}
	for _, and := range strings.Split(expr, "&&") {
		any := false
		for _, lit := range strings.Split(and, ",") {
			lit = strings.TrimSpace(lit)
			neg := strings.HasPrefix(lit, "~")
			tag := strings.TrimPrefix(strings.TrimPrefix(lit, "~"), "@")
			if neg && tag != string(op) && tag != "destructive" || !neg && mine(tag) {
				any = true
			}
		}
		if !any {
			return false
		}
	}
	return true
}

// ChangesWarning is what to tell a user, before the suite starts, when
// the destructive scenarios a run with tags selects will change a target
// whose fixture f declares no reset: what they use up and how to have it
// back. It is "" when the run selects none.
func ChangesWarning(tags string, f *fixtures.File) string {
	changes, err := Changes(tags, f)
	if err != nil || len(changes) == 0 {
		return ""
	}
	var deleted, changed, other []string
	for _, c := range changes {
		switch {
		case len(c.Records) == 0:
			other = append(other, string(c.Op))
		case c.Deletes:
			deleted = append(deleted, fmt.Sprintf("%s (%s)", c.Op, strings.Join(c.Records, ", ")))
		default:
			changed = append(changed, fmt.Sprintf("%s (%s)", c.Op, strings.Join(c.Records, ", ")))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "warning: the destructive scenarios of %d operations will change the target, and the fixture declares no reset:\n", len(changes))
	if len(deleted) > 0 {
		fmt.Fprintf(&b, "  deletes: %s\n", strings.Join(deleted, ", "))
	}
	if len(changed) > 0 {
		fmt.Fprintf(&b, "  changes or adds to: %s\n", strings.Join(changed, ", "))
	}
	if len(other) > 0 {
		fmt.Fprintf(&b, "  adds records or acts outside the service: %s\n", strings.Join(other, ", "))
	}
	b.WriteString("  Before the next run, restore those records (or name fresh ones in the fixture), or give the fixture a \"reset\" call (docs/fixtures.md); a read-only run changes nothing. A record gone by then is reported as a fixture problem, not as a failure.")
	return b.String()
}
