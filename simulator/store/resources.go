package store

import "github.com/campusconf/campusconf/simulator/listing"

// Students returns the students with access to a resource (E20).
func (s *Store) Students(resourceID string) (*listing.List[Student], bool) {
	l, ok := s.lists().Students.Get()[resourceID]
	return l, ok
}
