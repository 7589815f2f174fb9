package generate

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
)

// Request is one generated request, before it is sent.
type Request struct {
	Op registry.OpID
	// Path holds the path parameters by name.
	Path map[string]string
	// Query holds the query parameters in the order sent; a name may repeat.
	Query []KV
	// Body is the JSON body (HasBody false: none is sent).
	Body    any
	HasBody bool
	// Bad is the one rule the request breaks; nil for a valid request.
	Bad *Violation
}

// KV is one query parameter.
type KV struct{ Name, Value string }

// Violation is the rule an invalid request breaks.
type Violation struct {
	// Where is the part that breaks it: "path.id", "query.limit",
	// "body.read", or "body" for the body as a whole.
	Where string
	// What says how, in a few words ("malformed uuid").
	What string
	// Must is true when the rule is one the specification states (the
	// refusal is then a MUST).
	Must bool
}

// clone returns a deep copy of r, so that shrinking may change it.
func (r Request) clone() Request {
	out := r
	out.Path = maps.Clone(r.Path)
	out.Query = slices.Clone(r.Query)
	out.Body = cloneJSON(r.Body)
	if r.Bad != nil {
		b := *r.Bad
		out.Bad = &b
	}
	return out
}

func cloneJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = cloneJSON(e)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = cloneJSON(e)
		}
		return s
	}
	return v
}

// url returns the request's URL below base.
func (r Request) url(base string, s *opSpec) string {
	u := base + s.pathFor(r.Path)
	if len(r.Query) > 0 {
		parts := make([]string, len(r.Query))
		for i, kv := range r.Query {
			parts[i] = url.QueryEscape(kv.Name) + "=" + url.QueryEscape(kv.Value)
		}
		u += "?" + strings.Join(parts, "&")
	}
	return u
}

// bodyBytes encodes the body; members come out in name order, so the same
// request always gives the same bytes.
func (r Request) bodyBytes() []byte {
	if !r.HasBody {
		return nil
	}
	b, err := json.Marshal(r.Body)
	if err != nil {
		// every body is built from JSON values
		panic(err)
	}
	return b
}

// escapePath escapes one path segment. An empty value stays empty.
func escapePath(v string) string {
	return url.PathEscape(v)
}

// key identifies the request's content, for telling two requests apart.
func (r Request) key(s *opSpec) string {
	return r.url("", s) + "\x00" + string(r.bodyBytes())
}
