package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/simulator/store"
)

// getQuestion is E9.
func (s *Simulator) getQuestion(w http.ResponseWriter, r *http.Request, _ store.User) {
	eval, err := pathID(r, "evaluationid")
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	id, err := pathID(r, "id")
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	// The question record has no field for these entities: they are
	// accepted and change nothing (docs/decisions.md).
	if _, err := populate(r, "lastUpdatedUser", "Response", "ResponseWithCreator"); err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	q, err := s.store.Question(eval, id)
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, q)
}

// mediaDownloadLog is E13: a single object, the latest download.
func (s *Simulator) mediaDownloadLog(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	m, err := s.store.MediaLog(id)
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// pollResponse is E19. The specification lists no 404 here: an unknown id
// is a bad request.
func (s *Simulator) pollResponse(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	p, err := s.store.PollResponse(id)
	if err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	p.Photo = ""
	writeJSON(w, http.StatusOK, p)
}
