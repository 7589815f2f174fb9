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
// many run-time records the new one evicted (see MaxCreatedAttendances).
func (s *Store) AddDefaultAttendanceCounted(resourceID string, publish bool, creator User) (Attendance, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.w.Modules[resourceID]; !ok {
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
	log := &s.w.created.attendances
	slot, compact := s.w.compactAttendance(id, a)
	if !compact {
		s.w.Attendances[id] = a
		slot = attendanceSlot{key: log.key(id), module: wholeBit}
	}
	if !log.add(slot, s.bound(createdAttendance), func(old string) { delete(s.w.Attendances, old) }) {
		return a, 0, nil
	}
	s.evicted.Add(1)
	return a, 1, nil
}

// compactAttendance returns a, whose id is id, as a compact slot of the
// attendance log (in 32 bytes with no pointer, in place of the 208 bytes
// and eight strings of an Attendance), and false when a would not read
// back equal from one: an id not in the form of a key, a creator who is
// not a user of the world, a date not in UTC.
func (w *World) compactAttendance(id string, a Attendance) (attendanceSlot, bool) {
	k, ok := parseID(id)
	creator := w.userIndex(a.CreatorID)
	mod, known := w.attendanceModule(a.ResourceID)
	if !ok || isOdd(k) || creator < 0 || !known {
		return attendanceSlot{}, false
	}
	c := attendanceSlot{key: k, created: a.CreatedDate.UnixNano(), module: mod, creator: uint32(creator)}
	if a.Publish {
		c.module |= publishBit
	}
	return c, w.expand(id, c) == a
}

// restoreAttendance logs the attendance id, created at run time, as a
// saved state lists it: its record moves from Attendances to the log when
// it reads back equal from a compact slot, unless compact says the state
// lists more than the log keeps (then, as always, the oldest ids leave the
// log but their records stay).
func (w *World) restoreAttendance(id string, bound int, compact bool) {
	log := &w.created.attendances
	var slot attendanceSlot
	ok := false
	if a, found := w.Attendances[id]; found && compact {
		slot, ok = w.compactAttendance(id, a)
	}
	if ok {
		delete(w.Attendances, id)
	} else {
		slot = attendanceSlot{key: log.key(id), module: wholeBit}
	}
	log.add(slot, bound, func(string) {})
}

// attendanceModule returns the index of module id in attendanceModules,
// adding it at the end when it is not there (false: the table is full).
func (w *World) attendanceModule(id string) (uint32, bool) {
	if i, ok := w.attendanceModuleIndex[id]; ok {
		return i, true
	}
	if len(w.attendanceModules) > moduleMask {
		return 0, false
	}
	if w.attendanceModuleIndex == nil {
		w.attendanceModuleIndex = map[string]uint32{}
	}
	i := uint32(len(w.attendanceModules))
	w.attendanceModuleIndex[id] = i
	w.attendanceModules = append(w.attendanceModules, id)
	return i, true
}

// userIndex returns the index in w.Users of the user with internal id
// userID, or -1.
func (w *World) userIndex(userID string) int {
	for i := range w.Users {
		if w.Users[i].ID == userID {
			return i
		}
	}
	return -1
}

// expand is the record the compact slot c stands for, id being its id.
func (w *World) expand(id string, c attendanceSlot) Attendance {
	u := &w.Users[c.creator]
	return Attendance{
		ID:           id,
		Name:         DefaultAttendanceName,
		ResourceID:   w.attendanceModules[c.module&moduleMask],
		Publish:      c.module&publishBit != 0,
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

// attendance returns the attendance id, compact or not.
func (w *World) attendance(id string) (Attendance, bool) {
	if c, ok := w.created.attendances.lookup(id); ok {
		return w.expand(id, c), true
	}
	a, ok := w.Attendances[id]
	return a, ok
}

// forgetAttendance removes the attendance id, compact or not.
func (w *World) forgetAttendance(id string) {
	w.created.attendances.remove(id)
	delete(w.Attendances, id)
}

// allAttendances is every attendance of the world: Attendances itself
// when none is compact, else a merged copy.
func (w *World) allAttendances() map[string]Attendance {
	log := &w.created.attendances
	if log.n == 0 {
		return w.Attendances
	}
	all := make(map[string]Attendance, len(w.Attendances)+log.n)
	maps.Copy(all, w.Attendances)
	log.compacts(func(c *attendanceSlot) {
		id := c.key.String()
		all[id] = w.expand(id, *c)
	})
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
