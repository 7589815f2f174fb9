package generate

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"pgregory.net/rapid"
)

// requests returns the generator of op's requests: about two in three
// valid, the others breaking exactly one rule.
func requests(s *opSpec, ids map[string][]string) *rapid.Generator[Request] {
	pool := func(path string) []string { return ids[string(s.id)+"."+path] }
	return rapid.Custom(func(t *rapid.T) Request {
		r := Request{Op: s.id, Path: map[string]string{}}
		for _, p := range s.pathParams {
			r.Path[p.name] = uuidFrom(t, p.ids, "path."+p.name)
		}
		for _, p := range s.query {
			// where has no known syntax and sortby may not: most values
			// are refused, so they come less often, not to hide the rest
			odds := 1
			if p.name == "where" || (p.name == "sortby" && len(p.fields) == 0) {
				odds = 5
			}
			if !p.required && rapid.IntRange(0, odds).Draw(t, "query."+p.name) != 0 {
				continue
			}
			r.Query = append(r.Query, KV{p.name, queryValue(t, p)})
			if rapid.IntRange(0, 9).Draw(t, "query."+p.name+".twice") == 0 {
				// the same parameter twice: nothing says which counts,
				// but no answer may be a crash
				r.Query = append(r.Query, KV{p.name, queryValue(t, p)})
			}
		}
		switch {
		case s.fixedBody != nil:
			r.Body, r.HasBody = cloneJSON(map[string]any(s.fixedBody)), true
		case s.body != nil:
			if len(s.body.Required) > 0 || rapid.IntRange(0, 5).Draw(t, "body.present") > 0 {
				body := drawValue(t, s.body, pool, "").(map[string]any)
				if rapid.IntRange(0, 7).Draw(t, "body.extra") == 0 {
					// a member the document does not list: bodies are
					// open, it must be ignored or refused, never a crash
					body["campusconfExtra"] = drawString(t, "body.extra.value")
				}
				r.Body, r.HasBody = body, true
			}
		}
		if rapid.IntRange(0, 2).Draw(t, "invalid") == 0 {
			if ms := mutations(s, r); len(ms) > 0 {
				m := rapid.SampledFrom(ms).Draw(t, "mutation")
				m.apply(t, &r)
				r.Bad = &Violation{Where: m.where, What: m.what, Must: m.must}
			}
		}
		return r
	})
}

func queryValue(t *rapid.T, p param) string {
	label := "query." + p.name
	switch {
	case len(p.accepted) > 0:
		return rapid.SampledFrom(p.accepted).Draw(t, label)
	case len(p.fields) > 0:
		field := rapid.SampledFrom(p.fields).Draw(t, label)
		// three orders, as before the syntax was a template: the same
		// seed draws the same requests
		order := rapid.SampledFrom([]string{"", " asc", " desc"}).Draw(t, label+".order")
		return p.sortby.Key(field, order == " desc")
	case p.schema.Format == "date-time":
		return drawDate(t, label)
	case p.schema.Format == "uuid":
		return uuidFrom(t, p.ids, label)
	case p.schema.Type.Is(openapi3.TypeInteger):
		return strconv.FormatInt(drawInt32(t, label), 10)
	}
	return drawString(t, label)
}

// mutation is one way to break exactly one rule of a request.
type mutation struct {
	where, what string
	must        bool
	apply       func(t *rapid.T, r *Request)
}

