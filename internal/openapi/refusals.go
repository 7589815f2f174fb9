package openapi

import (
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
	var out []Violation
	for _, p := range v.CheckRequest(string(op), path, query, body) {
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
	b := gjson.ParseBytes(body)
	switch op {
	case registry.GB:
		if total, n := rules.WeightTotal(b.Get("iD_Weightage")); n > 0 && rules.TrafficWeightageOver(total) {
			out = append(out, Violation{Requirement: rules.ReqWeightageOver, What: "weights totalling " + rules.FormatNumber(total)})
		}
	case registry.ES:
		if bad := rules.QuestionOutside(b); bad != "" {
			out = append(out, Violation{Requirement: rules.ReqQuestionOutside, What: bad})
		}
	}
	return out
}
