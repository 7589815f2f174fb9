package generate

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Edges. Random draws reach the places implementations break only by
// chance; these do not leave it to chance. Before its N random requests,
// every operation gets one request per edge of its inputs, each a plain
// valid request with that one edge in it:
//
//   - every stated range (a minimum and maximum of the document): its
//     exact minimum and maximum, and one beyond each (then invalid: a
//     MUST refusal);
//   - every integer's type: the extremes of int32 or int64 (a limit of
//     2147483647 among them), and one beyond each (a SHOULD refusal);
//   - every list-like query parameter: populate given twice, with its
//     accepted entities combined in one value, and empty; sortby (where
//     the fixture declares its syntax) given twice, with two keys joined
//     (where the syntax joins keys), and empty;
//   - every array body member (iDs and the others): empty, one entry, and
//     many (manyEntries).
//
// The edges are the same for every seed: a finding on one replays with
// any --generate-seed.

// manyEntries is the length of the "many" array of an edge request.
const manyEntries = 100

// edges returns the edge requests of s, in a stable order.
func edges(s *opSpec, ids map[string][]string) []Request {
	pool := func(path string) []string { return ids[string(s.id)+"."+path] }
	base := baseRequest(s, pool)
	var out []Request
	with := func(edit func(r *Request), bad *Violation) {
		r := base.clone()
		edit(&r)
		r.Bad = bad
		out = append(out, r)
	}
	for _, p := range s.query {
		name := p.name
		set := func(values ...string) func(r *Request) {
			return func(r *Request) {
				for _, v := range values {
					r.Query = append(r.Query, KV{name, v})
				}
			}
		}
		where := "query." + name
		switch {
		case len(p.accepted) > 0:
			combined := strings.Join(p.accepted, ",")
			if len(p.accepted) == 1 {
				combined = p.accepted[0] + "," + p.accepted[0]
			}
			with(set(p.accepted[0], p.accepted[0]), nil)
			with(set(combined), nil)
			with(set(""), nil)
		case len(p.sortable) > 0:
			k := p.sortby.Key(p.sortable[0], false)
			with(set(k, k), nil)
			if joined, ok := p.sortby.Join(k, p.sortby.Key(p.sortable[len(p.sortable)-1], true)); ok {
				with(set(joined), nil)
			}
			with(set(""), nil)
		case p.schema.Type.Is(openapi3.TypeInteger):
			for _, e := range integerEdges(p.schema, where) {
				with(set(fmt.Sprint(e.value)), e.bad)
			}
		}
	}
	if s.body == nil || s.fixedBody != nil {
		return out
	}
	for _, name := range slices.Sorted(maps.Keys(s.body.Properties)) {
		ps := s.body.Properties[name].Value
		if ps.ReadOnly {
			continue
		}
		member := func(v any) func(r *Request) {
			return func(r *Request) { r.Body.(map[string]any)[name] = v }
		}
		where := "body." + name
		switch {
		case ps.Type.Is(openapi3.TypeInteger), ps.Type.Is(openapi3.TypeNumber):
			for _, e := range integerEdges(ps, where) {
				with(member(e.value), e.bad)
			}
		case ps.Type.Is(openapi3.TypeArray):
			item := ps.Items.Value
			one := minimalValue(item, pool, name, 0)
			many := make([]any, manyEntries)
			for i := range many {
				many[i] = minimalValue(item, pool, name, i)
			}
			with(member([]any{}), nil)
			with(member([]any{one}), nil)
			with(member(many), nil)
		}
	}
	return out
}

// edge is one value at the edge of a number's range or type, and the rule
// it breaks (nil: a valid value).
type edge struct {
	value any
	bad   *Violation
}

// integerEdges are the edges of a number: the stated range's ends and one
// beyond each, else the type's extremes and one beyond each.
func integerEdges(s *openapi3.Schema, where string) []edge {
	if s.Min != nil || s.Max != nil {
		var out []edge
		beyond := &Violation{Where: where, What: "outside the stated range by one", Must: true}
		if s.Min != nil {
			out = append(out, edge{number(*s.Min), nil}, edge{number(*s.Min - 1), beyond})
		}
		if s.Max != nil {
			out = append(out, edge{number(*s.Max), nil}, edge{number(*s.Max + 1), beyond})
		}
		return out
	}
	if !s.Type.Is(openapi3.TypeInteger) {
		if s.Format == "float" {
			return []edge{{math.MaxFloat32, nil}, {-math.MaxFloat32, nil}}
		}
		return nil
	}
	bad := &Violation{Where: where, What: "integer beyond its format (" + s.Format + ")"}
	if s.Format == "int64" {
		return []edge{{int64(math.MinInt64), nil}, {int64(math.MaxInt64), nil},
			{json.Number("-9223372036854775809"), bad}, {json.Number("9223372036854775808"), bad}}
	}
	bad.What = "integer beyond its format (int32)"
	return []edge{{int64(math.MinInt32), nil}, {int64(0), nil}, {int64(math.MaxInt32), nil},
		{int64(math.MinInt32) - 1, bad}, {int64(math.MaxInt32) + 1, bad}}
}

// number writes a bound as an integer where it is one.
func number(v float64) any {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return int64(v)
	}
	return v
}

// baseRequest is the plainest valid request of s: path parameters naming
// the fixture's first record (or a uuid no record has), no query, and a
// body of its required members only, each at its plainest.
func baseRequest(s *opSpec, pool func(string) []string) Request {
	r := Request{Op: s.id, Path: map[string]string{}}
	for _, p := range s.pathParams {
		r.Path[p.name] = nilUUIDv4
		if len(p.ids) > 0 {
			r.Path[p.name] = p.ids[0]
		}
	}
	switch {
	case s.fixedBody != nil:
		r.Body, r.HasBody = cloneJSON(map[string]any(s.fixedBody)), true
	case s.body != nil:
		r.Body, r.HasBody = minimalValue(s.body, pool, "", 0), true
	}
	return r
}

// nilUUIDv4 is a valid version-4 uuid no record has.
const nilUUIDv4 = "00000000-0000-4000-8000-000000000000"

// minimalValue is the plainest valid value of schema s at path: required
// members only, the range's minimum, the k-th fixture id (cycling), a uuid
// no record has (the k-th) where the fixture gives none.
func minimalValue(s *openapi3.Schema, pool func(string) []string, path string, k int) any {
	switch {
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is(openapi3.TypeString):
		ids := pool(path)
		switch {
		case len(ids) > 0:
			return ids[k%len(ids)]
		case s.Format == "uuid":
			return fmt.Sprintf("00000000-0000-4000-8000-%012x", k+1)
		case s.Format == "date-time":
			return "2024-01-01T00:00:00Z"
		}
		return "a"
	case s.Type.Is(openapi3.TypeInteger):
		if ids := pool(path); len(ids) > 0 {
			n, _ := strconv.ParseInt(ids[k%len(ids)], 10, 64)
			return n
		}
		if s.Min != nil {
			return number(*s.Min)
		}
		return int64(0)
	case s.Type.Is(openapi3.TypeNumber):
		if s.Min != nil {
			return number(*s.Min)
		}
		return int64(0)
	case s.Type.Is(openapi3.TypeBoolean):
		return false
	case s.Type.Is(openapi3.TypeArray):
		return []any{}
	case s.Type.Is(openapi3.TypeObject):
		out := map[string]any{}
		for _, name := range s.Required {
			if p := s.Properties[name]; p != nil && !p.Value.ReadOnly {
				out[name] = minimalValue(p.Value, pool, join(path, name), k)
			}
		}
		return out
	}
	return nil
}
