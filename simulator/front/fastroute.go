package front

import (
	"net/http"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/simulator/switches"
)

// The operations' routes, found without ServeMux's general matching where
// that is sure to give ServeMux's answer. ServeMux walks a tree of
// segments, unescapes each, and allocates for the values of wildcards;
// on the hot path it took about a sixth of the simulator's own time on a
// request (BenchmarkRequestPath). fastRoutes takes a request only when
//
//   - its method is the pattern's own (HEAD, which ServeMux also sends to
//     a GET pattern, goes to ServeMux);
//   - its path, as sent, holds no "%" (so each segment is its own
//     unescaped value) and is canonical (the entry layer refused it
//     otherwise);
//   - the handler reads the wildcards' values with PathValue, not
//     r.PathValue (only r.Pattern is set);
//   - the pattern is a fixed number of segments, literals and {name}
//     wildcards ("{$}" after a final "/" is the empty last segment), and no
//     other pattern of the table can match any path it matches, under any
//     method that overlaps: then ServeMux, which picks the most specific
//     of the patterns that match, has only this one to pick.
//
// Everything else, and every request no fast route matches, goes to
// ServeMux. TestFastRoutesAsServeMux holds the two to the same pattern and
// path values.

// RouteTable is a ServeMux that remembers the patterns registered on it,
// so that fastRoutes knows every pattern a request could match.
type RouteTable struct {
	*http.ServeMux
	patterns []string
	// fast are the operations' handlers by pattern, the candidates for
	// fastRoutes.
	fast map[string]http.Handler
	// acting are the patterns of the routes that act on a world: the
	// operations and HandleActing's.
	acting map[string]bool
}

