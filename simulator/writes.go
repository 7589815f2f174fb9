package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// syncFaculties is E4.
func (s *Simulator) syncFaculties(w http.ResponseWriter, _ *http.Request, _ store.User) {
	writeJSON(w, http.StatusOK, s.store.Faculties())
}

// deleteSlots is E5.
func (s *Simulator) deleteSlots(w http.ResponseWriter, r *http.Request, u store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	ids := b.uuids("iDs", false)
	if b.err != nil {
		s.fail(w, http.StatusBadRequest, b.err.Error())
		return
	}
	canDelete := func(m store.Module) bool { return u.Role == store.RoleSuperAdmin || m.OwnerID == u.ID }
	if _, err := s.store.DeleteSlots(ids, canDelete); err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	noContent(w)
}

// copyBankFolder is E6.
func (s *Simulator) copyBankFolder(w http.ResponseWriter, r *http.Request, u store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	pop, err := populate(r, "Creator", "ContentCount")
	if err != nil {
		s.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	f, err := s.store.CopyFolder(id, u)
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	if !pop["Creator"] {
		f.UserID, f.UserName, f.Email = "", "", ""
	}
	status := http.StatusCreated
	if s.defects.Has(defects.E6Status200) {
		status = http.StatusOK
	}
	writeJSON(w, status, f)
}

// addDefaultAttendance is E7.
func (s *Simulator) addDefaultAttendance(w http.ResponseWriter, r *http.Request, u store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	res, publish := b.uuid("resourceID", true), b.boolean("publish", false)
	if b.err != nil {
		s.fail(w, http.StatusBadRequest, b.err.Error())
		return
	}
	p := !s.defects.Has(defects.E7PublishDefaultFalse) // the stated default is true
	if publish != nil {
		p = *publish
	}
	a, err := s.store.AddDefaultAttendance(*res, p, u)
	if err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	writeJSON(w, http.StatusCreated, a)
}

// deleteAttendances is E8.
func (s *Simulator) deleteAttendances(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	res, ids := b.uuid("resourceID", true), b.uuids("iDs", false)
	if b.err != nil {
		s.fail(w, http.StatusBadRequest, b.err.Error())
		return
	}
	if _, err := s.store.DeleteAttendances(*res, ids); err != nil {
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	noContent(w)
}

// deleteMedia is E14.
func (s *Simulator) deleteMedia(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	ids := b.uuids("iDs", false)
	if b.err != nil {
		s.fail(w, http.StatusBadRequest, b.err.Error())
		return
	}
	writeJSON(w, http.StatusOK, s.store.DeleteMedia(ids))
}

// publishSessions is E21.
func (s *Simulator) publishSessions(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	ids, publish := b.uuids("iDs", false), b.boolean("publish", true)
	if b.err != nil {
		s.fail(w, http.StatusBadRequest, b.err.Error())
		return
	}
	writeJSON(w, http.StatusOK, s.store.PublishSessions(ids, *publish))
}
