package ops

import (
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/passes"
	"github.com/campusconf/campusconf/simulator/store"
)

// noteEvicted adds n evicted records to the request's log line.
func noteEvicted(r *http.Request, n int) {
	if n <= 0 {
		return
	}
	if note := front.NoteOf(r); note != nil {
		note.Evicted += n
	}
}

// What every operation shares, around its handler: the inspection of its
// request, latency and injected faults (inject.go), credentials and the
// role model.

// opHandler is the handler the router gives an operation: the inspection
// of its request (inspect, when someone reads it), then what every
// operation shares (serveOperation), then the handler. The defects'
// passes over the answer and the generator defects (passes.Around), when
// any is on, sit between the inspection and the rest, as next.
type opHandler struct {
	env *Env
	op  operation
	// params are the names of the path's parameters, for the inspection.
	params []string
	// observed: a request may carry a front.Note (the entry observes); when
	// not, the context is not searched for one.
	observed bool
	// next is the passes and generator defects around serveOperation;
	// nil when none is on.
	next http.Handler
}

// opHandler returns op's handler at path, as the switches stand.
func (env *Env) opHandler(op operation, path string) *opHandler {
	h := &opHandler{env: env, op: op, params: pathParams(path), observed: env.observed}
	wrapped := passes.Around(op.ID, env.defects, env.variants, env.store, env.operation(op))
	if _, plain := wrapped.(operationHandler); !plain {
		h.next = wrapped
	}
	return h
}

func (h *opHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.env.limited(w) {
		return
	}
	var note *front.Note
	if h.observed {
		note = front.NoteOf(r)
		if note != nil && note.Inspect {
			h.inspect(note, r)
		}
	}
	if h.next != nil {
		h.next.ServeHTTP(w, r)
		return
	}
	h.env.serveOperation(h.op, note, w, r)
}

// operationHandler is serveOperation as an http.Handler, for the passes
// and generator defects to wrap.
type operationHandler struct {
	env *Env
	op  operation
}

func (h operationHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.env.serveOperation(h.op, front.NoteOf(r), w, r)
}

// operation is op's handler wrapped with what every operation shares.
func (env *Env) operation(op operation) http.Handler { return operationHandler{env, op} }

// serveOperation serves op with what every operation shares: latency,
// credentials (401), the role model (403) and injected faults; note is
// the request's log line, nil when none is made.
func (env *Env) serveOperation(op operation, note *front.Note, w http.ResponseWriter, r *http.Request) {
	if note != nil {
		note.Op = string(op.ID)
	}
	if !env.inject.delay(r.Context()) {
		return
	}
	u, ok := env.authenticate(w, r, op)
	if !ok {
		relyOn(r, decisions.Auth401)
		return
	}
	if env.defects.Has(defects.UUIDUpperRefused) && front.UpperUUID([]byte(r.URL.Path)) {
		env.fail(w, http.StatusBadRequest, "path: expected uuids in lower case")
		return
	}
	if note != nil {
		note.User = u.Fixture
	}
	if (!env.perRecord(op) || env.namesExisting(op.ID, r)) && !env.authorize(w, op, u) {
		if op.ChangesState && env.defects.Has(defects.ForbiddenWriteFirst) {
			env.carryOut(op, r)
		}
		if op.access == notStudent {
			relyOn(r, decisions.ExtraPermissions)
		}
		return
	}
	if status, msg := env.inject.fault(op.ID); status != 0 {
		env.fail(w, status, msg)
		return
	}
	op.handle(env, w, r, u)
}

// authenticate checks the subscription key and the bearer token and
// returns the calling user; a refusal of op is answered.
func (env *Env) authenticate(w http.ResponseWriter, r *http.Request, op operation) (store.User, bool) {
	u, status, msg := env.credentials(r)
	if status == 0 {
		return u, true
	}
	key := strings.HasPrefix(msg, keyRefusalPrefix)
	if key && op.ChangesState && env.defects.Has(defects.KeyWriteFirst) {
		env.carryOut(op, r)
	}
	switch {
	case key && env.defects.Has(defects.KeyRefusalObject):
		front.WriteJSON(w, status, map[string]any{"statusCode": status, "message": msg})
	case !key && env.defects.Has(defects.TokenRefusalObject):
		front.WriteJSON(w, status, map[string]string{"message": msg})
	default:
		env.fail(w, status, msg)
	}
	return store.User{}, false
}

// keyRefusalPrefix starts the message of every refusal of the
// subscription key.
const keyRefusalPrefix = "Ocp-Apim-Subscription-Key: "

// carryOut serves op for owner, its answer thrown away: the
// key-write-first and forbidden-write-first defects, which refuse the call
// only after it.
func (env *Env) carryOut(op operation, r *http.Request) {
	for _, u := range env.store.Users() {
		if u.Fixture == "owner" {
			op.handle(env, &discarded{header: http.Header{}}, r, u)
			return
		}
	}
}

// discarded is a ResponseWriter that keeps nothing.
type discarded struct{ header http.Header }

func (d *discarded) Header() http.Header         { return d.header }
func (d *discarded) Write(p []byte) (int, error) { return len(p), nil }
func (d *discarded) WriteHeader(int)             {}

// Authenticates reports whether r passes the credential check every
// operation makes (its subscription key and user token, as the defects in
// force read them), answering nothing: a request that does not names no
// world (simulator/namedworlds.go). The key and the tokens are the seed's,
// the same in every world.
func (env *Env) Authenticates(r *http.Request) bool {
	_, status, _ := env.credentials(r)
	return status == 0
}

// credentials is the credential check: the calling user, or the status
// and message of the refusal.
func (env *Env) credentials(r *http.Request) (store.User, int, string) {
	key := front.HeaderValue(r.Header, "Ocp-Apim-Subscription-Key")
	switch {
	case key == "" && env.defects.Has(defects.MissingKeyAccepted):
	case key == "":
		return store.User{}, env.keyRefusal(), keyRefusalPrefix + "expected a subscription key, the header is missing"
	case key != env.store.SubscriptionKey() && env.defects.Has(defects.UnknownKeyAccepted):
	case key != env.store.SubscriptionKey():
		return store.User{}, env.keyRefusal(), keyRefusalPrefix + "the subscription key is not valid"
	}
	token, refusal := env.userToken(r)
	if refusal != "" {
		return store.User{}, env.tokenRefusal(), refusal
	}
	u, ok := env.store.UserByToken(token)
	if !ok {
		return store.User{}, env.tokenRefusal(), env.unknownToken()
	}
	return u, 0, ""
}

// notAuthorized is the 403 message.
const notAuthorized = "the login user is not authorized to perform this action"

// authorize applies the role model; E5's per-module check is in the store.
func (env *Env) authorize(w http.ResponseWriter, op operation, u store.User) bool {
	if op.refuses(u.Role) {
		env.fail(w, http.StatusForbidden, notAuthorized+" ("+string(op.ID)+" is refused to the "+string(u.Role)+" role)")
		return false
	}
	return true
}

// refuses reports whether the role model refuses op to role.
func (op operation) refuses(role store.Role) bool {
	switch op.access {
	case notStudent:
		return role == store.RoleStudent
	case superAdmin:
		return role != store.RoleSuperAdmin
	case accessDelete:
		return role != store.RoleSuperAdmin && role != store.RoleOwner
	}
	return false
}
