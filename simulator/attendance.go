package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// addDefaultAttendance is E7.
func (s *Simulator) addDefaultAttendance(w http.ResponseWriter, r *http.Request, u store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	res, publish := b.uuid("resourceID", true), b.boolean("publish", false)
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	p := !s.defects.Has(defects.E7PublishDefaultFalse) // the stated default is true
	if publish != nil && !s.defects.Has(defects.E7PublishIgnored) {
		p = *publish
	}
	a, evicted, err := s.store.AddDefaultAttendanceCounted(*res, p, u)
	noteEvicted(r, evicted)
	if err != nil {
		s.failStore400(w, r, err)
		return
	}
	writeAttendance(w, http.StatusCreated, &a)
}

// deleteAttendances is E8.
func (s *Simulator) deleteAttendances(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	res, ids := b.uuid("resourceID", true), b.uuids("iDs", false)
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	if _, err := s.store.DeleteAttendances(*res, ids); err != nil {
		s.failStore400(w, r, err)
		return
	}
	if s.defects.Has(defects.E8Status200) {
		writeJSON(w, http.StatusOK, append([]string{}, ids...))
		return
	}
	noContent(w)
}

// attendanceRoutes are the routes of attendance: E7 adds a default attendance, E8 deletes attendances.
var attendanceRoutes = map[registry.OpID]route{
	registry.E7: {notStudent, (*Simulator).addDefaultAttendance},
	registry.E8: {notStudent, (*Simulator).deleteAttendances},
}
