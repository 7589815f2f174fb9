package store

import (
	"github.com/campusconf/campusconf/simulator/listing"
)

// SurveyResponses returns the responses to a survey question (E17).
func (s *Store) SurveyResponses(questionID string) (*listing.List[SurveyResponse], bool) {
	l, ok := s.lists().SurveyResponses.Get()[questionID]
	return l, ok
}

// PollResponses returns the responses to a poll question (E18).
func (s *Store) PollResponses(questionID string) (*listing.List[PollResponse], bool) {
	l, ok := s.lists().Polls.Get().ByQuestion[questionID]
	return l, ok
}

// PollResponse returns one poll response (E19).
func (s *Store) PollResponse(id string) (PollResponse, error) {
	r, ok := s.lists().Polls.Get().Response(id)
	if !ok {
		return PollResponse{}, notFound("poll response " + id + " does not exist")
	}
	return r, nil
}
