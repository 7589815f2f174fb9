package proxy

import (
	"strings"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
)

// route is one operation's method and path template, split into segments;
// a segment in braces is a parameter.
type route struct {
	op       registry.OpID
	method   string
	segments []string
}

// routes builds the table from the registry (the placed operations) and
// the fixture (the unplaced ones, at the fixture's paths).
func routes(f *fixtures.File) []route {
	var out []route
	for _, o := range registry.All() {
		method, path, ok := f.Placement(o)
		if !ok {
			continue
		}
		out = append(out, route{op: o.ID, method: method, segments: split(path)})
	}
	return out
}

func split(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

// match finds the operation of a request and its path parameters. Literal
// segments compare without regard to case (the interface's paths mix
// cases, and common server frameworks route them so); where two templates
// match, the one with more literal segments wins.
func match(table []route, method, path string) (op registry.OpID, params map[string]string) {
	segs := split(path)
	best := -1
	for _, r := range table {
		if r.method != method || len(r.segments) != len(segs) {
			continue
		}
		literals := 0
		ok := true
		var ps map[string]string
		for i, s := range r.segments {
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				if segs[i] == "" {
					ok = false
					break
				}
				if ps == nil {
					ps = map[string]string{}
				}
				ps[s[1:len(s)-1]] = segs[i]
				continue
			}
			if !strings.EqualFold(s, segs[i]) {
				ok = false
				break
			}
			literals++
		}
		if ok && literals > best {
			best, op, params = literals, r.op, ps
		}
	}
	return op, params
}
