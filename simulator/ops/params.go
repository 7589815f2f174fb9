package ops

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// What a handler reads of its request, answering the request itself when
// it cannot (the body, the ids of its path, populate and the dates of its
// query), and the error answers it writes.

// fail answers an error in the interface's form (front.Fail).
func (env *Env) fail(w http.ResponseWriter, status int, msg string) {
	front.Fail(w, env.defects, status, msg)
}

// badRequest answers a request the simulator cannot accept
// (front.BadRequest).
func (env *Env) badRequest(w http.ResponseWriter, err error) { front.BadRequest(w, env.defects, err) }

// failUnknown is failStore400 for an operation answering one record:
// under the unknown-id-made-up defect, an id that names no record is
// answered 200 with the record madeUp gives (another record, dressed with
// the id asked for), as a handler that falls back to the first row does.
func failUnknown[T any](env *Env, w http.ResponseWriter, r *http.Request, err error, madeUp func() (T, bool)) {
	if env.defects.Has(defects.UnknownIDMadeUp) && (errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrUnknownID)) {
		if rec, ok := madeUp(); ok {
			front.WriteJSON(w, http.StatusOK, rec)
			return
		}
	}
	env.failStore400(w, r, err)
}

// readBody reads a JSON object body, answering itself when it cannot
// (front.ReadBody): then it returns nil.
func (env *Env) readBody(w http.ResponseWriter, r *http.Request) *front.Body {
	return front.ReadBody(w, r, env.defects)
}

// populates are the populate entities op accepts, as the registry
// declares them: none with the named defect, which leaves populate
// unimplemented.
func (env *Env) populates(defect defects.Name, op registry.OpID) []string {
	if env.defects.Has(defect) {
		return nil
	}
	return populateEntities[op]
}

// populateEntities are the entities of registry.Populates by operation,
// read once: the handlers look them up on every request.
var populateEntities = func() map[registry.OpID][]string {
	out := map[registry.OpID][]string{}
	for _, id := range registry.IDs() {
		for _, p := range registry.Populates(id) {
			out[id] = append(out[id], p.Entity)
		}
	}
	return out
}()

// refused answers 400 with the first error of the body's members and
// says so; a body without one is left to the handler.
func (env *Env) refused(w http.ResponseWriter, b *front.Body) bool {
	if b.Err() == nil {
		return false
	}
	env.badRequest(w, b.Err())
	return true
}

// pathAndBody reads a path id and a JSON object body; b is nil once the
// request was answered (a malformed id, or what readBody refuses).
func (env *Env) pathAndBody(w http.ResponseWriter, r *http.Request, name string) (id string, b *front.Body) {
	id, ok := env.pathParam(w, r, name)
	if !ok {
		return "", nil
	}
	return id, env.readBody(w, r)
}

// pathPopulate reads a uuid path parameter and the populate query
// parameter, the opening of a handler that reads one record: either
// malformed is answered 400 here (the path first), and ok is false.
func (env *Env) pathPopulate(w http.ResponseWriter, r *http.Request, name string, accepted ...string) (id string, pop map[string]bool, ok bool) {
	id, err := front.PathUUID(r, name)
	if err == nil {
		pop, err = env.populate(r, accepted...)
	}
	if err != nil {
		env.badRequest(w, err)
		return "", nil, false
	}
	return id, pop, true
}

// pathParam reads a uuid path parameter (front.PathUUID) for a handler: a
// malformed id is answered 400 here, and ok is false.
func (env *Env) pathParam(w http.ResponseWriter, r *http.Request, name string) (id string, ok bool) {
	id, err := front.PathUUID(r, name)
	if err != nil {
		env.badRequest(w, err)
		return "", false
	}
	return id, true
}

// queryOf returns r's query parameters as sent: each reader (paging,
// dates, populate, search) looks up the one or two it wants, as
// url.Values would answer, without building the map.
func queryOf(r *http.Request) listing.RawQuery { return listing.RawQuery(r.URL.RawQuery) }

