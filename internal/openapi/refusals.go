package openapi

import (
	"bytes"
	"net/url"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// Violation is one request rule a request breaks, by the requirement
// whose refusal it calls for.
type Violation struct {
	// Requirement is the requirement id (rules.RefusalOf, or a body rule's
	// rules.ReqWeightageOver or rules.ReqQuestionOutside).
	Requirement string
	// What says what in the request breaks it.
	What string
}

// Violations lists the request rules a request of op breaks that have a
// requirement of their own calling for a refusal: the document's rules
// (CheckRequest, each read by rules.RefusalOf) and the two the document
// cannot state (a gradebook update's weightage total, an evaluation
// session's question ranges). A problem without a requirement (a matter
// the specification leaves open) is left out. bodyCut says the body was
// cut short of its end: its problems are not judged. The proxy and the
// simulator both call it, so the two read a request alike.
func (v *Validator) Violations(op registry.OpID, path map[string]string, query url.Values, body []byte, bodyCut bool) []Violation {
	if bodyCut {
		body = nil
	}
	return v.violations(op, v.CheckRequest(string(op), path, query, body), body, bodyCut)
}

// Judge is Violations and Doubt at once, the request read once: the
// rules the request breaks, and when it breaks none, why a refusal of it
// may still be right ("" when it is plainly valid).
func (v *Validator) Judge(op registry.OpID, path map[string]string, query url.Values, body []byte, bodyCut bool, known func(id string) bool) ([]Violation, string) {
	checked := body
	if bodyCut {
		checked = nil
	}
	problems := v.CheckRequest(string(op), path, query, checked)
	if out := v.violations(op, problems, checked, bodyCut); len(out) > 0 {
		return out, ""
	}
	return nil, v.doubt(op, problems, path, query, body, bodyCut, known)
}

func (v *Validator) violations(op registry.OpID, problems []RequestProblem, body []byte, bodyCut bool) []Violation {
	var out []Violation
	for _, p := range problems {
		if p.In == rules.InBody && bodyCut {
			continue
		}
		if id := rules.RefusalOf(op, p).Requirement; id != "" {
			out = append(out, Violation{Requirement: id, What: p.String()})
		}
	}
	if len(out) > 0 || len(body) == 0 || !gjson.ValidBytes(body) {
		return out
	}
	if req, what := rules.BodyOverLimit(op, gjson.ParseBytes(body)); req != "" {
		out = append(out, Violation{Requirement: req, What: what})
	}
	return out
}

// Doubt says why a refusal (400) of a request of op may be right although
// Violations finds nothing the catalogue names: the request breaks a rule
// of the document that has no requirement of its own (a minimum, a
// required member, a type), it sends no body where the operation takes
// one, or it touches a matter the specification leaves open
// (rules.OpenIn: paging beyond the plain values, a date range read one of
// the open ways, an id known names no record). "" when the request is
// plainly valid, so that a refusal of it breaks the operation's success
// requirement. bodyCut: the body was cut, and is doubted.
func (v *Validator) Doubt(op registry.OpID, path map[string]string, query url.Values, body []byte, bodyCut bool, known func(id string) bool) string {
	if bodyCut {
		return "a body too large to check"
	}
	return v.doubt(op, v.CheckRequest(string(op), path, query, body), path, query, body, bodyCut, known)
}

func (v *Validator) doubt(op registry.OpID, problems []RequestProblem, path map[string]string, query url.Values, body []byte, bodyCut bool, known func(id string) bool) string {
	if bodyCut {
		return "a body too large to check"
	}
	if len(problems) > 0 {
		return problems[0].String()
	}
	if rs := v.reqs[string(op)]; rs != nil && rs.body != nil {
		if len(bytes.TrimSpace(body)) == 0 {
			return "no body"
		}
		// a member left out: whether an implementation may need it (a
		// publish flag of E21) the document does not say
		b := gjson.ParseBytes(body)
		for name := range rs.body.Properties {
			if b.IsObject() && !b.Get(gjson.Escape(name)).Exists() {
				return "member " + name + " left out"
			}
		}
		if negative(b) {
			return "a negative number, which no stated range allows or refuses"
		}
	}
	if o := rules.OpenIn(op, path, query, body, known); o != nil {
		return o.Topic
	}
	return ""
}

// negative reports whether a JSON value holds a negative number at any
// depth.
func negative(r gjson.Result) bool {
	found := false
	switch {
	case r.IsObject() || r.IsArray():
		r.ForEach(func(_, v gjson.Result) bool { found = negative(v); return !found })
	case r.Type == gjson.Number:
		found = r.Num < 0
	}
	return found
}
