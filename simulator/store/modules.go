package store

import "github.com/campusconf/campusconf/simulator/listing"

// WeblinkLogs returns the view log of a weblink (E12).
func (s *Store) WeblinkLogs(weblinkID string) (*listing.List[WeblinkLog], bool) {
	l, ok := s.lists().WeblinkLogs.Get()[weblinkID]
	return l, ok
}
