package reports

import (
	"time"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/rules"
)

// AddCatalogue puts the requirement catalogue and the open points into r,
// as every producer's report carries them. The properties of generated
// requests (kind generated) belong to the catalogue of a run only when it
// generates requests: a run without them neither covers nor misses them.
func AddCatalogue(r *Report, cat *features.Catalogue, generated bool) {
	for _, q := range cat.Requirements {
		if q.Kind == rules.KindGenerated && !generated {
			continue
		}
		r.Requirements = append(r.Requirements, Requirement{ID: q.ID, Operation: q.Operation, Kind: q.Kind,
			Strictness: q.Strictness, Section: q.Section, Text: q.Text})
	}
	for _, p := range cat.OpenPoints {
		r.OpenPoints = append(r.OpenPoints, OpenPoint(p))
	}
}

// NotRun returns the report of a run that could not start (the target
// unreachable, its container not started): no scenario, the requirement
// catalogue all "not run", verdict inconclusive (target unreachable) and reason saying
// why. It is finalized.
func NotRun(reason string) (*Report, error) {
	cat, err := features.Load()
	if err != nil {
		return nil, err
	}
	r := &Report{Schema: SchemaVersion, Started: time.Now(), Reason: reason}
	AddCatalogue(r, cat, false)
	Finalize(r)
	return r, nil
}
