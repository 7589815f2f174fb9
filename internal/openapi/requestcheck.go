package openapi

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/campusconf/campusconf/internal/rules"
)

// RequestProblem is one way a request departs from the document: a path id
// that is not a uuid, a query value of the wrong type or format, a body
// that is not JSON or that breaks its schema. rules.RefusalOf names the
// requirement it breaks.
type RequestProblem = rules.Problem

// requestSpec is what the document says of one operation's request.
type requestSpec struct {
	params       []*openapi3.Parameter
	body         *openapi3.Schema // nil: the operation takes no body
	bodyRequired bool
	populate     []string // accepted populate entities, from the description
}

func buildRequests(doc *openapi3.T) map[string]*requestSpec {
	out := map[string]*requestSpec{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			rs := &requestSpec{}
			for _, pr := range append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...) {
				if pr == nil || pr.Value == nil {
					continue
				}
				p := pr.Value
				rs.params = append(rs.params, p)
				if p.Name == "populate" {
					rs.populate = rules.AcceptedValues(p.Description)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				rb := op.RequestBody.Value
				rs.bodyRequired = rb.Required
				for _, mt := range rb.Content {
					if mt.Schema != nil && mt.Schema.Value != nil {
						rs.body = mt.Schema.Value
						break
					}
				}
			}
			out[IDOf(op)] = rs
		}
	}
	return out
}

// Populate returns the populate entities the operation accepts (nil when it
// takes no populate parameter).
func (v *Validator) Populate(opID string) []string {
	if rs := v.reqs[opID]; rs != nil {
		return rs.populate
	}
	return nil
}

// CheckRequest validates a request of operation opID against the
// document: path holds the path parameters by name, query the query
// string, body the raw body (empty: none sent). It returns every problem
// found, nil for a valid request. Empty query values count as absent;
// populate entities are compared without regard to case. Rules the
// document cannot state (a total over several items, a range inside a
// body the document does not describe) are the caller's.
func (v *Validator) CheckRequest(opID string, path map[string]string, query url.Values, body []byte) []RequestProblem {
	rs := v.reqs[opID]
	if rs == nil {
		return nil
	}
	var out []RequestProblem
	for _, p := range rs.params {
		var s *openapi3.Schema
		if p.Schema != nil {
			s = p.Schema.Value
		}
		switch p.In {
		case "path":
			if val, ok := path[p.Name]; ok && s != nil {
				if msg := checkScalar(s, val); msg != "" {
					out = append(out, RequestProblem{In: rules.InPath, Name: p.Name, Rule: ruleOf(s), Format: s.Format, Message: msg})
				}
			}
		case "query":
			for _, val := range query[p.Name] {
				if strings.TrimSpace(val) == "" {
					continue
				}
				if p.Name == "populate" && rs.populate != nil {
					if bad := unknownEntity(val, rs.populate); bad != "" {
						out = append(out, RequestProblem{In: rules.InQuery, Name: p.Name, Rule: rules.RulePopulate,
							Message: fmt.Sprintf("expected one or more of %s, got %q", strings.Join(rs.populate, ", "), bad)})
					}
					continue
				}
				if s == nil {
					continue
				}
				if msg := checkScalar(s, val); msg != "" {
					out = append(out, RequestProblem{In: rules.InQuery, Name: p.Name, Rule: ruleOf(s), Format: s.Format, Message: msg})
				}
			}
		}
	}
	if rs.body == nil {
		return out
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		if rs.bodyRequired {
			out = append(out, RequestProblem{In: rules.InBody, Rule: rules.RuleRequired, Message: fmt.Sprintf("expected %s, got no body", v.describe(rs.body))})
		}
		return out
	}
	value, err := decodeJSON(trimmed)
	if err != nil {
		return append(out, RequestProblem{In: rules.InBody, Rule: rules.RuleJSON, Message: fmt.Sprintf("expected well-formed JSON, got %v", err)})
	}
	value = dropNulls(value)
	if err := rs.body.VisitJSON(value, v.opts...); err != nil {
		for _, p := range v.fromError(rs.body, err, nil) {
			out = append(out, RequestProblem{In: rules.InBody, Name: p.Pointer, Rule: p.Rule, Message: p.Message})
		}
	}
	return out
}

// ruleOf is the rule a bad scalar of schema s breaks.
func ruleOf(s *openapi3.Schema) string {
	if s.Format != "" && s.Type.Is(openapi3.TypeString) {
		return rules.RuleFormat
	}
	return rules.RuleType
}

// checkScalar checks one path or query value against its schema.
func checkScalar(s *openapi3.Schema, val string) string {
	switch {
	case s.Type.Is(openapi3.TypeInteger):
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return fmt.Sprintf("expected an integer, got %q", val)
		}
		if s.Format == "int32" && (n < -1<<31 || n > 1<<31-1) {
			return fmt.Sprintf("expected a 32-bit integer, got %q", val)
		}
	case s.Type.Is(openapi3.TypeString) && s.Format == "uuid":
		if checkUUID(val) != nil {
			return fmt.Sprintf("expected a uuid, got %q", val)
		}
	case s.Type.Is(openapi3.TypeString) && s.Format == "date-time":
		if checkDateTime(val) != nil {
			return fmt.Sprintf("expected an RFC 3339 date-time, got %q", val)
		}
	}
	return ""
}

func unknownEntity(val string, accepted []string) string {
	for _, e := range rules.Entities(val) {
		if !slices.ContainsFunc(accepted, func(a string) bool { return strings.EqualFold(e, a) }) {
			return e
		}
	}
	return ""
}
