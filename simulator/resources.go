package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// resourceStudents is E20.
func (s *Simulator) resourceStudents(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, populate: true, accept: s.populates(defects.E20PopulateUnsupported, "photo")})
	if !ok {
		return
	}
	id, pop, q := a.id, a.pop, a.q
	l, found := s.store.Students(id)
	noteUnknown(r, found)
	fill := photoFill(s, pop, func(st *store.Student) *string { return &st.Photo })
	answerPage(s, w, l, q, nil, fill, fill == nil)
}

// resourcesRoutes are the routes of resources: E20 lists a resource's students.
var resourcesRoutes = map[registry.OpID]route{
	registry.E20: {anyone, (*Simulator).resourceStudents},
}
