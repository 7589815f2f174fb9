package ops

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// The documented choices an answer relies on (simulator/decisions): a
// handler, or the shared helper it calls, that takes a choice's branch
// notes it on the request, for the request log, the console and the
// traffic report.

// relyOn notes on r's log line that its answer depends on the choice d.
// Cheap and allocation-free; nothing happens when no log line is made.
func relyOn(r *http.Request, d decisions.Choice) {
	if note := front.NoteOf(r); note != nil {
		note.Relies.Add(d)
	}
}

// noteList notes the list conventions a list request's answer depends on
// (listRequest calls it with the request's query, valid or not).
func noteList(r *http.Request, q listing.RawQuery, spec listSpec) {
	note := front.NoteOf(r)
	if note == nil {
		return
	}
	set := note.Relies.Add
	if l, given := q.Lookup("limit"); given {
		if n, err := strconv.Atoi(strings.TrimSpace(l)); err == nil && (n == 0 || n > listing.DefaultLimit) {
			set(decisions.LimitBounds)
		}
	} else if spec.paged {
		set(decisions.LimitDefault)
	}
	if strings.TrimSpace(q.Get("sortby")) == "" {
		set(decisions.SortDefault)
	} else {
		set(decisions.SortbySyntax)
	}
	if q.Get("where") != "" {
		set(decisions.WhereSyntax)
	}
	if spec.dates[0] != "" && (q.Get(spec.dates[0]) != "" || q.Get(spec.dates[1]) != "") {
		set(decisions.DateBounds)
	}
}

// failStore400 is failStore for an operation whose specification lists no
// 404: a missing record is 400, the simulator's choice (D-unknown-id).
func (env *Env) failStore400(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrUnknownID) {
		relyOn(r, decisions.UnknownID)
		if env.variants.Has(variants.UnknownID404) {
			env.fail(w, http.StatusNotFound, err.Error())
			return
		}
	}
	env.failStore(w, err, http.StatusBadRequest)
}

// noteUnknown notes D-unknown-id on a list read whose parent id names no
// list (found false): the simulator answers an empty list.
func noteUnknown(r *http.Request, found bool) {
	if !found {
		relyOn(r, decisions.UnknownID)
	}
}
