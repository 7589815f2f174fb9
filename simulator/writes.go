package simulator

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
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
		s.badRequest(w, b.err)
		return
	}
	canDelete := func(m store.Module) bool {
		return u.Role == store.RoleSuperAdmin || m.OwnerID == u.ID || s.defects.Has(defects.E5StaffMayDelete)
	}
	modules := map[string]string{}
	if s.defects.Has(defects.E5DeleteNoop) {
		for _, id := range ids {
			if m, ok := s.store.SlotModule(id); ok {
				modules[id] = m
			}
		}
	}
	deleted, err := s.store.DeleteSlots(ids, canDelete, s.variants.Has(variants.E5AnyAbsent404))
	for _, id := range deleted {
		if m, ok := modules[id]; ok {
			s.store.PutSlot(id, m) // e5-delete-noop: nothing is deleted after all
		}
	}
	if err != nil {
		if errors.Is(err, store.ErrNotFound) && s.defects.Has(defects.E5Absent204) {
			noContent(w)
			return
		}
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	if s.defects.Has(defects.E5IDsObject) {
		writeJSON(w, http.StatusOK, map[string][]string{"iDs": ids})
		return
	}
	if s.variants.Has(variants.E5200IDs) {
		writeJSON(w, http.StatusOK, deleted)
		return
	}
	noContent(w)
}

// copyBankFolder is E6.
func (s *Simulator) copyBankFolder(w http.ResponseWriter, r *http.Request, u store.User) {
	id, err := pathID(r, "id")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	pop, err := s.populate(r, s.populates(defects.E6PopulateUnsupported, "Creator", "ContentCount")...)
	if err != nil {
		s.badRequest(w, err)
		return
	}
	f, evicted, err := s.store.CopyFolderCounted(id, u)
	noteEvicted(r, evicted)
	if err != nil {
		s.failStore(w, err, s.notFound(defects.E6Absent400))
		return
	}
	if !pop["Creator"] || s.defects.Has(defects.E6CreatorIgnored) {
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
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	status := http.StatusCreated
	if s.defects.Has(defects.E7Status200) {
		status = http.StatusOK
	}
	writeAttendance(w, status, &a)
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
		s.failStore(w, err, http.StatusBadRequest)
		return
	}
	if s.defects.Has(defects.E8Status200) {
		writeJSON(w, http.StatusOK, append([]string{}, ids...))
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
		s.badRequest(w, b.err)
		return
	}
	var n int
	switch {
	case s.defects.Has(defects.E14DeletedReadable):
		// Each id counts once, as DeleteMedia counts it.
		for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
			if _, err := s.store.MediaLog(id); err == nil {
				n++
			}
		}
	default:
		n = s.store.DeleteMedia(ids)
	}
	if s.defects.Has(defects.E14CountsRequested) {
		n = len(ids)
	}
	writeJSON(w, http.StatusOK, n)
}

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
	if s.defects.Has(defects.E21CountString) {
		writeJSON(w, http.StatusOK, strconv.Itoa(n))
		return
	}
	writeJSON(w, http.StatusOK, n)
}
