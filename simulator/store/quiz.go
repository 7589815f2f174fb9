package store

// UpdateQuizSection replaces the settings of a quiz section with in
// (fields left at their zero value take their defaults, so
// displayQuestionMark is false unless given) and returns the section. The
// owning assessment never changes.
func (s *Store) UpdateQuizSection(in QuizSection) (QuizSection, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.w.QuizSections[in.ID]
	if !ok {
		return QuizSection{}, notFound("quiz section " + in.ID + " does not exist")
	}
	in.AssessmentID = old.AssessmentID
	s.w.QuizSections[in.ID] = in
	s.now()
	return in, nil
}

// QuizSection returns a quiz section.
func (s *Store) QuizSection(id string) (QuizSection, bool) {
	return lookup(s, func(w *World) map[string]QuizSection { return w.QuizSections }, id, same)
}
