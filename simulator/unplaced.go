package simulator

import (
	"math"
	"net/http"
	"slices"

	"github.com/campusconf/campusconf/simulator/defects"

	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// The five operations the specification does not place; their paths are in
// the route table and docs/decisions.md.

// updateGradebook is updateGradebookSettings.
func (s *Simulator) updateGradebook(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	b := s.readBody(w, r)
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
		notFound := http.StatusNotFound
		if s.defects.Has(defects.GradebookAbsent403) {
			notFound = http.StatusForbidden
		}
		s.failStore(w, err, notFound)
		return
	}
	if s.defects.Has(defects.GradebookStatus204) {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, g)
}

// Stated limits of evaluation questions.
const (
	maxMark           = 10000
	maxVideoTimeStamp = 2147483647
	maxDifficulty     = 3
	maxEvalMethod     = 3
	maxEvalType       = 5
)

// updateEvaluationSession is updateEvaluationSession: a partial evaluation,
// optionally with partial questions of it.
func (s *Simulator) updateEvaluationSession(w http.ResponseWriter, r *http.Request, u store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	b := s.readBody(w, r)
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
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	if s.defects.Has(defects.EvaluationStatus204) {
		noContent(w)
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

// notificationByGroup is getNotificationByGroup.
func (s *Simulator) notificationByGroup(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	pop, err := s.populate(r, "ancestor")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	n, err := s.store.NotificationByGroup(id, pop["ancestor"] && !s.defects.Has(defects.NotificationNoAncestor))
	if err == nil && s.defects.Has(defects.NotificationOtherGroup) {
		if other, ok := s.store.NotificationOfAnotherGroup(id); ok {
			other.Ancestor = n.Ancestor
			n = other
		}
	}
	if err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	if s.defects.Has(defects.NotificationArray) {
		writeJSON(w, http.StatusOK, []store.Notification{n})
		return
	}
	writeJSON(w, http.StatusOK, n)
}

// updateNotificationRead is updateNotificationRead.
func (s *Simulator) updateNotificationRead(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	id, read := b.int64("id", true), b.int32("read", true)
	outside := b.err == nil && (*read < store.Unread || *read > store.Read)
	if outside && s.defects.Has(defects.NotifyReadUnchecked) {
		if n, ok := s.store.Notification(*id); ok {
			writeJSON(w, http.StatusOK, n) // acknowledged, and nothing done
			return
		}
	}
	b.check(outside, "read: expected 10 (unread) or 11 (read), got %d", deref(read))
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	if cur, ok := s.store.Notification(*id); ok && cur.NotifyStatus == store.Read && s.defects.Has(defects.NotifyReadOneWay) {
		*read = store.Read
	}
	n, err := s.store.SetNotificationRead(*id, *read)
	if err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	writeJSON(w, http.StatusOK, n)
}

// updateQuizSection is updateQuizSection: the body replaces the section's
// settings, so an absent displayQuestionMark is false.
func (s *Simulator) updateQuizSection(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	id, name := b.uuid("id", true), b.str("name", true)
	in := store.QuizSection{
		Description:              deref(b.str("description", false)),
		DisplayQuestionMark:      deref(b.boolean("displayQuestionMark", false)),
		DisplayedRandomQuestions: deref(b.int32("displayedRandomQuestions", false)),
		RandomizeQuestions:       deref(b.boolean("randomizeQuestions", false)),
		RandomizeOptions:         deref(b.boolean("randomizeOptions", false)),
		RequireRational:          deref(b.boolean("requireRational", false)),
	}
	if b.err == nil {
		b.check(*name == "", "name: expected a non-empty string, the field is required")
		b.check(in.DisplayedRandomQuestions < 0, "displayedRandomQuestions: expected at least 0, got %d", in.DisplayedRandomQuestions)
	}
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	if cur, ok := s.store.QuizSection(*id); ok && s.variants.Has(variants.QuizPatch) {
		in = keepOmitted(b, in, cur)
	}
	if _, given := b.fields["displayQuestionMark"]; !given && s.defects.Has(defects.QuizMarkDefaultTrue) {
		in.DisplayQuestionMark = true
	}
	if s.defects.Has(defects.QuizMarkIgnored) {
		in.DisplayQuestionMark = false
	}
	in.ID, in.Name = *id, *name
	q, err := s.store.UpdateQuizSection(in)
	if err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	status := http.StatusOK
	if s.defects.Has(defects.QuizStatus201) {
		status = http.StatusCreated
	}
	writeJSON(w, status, q)
}

// keepOmitted gives the fields of in that b leaves out (or sends as null)
// their stored value, for quiz-patch.
func keepOmitted(b *body, in, cur store.QuizSection) store.QuizSection {
	omitted := func(name string) bool { return b.get(name, false) == nil }
	if omitted("description") {
		in.Description = cur.Description
	}
	if omitted("displayQuestionMark") {
		in.DisplayQuestionMark = cur.DisplayQuestionMark
	}
	if omitted("displayedRandomQuestions") {
		in.DisplayedRandomQuestions = cur.DisplayedRandomQuestions
	}
	if omitted("randomizeQuestions") {
		in.RandomizeQuestions = cur.RandomizeQuestions
	}
	if omitted("randomizeOptions") {
		in.RandomizeOptions = cur.RandomizeOptions
	}
	if omitted("requireRational") {
		in.RequireRational = cur.RequireRational
	}
	return in
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
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
