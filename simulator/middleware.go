package simulator

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// requestInfo is what the log line says about a request beyond method,
// path and status; the operation wrapper fills it.
type requestInfo struct {
	op   string
	user string
	// evicted counts the run-time records the request evicted (see
	// store.MaxCreated).
	evicted int
	// inspect asks the inspected layer (traffic.go) for the request's
	// violations; relies are the documented choices its answer depended
	// on (relyOn); example is the request as the traffic report shows it.
	inspect    bool
	violations []openapi.Violation
	relies     relies
	example    Example
}

// queryOf returns r's query parameters as sent: each reader (paging,
// dates, populate, search) looks up the one or two it wants, as
// url.Values would answer, without building the map.
func queryOf(r *http.Request) listing.RawQuery { return listing.RawQuery(r.URL.RawQuery) }

// noteEvicted adds n evicted records to the request's log line.
func noteEvicted(r *http.Request, n int) {
	if n <= 0 {
		return
	}
	if info, ok := r.Context().Value(infoKey{}).(*requestInfo); ok {
		info.evicted += n
	}
}

type infoKey struct{}

// recorder remembers the status and size of an answer.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection's writer (the
// console's event stream flushes through it).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// logged is the entry layer's path when a request is observed: it serves
// the request with a requestInfo in its context, then writes one line per
// request: method, path and query, status, duration, operation and the
// caller's fixture role. It never logs header values, so neither the
// subscription key nor a token appears.
//
// With the control API on, the same facts (but for control API calls) feed
// the console's live request log (events.go).
func (e *entry) logged(w http.ResponseWriter, r *http.Request) {
	s := e.s
	start := time.Now()
	info := &requestInfo{inspect: s.inspecting()}
	rec := &recorder{ResponseWriter: w}
	e.serve(rec, r.WithContext(context.WithValue(r.Context(), infoKey{}, info)))
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	path := logPath(r.URL.Path)
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	took := time.Since(start)
	if s.log != nil {
		s.log.LogAttrs(r.Context(), levelOf(rec.status), r.Method+" "+path,
			slogAttrs(rec.status, took, info, rec.bytes)...)
	}
	if s.events != nil && !isControlPath(r.URL.Path) {
		ev := logEntry{Time: start, Method: r.Method, Path: path, Status: rec.status,
			Millis: float64(took.Microseconds()) / 1000, User: info.user, Op: info.op, World: s.name}
		if info.inspect {
			ev.Violations, ev.Relies = violationIDs(info.violations), info.relies.ids()
		}
		s.events.publish(ev)
	}
	if s.traffic != nil {
		s.traffic.add(s, info, rec.status)
	}
}

// observed reports whether anything reads what each request did: the
// request log, the console's live log (with the control API on), the
// traffic record. Fixed when the simulator is built.
func (s *Simulator) observed() bool { return s.log != nil || s.events != nil || s.traffic != nil }

// logPath is the path as the log shows it: under the control API the
// segment that carries the token is masked.
func logPath(p string) string {
	rest, ok := strings.CutPrefix(p, controlPrefix+"/")
	if !ok {
		return p
	}
	_, after, more := strings.Cut(rest, "/")
	if more {
		return controlPrefix + "/TOKEN/" + after
	}
	return controlPrefix + "/TOKEN"
}

// opHandler is the handler the router gives an operation: the inspection
// of its request (inspect, when someone reads it), then what every
// operation shares (serveOperation), then the handler. The defects'
// passes over the answer (answering) and the generator defects
// (generatorFaults), when any is on, sit between the inspection and the
// rest, as next.
type opHandler struct {
	s  *Simulator
	op operation
	// params are the names of the path's parameters, for the inspection.
	params []string
	// observed: a request may carry a requestInfo (entry.observed); when
	// not, the context is not searched for one.
	observed bool
	// next is the passes and generator defects around serveOperation;
	// nil when none is on.
	next http.Handler
}

// opHandler returns op's handler at path, as the switches stand.
func (s *Simulator) opHandler(op operation, path string) *opHandler {
	h := &opHandler{s: s, op: op, params: pathParams(path), observed: s.observed()}
	wrapped := s.answering(op.ID, s.generatorFaults(op.ID, s.operation(op)))
	if _, plain := wrapped.(operationHandler); !plain {
		h.next = wrapped
	}
	return h
}

func (h *opHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var info *requestInfo
	if h.observed {
		info, _ = r.Context().Value(infoKey{}).(*requestInfo)
		if info != nil && info.inspect {
			h.inspect(info, r)
		}
	}
	if h.next != nil {
		h.next.ServeHTTP(w, r)
		return
	}
	h.s.serveOperation(h.op, info, w, r)
}

