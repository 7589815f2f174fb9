package ops

import (
	"net/http"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// surveyResponses is E17; an unknown question is 404.
func (env *Env) surveyResponses(w http.ResponseWriter, r *http.Request, a listArgs) {
	l, ok := env.store.SurveyResponses(a.id)
	if !ok {
		answerAbsent[store.SurveyResponse](env, w, a.q, env.defects.Has(defects.E17AbsentEmpty), "survey question "+a.id)
		return
	}
	var fill func(*store.SurveyResponse)
	if !a.pop["Creator"] || env.defects.Has(defects.E17CreatorUnfilled) {
		fill = func(r *store.SurveyResponse) { r.UserID, r.UserName, r.UserMatrixNo = "", "", "" }
	}
	if a.pop["Creator"] && env.defects.Has(defects.E17CreatorJoinClears) {
		fill = chain(fill, func(r *store.SurveyResponse) { r.Options = []int32{} })
	}
	if env.defects.Has(defects.ResponsesOtherQuestion) {
		fill = chain(fill, otherQuestion(func(r *store.SurveyResponse) *string { return &r.ID }, func(r *store.SurveyResponse) *string { return &r.QuestionID }))
	}
	var keep func(*store.SurveyResponse) bool
	if a.pop["Creator"] && env.defects.Has(defects.PopulateChangesOthers) {
		keep = func(r *store.SurveyResponse) bool { return r.ID == "" || r.ID[0] >= '4' }
	}
	answerPage(env, w, l, a.q, page[store.SurveyResponse]{keep: keep, fill: fill, cacheAs: a.pop["Creator"]}) // the fill follows from it and the defects
}

// pollResponses is E18.
func (env *Env) pollResponses(w http.ResponseWriter, r *http.Request, a listArgs) {
	l, found := env.store.PollResponses(a.id)
	noteUnknown(r, found)
	fill, photos := photoFill(env, a.pop, func(r *store.PollResponse) *string { return &r.Photo }, func(r *store.PollResponse) *string { return &r.UserName })
	if env.defects.Has(defects.ResponsesOtherQuestion) {
		fill = chain(fill, otherQuestion(func(r *store.PollResponse) *string { return &r.ID }, func(r *store.PollResponse) *string { return &r.QuestionID }))
	}
	answerPage(env, w, l, a.q, page[store.PollResponse]{fill: fill, cacheAs: photos})
}

// pollResponse is E19. The specification lists no 404 here: an unknown id
// is a bad request.
func (env *Env) pollResponse(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, ok := env.pathParam(w, r, "id")
	if !ok {
		return
	}
	p, err := env.store.PollResponse(id)
	if err != nil {
		failUnknown(env, w, r, err, func() (store.PollResponse, bool) {
			p, err := env.store.PollResponse(env.refs.PollResponse)
			p.ID = id
			return p, err == nil
		})
		return
	}
	if env.defects.Has(defects.E19FirstResponse) {
		p = env.neighbourResponse(p)
	}
	if env.defects.Has(defects.E19OptionsOneBased) {
		p.SelectedOptions = slices.Clone(p.SelectedOptions)
		for i := range p.SelectedOptions {
			p.SelectedOptions[i]++
		}
	}
	p.Photo = ""
	writePollResponse(w, &p)
}

// neighbourResponse is the response after p among its question's responses
// (an off-by-one lookup), for the e19-first-response defect.
func (env *Env) neighbourResponse(p store.PollResponse) store.PollResponse {
	l, ok := env.store.PollResponses(p.QuestionID)
	if !ok {
		return p
	}
	all, err := l.Page(listing.Query{Limit: -1}, nil)
	if err != nil || len(all) < 2 {
		return p
	}
	for i := range all {
		if all[i].ID == p.ID {
			return all[(i+1)%len(all)]
		}
	}
	return p
}

// chain runs two fills in turn; either may be nil.
func chain[T any](a, b func(*T)) func(*T) {
	return func(t *T) {
		if a != nil {
			a(t)
		}
		if b != nil {
			b(t)
		}
	}
}

// otherQuestionID is the question every second response names with the
// responses-other-question defect.
const otherQuestionID = "7d0e5a3c-2f4b-4c1a-9e6d-3b8f1a2c4d5e"

// otherQuestion returns a fill that files about every second response
// (those whose id ends in an even hex digit, so that every page agrees)
// under otherQuestionID, for the responses-other-question defect.
func otherQuestion[T any](id, question func(*T) *string) func(*T) {
	return func(t *T) {
		if s := *id(t); s != "" && strings.ContainsRune("02468ace", rune(s[len(s)-1])) {
			*question(t) = otherQuestionID
		}
	}
}

// surveyPollRoutes are the routes of surveys and polls: E17 lists survey responses, E18 poll responses, E19 reads one poll response.
var surveyPollRoutes = map[registry.OpID]route{
	registry.E17: {access: anyone, list: (*Env).surveyResponses, populateOff: defects.E17PopulateUnsupported},
	registry.E18: {access: anyone, list: (*Env).pollResponses, populateOff: defects.E18PopulateUnsupported},
	registry.E19: {access: anyone, handle: (*Env).pollResponse},
}