// populateIn reads the populate query parameter: comma-separated entities,
// each one of accepted (case-insensitive unless exact). It returns the set
// named. The checkers read the accepted entities from the OpenAPI document
// (internal/rules.AcceptedValues); the simulator lists them in its handlers
// on purpose, as the reference implementation they are tested against.
//
// Without populate the set is nil, read as empty: most requests name no
// entity, and an empty map was an allocation each.
func populateIn(q listing.RawQuery, exact bool, accepted ...string) (map[string]bool, error) {
	v := q.Get("populate")
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	out := map[string]bool{}
	for _, e := range strings.Split(v, ",") {
		e = strings.TrimSpace(e)
		found := false
		for _, a := range accepted {
			if e == a || !exact && strings.EqualFold(e, a) {
				out[a] = true
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("populate: expected one or more of %s, got %q", strings.Join(accepted, ", "), e)
		}
	}
	return out, nil
}

// queryDateTime reads an optional RFC 3339 query parameter.
func queryDateTime(q listing.RawQuery, name string) (time.Time, error) {
	v := q.Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	return front.ParseDateTime(name, v)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// What a handler is given besides the request: the JSON body of a write
// (withBody) or the list request of a list operation (listed), read and
// checked before the handler runs, so that no handler opens with the same
// lines of reading and refusing.

// bodyHandler serves an operation whose request carries a JSON object
// body: b is that body, read before the handler is called (withBody).
type bodyHandler func(env *Env, w http.ResponseWriter, r *http.Request, u store.User, b *front.Body)

// withBody reads the request's JSON object body before h sees it; a body
// front.ReadBody refuses (415, 413 or 400) is answered there and h is not
// called.
func withBody(h bodyHandler) handler {
	return func(env *Env, w http.ResponseWriter, r *http.Request, u store.User) {
		if b := env.readBody(w, r); b != nil {
			h(env, w, r, u, b)
		}
	}
}

// listArgs is what a list operation reads from its request.
type listArgs struct {
	id         string
	pop        map[string]bool
	q          listing.Query
	start, end time.Time
	// query is the request's query, parsed once
	query listing.RawQuery
}

// listSpec says what a list operation takes besides offset, limit, sortby
// and where.
type listSpec struct {
	op      registry.OpID
	idParam string // the path parameter naming the parent record
	paged   bool   // the default limit applies (the operation declares paging)
	// populate: the operation takes a populate parameter, whose accepted
	// entities are the registry's unless the defect populateOff is on
	// (then every entity is refused)
	populate    bool
	populateOff defects.Name
	dates       [2]string // query parameters of a date-time range, if any
}

// listSpecOf is what the list operation op takes, as the registry
// declares it: the last parameter of its path names the parent record,
// Paged says it pages, Populates that it takes populate, and its DateFrom
// and DateTo filters are its date-time range.
func listSpecOf(op registry.Operation, populateOff defects.Name) listSpec {
	s := listSpec{op: op.ID, paged: op.Paged, populate: len(op.Populates) > 0, populateOff: populateOff}
	if i, j := strings.LastIndex(op.Path, "{"), strings.LastIndex(op.Path, "}"); i >= 0 && j > i {
		s.idParam = op.Path[i+1 : j]
	}
	for _, f := range op.ListFacts.Filters {
		switch f.Kind {
		case registry.DateFrom:
			s.dates[0] = f.Param
		case registry.DateTo:
			s.dates[1] = f.Param
		}
	}
	return s
}

// listHandler serves a list operation: a is its request, read and found
// valid (listRequest).
type listHandler func(env *Env, w http.ResponseWriter, r *http.Request, a listArgs)

// listed is the handler of a list operation: it reads the request as spec
// says, answering 400 itself on bad input, and passes it to h.
func listed(spec listSpec, h listHandler) handler {
	return func(env *Env, w http.ResponseWriter, r *http.Request, _ store.User) {
		if a, ok := env.listRequest(w, r, spec); ok {
			h(env, w, r, a)
		}
	}
}
