package simulator

import (
	"math"
	"net/http"
	"slices"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// updateGradebook is GB.
func (s *Simulator) updateGradebook(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, b := s.pathAndBody(w, r, "id")
	if b == nil {
		return
	}
	var weights []store.Weightage
	for _, e := range b.objects("iD_Weightage", true) {
		key, value := e.uuid("key", true), e.number("value", true)
		if e.err == nil {
			e.check(*value < 0, "value: expected a weightage of at least 0, got %g", *value)
			e.check(*value > math.MaxFloat32, "value: expected a float, got %g", *value)
		}
		b.take(e)
		if b.err != nil {
			break
		}
		weights = append(weights, store.Weightage{Key: *key, Value: *value})
	}
	var schema []store.Grade
	for _, e := range b.objects("gradingSchema", true) {
		letter, max := e.str("letterGrade", true), e.number("maxMark", !s.defects.Has(defects.GradebookMaxMarkOptional))
		b.take(e)
		if b.err != nil {
			break
		}
		schema = append(schema, store.Grade{LetterGrade: *letter, MaxMark: deref(max)})
	}
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	if schema == nil {
		schema = []store.Grade{}
	}
	if s.variants.Has(variants.GradebookReplace) {
		weights = wholeWeighting(s.store, id, weights)
	}
	before, _ := s.store.Gradebook(id)
	g, err := s.store.UpdateGradebook(id, weights, schema)
	if err == nil && s.defects.Has(defects.GradebookStaleEcho) {
		g = before
	}
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, g)
}

// wholeWeighting completes weights with every other grade item of the
// module at 0, for gradebook-replace: merging a complete list replaces.
func wholeWeighting(st *store.Store, moduleID string, weights []store.Weightage) []store.Weightage {
	m, ok := st.Module(moduleID)
	if !ok {
		return weights
	}
	named := map[string]bool{}
	for _, w := range weights {
		named[w.Key] = true
	}
	out := slices.Clone(weights)
	for _, item := range m.GradeItems {
		if !named[item] {
			out = append(out, store.Weightage{Key: item, Value: 0})
		}
	}
	return out
}

// gradebookRoutes are the routes of the gradebook: GB updates its settings.
var gradebookRoutes = map[registry.OpID]route{
	registry.GB: {notStudent, (*Simulator).updateGradebook},
}
