package generate

import (
	"context"
	"maps"
	"slices"
	"strings"
)

// Shrinking. rapid shrinks inside rapid.Check, which is built for go test:
// it reads its seed and number of checks from process-wide flags (shared by
// every run in the process, so two runs with different seeds cannot share
// it), stops at the first failing case (a finding here counts every
// failure), calls testing.Short (which panics outside go test) and writes
// fail files to testdata/. So the generator uses rapid for drawing
// (Generator.Example with a seed per request) and shrinks the request
// itself, member by member: every step is one request to the target, and
// a step is kept when the same property still fails. Removing optional
// parts and shortening lists is what rapid's shrinker would do to this
// request, in the order that removes most first.

// shrink replaces g.min with the smallest request found that still breaks
// g.prop, within cfg.MaxShrink requests.
func (ru *runner) shrink(ctx context.Context, s *opSpec, g *group) {
	budget := ru.cfg.MaxShrink
	cur := g.first
	tried := map[string]bool{cur.req.key(s): true}
	for progress := true; progress; {
		progress = false
		for _, cand := range candidates(s, cur.req) {
			k := cand.key(s)
			if tried[k] {
				continue
			}
			tried[k] = true
			if budget == 0 || ctx.Err() != nil {
				g.min = cur
				return
			}
			budget--
			g.shrinkSent++
			out, ok := ru.send(ctx, s, cand, g.prop == RepeatableRead)
			if !ok {
				g.min = cur
				return
			}
			if f, still := failsProp(ru.check(s, out), g.prop); still {
				cur, g.fail = out, f
				progress = true
				break
			}
		}
	}
	g.min = cur
}

// candidates are r made smaller in one way each, biggest cut first. The
// part that makes r invalid is never touched, so an invalid request stays
// invalid in the same way.
func candidates(s *opSpec, r Request) []Request {
	badAt := func(where string) bool {
		return r.Bad != nil && (r.Bad.Where == where || strings.HasPrefix(r.Bad.Where, where+"[]"))
	}
	var out []Request
	body, isObject := r.Body.(map[string]any)
	if r.HasBody && s.fixedBody == nil && s.body != nil && len(s.body.Required) == 0 && !badAt("body") && (r.Bad == nil || !strings.HasPrefix(r.Bad.Where, "body")) {
		c := r.clone()
		c.Body, c.HasBody = nil, false
		out = append(out, c)
	}
	required := map[string]bool{}
	for _, p := range s.query {
		required[p.name] = p.required
	}
	for i, kv := range r.Query {
		if badAt("query."+kv.Name) || required[kv.Name] {
			continue // a required parameter is never cut: the request would become invalid
		}
		c := r.clone()
		c.Query = slices.Delete(c.Query, i, i+1)
		out = append(out, c)
	}
	if isObject && s.fixedBody == nil && s.body != nil {
		for _, name := range slices.Sorted(maps.Keys(body)) {
			if badAt("body."+name) || slices.Contains(s.body.Required, name) {
				continue
			}
			c := r.clone()
			delete(c.Body.(map[string]any), name)
			out = append(out, c)
		}
		for _, name := range slices.Sorted(maps.Keys(body)) {
			list, ok := body[name].([]any)
			if !ok || len(list) == 0 || badAt("body."+name) {
				continue
			}
			c := r.clone()
			cb := c.Body.(map[string]any)
			cb[name] = cb[name].([]any)[:len(list)-1]
			out = append(out, c)
			if len(list) > 1 {
				c := r.clone()
				cb := c.Body.(map[string]any)
				cb[name] = cb[name].([]any)[:1]
				out = append(out, c)
			}
		}
	}
	for _, p := range s.pathParams {
		if badAt("path."+p.name) || len(p.ids) == 0 || r.Path[p.name] == p.ids[0] {
			continue
		}
		c := r.clone()
		c.Path[p.name] = p.ids[0]
		out = append(out, c)
	}
	return out
}
