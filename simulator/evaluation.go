package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// getQuestion is E9.
func (s *Simulator) getQuestion(w http.ResponseWriter, r *http.Request, _ store.User) {
	eval, ok := s.pathParam(w, r, "evaluationid")
	if !ok {
		return
	}
	id, ok := s.pathParam(w, r, "id")
	if !ok {
		return
	}
	// The question record has no field for these entities: they are
	// accepted and change nothing (docs/decisions.md).
	if _, err := s.populate(r, s.populates(defects.E9PopulateUnsupported, "lastUpdatedUser", "Response", "ResponseWithCreator")...); err != nil {
		s.badRequest(w, err)
		return
	}
	q, err := s.store.Question(eval, id)
	if _, evalExists := s.store.Evaluation(eval); err != nil && evalExists && s.defects.Has(defects.E9AnyEvaluation) {
		if other, ok := s.store.QuestionAnywhere(id); ok {
			q, err = other, nil
		}
	}
	if err == nil && s.defects.Has(defects.E9OtherQuestion) {
		if other, ok := s.store.SiblingQuestion(q); ok {
			q = other
		}
	}
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, q)
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
func (s *Simulator) updateEvaluationSession(w http.ResponseWriter, r *http.Request, u store.User) {
	id, b := s.pathAndBody(w, r, "id")
	if b == nil {
		return
	}
	p := store.EvaluationPatch{
		Name:                  b.str("name", false),
		StartDate:             b.dateTime("startDate", false),
		EndDate:               b.dateTime("endDate", false),
		InstructionalText:     b.str("instructionalText", false),
		EvaluationMethod:      b.int32("evaluationMethod", false),
		EvaluationType:        b.int32("evaluationType", false),
		MaximumScore:          b.number("maximumScore", false),
		Publish:               b.boolean("publish", false),
		DisplayAnonymous:      b.boolean("displayAnonymous", false),
		DisplayNothing:        b.boolean("displayNothing", false),
		PublishResultDate:     b.dateTime("publishResultDate", false),
		DisplayScore:          b.boolean("displayScore", false),
		DisplayAverageScore:   b.boolean("displayAverageScore", false),
		DisplayComment:        b.boolean("displayComment", false),
		DisplayDetailsMapping: b.boolean("displayDetailsMapping", false),
	}
	if m := p.EvaluationMethod; m != nil {
		b.check(*m < 0 || *m > maxEvalMethod, "evaluationMethod: expected one of 0, 1, 2, 3, got %d", *m)
	}
	if t := p.EvaluationType; t != nil {
		b.check(*t < 0 || *t > maxEvalType, "evaluationType: expected one of 0, 1, 2, 3, 4, 5, got %d", *t)
	}
	if m := p.MaximumScore; m != nil {
		b.check(*m < 0, "maximumScore: expected at least 0, got %g", *m)
	}
	for _, e := range b.objects("questions", false) {
		qp := questionPatch(e, limitRule{unchecked: s.defects.Has(defects.QuestionLimitsUnchecked), exclusive: s.defects.Has(defects.QuestionLimitsExclusive)})
		b.take(e)
		if b.err != nil {
			break
		}
		p.Questions = append(p.Questions, qp)
	}
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	e, err := s.store.UpdateEvaluation(id, p, u)
	if err != nil {
		s.failStore400(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
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
func questionPatch(e *body, limits limitRule) store.QuestionPatch {
	q := store.QuestionPatch{
		Text:             e.str("text", false),
		Solution:         e.str("solution", false),
		Publish:          e.boolean("publish", false),
		Mark:             e.number("mark", false),
		RequireRationale: e.boolean("requireRationale", false),
		DifficultyLevel:  e.int32("difficultyLevel", false),
		VideoTimeStamp:   e.number("videoTimeStamp", false),
		ForAssessment:    e.boolean("forAssessment", false),
	}
	if id := e.uuid("id", true); id != nil {
		q.ID = *id
	}
	if e.err != nil {
		return q
	}
	if t := q.Text; t != nil {
		e.check(*t == "", "text: expected a non-empty string, the field is required")
	}
	if m := q.Mark; m != nil {
		e.check(limits.outside(*m, 0, maxMark), "mark: expected 0 to %d, got %g", maxMark, *m)
	}
	if d := q.DifficultyLevel; d != nil {
		e.check(limits.outside(float64(*d), 0, maxDifficulty), "difficultyLevel: expected one of 0, 1, 2, 3, got %d", *d)
	}
	if v := q.VideoTimeStamp; v != nil {
		e.check(limits.outside(*v, 0, maxVideoTimeStamp), "videoTimeStamp: expected 0 to %d, got %g", maxVideoTimeStamp, *v)
	}
	return q
}

// evaluationRoutes are the routes of evaluation: E9 reads a question, ES updates an evaluation session.
var evaluationRoutes = map[registry.OpID]route{
	registry.E9: {anyone, (*Simulator).getQuestion},
	registry.ES: {notStudent, (*Simulator).updateEvaluationSession},
}
