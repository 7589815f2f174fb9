package simulator

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
)

// notificationByGroup is NG.
func (s *Simulator) notificationByGroup(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, ok := s.pathParam(w, r, "id")
	if !ok {
		return
	}
	pop, err := s.populate(r, "ancestor")
	if err != nil {
		s.badRequest(w, err)
		return
	}
	n, err := s.store.NotificationByGroup(id, pop["ancestor"] && !s.defects.Has(defects.NotificationNoAncestor))
	if err == nil && s.defects.Has(defects.NotificationOtherGroup) {
		if other, ok := s.store.NotificationOfAnotherGroup(id); ok {
			other.Ancestor = n.Ancestor
			n = other
		}
	}
	if err != nil {
		s.failStore400(w, r, err)
		return
	}
	writeNotification(w, &n)
}

// updateNotificationRead is NR.
func (s *Simulator) updateNotificationRead(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	id, read := b.int64("id", true), b.int32("read", true)
	outside := b.err == nil && (*read < store.Unread || *read > store.Read)
	if outside && s.defects.Has(defects.NotifyReadUnchecked) {
		if n, ok := s.store.Notification(*id); ok {
			writeJSON(w, http.StatusOK, n) // acknowledged, and nothing done
			return
		}
	}
	b.check(outside, "read: expected 10 (unread) or 11 (read), got %d", deref(read))
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	// the defects first: without them the record is not looked up twice
	if s.defects.Has(defects.NotifyReadOneWay) {
		if cur, ok := s.store.Notification(*id); ok && cur.NotifyStatus == store.Read {
			*read = store.Read
		}
	}
	if s.defects.Has(defects.NotifyReadSameToggles) {
		if cur, ok := s.store.Notification(*id); ok && cur.NotifyStatus == *read {
			*read = store.Read + store.Unread - *read
		}
	}
	n, err := s.store.SetNotificationRead(*id, *read)
	if err != nil {
		s.failStore400(w, r, err)
		return
	}
	writeNotification(w, &n)
}

// notificationRoutes are the routes of notifications: NG reads one by group, NR marks one read or unread.
var notificationRoutes = map[registry.OpID]route{
	registry.NG: {notStudent, (*Simulator).notificationByGroup},
	registry.NR: {notStudent, (*Simulator).updateNotificationRead},
}
