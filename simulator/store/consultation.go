package store

// DeleteSlots deletes the named consultation slots and returns the ids
// deleted. canDelete says whether the caller holds Access_Delete on a
// module. It fails with ErrNotFound when none of the ids is a slot (or, with
// all, when one of them is not) and with ErrForbidden when one of them
// belongs to a module the caller may not delete on; then nothing is deleted.
func (s *Store) DeleteSlots(ids []string, canDelete func(Module) bool, all bool) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []string
	for _, id := range unique(ids) {
		mod, ok := s.w.Slots[id]
		if !ok {
			if all {
				return nil, notFound("slot " + id + " does not exist")
			}
			continue
		}
		if !canDelete(*s.w.Modules[mod]) {
			return nil, forbidden("the login user is not authorized: Access_Delete on module " + mod + " is required")
		}
		found = append(found, id)
	}
	if len(found) == 0 {
		return nil, notFound("none of the slots in iDs exists")
	}
	for _, id := range found {
		delete(s.w.Slots, id)
	}
	return found, nil
}

// SlotExists reports whether a consultation slot exists.
func (s *Store) SlotExists(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.w.Slots[id]
	return ok
}

// Module returns a module.
func (s *Store) Module(id string) (Module, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.w.Modules[id]
	if !ok {
		return Module{}, false
	}
	c := *m
	c.GradeItems = append([]string(nil), m.GradeItems...)
	return c, true
}

// SlotModule returns the module a consultation slot belongs to.
func (s *Store) SlotModule(id string) (string, bool) {
	return lookup(s, func(w *World) map[string]string { return w.Slots }, id, same)
}

// PutSlot puts a consultation slot of a module back (a defect that deletes
// nothing uses it).
func (s *Store) PutSlot(id, module string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Slots[id] = module
}
