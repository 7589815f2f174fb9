package store

// OpenPush opens a push transaction for user, answered by the user's
// standing decision.
func (s *Store) OpenPush(user User) Push {
	p, _ := s.OpenPushCounted(user)
	return p
}

// OpenPushCounted is OpenPush, also returning how many run-time records
// the new transaction evicted (see MaxCreated).
func (s *Store) OpenPushCounted(user User) (Push, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := Push{ID: s.newID(), UserID: user.ID, Decision: Deny}
	if user.ApprovesPush {
		p.Decision = Approve
	}
	s.w.Pushes[p.ID] = p
	n := s.remember(createdPush, p.ID, func(old string) { delete(s.w.Pushes, old) })
	return p, n
}

// Poll returns the push transaction id opened by user.
func (s *Store) Poll(id string, user User) (Push, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.w.Pushes[id]
	if !ok || p.UserID != user.ID {
		return Push{}, notFound("no push transaction " + quote(id) + " for the login user")
	}
	return p, nil
}

// DecidePush overrides the decision of a push transaction.
func (s *Store) DecidePush(id string, d Decision) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.w.Pushes[id]
	if !ok {
		return notFound("no push transaction " + quote(id))
	}
	p.Decision = d
	s.w.Pushes[id] = p
	return nil
}
