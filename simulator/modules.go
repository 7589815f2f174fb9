package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// weblinkLogs is E12; an unknown weblink is 404.
func (s *Simulator) weblinkLogs(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "ID"})
	if !ok {
		return
	}
	id, q := a.id, a.q
	l, ok := s.store.WeblinkLogs(id)
	if !ok {
		answerAbsent[store.WeblinkLog](s, w, q, s.defects.Has(defects.E12AbsentEmpty), "weblink "+id)
		return
	}
	if s.defects.Has(defects.LogsEmpty) {
		l = nil
	}
	answerPage(s, w, l, q, nil, nil, true)
}

// modulesRoutes are the routes of module content: E12 lists the logs of a weblink.
var modulesRoutes = map[registry.OpID]route{
	registry.E12: {notStudent, (*Simulator).weblinkLogs},
}
