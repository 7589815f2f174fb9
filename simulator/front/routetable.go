package front

import (
	"net/http"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/simulator/switches"
)

// The operations' routes are ServeMux's (Go 1.22 method patterns). A
// hand-written router once stood in front of it for the operations whose
// patterns overlap no other; measured with bench/loopback.sh against the
// same simulator routing with ServeMux alone (three alternated rounds of
// 5 s per phase, 2026-11-29), it bought 1 to 2% at most (median round
// ratios 0.99 to 1.02 on E20, E10, E19, E7 and NR), under the 10% that
// would pay for its 440 lines, and it went (BENCHMARKS.md, "What the
// hand-written machinery buys").

// RouteTable is a ServeMux that remembers the patterns registered on it
// and which of them act on a world.
type RouteTable struct {
	*http.ServeMux
	patterns []string
	// acting are the patterns of the routes that act on a world: the
	// operations and HandleActing's.
	acting map[string]bool
}

// NewRouteTable returns an empty route table.
func NewRouteTable() *RouteTable {
	return &RouteTable{ServeMux: http.NewServeMux(), acting: map[string]bool{}}
}

// HandleActing registers f for pattern as a route that acts on a world
// without being an operation of the interface (the self-reset).
func (t *RouteTable) HandleActing(pattern string, f func(http.ResponseWriter, *http.Request)) {
	t.HandleFunc(pattern, f)
	t.acting[pattern] = true
}

// Acts reports whether r reaches a route that acts on a world: an
// operation, or a route HandleActing registered. A request the table
// answers by itself (no route, another method), or a route beside them
// (/healthz, /openapi.json), does not.
func (t *RouteTable) Acts(r *http.Request) bool {
	_, pattern := t.ServeMux.Handler(r)
	return t.acting[pattern]
}

// Handle registers h for pattern on the ServeMux.
func (t *RouteTable) Handle(pattern string, h http.Handler) {
	t.ServeMux.Handle(pattern, h)
	t.patterns = append(t.patterns, pattern)
}

// HandleFunc registers f for pattern on the ServeMux.
func (t *RouteTable) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	t.Handle(pattern, http.HandlerFunc(f))
}

// HandleOperation registers an operation's handler.
func (t *RouteTable) HandleOperation(pattern string, h http.Handler) {
	t.Handle(pattern, h)
	t.acting[pattern] = true
}

// Patterns returns the patterns registered on the table, in order.
func (t *RouteTable) Patterns() []string { return slices.Clone(t.patterns) }

// Router returns the handler that routes a request: the ServeMux.
func (t *RouteTable) Router() http.Handler { return t.ServeMux }

// RoutePattern is the ServeMux pattern of method and path: the registry
// writes a path ending in "/" as it is sent, and the pattern matches only
// that path ("{$}"), not the subtree.
func RoutePattern(method, path string) string {
	if strings.HasSuffix(path, "/") {
		path += "{$}"
	}
	return method + " " + path
}

// NoRoute answers requests no pattern of mux matches: 405 when the path
// exists under another method, else 404, both with a JSON string body
// (as the defects in force d write it).
func NoRoute(mux *http.ServeMux, d *switches.Defects) http.HandlerFunc {
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range methods {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "/" && pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			for _, m := range allow {
				w.Header().Add("Allow", m)
			}
			Fail(w, d, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on "+r.URL.Path)
			return
		}
		Fail(w, d, http.StatusNotFound, "no operation at "+r.Method+" "+r.URL.Path)
	}
}
