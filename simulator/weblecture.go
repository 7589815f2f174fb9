package simulator

import (
	"net/http"
	"strconv"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// publishSessions is E21.
func (s *Simulator) publishSessions(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	ids, publish := b.uuids("iDs", false), b.boolean("publish", true)
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	n, changed := s.store.PublishSessions(ids, *publish)
	if s.variants.Has(variants.E21ChangedCount) {
		n = changed
	}
	if s.defects.Has(defects.E21CountsUnknown) {
		n = len(ids)
	}
	relyOn(r, dCounts)
	if s.defects.Has(defects.E21CountString) {
		writeJSON(w, http.StatusOK, strconv.Itoa(n))
		return
	}
	writeJSON(w, http.StatusOK, n)
}

// webLectureRoutes are the routes of web lectures: E21 publishes sessions.
var webLectureRoutes = map[registry.OpID]route{
	registry.E21: {notStudent, (*Simulator).publishSessions},
}
