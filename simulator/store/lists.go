package store

import (
	"time"

	"github.com/campusconf/campusconf/simulator/listing"
)

// The read-only lists. Each returns the list of a parent and whether the
// parent exists; the list is shared and immutable, and its Page copies out.

// FileLogs returns the file activity log of a folder (E10), oldest first.
func (s *Store) FileLogs(folderID string) (*listing.List[FileLog], bool) {
	l, ok := s.lists().FileLogs.Get()[folderID]
	return l, ok
}

// Annotations returns the annotations of a file (E11).
func (s *Store) Annotations(fileID string) (*listing.List[Annotation], bool) {
	l, ok := s.lists().Annotations.Get()[fileID]
	return l, ok
}

// WeblinkLogs returns the view log of a weblink (E12).
func (s *Store) WeblinkLogs(weblinkID string) (*listing.List[WeblinkLog], bool) {
	l, ok := s.lists().WeblinkLogs.Get()[weblinkID]
	return l, ok
}

// Captures returns the lecture-capture sessions of a multimedia (E16).
func (s *Store) Captures(id string) (*listing.List[CaptureSession], bool) {
	l, ok := s.lists().Captures.Get()[id]
	return l, ok
}

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
	r, ok := s.lists().Polls.Get().ByID[id]
	if !ok {
		return PollResponse{}, notFound("poll response " + id + " does not exist")
	}
	return r, nil
}

// Students returns the students with access to a resource (E20).
func (s *Store) Students(resourceID string) (*listing.List[Student], bool) {
	l, ok := s.lists().Students.Get()[resourceID]
	return l, ok
}

// ChannelTotals returns the all-time user statistics of a channel (E15).
func (s *Store) ChannelTotals(channelID string) (*listing.List[ChannelUser], bool) {
	c, ok := s.lists().Channels.Get()[channelID]
	if !ok {
		return nil, false
	}
	return c.Totals, true
}

// ChannelRange returns the user statistics of a channel summed over the
// days from start to end inclusive (a zero bound is open). Members with no
// activity in the range are left out.
func (s *Store) ChannelRange(channelID string, start, end time.Time) ([]ChannelUser, bool) {
	c, ok := s.lists().Channels.Get()[channelID]
	if !ok {
		return nil, false
	}
	out := []ChannelUser{}
	for _, m := range c.Members {
		u := m.User
		active := false
		for _, d := range m.Days {
			if (!start.IsZero() && d.Day.Before(start)) || (!end.IsZero() && d.Day.After(end)) {
				continue
			}
			active = true
			u.Plays += d.Plays
			u.Downloads += d.Downloads
			u.Comments += d.Comments
			u.MinutesViewed += d.MinutesViewed
		}
		if active {
			out = append(out, u)
		}
	}
	return out, true
}
