package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// copyBankFolder is E6.
func (s *Simulator) copyBankFolder(w http.ResponseWriter, r *http.Request, u store.User) {
	id, ok := s.pathParam(w, r, "id")
	if !ok {
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
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	if !pop["Creator"] || s.defects.Has(defects.E6CreatorIgnored) {
		f.UserID, f.UserName, f.Email = "", "", ""
	}
	writeJSON(w, http.StatusCreated, f)
}

// bankRoutes are the routes of the question bank: E6 copies a folder.
var bankRoutes = map[registry.OpID]route{
	registry.E6: {notStudent, (*Simulator).copyBankFolder},
}
