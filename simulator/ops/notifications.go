package ops

import (
	"net/http"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// notificationByGroup is NG.
func (env *Env) notificationByGroup(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, pop, ok := env.pathPopulate(w, r, "id", populateEntities[registry.NG]...)
	if !ok {
		return
	}
	n, err := env.store.NotificationByGroup(id, pop["ancestor"] && !env.defects.Has(defects.NotificationNoAncestor))
	if err == nil && env.defects.Has(defects.NotificationOtherGroup) {
		if other, ok := env.store.NotificationOfAnotherGroup(id); ok {
			other.Ancestor = n.Ancestor
			n = other
		}
	}
	if err != nil {
		failUnknown(env, w, r, err, func() (store.Notification, bool) { return env.store.NotificationOfAnotherGroup(id) })
		return
	}
	if n.Ancestor != nil && env.defects.Has(defects.NotificationAncestorSelf) {
		n.Ancestor = append(n.Ancestor, store.Target{ID: n.TargetID, Name: "the target itself", TypeID: 1, TypeName: n.Type})
	}
	if pop["ancestor"] && env.defects.Has(defects.PopulateChangesOthers) {
		n.NotifyMessage = ""
	}
	front.WriteJSON(w, http.StatusOK, n)
}

// updateNotificationRead is NR.
func (env *Env) updateNotificationRead(w http.ResponseWriter, r *http.Request, _ store.User, b *front.Body) {
	id, read := b.Int64("id", true), b.Int32("read", true)
	outside := b.Err() == nil && (*read < store.Unread || *read > store.Read)
	if outside && env.defects.Has(defects.NotifyReadUnchecked) {
		if n, ok := env.store.Notification(*id); ok {
			front.WriteJSON(w, http.StatusOK, n) // acknowledged, and nothing done
			return
		}
	}
	if outside && env.defects.Has(defects.NotifyReadRefusedStored) {
		_, _ = env.store.SetNotificationRead(*id, store.Read) // refused all the same below
	}
	b.Check(outside, "read: expected 10 (unread) or 11 (read), got %d", deref(read))
	if env.refused(w, b) {
		return
	}
	// the defects first: without them the record is not looked up twice
	if env.defects.Has(defects.NotifyReadOneWay) {
		if cur, ok := env.store.Notification(*id); ok && cur.NotifyStatus == store.Read {
			*read = store.Read
		}
	}
	if env.defects.Has(defects.NotifyReadSameToggles) {
		if cur, ok := env.store.Notification(*id); ok && cur.NotifyStatus == *read {
			*read = store.Read + store.Unread - *read
		}
	}
	n, err := env.store.SetNotificationRead(*id, *read)
	if err != nil {
		failUnknown(env, w, r, err, func() (store.Notification, bool) {
			n, ok := env.store.Notification(env.refs.OtherNotification)
			n.ID, n.NotifyStatus = *id, *read
			return n, ok
		})
		return
	}
	if env.defects.Has(defects.NotifyReadMadeUp) {
		const nilUUID = "00000000-0000-0000-0000-000000000000"
		n = store.Notification{ID: *id, NotifyStatus: *read, TargetID: nilUUID, NotifyGroupID: nilUUID, RecordDate: n.RecordDate}
	}
	front.WriteJSON(w, http.StatusOK, n)
}

// notificationRoutes are the routes of notifications: NG reads one by group, NR marks one read or unread.
var notificationRoutes = map[registry.OpID]route{
	registry.NG: {access: notStudent, handle: (*Env).notificationByGroup},
	registry.NR: {access: notStudent, handle: withBody((*Env).updateNotificationRead)},
}
