package ops

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// publishSessions is E21.
func (env *Env) publishSessions(w http.ResponseWriter, r *http.Request, _ store.User, b *front.Body) {
	ids, publish := b.UUIDs("iDs", false), b.Bool("publish", true)
	if env.refused(w, b) {
		return
	}
	if env.defects.Has(defects.E21IDsExactCase) {
		ids = slices.DeleteFunc(ids, func(id string) bool { return !bytes.Contains(b.Get("iDs", false), []byte(`"`+id+`"`)) })
	}
	n, changed := env.store.PublishSessions(ids, *publish)
	if env.variants.Has(variants.E21ChangedCount) {
		n = changed
	}
	if env.defects.Has(defects.E21CountsUnknown) {
		// each id once, so that this mistake is the only one: a session
		// named twice is e21-counts-each-id's
		seen := map[string]bool{}
		for _, id := range ids {
			seen[id] = true
		}
		n = len(seen)
	}
	if env.defects.Has(defects.E21CountsEachID) {
		n = 0
		for _, id := range ids {
			if _, ok := env.store.SessionPublished(id); ok {
				n++
			}
		}
	}
	relyOn(r, decisions.Counts)
	if env.defects.Has(defects.E21CountString) {
		front.WriteJSON(w, http.StatusOK, strconv.Itoa(n))
		return
	}
	front.WriteJSON(w, http.StatusOK, n)
}

// webLectureRoutes are the routes of web lectures: E21 publishes sessions.
var webLectureRoutes = map[registry.OpID]route{
	registry.E21: {access: notStudent, handle: withBody((*Env).publishSessions)},
}