// mutations lists the rules r can be made to break. A refusal is a MUST
// where the specification states the rule (uuid and date-time formats,
// required members, stated ranges), a SHOULD where it only follows from a
// declared type or list (wrong JSON type, int32 paging values, populate
// entities).
func mutations(s *opSpec, r Request) []mutation {
	var out []mutation
	for _, p := range s.pathParams {
		name := p.name
		out = append(out, mutation{"path." + name, "malformed uuid", true, func(t *rapid.T, r *Request) {
			r.Path[name] = rapid.SampledFrom(badUUIDs).Draw(t, "bad.uuid")
		}})
	}
	for _, p := range s.query {
		name := p.name
		set := func(r *Request, v string) {
			r.Query = slices.DeleteFunc(r.Query, func(kv KV) bool { return kv.Name == name })
			r.Query = append(r.Query, KV{name, v})
		}
		switch {
		case len(p.accepted) > 0:
			out = append(out, mutation{"query." + name, "populate entity outside the accepted list", false, func(t *rapid.T, r *Request) {
				set(r, rapid.SampledFrom(unknownEntities).Draw(t, "bad.entity"))
			}})
		case p.schema.Format == "date-time":
			out = append(out, mutation{"query." + name, "malformed date-time", true, func(t *rapid.T, r *Request) {
				set(r, rapid.SampledFrom(badDates).Draw(t, "bad.date"))
			}})
		case p.schema.Format == "uuid":
			out = append(out, mutation{"query." + name, "malformed uuid", true, func(t *rapid.T, r *Request) {
				set(r, rapid.SampledFrom(badUUIDs).Draw(t, "bad.uuid"))
			}})
		case p.schema.Type.Is(openapi3.TypeInteger):
			out = append(out, mutation{"query." + name, "not an int32", false, func(t *rapid.T, r *Request) {
				set(r, rapid.SampledFrom(badInts).Draw(t, "bad.int"))
			}})
		}
	}
	if s.body == nil || s.fixedBody != nil {
		return out
	}
	body, _ := r.Body.(map[string]any)
	ensure := func(r *Request) map[string]any {
		m, ok := r.Body.(map[string]any)
		if !ok {
			m = map[string]any{}
			r.Body, r.HasBody = m, true
		}
		return m
	}
	if len(s.body.Required) > 0 {
		out = append(out, mutation{"body", "no body where one is required", true, func(t *rapid.T, r *Request) {
			r.Body, r.HasBody = nil, false
		}})
	}
	out = append(out, mutation{"body", "a body that is not a JSON object", false, func(t *rapid.T, r *Request) {
		r.Body = rapid.SampledFrom([]any{[]any{}, "text", 42.0, true}).Draw(t, "bad.body")
		r.HasBody = true
	}})
	for _, name := range slices.Sorted(maps.Keys(s.body.Properties)) {
		ps := s.body.Properties[name].Value
		if ps.ReadOnly {
			continue
		}
		where := "body." + name
		if slices.Contains(s.body.Required, name) {
			out = append(out, mutation{where, "required member missing", true, func(t *rapid.T, r *Request) {
				delete(ensure(r), name)
			}})
		}
		out = append(out, mutation{where, "member of the wrong JSON type", false, func(t *rapid.T, r *Request) {
			ensure(r)[name] = wrongType(ps)
		}})
		if slices.Contains(s.body.Required, name) {
			out = append(out, mutation{where, "required member given as null", false, func(t *rapid.T, r *Request) {
				ensure(r)[name] = nil
			}})
		}
		if ps.Type.Is(openapi3.TypeInteger) {
			out = append(out, mutation{where, "integer member given a fraction", false, func(t *rapid.T, r *Request) {
				ensure(r)[name] = 10.5
			}})
			if limit, ok := beyond[ps.Format]; ok {
				out = append(out, mutation{where, "integer beyond its format (" + ps.Format + ")", false, func(t *rapid.T, r *Request) {
					ensure(r)[name] = limit
				}})
			}
		}
		switch {
		case ps.Format == "uuid":
			out = append(out, mutation{where, "malformed uuid", true, func(t *rapid.T, r *Request) {
				ensure(r)[name] = rapid.SampledFrom(badUUIDs).Draw(t, "bad.uuid")
			}})
		case ps.Type.Is(openapi3.TypeArray) && ps.Items.Value.Format == "uuid":
			out = append(out, mutation{where, "malformed uuid", true, func(t *rapid.T, r *Request) {
				m := ensure(r)
				list, _ := m[name].([]any)
				m[name] = append(slices.Clone(list), rapid.SampledFrom(badUUIDs).Draw(t, "bad.uuid"))
			}}, mutation{where, "null in a list of uuids", false, func(t *rapid.T, r *Request) {
				m := ensure(r)
				list, _ := m[name].([]any)
				m[name] = append(slices.Clone(list), nil)
			}})
		case ps.Type.Is(openapi3.TypeArray) && ps.Items.Value.Type.Is(openapi3.TypeObject):
			item := ps.Items.Value
			if list, _ := body[name].([]any); len(list) == 0 {
				break
			}
			for _, member := range slices.Sorted(maps.Keys(item.Properties)) {
				ms := item.Properties[member].Value
				if slices.Contains(item.Required, member) {
					out = append(out, mutation{where + "[]." + member, "required member missing", true, func(t *rapid.T, r *Request) {
						first(ensure(r), name, func(e map[string]any) { delete(e, member) })
					}})
				}
				if ms.Format == "uuid" {
					out = append(out, mutation{where + "[]." + member, "malformed uuid", true, func(t *rapid.T, r *Request) {
						v := rapid.SampledFrom(badUUIDs).Draw(t, "bad.uuid")
						first(ensure(r), name, func(e map[string]any) { e[member] = v })
					}})
				}
			}
		case ps.Type.Is(openapi3.TypeInteger) && (ps.Min != nil || ps.Max != nil):
			out = append(out, mutation{where, "outside the stated range by one", true, func(t *rapid.T, r *Request) {
				var v float64
				switch {
				case ps.Min == nil:
					v = *ps.Max + 1
				case ps.Max == nil:
					v = *ps.Min - 1
				case rapid.Bool().Draw(t, "bad.range"):
					v = *ps.Max + 1
				default:
					v = *ps.Min - 1
				}
				ensure(r)[name] = int64(v)
			}})
		}
	}
	return out
}

// beyond are the smallest integers past each integer format, as JSON
// numbers (an int64 cannot hold its own).
var beyond = map[string]any{
	"int32": json.Number("2147483648"),
	"int64": json.Number("9223372036854775808"),
}

// first edits the first object entry of the array member name.
func first(body map[string]any, name string, edit func(map[string]any)) {
	list, _ := body[name].([]any)
	if len(list) == 0 {
		return
	}
	list = slices.Clone(list)
	e, _ := cloneJSON(list[0]).(map[string]any)
	if e == nil {
		return
	}
	edit(e)
	list[0] = e
	body[name] = list
}
