package ops

import (
	"math"
	"net/http"
	"slices"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// updateGradebook is GB.
func (env *Env) updateGradebook(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, b := env.pathAndBody(w, r, "id")
	if b == nil {
		return
	}
	var weights []store.Weightage
	for _, e := range b.Objects("iD_Weightage", true) {
		key, value := e.UUID("key", true), e.Number("value", true)
		if e.Err() == nil {
			e.Check(*value < 0, "value: expected a weightage of at least 0, got %g", *value)
			e.Check(*value > math.MaxFloat32, "value: expected a float, got %g", *value)
		}
		if raw := e.Str("key", false); raw != nil && key != nil && env.defects.Has(defects.GradebookKeysExactCase) {
			*key = *raw
		}
		b.Take(e)
		if b.Err() != nil {
			break
		}
		weights = append(weights, store.Weightage{Key: *key, Value: *value})
	}
	weightsRead := b.Err() == nil
	var schema []store.Grade
	for _, e := range b.Objects("gradingSchema", true) {
		letter, max := e.Str("letterGrade", true), e.Number("maxMark", !env.defects.Has(defects.GradebookMaxMarkOptional))
		b.Take(e)
		if b.Err() != nil {
			break
		}
		mark := deref(max)
		if env.defects.Has(defects.GradebookMaxMarkTruncated) {
			mark = math.Trunc(mark)
		}
		schema = append(schema, store.Grade{LetterGrade: *letter, MaxMark: mark})
	}
	if b.Err() != nil && weightsRead && len(weights) > 0 && env.defects.Has(defects.GradebookSchemaLate) {
		if g, ok := env.store.Gradebook(id); ok {
			_, _ = env.store.UpdateGradebook(id, weights, g.GradingSchema)
		}
	}
	if env.refused(w, b) {
		return
	}
	if schema == nil {
		schema = []store.Grade{}
	}
	if env.variants.Has(variants.GradebookReplace) {
		weights = wholeWeighting(env.store, id, weights)
	}
	before, _ := env.store.Gradebook(id)
	g, err := env.store.UpdateGradebook(id, weights, schema)
	if err == nil && env.defects.Has(defects.GradebookStaleEcho) {
		g = before
	}
	if err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	if env.defects.Has(defects.GradebookZeroOmitted) {
		front.WriteJSON(w, http.StatusOK, zeroMaxMarkOmitted(g))
		return
	}
	front.WriteJSON(w, http.StatusOK, g)
}

// zeroMaxMarkOmitted is g with each grading schema entry whose maxMark
// is 0 written without it (gradebook-zero-omitted: an omitempty on a
// required member).
func zeroMaxMarkOmitted(g store.Gradebook) map[string]any {
	schema := make([]map[string]any, len(g.GradingSchema))
	for i, e := range g.GradingSchema {
		schema[i] = map[string]any{"letterGrade": e.LetterGrade}
		if e.MaxMark != 0 {
			schema[i]["maxMark"] = e.MaxMark
		}
	}
	return map[string]any{"resourceID": g.ResourceID, "iD_Weightage": g.IDWeightage, "gradingSchema": schema}
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
	registry.GB: {access: notStudent, handle: (*Env).updateGradebook},
}
