package simulator

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// TestFastRoutesAsServeMux holds fastRoutes to ServeMux: for the route
// tables of several configurations and requests made from every pattern
// (each wildcard filled with values that include every literal of the
// table, a segment too many or too few, a trailing slash, escapes, every
// method), a router of fast routes in front of a ServeMux gives each
// request the same pattern and path values as the ServeMux alone.
func TestFastRoutesAsServeMux(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"alt-paths", Options{Variants: []string{"alt-paths"}}},
		{"control", Options{Control: true, SelfReset: true, Docs: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			f, ok := (*s.handler.Load()).(*entry).mux.(*fastRoutes)
			if !ok {
				t.Fatal("router: expected fast routes in front of the ServeMux, got the ServeMux alone")
			}
			checkFastRoutes(t, f.patterns)
		})
	}
}

// TestFastRoutesCoverHotPath holds the operations of bench/loopback.sh to
// having fast routes, so that the fast path is the one measured.
func TestFastRoutesCoverHotPath(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := (*s.handler.Load()).(*entry).mux.(*fastRoutes)
	for _, id := range []registry.OpID{registry.E20, registry.E10, registry.E19, registry.E7, registry.NR} {
		op := registry.Must(id)
		want := routePattern(op.Method, op.Path)
		found := false
		for _, rt := range f.byMethod[op.Method] {
			found = found || rt.pattern == want
		}
		if !found {
			t.Errorf("%s: expected a fast route for %q, got none", id, want)
		}
	}
}

// TestParsePattern reads the pattern forms fastRoutes meets.
func TestParsePattern(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		fixed   bool
		segs    int
	}{
		{"GET /poll/Response/{id}", true, 3},
		{"DELETE /Attendance/{$}", true, 2},
		{"GET /healthz", true, 1},
		{"/", false, 0},
		{"GET /x/", false, 0},
		{"GET /files/{path...}", false, 0},
		{"GET /a/x{id}", false, 0},
		{"GET example.com/a", false, 0},
	} {
		pp := parsePattern(tt.pattern)
		if pp.fixed != tt.fixed || (tt.fixed && len(pp.segs) != tt.segs) {
			t.Errorf("parsePattern(%q): expected fixed %v with %d segments, got %v with %d", tt.pattern, tt.fixed, tt.segs, pp.fixed, len(pp.segs))
		}
	}
}

