package reports

import (
	"cmp"
	"slices"

	"github.com/campusconf/campusconf/internal/registry"
)

// ProfileStatus is the result of one profile in a run. The set is closed.
type ProfileStatus string

// Profile results, as ProfileStatusOf decides them.
const (
	// ProfileSuccess: claimed, no MUST requirement failed, and every
	// scenario was judged (a skip --strict does not count aside).
	ProfileSuccess ProfileStatus = "success"
	// ProfileFailure: claimed, and a MUST requirement failed.
	ProfileFailure ProfileStatus = "failure"
	// ProfilePartial: claimed, no MUST requirement failed, but a scenario
	// was skipped or not configured (for a cause --strict counts), or
	// none was judged.
	ProfilePartial ProfileStatus = "partial"
	// ProfileUnsupported: not claimed; its scenarios were not run.
	ProfileUnsupported ProfileStatus = "unsupported"
)

// ProfileStatuses is the closed set of profile results.
var ProfileStatuses = []ProfileStatus{ProfileSuccess, ProfilePartial, ProfileFailure, ProfileUnsupported}

// ProfileResult is the result of one profile in a run: that of the
// scenarios of its operations. The rules every operation keeps (the key,
// the error body, the record shapes) are checked by scenarios of each
// operation, so they count in the profile of each. A scenario of no
// operation (a generated property that held on every operation, the note
// that generated requests were cut short) counts in no profile.
type ProfileResult struct {
	Name       string        `json:"name" yaml:"name"`
	Operations []string      `json:"operations" yaml:"operations,flow"`
	Result     ProfileStatus `json:"result" yaml:"result"`
	Counts     ProfileCounts `json:"counts" yaml:"counts,flow"`
	// FailedRequirements are the MUST requirements its scenarios failed,
	// Warnings the SHOULD ones, in catalogue order.
	FailedRequirements []string `json:"failedRequirements,omitempty" yaml:"failedRequirements,omitempty,flow"`
	Warnings           []string `json:"warnings,omitempty" yaml:"warnings,omitempty,flow"`
}

// ProfileCounts count a profile's scenarios by outcome. Skipped counts
// the skips --strict counts, Unobservable the others (an optional field
// left out: no gap of the run).
type ProfileCounts struct {
	Passed        int `json:"passed" yaml:"passed"`
	Failed        int `json:"failed" yaml:"failed"`
	Skipped       int `json:"skipped" yaml:"skipped"`
	Unobservable  int `json:"unobservable" yaml:"unobservable"`
	NotConfigured int `json:"notConfigured" yaml:"notConfigured"`
	Unsupported   int `json:"unsupported" yaml:"unsupported"`
}

// ProfileStatusOf is the one rule of a profile's result, from whether
// the implementation claims it, its counts and the number of MUST
// requirements it failed; Finalize and `campusconf report verify` both
// apply it. It is consistent with --strict: a claimed profile succeeds
// exactly when --strict would pass a run of its scenarios alone.
func ProfileStatusOf(claimed bool, c ProfileCounts, failedMust int) ProfileStatus {
	switch {
	case !claimed:
		return ProfileUnsupported
	case failedMust > 0:
		return ProfileFailure
	case c.Skipped > 0 || c.NotConfigured > 0 || c.Passed+c.Failed == 0:
		return ProfilePartial
	}
	return ProfileSuccess
}

// Claims reports whether the run's implementation claims profile p:
// Implements names it, or is absent.
func (r *Report) Claims(p string) bool {
	return r.Implements == nil || slices.Contains(r.Implements, p)
}

// profileResults computes the result of every profile of profiles (the
// registry's, but for the golden files' sample) from r's scenarios, in
// its order. strict maps a requirement id to its level.
func profileResults(r *Report, strict map[string]Strictness, profiles []registry.ProfileOps) []ProfileResult {
	out := make([]ProfileResult, len(profiles))
	at := map[registry.OpID]int{} // an operation -> its profile's index
	for i, p := range profiles {
		out[i] = ProfileResult{Name: string(p.Name), Operations: registry.Strings(p.Operations)}
		for _, id := range p.Operations {
			at[id] = i
		}
	}
	order := map[string]int{}
	for i, q := range r.Requirements {
		order[q.ID] = i + 1
	}
	failed := make([]map[string]Strictness, len(out))
	for _, s := range r.Scenarios {
		// by id or alias, as registry.ProfileOf reads it
		op, ok := registry.Lookup(s.Operation)
		if !ok {
			continue
		}
		i, ok := at[op.ID]
		if !ok {
			continue
		}
		c := &out[i].Counts
		switch s.Outcome {
		case Passed:
			c.Passed++
		case Failed:
			c.Failed++
		case Skipped:
			if s.SkipCause.StrictCounts() {
				c.Skipped++
			} else {
				c.Unobservable++
			}
		case NotConfigured:
			c.NotConfigured++
		case Unsupported:
			c.Unsupported++
		default:
			// an outcome that judged nothing and that --strict counts
			// (one added to the model later: an error) keeps the profile
			// from success until it has a count of its own
			c.Skipped++
		}
		for _, id := range FailedRequirements(s) {
			st, ok := strict[id]
			if !ok {
				st = s.Strictness
			}
			if failed[i] == nil {
				failed[i] = map[string]Strictness{}
			}
			failed[i][id] = st
		}
	}
	for i := range out {
		p := &out[i]
		ids := make([]string, 0, len(failed[i]))
		for id := range failed[i] {
			ids = append(ids, id)
		}
		// catalogue order; ids the catalogue lacks after, in natural order
		slices.SortFunc(ids, func(a, b string) int {
			oa, ob := order[a], order[b]
			switch {
			case oa > 0 && ob > 0:
				return cmp.Compare(oa, ob)
			case oa > 0:
				return -1
			case ob > 0:
				return +1
			}
			return compareNatural(a, b)
		})
		for _, id := range ids {
			if failed[i][id] == Should {
				p.Warnings = append(p.Warnings, id)
			} else {
				p.FailedRequirements = append(p.FailedRequirements, id)
			}
		}
		p.Result = ProfileStatusOf(r.Claims(p.Name), p.Counts, len(p.FailedRequirements))
	}
	return out
}
