package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// resourceStudents is E20.
func (env *Env) resourceStudents(w http.ResponseWriter, r *http.Request, a listArgs) {
	l, found := env.store.Students(a.id)
	if !found && env.defects.Has(defects.UnknownParentListed) {
		l, _ = env.store.Students(env.refs.Resource)
	}
	noteUnknown(r, found)
	if found && l.Len() > 0 && env.defects.Has(defects.E20StudentTwice) {
		items := l.Items()
		l = listing.New(append([]store.Student{items[0]}, items...))
	}
	fill, photos := photoFill(env, a.pop, func(st *store.Student) *string { return &st.Photo }, func(st *store.Student) *string { return &st.UserName })
	answerPage(env, w, l, a.q, page[store.Student]{fill: fill, cacheAs: photos})
}

// resourcesRoutes are the routes of resources: E20 lists a resource's students.
var resourcesRoutes = map[registry.OpID]route{
	registry.E20: {access: anyone, list: (*Env).resourceStudents, populateOff: defects.E20PopulateUnsupported},
}
