package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// getQuestion is E9.
func (env *Env) getQuestion(w http.ResponseWriter, r *http.Request, _ store.User) {
	eval, ok := env.pathParam(w, r, "evaluationid")
	if !ok {
		return
	}
	// The question record has no field for these entities: they are
	// accepted and change nothing (docs/decisions.md).
	id, _, ok := env.pathPopulate(w, r, "id", env.populates(defects.E9PopulateUnsupported, registry.E9)...)
	if !ok {
		return
	}
	q, err := env.store.Question(eval, id)
	if _, evalExists := env.store.Evaluation(eval); err != nil && evalExists && env.defects.Has(defects.E9AnyEvaluation) {
		if other, ok := env.store.QuestionAnywhere(id); ok {
			q, err = other, nil
		}
	}
	if err == nil && env.defects.Has(defects.E9OtherQuestion) {
		if other, ok := env.store.SiblingQuestion(q); ok {
			q = other
		}
	}
	if err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	front.WriteJSON(w, http.StatusOK, q)
}

// Stated limits of evaluation questions. The simulator is the reference
// implementation the checkers are tested against, so it states the limits
// again on purpose, apart from internal/rules (which the checkers read): a
// mistake in one is caught by the other, through the kill matrix and the
// faithful variants.
const (
	maxMark           = 10000
	maxVideoTimeStamp = 2147483647
	maxDifficulty     = 3
	maxEvalMethod     = 3
	maxEvalType       = 5
)

// updateEvaluationSession is ES: a partial evaluation,
// optionally with partial questions of it.
func (env *Env) updateEvaluationSession(w http.ResponseWriter, r *http.Request, u store.User) {
	id, b := env.pathAndBody(w, r, "id")
	if b == nil {
		return
	}
	p := store.EvaluationPatch{
		Name:                  b.Str("name", false),
		StartDate:             b.DateTime("startDate", false),
		EndDate:               b.DateTime("endDate", false),
		InstructionalText:     b.Str("instructionalText", false),
		EvaluationMethod:      b.Int32("evaluationMethod", false),
		EvaluationType:        b.Int32("evaluationType", false),
		MaximumScore:          b.Number("maximumScore", false),
		Publish:               b.Bool("publish", false),
		DisplayAnonymous:      b.Bool("displayAnonymous", false),
		DisplayNothing:        b.Bool("displayNothing", false),
		PublishResultDate:     b.DateTime("publishResultDate", false),
		DisplayScore:          b.Bool("displayScore", false),
		DisplayAverageScore:   b.Bool("displayAverageScore", false),
		DisplayComment:        b.Bool("displayComment", false),
		DisplayDetailsMapping: b.Bool("displayDetailsMapping", false),
	}
	if m := p.EvaluationMethod; m != nil {
		b.Check(*m < 0 || *m > maxEvalMethod, "evaluationMethod: expected one of 0, 1, 2, 3, got %d", *m)
	}
	if t := p.EvaluationType; t != nil {
		b.Check(*t < 0 || *t > maxEvalType, "evaluationType: expected one of 0, 1, 2, 3, 4, 5, got %d", *t)
	}
	if m := p.MaximumScore; m != nil {
		b.Check(*m < 0, "maximumScore: expected at least 0, got %g", *m)
	}
	for _, e := range b.Objects("questions", false) {
		if env.defects.Has(defects.QuestionStoredBeforeCheck) {
			// what was sent is stored before its limits are checked
			if early := questionPatch(e, limitRule{unchecked: true}); e.Err() == nil {
				_, _ = env.store.UpdateEvaluation(id, store.EvaluationPatch{Questions: []store.QuestionPatch{early}}, u)
			}
		}
		qp := questionPatch(e, limitRule{unchecked: env.defects.Has(defects.QuestionLimitsUnchecked), exclusive: env.defects.Has(defects.QuestionLimitsExclusive)})
		b.Take(e)
		if b.Err() != nil {
			break
		}
		p.Questions = append(p.Questions, qp)
	}
	if env.refused(w, b) {
		return
	}
	e, err := env.store.UpdateEvaluation(id, p, u)
	if err != nil {
		failUnknown(env, w, r, err, func() (store.Evaluation, bool) {
			e, ok := env.store.Evaluation(env.refs.Evaluation)
			e.ID = id
			return e, ok
		})
		return
	}
	front.WriteJSON(w, http.StatusOK, e)
}

// limitRule is how questionPatch applies the stated limits: as stated
// (the zero value), not at all, or excluding the limits themselves (the
// question-limits defects).
type limitRule struct{ unchecked, exclusive bool }

// outside reports whether v lies outside lo..hi under the rule.
func (l limitRule) outside(v, lo, hi float64) bool {
	switch {
	case l.unchecked:
		return false
	case l.exclusive:
		return v <= lo || v >= hi
	}
	return v < lo || v > hi
}

// questionPatch reads one partial question and checks the stated limits.
func questionPatch(e *front.Body, limits limitRule) store.QuestionPatch {
	q := store.QuestionPatch{
		Text:             e.Str("text", false),
		Solution:         e.Str("solution", false),
		Publish:          e.Bool("publish", false),
		Mark:             e.Number("mark", false),
		RequireRationale: e.Bool("requireRationale", false),
		DifficultyLevel:  e.Int32("difficultyLevel", false),
		VideoTimeStamp:   e.Number("videoTimeStamp", false),
		ForAssessment:    e.Bool("forAssessment", false),
	}
	if id := e.UUID("id", true); id != nil {
		q.ID = *id
	}
	if e.Err() != nil {
		return q
	}
	if t := q.Text; t != nil {
		e.Check(*t == "", "text: expected a non-empty string, the field is required")
	}
	if m := q.Mark; m != nil {
		e.Check(limits.outside(*m, 0, maxMark), "mark: expected 0 to %d, got %g", maxMark, *m)
	}
	if d := q.DifficultyLevel; d != nil {
		e.Check(limits.outside(float64(*d), 0, maxDifficulty), "difficultyLevel: expected one of 0, 1, 2, 3, got %d", *d)
	}
	if v := q.VideoTimeStamp; v != nil {
		e.Check(limits.outside(*v, 0, maxVideoTimeStamp), "videoTimeStamp: expected 0 to %d, got %g", maxVideoTimeStamp, *v)
	}
	return q
}

// evaluationRoutes are the routes of evaluation: E9 reads a question, ES updates an evaluation session.
var evaluationRoutes = map[registry.OpID]route{
	registry.E9: {access: anyone, handle: (*Env).getQuestion},
	registry.ES: {access: notStudent, handle: (*Env).updateEvaluationSession},
}

// updateEvaluationSessionBody is the body the fixture file tells the suite
// to send to the evaluation session update, whose body the specification
// does not document.
var updateEvaluationSessionBody = map[string]any{
	"name":              "Peer evaluation (updated)",
	"instructionalText": "Rate each member of your group.",
	"evaluationMethod":  1,
	"evaluationType":    2,
	"maximumScore":      20,
	"publish":           true,
	"displayScore":      true,
}

// bodiesNotShown tell the fixture file the bodies the simulator takes
// where the specification shows none, by operation.
var bodiesNotShown = map[registry.OpID]func(*fixtures.Operation){
	registry.ES: func(fo *fixtures.Operation) {
		fo.Body = map[string]any{}
		for k, v := range updateEvaluationSessionBody {
			fo.Body[k] = v
		}
		fo.QuestionTemplate = map[string]any{"questions": []any{"{question}"}}
	},
}
