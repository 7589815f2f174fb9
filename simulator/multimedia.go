package simulator

import (
	"net/http"
	"slices"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// mediaDownloadLog is E13: a single object, the latest download.
func (s *Simulator) mediaDownloadLog(w http.ResponseWriter, r *http.Request, _ store.User) {
	id, ok := s.pathParam(w, r, "id")
	if !ok {
		return
	}
	m, err := s.store.MediaLog(id)
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// deleteMedia is E14.
func (s *Simulator) deleteMedia(w http.ResponseWriter, r *http.Request, _ store.User) {
	ids, ok := s.idsBody(w, r)
	if !ok {
		return
	}
	var n int
	switch {
	case s.defects.Has(defects.E14DeletedReadable):
		// Each id counts once, as DeleteMedia counts it.
		for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
			if _, err := s.store.MediaLog(id); err == nil {
				n++
			}
		}
	default:
		n = s.store.DeleteMedia(ids)
	}
	if s.defects.Has(defects.E14CountsRequested) {
		n = len(ids)
	}
	relyOn(r, dCounts)
	writeJSON(w, http.StatusOK, n)
}

// channelUsers is E15: all-time totals, or sums over startDate..endDate.
func (s *Simulator) channelUsers(w http.ResponseWriter, r *http.Request, _ store.User) {
	a, ok := s.listRequest(w, r, listSpec{idParam: "id", paged: true, dates: [2]string{"startDate", "endDate"}})
	if !ok {
		return
	}
	id, q, dates := a.id, a.q, s.dateRange(a)
	if s.defects.Has(defects.E15EntryPerDay) {
		days, _ := s.store.ChannelByDay(id)
		answerPage(s, w, listing.New(days), q, nil, nil, nil)
		return
	}
	if dates.Open() || s.variants.Has(variants.E15DatesUnfiltered) {
		l, found := s.store.ChannelTotals(id)
		noteUnknown(r, found)
		answerPage(s, w, l, q, nil, nil, true)
		return
	}
	users, found := s.store.ChannelRange(id, dates)
	noteUnknown(r, found)
	if s.variants.Has(variants.FewEntries) && len(users) > fewEntries {
		users = users[:fewEntries]
	}
	items, err := listing.Page(users, q, nil)
	if err != nil {
		s.badRequest(w, err)
		return
	}
	writeJSON(w, http.StatusOK, items)
}

// captureSessions is E16.
func (s *Simulator) captureSessions(w http.ResponseWriter, r *http.Request, _ store.User) {
	answerLog(s, w, r, s.store.Captures, s.defects.Has(defects.LogsEmpty))
}

// multimediaRoutes are the routes of multimedia: E13 reads a media download log, E14 deletes medias, E15 lists a channel's users, E16 the capture sessions.
var multimediaRoutes = map[registry.OpID]route{
	registry.E13: {notStudent, (*Simulator).mediaDownloadLog},
	registry.E14: {notStudent, (*Simulator).deleteMedia},
	registry.E15: {notStudent, (*Simulator).channelUsers},
	registry.E16: {notStudent, (*Simulator).captureSessions},
}
