package store

// DefaultAttendanceName is the title of an attendance created by E7.
const DefaultAttendanceName = "Attendance"

// AddDefaultAttendance creates a default attendance on a module.
func (s *Store) AddDefaultAttendance(resourceID string, publish bool, creator User) (Attendance, error) {
	a, _, err := s.AddDefaultAttendanceCounted(resourceID, publish, creator)
	return a, err
}

// AddDefaultAttendanceCounted is AddDefaultAttendance, also returning how
// many run-time records the new one evicted (see MaxCreated).
func (s *Store) AddDefaultAttendanceCounted(resourceID string, publish bool, creator User) (Attendance, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.w.Modules[resourceID]; !ok {
		return Attendance{}, 0, unknownID("resourceID " + resourceID + " is not a known resource")
	}
	a := Attendance{
		ID:           s.newID(),
		Name:         DefaultAttendanceName,
		ResourceID:   resourceID,
		Publish:      publish,
		CreatedDate:  s.now(),
		CreatorID:    creator.ID,
		PhotoURL:     creator.PhotoURL,
		UserName:     creator.Name,
		UserID:       creator.UserID,
		UserMatricNo: creator.MatricNo,
		Email:        creator.Email,
		Description:  "",
		IsDefault:    true,
	}
	s.w.Attendances[a.ID] = a
	n := s.remember(createdAttendance, a.ID, func(old string) { delete(s.w.Attendances, old) })
	return a, n, nil
}

// DeleteAttendances deletes the named attendances of a module and returns
// how many existed. Ids of other modules or of nothing are ignored.
func (s *Store) DeleteAttendances(resourceID string, ids []string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.w.Modules[resourceID]; !ok {
		return 0, unknownID("resourceID " + resourceID + " is not a known resource")
	}
	n := 0
	for _, id := range unique(ids) {
		if a, ok := s.w.Attendances[id]; ok && a.ResourceID == resourceID {
			delete(s.w.Attendances, id)
			n++
		}
	}
	return n, nil
}

// Attendance returns an attendance.
func (s *Store) Attendance(id string) (Attendance, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.w.Attendances[id]
	return a, ok
}
