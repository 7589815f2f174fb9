package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/simulator/listing"

	"github.com/campusconf/campusconf/simulator/defects"

	"github.com/campusconf/campusconf/simulator/store"
)

// getQuestion is E9.
func (s *Simulator) getQuestion(w http.ResponseWriter, r *http.Request, _ store.User) {
	eval, err := pathID(r, "evaluationid")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
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
		s.failStore(w, err, s.notFound(defects.E9Absent400))
		return
	}
	if s.defects.Has(defects.E9Array) {
		writeJSON(w, http.StatusOK, []store.Question{q})
		return
	}
	writeJSON(w, http.StatusOK, q)
}

// mediaDownloadLog is E13: a single object, the latest download.
func (s *Simulator) mediaDownloadLog(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	m, err := s.store.MediaLog(id)
	if err != nil {
		s.failStore(w, err, s.notFound(defects.E13Absent400))
		return
	}
	if s.defects.Has(defects.E13Array) {
		writeJSON(w, http.StatusOK, []store.MediaLog{m})
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// pollResponse is E19. The specification lists no 404 here: an unknown id
// is a bad request.
func (s *Simulator) pollResponse(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	p, err := s.store.PollResponse(id)
	if err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	if s.defects.Has(defects.E19FirstResponse) {
		p = s.neighbourResponse(p)
	}
	p.Photo = ""
	if s.defects.Has(defects.E19Array) {
		writeJSON(w, http.StatusOK, []store.PollResponse{p})
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// neighbourResponse is the response after p among its question's responses
// (an off-by-one lookup), for the e19-first-response defect.
func (s *Simulator) neighbourResponse(p store.PollResponse) store.PollResponse {
	l, ok := s.store.PollResponses(p.QuestionID)
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
