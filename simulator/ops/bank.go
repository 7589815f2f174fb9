package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// copyBankFolder is E6.
func (env *Env) copyBankFolder(w http.ResponseWriter, r *http.Request, u store.User) {
	id, pop, ok := env.pathPopulate(w, r, "id", env.populates(defects.E6PopulateUnsupported, registry.E6)...)
	if !ok {
		return
	}
	f, evicted, err := env.store.CopyFolderCounted(id, u)
	noteEvicted(r, evicted)
	if err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	if !pop["Creator"] || env.defects.Has(defects.E6CreatorIgnored) {
		f.UserID, f.UserName, f.Email = "", "", ""
	}
	front.WriteJSON(w, http.StatusCreated, f)
}

// bankRoutes are the routes of the question bank: E6 copies a folder.
var bankRoutes = map[registry.OpID]route{
	registry.E6: {access: notStudent, handle: (*Env).copyBankFolder},
}
