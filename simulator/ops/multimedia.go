package ops

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/uuid"
	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// mediaDownloadLog is E13: a single object, the latest download.
func (env *Env) mediaDownloadLog(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, ok := env.pathParam(w, r, "id")
	if !ok {
		return
	}
	m, err := env.store.MediaLog(id)
	if err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	front.WriteJSON(w, http.StatusOK, m)
}

// deleteMedia is E14.
func (env *Env) deleteMedia(w http.ResponseWriter, r *http.Request, _ store.User, b *front.Body) {
	written, ids := b.Get("iDs", false), b.UUIDs("iDs", false)
	if b.Err() != nil && env.defects.Has(defects.E14DeletesBeforeChecking) {
		env.store.DeleteMedia(wellFormedIDs(written))
	}
	if env.refused(w, b) {
		return
	}
	var n int
	switch {
	case env.defects.Has(defects.E14DeletedReadable):
		// Each id counts once, as DeleteMedia counts it.
		for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
			if _, err := env.store.MediaLog(id); err == nil {
				n++
			}
		}
	case env.defects.Has(defects.E14DeletesAll):
		n = env.store.DeleteMedia(ids)
		env.store.DeleteMedia(env.store.MediaIDs())
	case env.defects.Has(defects.E14CountsDeleted):
		env.store.DeleteMedia(ids)
		// the media deleted before are the fixture's deletable ones
		for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
			if slices.Contains(env.refs.DeletableMedia, id) {
				n++
			}
		}
	default:
		n = env.store.DeleteMedia(ids)
	}
	if env.defects.Has(defects.E14CountsRequested) {
		n = len(ids)
	}
	relyOn(r, decisions.Counts)
	front.WriteJSON(w, http.StatusOK, n)
}

// channelUsers is E15: all-time totals, or sums over startDate..endDate.
func (env *Env) channelUsers(w http.ResponseWriter, r *http.Request, a listArgs) {
	id, q, dates := a.id, a.q, env.dateRange(a)
	if env.defects.Has(defects.E15EntryPerDay) {
		days, _ := env.store.ChannelByDay(id)
		answerPage(env, w, listing.New(days), q, page[store.ChannelUser]{})
		return
	}
	if dates.Open() || env.variants.Has(variants.E15DatesUnfiltered) {
		l, found := env.store.ChannelTotals(id)
		noteUnknown(r, found)
		answerPage(env, w, l, q, page[store.ChannelUser]{cacheAs: true})
		return
	}
	users, found := env.store.ChannelRange(id, dates)
	noteUnknown(r, found)
	if env.variants.Has(variants.FewEntries) && len(users) > fewEntries {
		users = users[:fewEntries]
	}
	items, err := listing.Page(users, q, nil)
	if err != nil {
		env.badRequest(w, err)
		return
	}
	front.WriteJSON(w, http.StatusOK, items)
}

// captureSessions is E16.
func (env *Env) captureSessions(w http.ResponseWriter, r *http.Request, a listArgs) {
	answerLog(env, w, r, a, env.store.Captures, env.defects.Has(defects.LogsEmpty))
}

// multimediaRoutes are the routes of multimedia: E13 reads a media download log, E14 deletes medias, E15 lists a channel's users, E16 the capture sessions.
var multimediaRoutes = map[registry.OpID]route{
	registry.E13: {access: notStudent, handle: (*Env).mediaDownloadLog},
	registry.E14: {access: notStudent, handle: withBody((*Env).deleteMedia)},
	registry.E15: {access: notStudent, list: (*Env).channelUsers},
	registry.E16: {access: notStudent, list: (*Env).captureSessions},
}

// wellFormedIDs are the uuids of a JSON array that parse as uuids, for
// e14-deletes-before-checking: what a loop deleting as it parses has
// deleted by the time it meets a malformed one.
func wellFormedIDs(raw json.RawMessage) []string {
	var written []any
	_ = json.Unmarshal(raw, &written)
	var out []string
	for _, w := range written {
		s, _ := w.(string)
		id, err := uuid.Parse(s)
		if err != nil {
			break
		}
		out = append(out, id)
	}
	return out
}
