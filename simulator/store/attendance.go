package store

import (
	"maps"
	"time"
)

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
	m, ok := s.w.Modules[resourceID]
	if !ok {
		return Attendance{}, 0, unknownID("resourceID " + resourceID + " is not a known resource")
	}
	id := s.newID()
	created := s.now()
	a := Attendance{
		ID:           id,
		Name:         DefaultAttendanceName,
		ResourceID:   resourceID,
		Publish:      publish,
		CreatedDate:  created,
		CreatorID:    creator.ID,
		PhotoURL:     creator.PhotoURL,
		UserName:     creator.Name,
		UserID:       creator.UserID,
		UserMatricNo: creator.MatricNo,
		Email:        creator.Email,
		Description:  "",
		IsDefault:    true,
	}
	c := compactAttendance{module: m, creator: s.w.user(creator), created: created.UnixNano(), publish: publish}
	if c.creator != nil && m.ID == resourceID && c.attendance(id) == a {
		if s.w.defaultAttendances == nil {
			s.w.defaultAttendances = map[string]compactAttendance{}
		}
		s.w.defaultAttendances[id] = c
	} else {
		s.w.Attendances[id] = a
	}
	n := s.remember(createdAttendance, id, s.w.forgetAttendance)
	return a, n, nil
}

// compactAttendance is a default attendance created at run time, stored
// in a fifth of the room of an Attendance: its module and creator are the
// world's, its date a count of nanoseconds (UTC), and its name,
// description and flag those of every default attendance. One that would
// not read back equal is kept whole.
type compactAttendance struct {
	module  *Module
	creator *User
	created int64
	publish bool
}

// attendance is the record c stands for, id being its id.
func (c compactAttendance) attendance(id string) Attendance {
	u := c.creator
	return Attendance{
		ID:           id,
		Name:         DefaultAttendanceName,
		ResourceID:   c.module.ID,
		Publish:      c.publish,
		CreatedDate:  time.Unix(0, c.created).UTC(),
		CreatorID:    u.ID,
		PhotoURL:     u.PhotoURL,
		UserName:     u.Name,
		UserID:       u.UserID,
		UserMatricNo: u.MatricNo,
		Email:        u.Email,
		Description:  "",
		IsDefault:    true,
	}
}

// user returns the world's user equal to u, or nil.
func (w *World) user(u User) *User {
	for i := range w.Users {
		if w.Users[i] == u {
			return &w.Users[i]
		}
	}
	return nil
}

// attendance returns the attendance id, compact or not.
func (w *World) attendance(id string) (Attendance, bool) {
	if c, ok := w.defaultAttendances[id]; ok {
		return c.attendance(id), true
	}
	a, ok := w.Attendances[id]
	return a, ok
}

// forgetAttendance removes the attendance id, compact or not.
func (w *World) forgetAttendance(id string) {
	delete(w.defaultAttendances, id)
	delete(w.Attendances, id)
}

// allAttendances is every attendance of the world: Attendances itself
// when none is compact, else a merged copy.
func (w *World) allAttendances() map[string]Attendance {
	if len(w.defaultAttendances) == 0 {
		return w.Attendances
	}
	all := make(map[string]Attendance, len(w.Attendances)+len(w.defaultAttendances))
	maps.Copy(all, w.Attendances)
	for id, c := range w.defaultAttendances {
		all[id] = c.attendance(id)
	}
	return all
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
		if a, ok := s.w.attendance(id); ok && a.ResourceID == resourceID {
			s.w.forgetAttendance(id)
			n++
		}
	}
	return n, nil
}

// Attendance returns an attendance.
func (s *Store) Attendance(id string) (Attendance, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.attendance(id)
}
