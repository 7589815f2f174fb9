package store

import (
	"time"

	"github.com/campusconf/campusconf/simulator/listing"
)

// MediaLog returns the latest download log entry of a media.
func (s *Store) MediaLog(id string) (MediaLog, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.w.Media[id]
	if !ok {
		return MediaLog{}, notFound("media " + id + " does not exist")
	}
	return m, nil
}

// DeleteMedia deletes the named media and returns how many existed.
func (s *Store) DeleteMedia(ids []string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, id := range unique(ids) {
		if _, ok := s.w.Media[id]; ok {
			delete(s.w.Media, id)
			n++
		}
	}
	return n
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

// ChannelByDay returns the user statistics of a channel one entry per
// member and day of activity, for the e15-entry-per-day defect.
func (s *Store) ChannelByDay(channelID string) ([]ChannelUser, bool) {
	c, ok := s.lists().Channels.Get()[channelID]
	if !ok {
		return nil, false
	}
	out := []ChannelUser{}
	for _, m := range c.Members {
		for _, d := range m.Days {
			u := m.User
			u.Plays, u.Downloads, u.Comments, u.MinutesViewed = d.Plays, d.Downloads, d.Comments, d.MinutesViewed
			out = append(out, u)
		}
	}
	return out, true
}

// Captures returns the lecture-capture sessions of a multimedia (E16).
func (s *Store) Captures(id string) (*listing.List[CaptureSession], bool) {
	l, ok := s.lists().Captures.Get()[id]
	return l, ok
}
