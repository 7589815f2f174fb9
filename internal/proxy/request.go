package proxy

import (
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// invalidity is one rule a request breaks, with the requirement whose
// refusal it calls for.
type invalidity struct {
	req  string
	what string
}

// requestProblems lists the rules the request breaks that have a
// requirement of their own calling for a refusal (rules.RefusalOf). A rule
// without one (a body member of the wrong type where the catalogue has no
// .400.type, a matter the specification leaves open) is left out: the
// proxy does not judge what the catalogue does not name.
func (c *checker) requestProblems(op registry.OpID, params map[string]string, ex *Exchange) []invalidity {
	body := ex.RequestBody
	if ex.RequestCut {
		body = nil
	}
	var out []invalidity
	for _, p := range c.v.CheckRequest(string(op), params, ex.URL.Query(), body) {
		if p.In == rules.InBody && ex.RequestCut {
			continue
		}
		if id := rules.RefusalOf(op, p).Requirement; c.known(id) {
			out = append(out, invalidity{req: id, what: p.String()})
		}
	}
	if len(out) > 0 || len(body) == 0 || !gjson.ValidBytes(body) {
		return out
	}
	b := gjson.ParseBytes(body)
	switch op {
	case registry.GB:
		if total, n := weightTotal(b.Get("iD_Weightage")); n > 0 && over(total) {
			out = append(out, invalidity{req: rules.ReqWeightageOver, what: "weights totalling " + fmtNum(total)})
		}
	case registry.ES:
		if bad := esOutside(b); bad != "" {
			out = append(out, invalidity{req: rules.ReqQuestionOutside, what: bad})
		}
	}
	return out
}

// weightTotal adds the values of a list of {key, value} weights.
func weightTotal(list gjson.Result) (total float64, n int) {
	for _, w := range list.Array() {
		if v := w.Get("value"); v.Type == gjson.Number {
			total += v.Float()
			n++
		}
	}
	return total, n
}

// over reports whether a weightage total breaks the limit; traffic's
// totals are compared to a hundredth.
func over(total float64) bool { return rules.WeightageOver(total, rules.HundredthTolerance) }

// esOutside names the first question field of an ES body outside its
// range, at any depth (the body's form is the implementation's).
func esOutside(v gjson.Result) string {
	bad := ""
	questionFields(v, func(name string, e gjson.Result, lim rules.Range) bool {
		if !lim.Contains(e.Float()) {
			bad = name + " " + e.Raw + " outside " + lim.String()
		}
		return bad == ""
	})
	return bad
}

// esHasQuestion reports whether an ES body carries a question field the
// ranges apply to.
func esHasQuestion(v gjson.Result) bool {
	found := false
	questionFields(v, func(string, gjson.Result, rules.Range) bool {
		found = true
		return false
	})
	return found
}

// questionFields calls visit with every numeric member of v, at any
// depth, that rules.QuestionLimits bounds, until visit returns false.
func questionFields(v gjson.Result, visit func(name string, e gjson.Result, lim rules.Range) bool) {
	more := true
	var walk func(gjson.Result)
	walk = func(r gjson.Result) {
		r.ForEach(func(k, e gjson.Result) bool {
			if lim, ok := rules.QuestionLimits[k.Str]; ok && k.Type == gjson.String && e.Type == gjson.Number {
				more = visit(k.Str, e, lim)
			}
			if more && (e.IsObject() || e.IsArray()) {
				walk(e)
			}
			return more
		})
	}
	walk(v)
}
