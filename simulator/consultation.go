package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// deleteSlots is E5.
func (s *Simulator) deleteSlots(w http.ResponseWriter, r *http.Request, u store.User) {
	ids, ok := s.idsBody(w, r)
	if !ok {
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
	relyOn(r, dDelete204)
	noContent(w)
}

// consultationRoutes are the routes of consultation: E5 deletes slots.
var consultationRoutes = map[registry.OpID]route{
	registry.E5: {accessDelete, (*Simulator).deleteSlots},
}
