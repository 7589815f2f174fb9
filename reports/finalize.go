package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
)

// Finalize computes everything in r that follows from its scenarios and its
// requirement catalogue: the order of the scenarios, each requirement's
// Result and Scenarios, the Counts and the Verdict. Writers expect a
// finalized report; WriteAll calls Finalize itself. Finalize is idempotent:
// it recomputes from the scenarios every time and never reads what an
// earlier call wrote.
//
// A requirement is failed when a failure names it (Failure.Requirements, or
// the scenario's own requirements when the failure names none). It is
// passed when no failure names it and at least one passed scenario lists
// it. It is unsupported when only Unsupported scenarios list it. Otherwise
// it is not run: no scenario ran, or the only scenarios that list it
// failed on another requirement before reaching a conclusion on this one.
//
// Each profile's result follows from the scenarios of its operations
// (see ProfileResult); the profiles are the registry's, in its order.
func Finalize(r *Report) {
	finalize(r, registry.Profiles())
}

// finalize is Finalize with the profiles the report lists given, in
// report order: the registry's in every report the suite makes; a fixed
// table in the sample report the golden files are written from, so that
// they pin the writers' form and not the registry's profiles of the day.
func finalize(r *Report, profiles []registry.ProfileOps) {
	if r == nil {
		return
	}
	if r.Schema == "" {
		r.Schema = SchemaVersion
	}
	if r.Duration < 0 {
		r.Duration = 0
	}
	if r.Scenarios == nil {
		r.Scenarios = []Scenario{}
	}
	if r.Requirements == nil {
		r.Requirements = []Requirement{}
	}
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		if s.Duration < 0 {
			s.Duration = 0
		}
		if s.Requirements == nil {
			s.Requirements = []string{}
		}
		if s.Failure != nil && s.Failure.Requirements == nil {
			s.Failure.Requirements = []string{}
		}
		for j := range s.Exchanges {
			if s.Exchanges[j].Duration < 0 {
				s.Exchanges[j].Duration = 0
			}
		}
	}
	slices.SortStableFunc(r.Scenarios, func(a, b Scenario) int {
		if c := CompareOperations(a.Operation, b.Operation); c != 0 {
			return c
		}
		return compareNatural(a.ID, b.ID)
	})

	strict := make(map[string]Strictness, len(r.Requirements))
	for _, q := range r.Requirements {
		strict[q.ID] = q.Strictness
	}

	failedBy := map[string]bool{} // requirement id -> named by a failure
	// requirement id -> listed only by unsupported scenarios
	unsupportedOnly := map[string]bool{}
	passedBy := map[string]bool{} // requirement id -> listed by a passed scenario
	scenariosOf := map[string][]string{}
	c := Counts{Scenarios: len(r.Scenarios), Requirements: len(r.Requirements)}
	ran := 0
	for _, s := range r.Scenarios {
		ids := slices.Clone(s.Requirements)
		switch s.Outcome {
		case Passed:
			c.Passed++
			ran++
			for _, id := range s.Requirements {
				passedBy[id] = true
			}
		case Failed:
			c.Failed++
			ran++
			failed := FailedRequirements(s)
			ids = append(ids, failed...)
			if failedMust(s, failed, strict) {
				c.FailedMust++
			} else {
				c.FailedShould++
			}
			for _, id := range failed {
				failedBy[id] = true
			}
		case Skipped:
			c.Skipped++
			*c.SkippedBy.field(s.SkipCause)++
			if s.SkipCause.StrictCounts() {
				c.StrictCounted++
			}
		case NotConfigured:
			c.NotConfigured++
			c.StrictCounted++
		case Unsupported:
			c.Unsupported++
		case Error:
			c.Errored++
			c.StrictCounted++
		}
		if s.Flaky && s.Outcome == Passed {
			c.Flaky++
		}
		for _, id := range ids {
			switch only, seen := unsupportedOnly[id]; {
			case s.Outcome != Unsupported:
				unsupportedOnly[id] = false
			case !seen:
				unsupportedOnly[id] = true
			default:
				unsupportedOnly[id] = only
			}
			if !slices.Contains(scenariosOf[id], s.ID) {
				scenariosOf[id] = append(scenariosOf[id], s.ID)
			}
		}
	}

	readOnly := map[string]bool{} // requirement id -> listed by a scenario skipped read-only
	for _, s := range r.Scenarios {
		if s.Outcome == Skipped && s.SkipCause == CauseReadOnly {
			for _, id := range s.Requirements {
				readOnly[id] = true
			}
		}
	}
	r.ReadOnlyUnchecked = nil
	for i := range r.Requirements {
		q := &r.Requirements[i]
		switch {
		case failedBy[q.ID]:
			q.Result = ResultFailed
			c.RequirementsCovered++
		case passedBy[q.ID]:
			q.Result = ResultPassed
			c.RequirementsCovered++
			c.RequirementsPassing++
		case unsupportedOnly[q.ID]:
			q.Result = ResultUnsupported
			c.RequirementsUnsupported++
		default:
			q.Result = ResultNotRun
			if readOnly[q.ID] {
				r.ReadOnlyUnchecked = append(r.ReadOnlyUnchecked, q.ID)
			}
		}
		q.Scenarios = scenariosOf[q.ID]
	}
	r.Counts = c
	r.Profiles = profileResults(r, strict, profiles)
	r.Verdict, r.VerdictCause, r.VerdictReason = decide(r, ran)
}