// TestFastRoutesLeaveOverlaps holds newFastRoutes to leaving to ServeMux
// the patterns that overlap another that is not a prefix pattern.
func TestFastRoutesLeaveOverlaps(t *testing.T) {
	h := http.NotFoundHandler()
	for _, tt := range []struct {
		patterns []string
		fast     []string
	}{
		{[]string{"GET /a/{id}", "GET /a/b", "/"}, nil},
		{[]string{"GET /a/{id}", "POST /a/b", "/"}, []string{"GET /a/{id}", "POST /a/b"}},
		{[]string{"GET /a/{id}", "/a/{x}"}, nil},
		{[]string{"GET /a/{id}", "HEAD /a/b"}, nil},
		{[]string{"GET /a/{id}", "/a/", "GET /b/{x...}"}, []string{"GET /a/{id}"}},
		{[]string{"GET /a/{id}", "example.com/"}, nil},
		{[]string{"GET /a/{id}/c", "GET /a/{id}/d", "DELETE /a/{$}"}, []string{"DELETE /a/{$}", "GET /a/{id}/c", "GET /a/{id}/d"}},
	} {
		candidates := map[string]http.Handler{}
		for _, p := range tt.patterns {
			candidates[p] = h
		}
		var got []string
		for _, routes := range newFastRoutes(tt.patterns, candidates).byMethod {
			for _, rt := range routes {
				got = append(got, rt.pattern)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.fast) {
			t.Errorf("newFastRoutes(%q): expected fast routes %q, got %q", tt.patterns, tt.fast, got)
		}
	}
}

// routed is what a router gave a request: the pattern and its values.
type routed struct {
	pattern string
	values  string
}

func checkFastRoutes(t *testing.T, patterns []string) {
	t.Helper()
	var got routed
	record := func(p string) http.Handler {
		names := pathParams(strings.TrimPrefix(p[strings.IndexByte(p, ' ')+1:], ""))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = routed{pattern: r.Pattern}
			for _, n := range names {
				got.values += n + "=" + pathValue(r, n) + ";"
			}
		})
	}
	mux := http.NewServeMux()
	handlers := map[string]http.Handler{}
	for _, p := range patterns {
		if !strings.Contains(p, " ") {
			mux.Handle(p, record(p))
			continue
		}
		handlers[p] = record(p)
		mux.Handle(p, handlers[p])
	}
	fast := newFastRoutes(patterns, handlers)
	fast.mux = mux
	if len(fast.byMethod) == 0 {
		t.Fatal("fast routes: expected some, got none")
	}
	// the values a wildcard is filled with: every literal, and some more
	fills := []string{"0f8fad5b-d9cb-469f-a165-70867728950e", "x", "X", "Default", "%41", "a%2Fb", "%C3%A9", "é", "{id}", ""}
	var paths []string
	for _, p := range patterns {
		_, path, ok := strings.Cut(p, " ")
		if !ok {
			path = p
		}
		for seg := range strings.SplitSeq(path, "/") {
			if seg != "" && !strings.HasPrefix(seg, "{") && !slices.Contains(fills, seg) {
				fills = append(fills, seg)
			}
		}
	}
	for _, p := range patterns {
		_, path, ok := strings.Cut(p, " ")
		if !ok {
			path = p
		}
		path = strings.TrimSuffix(path, "{$}")
		segs := strings.Split(path, "/")
		variants := []string{path}
		for i, seg := range segs {
			if !strings.HasPrefix(seg, "{") {
				continue
			}
			var next []string
			for _, v := range variants {
				vs := strings.Split(v, "/")
				for _, fill := range fills {
					vs[i] = fill
					next = append(next, strings.Join(vs, "/"))
				}
			}
			variants = next
		}
		for _, v := range variants {
			paths = append(paths, v, v+"/", v+"/x", strings.TrimSuffix(v, "/"+segs[len(segs)-1]), strings.ToLower(v))
		}
	}
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
	n, quick := 0, 0
	for _, path := range paths {
		u, err := url.ParseRequestURI(path)
		if err != nil || u.Path == "" || !plainPath(u.EscapedPath()) {
			continue // refused before the router
		}
		for _, m := range methods {
			r := &http.Request{Method: m, URL: u, Host: "localhost", Header: http.Header{}}
			got = routed{}
			mux.ServeHTTP(discard{}, r.Clone(r.Context()))
			want := got
			got = routed{}
			if _, ok := fast.find(r); ok {
				quick++
			}
			fast.ServeHTTP(discard{}, r.Clone(r.Context()))
			if got != want {
				t.Errorf("%s %s: expected %+v (ServeMux), got %+v (fast routes)", m, path, want, got)
			}
			n++
		}
	}
	if n < 1000 || quick < 100 {
		t.Errorf("requests compared: expected at least 1000, at least 100 of them on a fast route, got %d, %d", n, quick)
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) WriteHeader(int)             {}
func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestPathValuesReadThroughPathValue holds the handlers of operations to
// reading path values with pathValue: a fast route sets no
// Request.PathValue. Only the control API (never on a fast route) and
// pathValue itself call Request.PathValue.
func TestPathValuesReadThroughPathValue(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "control.go" || f == "fastroute.go" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), ".PathValue("); n > 0 {
			t.Errorf("%s: expected path values read with pathValue, got %d calls of Request.PathValue", f, n)
		}
	}
}

// TestWildcardValue reads the values of wildcards as a fast route matched
// them.
func TestWildcardValue(t *testing.T) {
	for _, tt := range []struct{ pattern, path, name, want string }{
		{"GET /poll/Response/{id}", "/poll/Response/abc", "id", "abc"},
		{"GET /evaluation/{evaluationid}/Question/{id}", "/evaluation/e1/Question/q2", "evaluationid", "e1"},
		{"GET /evaluation/{evaluationid}/Question/{id}", "/evaluation/e1/Question/q2", "id", "q2"},
		{"GET /poll/Response/{id}", "/poll/Response/abc", "ID", ""},
		{"DELETE /Attendance/{$}", "/Attendance/", "id", ""},
		{"", "/a", "id", ""},
	} {
		if got := wildcardValue(tt.pattern, tt.path, tt.name); got != tt.want {
			t.Errorf("wildcardValue(%q, %q, %q): expected %q, got %q", tt.pattern, tt.path, tt.name, tt.want, got)
		}
	}
}
