package simulator

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/front"
)

// TestFastRoutesAsServeMux holds the fast routes (front.RouteTable) to
// ServeMux on the simulator's own tables: for the route tables of several
// configurations and requests made from every pattern (each wildcard
// filled with values that include every literal of the table, a segment
// too many or too few, a trailing slash, escapes, every method), a router
// of fast routes in front of a ServeMux gives each request the same
// pattern and path values as the ServeMux alone.
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
			table := s.routeTable()
			if len(table.FastPatterns()) == 0 {
				t.Fatal("router: expected fast routes in front of the ServeMux, got the ServeMux alone")
			}
			checkFastRoutes(t, table.Patterns())
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
	fast := s.routeTable().FastPatterns()
	for _, id := range []registry.OpID{registry.E20, registry.E10, registry.E19, registry.E7, registry.NR} {
		op := registry.Must(id)
		if want := front.RoutePattern(op.Method, op.Path); !slices.Contains(fast, want) {
			t.Errorf("%s: expected a fast route for %q, got none", id, want)
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
	// quick: the request came by a fast route, which leaves the values
	// of wildcards to front.PathValue (ServeMux's are never empty)
	quick := false
	record := func(p string) http.Handler {
		names := wildcards(p)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = routed{pattern: r.Pattern}
			for _, n := range names {
				got.values += n + "=" + front.PathValue(r, n) + ";"
				quick = quick || r.PathValue(n) == ""
			}
		})
	}
	table := front.NewRouteTable()
	for _, p := range patterns {
		if !strings.Contains(p, " ") {
			table.Handle(p, record(p))
			continue
		}
		table.HandleOperation(p, record(p))
	}
	mux, fast := table.ServeMux, table.Router()
	if len(table.FastPatterns()) == 0 {
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
	n, quicks := 0, 0
	for _, path := range paths {
		u, err := url.ParseRequestURI(path)
		if err != nil || u.Path == "" || strings.Contains(u.EscapedPath(), "//") || strings.Contains(u.EscapedPath(), "/.") {
			continue // refused before the router (a segment empty or beginning with ".")
		}
		for _, m := range methods {
			r := &http.Request{Method: m, URL: u, Host: "localhost", Header: http.Header{}}
			got = routed{}
			mux.ServeHTTP(discard{}, r.Clone(r.Context()))
			want := got
			got, quick = routed{}, false
			fast.ServeHTTP(discard{}, r.Clone(r.Context()))
			if quick {
				quicks++
			}
			if got != want {
				t.Errorf("%s %s: expected %+v (ServeMux), got %+v (fast routes)", m, path, want, got)
			}
			n++
		}
	}
	if n < 1000 || quicks < 100 {
		t.Errorf("requests compared: expected at least 1000, at least 100 of them on a fast route, got %d, %d", n, quicks)
	}
}

// wildcards lists the names of the {wildcards} of a pattern ("{$}" is
// none).
func wildcards(pattern string) []string {
	var out []string
	for _, m := range wildcard.FindAllStringSubmatch(pattern, -1) {
		out = append(out, m[1])
	}
	return out
}

var wildcard = regexp.MustCompile(`\{(\w+)(?:\.\.\.)?\}`)

// discard is a ResponseWriter that keeps nothing.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) WriteHeader(int)             {}
func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestPathValuesReadThroughPathValue holds the handlers of operations to
// reading path values with front.PathValue: a fast route sets no
// Request.PathValue. Only the control API (never on a fast route) and
// front.PathValue itself call Request.PathValue.
func TestPathValuesReadThroughPathValue(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	below, err := filepath.Glob("*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, below...) {
		if strings.HasSuffix(f, "_test.go") || f == "control.go" || f == filepath.Join("devserver", "control.go") || f == filepath.Join("front", "fastroute.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), ".PathValue(") - strings.Count(string(data), "front.PathValue("); n > 0 {
			t.Errorf("%s: expected path values read with front.PathValue, got %d calls of Request.PathValue", f, n)
		}
	}
}