// errored says how many scenarios errored.
func errored(n int) string {
	return plural(n, "scenario", "scenarios") + " errored"
}

// strictGaps names what --strict counts: "2 scenarios not configured, 1
// skipped, 1 errored".
func strictGaps(c Counts) string {
	skipped := c.SkippedBy.Other
	for _, cause := range SkipCauses {
		if cause.StrictCounts() {
			skipped += c.SkippedBy.Of(cause)
		}
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{c.NotConfigured, "not configured"}, {skipped, "skipped"}, {c.Errored, "errored"}} {
		switch {
		case p.n == 0:
		case len(parts) == 0:
			parts = append(parts, plural(p.n, "scenario", "scenarios")+" "+p.what)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return strings.Join(parts, ", ")
}

// FailedRequirements returns the requirement ids a failed scenario failed:
// those its Failure names, or the scenario's own when the failure names
// none. It returns nil for a scenario that did not fail.
func FailedRequirements(s Scenario) []string {
	if s.Outcome != Failed {
		return nil
	}
	if s.Failure != nil && len(s.Failure.Requirements) > 0 {
		return s.Failure.Requirements
	}
	return s.Requirements
}

// failedMust reports whether a failed scenario failed a MUST requirement.
// An id missing from the catalogue takes the scenario's own strictness, so
// an unknown id can neither hide a failure nor invent one.
func failedMust(s Scenario, failed []string, strict map[string]Strictness) bool {
	if len(failed) == 0 {
		return s.Strictness != Should
	}
	for _, id := range failed {
		st, ok := strict[id]
		if !ok {
			st = s.Strictness
		}
		if st != Should {
			return true
		}
	}
	return false
}

// knownOperations is the natural order of operations: the registry's
// order (the placed ones by number, then the five the specification does
// not place, in the order it lists them), from 1.
var knownOperations = func() map[string]int {
	m := map[string]int{}
	for i, id := range registry.IDs() {
		m[string(id)] = i + 1
	}
	return m
}()

// CompareOperations orders operation ids naturally: E1 < E2 < ... < E21 <
// GB < ES < NG < NR < QS, then any other id in natural order, the empty id
// (cross-cutting) last. It returns -1, 0 or +1 like strings.Compare.
func CompareOperations(a, b string) int {
	ra, oka := knownOperations[a]
	rb, okb := knownOperations[b]
	switch {
	case oka && okb:
		return cmp.Compare(ra, rb)
	case oka:
		return -1
	case okb:
		return +1
	case a == "" && b != "":
		return +1
	case b == "" && a != "":
		return -1
	}
	return compareNatural(a, b)
}

// compareNatural compares strings with runs of digits taken as numbers, so
// "x.feature:9" sorts before "x.feature:10".
func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da && db {
			na, ra := splitDigits(a)
			nb, rb := splitDigits(b)
			ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
			if c := cmp.Compare(len(ta), len(tb)); c != 0 {
				return c
			}
			if c := strings.Compare(ta, tb); c != 0 {
				return c
			}
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(int(a[0]), int(b[0]))
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func splitDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}
