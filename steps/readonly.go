package steps

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// ErrReadOnly is the error (wrapped) of a request the read-only guard
// refused to send.
var ErrReadOnly = errors.New("not sent: the run is read-only")

// readOnlySkip is the skip of a scenario that would call op, which changes
// state, in a read-only run.
func readOnlySkip(op registry.OpID) error {
	name := fmt.Sprintf("%s (%s)", op, registry.Must(op).Name)
	return &skip{cause: reports.CauseReadOnly, reason: "read-only run: " + name + " changes state, no request sent"}
}

// changesState reports whether calling op changes state or has an effect
// outside the service (registry.Operation.ChangesState).
func changesState(op registry.OpID) bool {
	return registry.Must(op).ChangesState
}

// readOnlyGuard is the last line of defence of a read-only run: the run's
// client sends through it, so that no request to an operation that changes
// state leaves the process, whichever step (or generated request) builds
// it. It refuses a request whose method and path are those of such an
// operation, where the registry places it or, for an operation the
// specification does not place, where the fixture does; and any request
// other than GET, HEAD and OPTIONS that is not the call of an operation
// that leaves state alone (the E2 poll, or an unplaced read the fixture
// places at a POST).
type readOnlyGuard struct {
	next http.RoundTripper
	// base is the path of the target's base URL, which every request's
	// path starts with.
	base         string
	deny, permit []route
}

// route is one operation's method and path template, split in segments.
type route struct {
	op       registry.OpID
	method   string
	segments []string
}

// newReadOnlyGuard returns the guard for a target at baseURL described by
// f (its operations normalized), sending through next.
func newReadOnlyGuard(next http.RoundTripper, baseURL string, f *fixtures.File) *readOnlyGuard {
	g := &readOnlyGuard{next: next}
	if u, err := url.Parse(baseURL); err == nil {
		g.base = strings.TrimRight(u.Path, "/")
	}
	for _, o := range registry.All() {
		method, path, ok := f.Placement(o)
		if !ok {
			continue
		}
		rt := route{op: o.ID, method: method, segments: segments(path)}
		if o.ChangesState {
			g.deny = append(g.deny, rt)
		} else {
			g.permit = append(g.permit, rt)
		}
	}
	return g
}

// segments splits a path in its segments, without a trailing empty one.
func segments(path string) []string {
	return strings.Split(strings.Trim(path, "/"), "/")
}

// match reports whether a request with method and path segments is a call
// of the route: "{x}" matches any segment, others match regardless of
// case (an implementation may be case-insensitive, and refusing one
// request too many is the safe side).
func (rt route) match(method string, segs []string) bool {
	if !strings.EqualFold(rt.method, method) || len(segs) != len(rt.segments) {
		return false
	}
	for i, s := range rt.segments {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if !strings.EqualFold(s, segs[i]) {
			return false
		}
	}
	return true
}

// RoundTrip refuses the request as the guard says, or sends it.
func (g *readOnlyGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := g.refuse(req); err != nil {
		if req.Body != nil {
			_ = req.Body.Close() // a RoundTripper closes the body, refused or not
		}
		return nil, err
	}
	return g.next.RoundTrip(req)
}

// refuse says why the guard refuses req, or nil.
func (g *readOnlyGuard) refuse(req *http.Request) error {
	path := req.URL.Path
	if rest, ok := strings.CutPrefix(path, g.base); ok && (rest == "" || rest[0] == '/') {
		path = rest
	}
	segs := segments(path)
	for _, rt := range g.deny {
		if rt.match(req.Method, segs) {
			return fmt.Errorf("%w: %s %s is a call of %s, which changes state", ErrReadOnly, req.Method, req.URL.Path, rt.op)
		}
	}
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	for _, rt := range g.permit {
		if rt.match(req.Method, segs) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s %s is the call of no operation that leaves state alone", ErrReadOnly, req.Method, req.URL.Path)
}
