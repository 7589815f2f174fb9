package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// updateQuizSection is QS: the body replaces the section's
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
		s.failStore400(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, q)
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

// quizRoutes are the routes of quizzes: QS updates a quiz section.
var quizRoutes = map[registry.OpID]route{
	registry.QS: {notStudent, (*Simulator).updateQuizSection},
}