// operationHandler is serveOperation as an http.Handler, for the passes
// and generator defects to wrap.
type operationHandler struct {
	s  *Simulator
	op operation
}

func (h operationHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	info, _ := r.Context().Value(infoKey{}).(*requestInfo)
	h.s.serveOperation(h.op, info, w, r)
}

// operation is op's handler wrapped with what every operation shares.
func (s *Simulator) operation(op operation) http.Handler { return operationHandler{s, op} }

// serveOperation serves op with what every operation shares: latency,
// credentials (401), the role model (403) and injected faults; info is
// the request's log line, nil when none is made.
func (s *Simulator) serveOperation(op operation, info *requestInfo, w http.ResponseWriter, r *http.Request) {
	if info != nil {
		info.op = string(op.ID)
	}
	if !s.delay(r.Context()) {
		return
	}
	u, ok := s.authenticate(w, r)
	if !ok {
		relyOn(r, dAuth401)
		return
	}
	if info != nil {
		info.user = u.Fixture
	}
	if (!s.perRecord(op) || s.namesExisting(op.ID, r)) && !s.authorize(w, op, u) {
		if op.access == notStudent {
			relyOn(r, dExtraPermissions)
		}
		return
	}
	if status, msg := s.fault(string(op.ID)); status != 0 {
		s.fail(w, status, msg)
		return
	}
	op.handle(s, w, r, u)
}

// authenticate checks the subscription key and the bearer token and
// returns the calling user.
func (s *Simulator) authenticate(w http.ResponseWriter, r *http.Request) (store.User, bool) {
	key := headerValue(r.Header, "Ocp-Apim-Subscription-Key")
	switch {
	case key == "" && s.defects.Has(defects.MissingKeyAccepted):
	case key == "":
		s.fail(w, s.keyRefusal(), "Ocp-Apim-Subscription-Key: expected a subscription key, the header is missing")
		return store.User{}, false
	case key != s.store.SubscriptionKey() && s.defects.Has(defects.UnknownKeyAccepted):
	case key != s.store.SubscriptionKey():
		s.fail(w, s.keyRefusal(), "Ocp-Apim-Subscription-Key: the subscription key is not valid")
		return store.User{}, false
	}
	token, refusal := s.userToken(r)
	if refusal != "" {
		s.fail(w, http.StatusUnauthorized, refusal)
		return store.User{}, false
	}
	u, ok := s.store.UserByToken(token)
	if !ok {
		s.fail(w, http.StatusUnauthorized, s.unknownToken())
		return store.User{}, false
	}
	return u, true
}

// headerValue is h.Get(key) for a key written in canonical form: the map
// is read directly, without canonicalising the key again on every request
// (net/http stores a request's headers under canonical keys).
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// notAuthorized is the 403 message.
const notAuthorized = "the login user is not authorized to perform this action"

// authorize applies the role model; E5's per-module check is in the store.
func (s *Simulator) authorize(w http.ResponseWriter, op operation, u store.User) bool {
	if op.refuses(u.Role) {
		s.fail(w, http.StatusForbidden, notAuthorized+" ("+string(op.ID)+" is refused to the "+string(u.Role)+" role)")
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

// delay sleeps for the configured latency; false when the client left.
func (s *Simulator) delay(ctx context.Context) bool {
	l := *s.latency.Load()
	if l.Max <= 0 && l.Min <= 0 {
		return true
	}
	d := l.Min
	if l.Max > l.Min {
		s.faultMu.Lock()
		d += time.Duration(s.rng.Int64N(int64(l.Max - l.Min + 1)))
		s.faultMu.Unlock()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// fault draws the injected faults for op: a status and message, or 0.
func (s *Simulator) fault(op string) (int, string) {
	if !s.faultsOn.Load() {
		return 0, ""
	}
	s.faultMu.Lock()
	defer s.faultMu.Unlock()
	f := s.faults
	if f.TwoFactorRate > 0 && (op == "E1" || op == "E2" || op == "E3") && s.rng.Float64() < f.TwoFactorRate {
		return http.StatusServiceUnavailable, "the second-factor service is unavailable (injected fault)"
	}
	if f.OperationRate > 0 && registry.ID(op) == registry.ID(f.Operation) && s.rng.Float64() < f.OperationRate {
		return http.StatusInternalServerError, "internal server error (injected fault on " + op + ")"
	}
	return 0, ""
}
