package store

// PublishSessions sets the publish flag of the named web lecture sessions
// and returns how many exist and how many of them it changed.
func (s *Store) PublishSessions(ids []string, publish bool) (n, changed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range unique(ids) {
		if was, ok := s.w.Sessions[id]; ok {
			s.w.Sessions[id] = publish
			n++
			if was != publish {
				changed++
			}
		}
	}
	return n, changed
}

// SessionPublished returns the publish flag of a web lecture session.
func (s *Store) SessionPublished(id string) (published, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	published, ok = s.w.Sessions[id]
	return published, ok
}
