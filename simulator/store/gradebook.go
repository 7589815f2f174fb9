package store

import (
	"fmt"
	"math"
	"slices"
)

// MaxTotalWeightage is the most the grade item weightages of a module may
// add up to, in percent. The store keeps its own copy of the limit on
// purpose, apart from internal/rules.MaxWeightageTotal, which the checkers
// read: it is the reference implementation they are tested against.
const MaxTotalWeightage = 100

// weightTolerance absorbs float rounding in the total (100.01 is refused,
// 33.33+33.33+33.34 is accepted).
const weightTolerance = 1e-9

// UpdateGradebook merges weights into the gradebook of a module (grade
// items not named keep their weight) and replaces its grading schema. It
// fails with ErrNotFound when the module is absent and ErrInvalid when a key
// is not a grade item of the module, is repeated, or the total after the
// merge exceeds 100; a failed update changes nothing.
func (s *Store) UpdateGradebook(moduleID string, weights []Weightage, schema []Grade) (Gradebook, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.w.Modules[moduleID]
	if !ok {
		return Gradebook{}, notFound("module " + moduleID + " has no gradebook")
	}
	g := s.w.Gradebooks[moduleID]
	merged := slices.Clone(g.IDWeightage)
	seen := map[string]bool{}
	requestTotal := 0.0
	for _, w := range weights {
		if seen[w.Key] {
			return Gradebook{}, invalid("iD_Weightage: grade item " + w.Key + " is given twice")
		}
		seen[w.Key] = true
		if !slices.Contains(m.GradeItems, w.Key) {
			return Gradebook{}, invalid("iD_Weightage: " + w.Key + " is not a grade item of module " + moduleID)
		}
		requestTotal += w.Value
		for i := range merged {
			if merged[i].Key == w.Key {
				merged[i].Value = w.Value
			}
		}
	}
	total := 0.0
	for _, w := range merged {
		total += w.Value
	}
	if s.policy.GradebookTotalOfRequest {
		total = requestTotal
	}
	if s.policy.GradebookTotalRounded {
		total = math.Round(total)
	}
	over := total > MaxTotalWeightage+weightTolerance
	if s.policy.GradebookTotalBelow100 {
		over = total >= MaxTotalWeightage-weightTolerance
	}
	if over {
		if s.policy.GradebookRefusedStored {
			g.IDWeightage = merged
			s.w.Gradebooks[moduleID] = g
		}
		return Gradebook{}, invalid(fmt.Sprintf("iD_Weightage: the grade item weightages of module %s would total %g percent, expected at most %d", moduleID, total, MaxTotalWeightage))
	}
	g.IDWeightage = merged
	g.GradingSchema = slices.Clone(schema)
	s.w.Gradebooks[moduleID] = g
	s.now()
	return copyGradebook(g), nil
}

// Gradebook returns the gradebook of a module.
func (s *Store) Gradebook(moduleID string) (Gradebook, bool) {
	return lookup(s, func(w *World) map[string]Gradebook { return w.Gradebooks }, moduleID, copyGradebook)
}

func copyGradebook(g Gradebook) Gradebook {
	g.IDWeightage = slices.Clone(g.IDWeightage)
	g.GradingSchema = slices.Clone(g.GradingSchema)
	return g
}
