package store

import (
	"slices"
	"strconv"
)

// NotificationByGroup returns the notification of a notification group,
// with its ancestors when withAncestors is set.
func (s *Store) NotificationByGroup(groupID string, withAncestors bool) (Notification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.w.Notifications {
		if n.NotifyGroupID == groupID {
			return s.notification(n, withAncestors), nil
		}
	}
	return Notification{}, notFound("no notification has notifyGroupId " + groupID)
}

// SetNotificationRead moves a notification to read (11) or unread (10)
// and returns the updated record. The caller has checked read.
func (s *Store) SetNotificationRead(id int64, read int32) (Notification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.w.Notifications[id]
	if !ok {
		return Notification{}, notFound("notification " + strconv.FormatInt(id, 10) + " does not exist")
	}
	if !s.policy.NotifyStatusKept {
		n.NotifyStatus = read
		s.w.Notifications[id] = n
		s.now()
	}
	if s.policy.NotifyStatusEveryone {
		// every notification is the one user's in the simulator's world
		for k, o := range s.w.Notifications {
			o.NotifyStatus = read
			s.w.Notifications[k] = o
		}
	}
	return s.notification(n, false), nil
}

// Notification returns a notification by id.
func (s *Store) Notification(id int64) (Notification, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.w.Notifications[id]
	return s.notification(n, false), ok
}

func (s *Store) notification(n Notification, withAncestors bool) Notification {
	n.Ancestor = nil
	if withAncestors {
		n.Ancestor = slices.Clone(s.w.Ancestors[n.TargetID])
		if n.Ancestor == nil {
			n.Ancestor = []Target{}
		}
	}
	return n
}

// NotificationOfAnotherGroup returns the notification with the smallest id
// whose group is not groupID (a defect that answers the wrong record uses
// it).
func (s *Store) NotificationOfAnotherGroup(groupID string) (Notification, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best *Notification
	for _, n := range s.w.Notifications {
		if n.NotifyGroupID == groupID {
			continue
		}
		n := n
		if best == nil || n.ID < best.ID {
			best = &n
		}
	}
	if best == nil {
		return Notification{}, false
	}
	return s.notification(*best, false), true
}
