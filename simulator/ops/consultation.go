package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// deleteSlots is E5.
func (env *Env) deleteSlots(w http.ResponseWriter, r *http.Request, u store.User) {
	b := env.readBody(w, r)
	if b == nil {
		return
	}
	written, ids := b.Get("iDs", false), b.UUIDs("iDs", false) // Get before the error UUIDs may record
	canDelete := func(m store.Module) bool {
		return u.Role == store.RoleSuperAdmin || m.OwnerID == u.ID || env.defects.Has(defects.E5StaffMayDelete)
	}
	if b.Err() != nil && env.defects.Has(defects.E5DeletesBeforeCheck) {
		_, _ = env.store.DeleteSlots(wellFormedIDs(written), canDelete, false)
	}
	if env.refused(w, b) {
		return
	}
	modules := map[string]string{}
	if env.defects.Has(defects.E5DeleteNoop) {
		for _, id := range ids {
			if m, ok := env.store.SlotModule(id); ok {
				modules[id] = m
			}
		}
	}
	deleted, err := env.store.DeleteSlots(ids, canDelete, env.variants.Has(variants.E5AnyAbsent404))
	for _, id := range deleted {
		if m, ok := modules[id]; ok {
			env.store.PutSlot(id, m) // e5-delete-noop: nothing is deleted after all
		}
	}
	if err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	if env.defects.Has(defects.E5EchoesIDs) {
		front.WriteJSON(w, http.StatusOK, ids)
		return
	}
	if env.defects.Has(defects.E5IDsObject) {
		front.WriteJSON(w, http.StatusOK, map[string][]string{"iDs": ids})
		return
	}
	if env.defects.Has(defects.E5IDsEmpty) {
		front.WriteJSON(w, http.StatusOK, []string{})
		return
	}
	if env.variants.Has(variants.E5200IDs) {
		front.WriteJSON(w, http.StatusOK, deleted)
		return
	}
	relyOn(r, decisions.Delete204)
	front.NoContent(w)
}

// consultationRoutes are the routes of consultation: E5 deletes slots.
var consultationRoutes = map[registry.OpID]route{
	registry.E5: {access: accessDelete, handle: (*Env).deleteSlots},
}
