package ops

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// addDefaultAttendance is E7.
func (env *Env) addDefaultAttendance(w http.ResponseWriter, r *http.Request, u store.User, b *front.Body) {
	res, publish := b.UUID("resourceID", true), b.Bool("publish", false)
	if env.refused(w, b) {
		return
	}
	p := !env.defects.Has(defects.E7PublishDefaultFalse) // the stated default is true
	if publish != nil && !env.defects.Has(defects.E7PublishIgnored) {
		p = *publish
	}
	if env.defects.Has(defects.E7ResourceExactCase) && !bytes.Contains(b.Get("resourceID", false), []byte(*res)) {
		env.badRequest(w, errors.New("resourceID: expected a resource, got one that is none"))
		return
	}
	a, evicted, err := env.store.AddDefaultAttendanceCounted(*res, p, u)
	noteEvicted(r, evicted)
	if err != nil {
		env.failStore400(w, r, err)
		return
	}
	writeAttendance(w, http.StatusCreated, &a)
}

// deleteAttendances is E8.
func (env *Env) deleteAttendances(w http.ResponseWriter, r *http.Request, _ store.User, b *front.Body) {
	res, ids := b.UUID("resourceID", true), b.UUIDs("iDs", false)
	if env.refused(w, b) {
		return
	}
	if _, err := env.store.DeleteAttendances(*res, ids); err != nil {
		env.failStore400(w, r, err)
		return
	}
	if env.defects.Has(defects.E8Status200) {
		front.WriteJSON(w, http.StatusOK, append([]string{}, ids...))
		return
	}
	front.NoContent(w)
}

// attendanceRoutes are the routes of attendance: E7 adds a default attendance, E8 deletes attendances.
var attendanceRoutes = map[registry.OpID]route{
	registry.E7: {access: notStudent, handle: withBody((*Env).addDefaultAttendance)},
	registry.E8: {access: notStudent, handle: withBody((*Env).deleteAttendances)},
}