// NewRouteTable returns an empty route table.
func NewRouteTable() *RouteTable {
	return &RouteTable{ServeMux: http.NewServeMux(), fast: map[string]http.Handler{}, acting: map[string]bool{}}
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

// HandleOperation registers an operation's handler, a candidate for a
// fast route.
func (t *RouteTable) HandleOperation(pattern string, h http.Handler) {
	t.Handle(pattern, h)
	t.fast[pattern] = h
	t.acting[pattern] = true
}

// Patterns returns the patterns registered on the table, in order.
func (t *RouteTable) Patterns() []string { return slices.Clone(t.patterns) }

// FastPatterns returns, sorted, the patterns whose requests the Router
// finds without ServeMux (fastRoutes).
func (t *RouteTable) FastPatterns() []string {
	var out []string
	for _, routes := range newFastRoutes(t.patterns, t.fast).byMethod {
		for _, rt := range routes {
			out = append(out, rt.pattern)
		}
	}
	slices.Sort(out)
	return out
}

// Router returns the handler that routes a request: the fast routes, then
// the ServeMux.
func (t *RouteTable) Router() http.Handler {
	f := newFastRoutes(t.patterns, t.fast)
	if !fastRouting || len(f.byMethod) == 0 {
		return t.ServeMux
	}
	f.mux = t.ServeMux
	return f
}

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

// fastRoutes are the routes found by a plain comparison of segments.
type fastRoutes struct {
	byMethod map[string][]fastRoute
	mux      http.Handler
}

// fastRoute is one pattern: its segments, a wildcard's name where the
// segment is one.
type fastRoute struct {
	pattern string
	segs    []routeSeg
	h       http.Handler
}

type routeSeg struct {
	lit  string
	wild string // the wildcard's name; "" for a literal
}

// parsedPattern is a pattern as fastRoutes reads it.
type parsedPattern struct {
	method string // "" for any
	segs   []routeSeg
	fixed  bool // a fixed number of literal and {name} segments
	// prefix: a pattern without a host that matches paths of any length
	// from some point on ("/", a subtree "/x/", a final {name...}).
	prefix bool
}

// parsePattern reads "[METHOD ]/seg/...". A pattern with a host, a
// {name...} wildcard, a segment mixing text and a wildcard, or a final
// "/" without {$} (a subtree) is not fixed.
func parsePattern(p string) parsedPattern {
	var pp parsedPattern
	if m, rest, ok := strings.Cut(p, " "); ok {
		pp.method, p = m, strings.TrimLeft(rest, " ")
	}
	if !strings.HasPrefix(p, "/") {
		return pp // a host, or not a path
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		last := i == len(parts)-1
		switch {
		case s == "{$}" && last && i > 0:
			pp.segs = append(pp.segs, routeSeg{})
		case s == "" && last:
			pp.prefix = true // "/", or a subtree such as "/x/"
			return pp
		case last && strings.HasPrefix(s, "{") && strings.HasSuffix(s, "...}"):
			pp.prefix = true
			return pp
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
			name := s[1 : len(s)-1]
			if name == "" || strings.ContainsAny(name, "{}.$") {
				return pp
			}
			pp.segs = append(pp.segs, routeSeg{wild: name})
		case strings.ContainsAny(s, "{}") || s == "":
			return pp
		default:
			pp.segs = append(pp.segs, routeSeg{lit: s})
		}
	}
	pp.fixed = true
	return pp
}

// overlap reports whether some request could match both a and b: their
// methods may meet, and no position holds two different literals. A
// pattern that is not fixed may match anything.
func overlap(a, b parsedPattern) bool {
	if a.method != "" && b.method != "" && a.method != b.method &&
		!(a.method == "GET" && b.method == "HEAD") && !(a.method == "HEAD" && b.method == "GET") {
		return false
	}
	if !a.fixed || !b.fixed {
		return true
	}
	if len(a.segs) != len(b.segs) {
		return false
	}
	for i := range a.segs {
		x, y := a.segs[i], b.segs[i]
		if x.wild == "" && y.wild == "" && x.lit != y.lit {
			return false
		}
	}
	return true
}

// newFastRoutes returns the fast routes among candidates: those fixed,
// with a method, and overlapping no other pattern of all but a prefix
// pattern. A fixed pattern matches a subset of what a prefix pattern it
// overlaps matches (ServeMux refuses to register two patterns that
// overlap with neither more specific), so ServeMux gives the request to
// the fixed one, as the fast route does.
func newFastRoutes(all []string, candidates map[string]http.Handler) *fastRoutes {
	parsed := make([]parsedPattern, len(all))
	for i, p := range all {
		parsed[i] = parsePattern(p)
	}
	f := &fastRoutes{byMethod: map[string][]fastRoute{}}
	for i, p := range all {
		h, ok := candidates[p]
		pp := parsed[i]
		if !ok || !pp.fixed || pp.method == "" || pp.method == "HEAD" {
			continue
		}
		alone := true
		for j := range all {
			if j != i && !parsed[j].prefix && overlap(pp, parsed[j]) {
				alone = false
				break
			}
		}
		if alone {
			f.byMethod[pp.method] = append(f.byMethod[pp.method], fastRoute{pattern: p, segs: pp.segs, h: h})
		}
	}
	return f
}

func (f *fastRoutes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rt, ok := f.find(r); ok {
		r.Pattern = rt.pattern
		rt.h.ServeHTTP(w, r)
		return
	}
	f.mux.ServeHTTP(w, r)
}

// PathValue is r.PathValue(name) for an operation's request, however it
// was routed. A fast route sets only r.Pattern: the values of its
// wildcards are the path's segments at their places, read here when
// asked for, so that a request needs no map of them
// (Request.SetPathValue's). ServeMux's values are never empty, so an
// empty one means the request came by a fast route or the pattern has no
// such wildcard; an operation's handlers read path values only through
// PathValue.
func PathValue(r *http.Request, name string) string {
	if v := r.PathValue(name); v != "" {
		return v
	}
	return wildcardValue(r.Pattern, r.URL.Path, name)
}

// wildcardValue is the segment of path at the place of the wildcard
// {name} of pattern ("" when it has none), read as a fast route matched
// it: segment by segment, without unescaping (a fast route's path holds
// no escape).
func wildcardValue(pattern, path, name string) string {
	_, pp, ok := strings.Cut(pattern, " ")
	if !ok {
		pp = pattern
	}
	if !strings.HasPrefix(pp, "/") || !strings.HasPrefix(path, "/") {
		return ""
	}
	pp, path = pp[1:], path[1:]
	for pp != "" {
		var ps, seg string
		ps, pp, _ = strings.Cut(pp, "/")
		seg, path, _ = strings.Cut(path, "/")
		if len(ps) == len(name)+2 && ps[0] == '{' && ps[len(ps)-1] == '}' && ps[1:len(ps)-1] == name {
			return seg
		}
	}
	return ""
}

// find returns the fast route of r, if it has one.
func (f *fastRoutes) find(r *http.Request) (*fastRoute, bool) {
	routes := f.byMethod[r.Method]
	if len(routes) == 0 || r.URL.RawPath != "" {
		return nil, false
	}
	path := r.URL.Path
	if len(path) == 0 || path[0] != '/' || strings.IndexByte(path, '%') >= 0 || !plainPath(path) {
		return nil, false
	}
	for i := range routes {
		if routes[i].matches(path[1:]) {
			return &routes[i], true
		}
	}
	return nil, false
}

// matches reports whether p, a path without its first "/", matches the
// route's segments.
func (rt *fastRoute) matches(p string) bool {
	for i, sg := range rt.segs {
		end := strings.IndexByte(p, '/')
		last := i == len(rt.segs)-1
		if last != (end < 0) {
			return false
		}
		seg := p
		if end >= 0 {
			seg, p = p[:end], p[end+1:]
		}
		if sg.wild == "" {
			if seg != sg.lit {
				return false
			}
		} else if seg == "" {
			return false // a wildcard matches a segment of at least one byte
		}
	}
	return true
}
