package reports

import (
	"regexp"
	"slices"
	"strings"
)

// Gap is one reason scenarios did not run: a fixture key the file lacks
// (records.quizSection, operations.QS), or, for a skip that
// names none, its reason.
type Gap struct {
	// Key is the missing fixture key, or the skip reason.
	Key string `json:"key"`
	// Scenarios is how many scenarios it kept from running.
	Scenarios int `json:"scenarios"`
	// Uncovered are the requirements those scenarios name that no scenario
	// of the run concluded on (passed or failed), sorted.
	Uncovered []string `json:"uncovered,omitempty"`
}

var (
	missingKey = regexp.MustCompile(`fixture (?:key|record) (\S+) is (?:missing|gone)`)
	unplaced   = regexp.MustCompile(`the fixture has no (operations\.\S+)`)
)

// GapKey is the fixture key a skip reason names, or the reason itself.
func GapKey(reason string) string {
	if m := missingKey.FindStringSubmatch(reason); m != nil {
		return m[1]
	}
	if m := unplaced.FindStringSubmatch(reason); m != nil {
		return m[1]
	}
	return strings.TrimSpace(reason)
}

// Gaps groups the not-configured scenarios and those skipped for want of
// a fixture key or record (cause fixture, or none named) of a finalized
// report by the fixture key they lack, most scenarios first, and names the
// requirements each leaves uncovered.
func Gaps(r *Report) []Gap {
	return groupSkips(r, func(s Scenario) bool {
		return s.Outcome == NotConfigured || s.Outcome == Skipped && (s.SkipCause == CauseFixture || s.SkipCause == "")
	})
}

// SkipsOf groups the scenarios of a finalized report skipped for cause by
// their reason, as Gaps does.
func SkipsOf(r *Report, cause SkipCause) []Gap {
	return groupSkips(r, func(s Scenario) bool { return s.Outcome == Skipped && s.SkipCause == cause })
}

// groupSkips groups the scenarios keep selects by GapKey of their reason.
func groupSkips(r *Report, keep func(Scenario) bool) []Gap {
	result := map[string]Result{}
	for _, q := range r.Requirements {
		result[q.ID] = q.Result
	}
	byKey := map[string]*Gap{}
	uncovered := map[string]map[string]bool{}
	var order []string
	for _, s := range r.Scenarios {
		if !keep(s) {
			continue
		}
		k := GapKey(s.SkipReason)
		g := byKey[k]
		if g == nil {
			g = &Gap{Key: k}
			byKey[k] = g
			uncovered[k] = map[string]bool{}
			order = append(order, k)
		}
		g.Scenarios++
		for _, id := range s.Requirements {
			if result[id] == ResultNotRun {
				uncovered[k][id] = true
			}
		}
	}
	out := make([]Gap, 0, len(order))
	for _, k := range order {
		g := byKey[k]
		for id := range uncovered[k] {
			g.Uncovered = append(g.Uncovered, id)
		}
		slices.Sort(g.Uncovered)
		out = append(out, *g)
	}
	slices.SortStableFunc(out, func(a, b Gap) int {
		if a.Scenarios != b.Scenarios {
			return b.Scenarios - a.Scenarios
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out
}
