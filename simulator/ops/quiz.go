package ops

import (
	"net/http"
	"strings"
	"unicode"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// updateQuizSection is QS: the body replaces the section's
// settings, so an absent displayQuestionMark is false.
func (env *Env) updateQuizSection(w http.ResponseWriter, r *http.Request, _ store.User, b *front.Body) {
	id, name := b.UUID("id", true), b.Str("name", true)
	in := store.QuizSection{
		Description:              deref(b.Str("description", false)),
		DisplayQuestionMark:      deref(b.Bool("displayQuestionMark", false)),
		DisplayedRandomQuestions: deref(b.Int32("displayedRandomQuestions", false)),
		RandomizeQuestions:       deref(b.Bool("randomizeQuestions", false)),
		RandomizeOptions:         deref(b.Bool("randomizeOptions", false)),
		RequireRational:          deref(b.Bool("requireRational", false)),
	}
	if b.Err() == nil && !env.variants.Has(variants.QuizLenient) {
		b.Check(*name == "", "name: expected a non-empty string, the field is required")
		b.Check(in.DisplayedRandomQuestions < 0, "displayedRandomQuestions: expected at least 0, got %d", in.DisplayedRandomQuestions)
	}
	if env.refused(w, b) {
		return
	}
	if cur, ok := env.store.QuizSection(*id); ok && env.variants.Has(variants.QuizPatch) {
		in = keepOmitted(b, in, cur)
	}
	if !b.Sent("displayQuestionMark") && env.defects.Has(defects.QuizMarkDefaultTrue) {
		in.DisplayQuestionMark = true
	}
	if env.defects.Has(defects.QuizMarkIgnored) {
		in.DisplayQuestionMark = false
	}
	in.ID, in.Name = *id, *name
	if env.defects.Has(defects.QuizFlagsCrossed) {
		in.RandomizeOptions, in.RequireRational = in.RequireRational, in.RandomizeOptions
	}
	if env.defects.Has(defects.QuizTextASCII) {
		in.Name, in.Description = asciiOnly(in.Name), asciiOnly(in.Description)
	}
	before, had := env.store.QuizSection(*id)
	q, err := env.store.UpdateQuizSection(in)
	if err != nil {
		failUnknown(env, w, r, err, func() (store.QuizSection, bool) {
			in.AssessmentID = *id // a section owning itself: the made-up record's owner
			return in, true
		})
		return
	}
	if had && env.defects.Has(defects.QuizStaleAnswer) {
		q = before
	}
	if env.defects.Has(defects.QuizAssessmentIsSection) {
		q.AssessmentID = q.ID
	}
	front.WriteJSON(w, http.StatusOK, q)
}

// asciiOnly writes every character beyond ASCII as a question mark, as
// a store in a single-byte encoding keeps text (quiz-text-ascii).
func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII {
			return '?'
		}
		return r
	}, s)
}

// keepOmitted gives the fields of in that b leaves out (or sends as null)
// their stored value, for quiz-patch.
func keepOmitted(b *front.Body, in, cur store.QuizSection) store.QuizSection {
	keepIfOmitted(b, "description", &in.Description, cur.Description)
	keepIfOmitted(b, "displayQuestionMark", &in.DisplayQuestionMark, cur.DisplayQuestionMark)
	keepIfOmitted(b, "displayedRandomQuestions", &in.DisplayedRandomQuestions, cur.DisplayedRandomQuestions)
	keepIfOmitted(b, "randomizeQuestions", &in.RandomizeQuestions, cur.RandomizeQuestions)
	keepIfOmitted(b, "randomizeOptions", &in.RandomizeOptions, cur.RandomizeOptions)
	keepIfOmitted(b, "requireRational", &in.RequireRational, cur.RequireRational)
	return in
}

// keepIfOmitted sets *field to stored when b leaves the member name out
// or sends it as null.
func keepIfOmitted[T any](b *front.Body, name string, field *T, stored T) {
	if b.Get(name, false) == nil {
		*field = stored
	}
}

// quizRoutes are the routes of quizzes: QS updates a quiz section.
var quizRoutes = map[registry.OpID]route{
	registry.QS: {access: notStudent, handle: withBody((*Env).updateQuizSection)},
}
