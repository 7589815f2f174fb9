package store

import (
	"maps"
	"slices"
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

// MediaIDs returns the ids of every media, sorted.
func (s *Store) MediaIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.w.Media))
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

// Range is a range of instants: each end is included unless marked
// exclusive, and a zero end leaves its side open.
type Range struct {
	Start, End                   time.Time
	StartExclusive, EndExclusive bool
}

// Open reports whether the range has no end at all.
func (r Range) Open() bool { return r.Start.IsZero() && r.End.IsZero() }

// Holds reports whether t lies in the range.
func (r Range) Holds(t time.Time) bool {
	switch {
	case !r.Start.IsZero() && (t.Before(r.Start) || r.StartExclusive && t.Equal(r.Start)):
		return false
	case !r.End.IsZero() && (t.After(r.End) || r.EndExclusive && t.Equal(r.End)):
		return false
	}
	return true
}

// ChannelRange returns the user statistics of a channel summed over the
// days in r. Members with no activity in the range are left out.
func (s *Store) ChannelRange(channelID string, r Range) ([]ChannelUser, bool) {
	c, ok := s.lists().Channels.Get()[channelID]
	if !ok {
		return nil, false
	}
	out := []ChannelUser{}
	eachMember(c, func(m *ChannelMember) {
		u := m.User
		active := false
		for _, d := range m.Days {
			if !r.Holds(d.Day) {
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
	})
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
	eachMember(c, func(m *ChannelMember) {
		for _, d := range m.Days {
			u := m.User
			u.Plays, u.Downloads, u.Comments, u.MinutesViewed = d.Plays, d.Downloads, d.Comments, d.MinutesViewed
			out = append(out, u)
		}
	})
	return out, true
}

// eachMember calls fn with each member of c in stored order, without
// making them all at once when they are generated.
func eachMember(c *Channel, fn func(*ChannelMember)) {
	sel, err := c.Members.Select(listing.Query{Limit: -1}, nil)
	if err != nil {
		panic("store: the stored order of a channel's members: " + err.Error()) // no field is named
	}
	sel.Each(fn)
}

// Captures returns the lecture-capture sessions of a multimedia (E16).
func (s *Store) Captures(id string) (*listing.List[CaptureSession], bool) {
	l, ok := s.lists().Captures.Get()[id]
	return l, ok
}
