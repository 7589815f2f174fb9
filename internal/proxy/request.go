package proxy

import (
	"strings"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/tidwall/gjson"
)

// invalidity is one rule a request breaks, with the requirement whose
// refusal it calls for.
type invalidity struct {
	req  string
	what string
}

// gradeTotalMax is the most the weights of one module's grade items may
// add up to; totals are compared to a hundredth.
const gradeTotalMax = 100

// esLimits are the ranges of the evaluation question fields ES checks.
var esLimits = map[string][2]float64{
	"mark":            {0, 10000},
	"difficultyLevel": {0, 3},
	"videoTimeStamp":  {0, 2147483647},
}

// requestProblems lists the rules the request breaks that have a
// requirement of their own calling for a refusal. A rule without one (a
// body member of the wrong type where the catalogue has no .400.type) is
// left out: the proxy does not judge what the catalogue does not name.
func (c *checker) requestProblems(op string, params map[string]string, ex *Exchange) []invalidity {
	body := ex.RequestBody
	if ex.RequestCut {
		body = nil
	}
	var out []invalidity
	for _, p := range c.v.CheckRequest(op, params, ex.URL.Query(), body) {
		if p.In == openapi.InBody && ex.RequestCut {
			continue
		}
		id := ""
		switch {
		case p.Rule == openapi.RulePopulate:
			id = op + ".populate-unknown"
		case p.In == openapi.InPath:
			id = op + ".400.uuid"
		case p.In == openapi.InQuery && p.Name == "offset" || p.In == openapi.InQuery && p.Name == "limit":
			id = op + ".400.paging"
		case p.In == openapi.InQuery:
			id = op + ".400.date"
		case p.Rule == openapi.RuleJSON:
			id = op + ".400.json"
		case p.Rule == openapi.RuleRequired && op == "GB" && strings.Contains(p.Name, "gradingSchema/"):
			id = "GB.400.schema"
		case p.Rule == openapi.RuleRequired:
			id = op + ".400.required"
		case p.Rule == openapi.RuleFormat:
			id = op + ".400.uuid"
		case p.Rule == openapi.RuleType:
			id = op + ".400.type"
		case p.Rule == openapi.RuleEnum || p.Rule == openapi.RuleMinimum || p.Rule == openapi.RuleMaximum:
			id = op + ".range"
		}
		if c.known(id) {
			out = append(out, invalidity{req: id, what: p.String()})
		}
	}
	if len(out) > 0 || len(body) == 0 || !gjson.ValidBytes(body) {
		return out
	}
	b := gjson.ParseBytes(body)
	switch op {
	case "GB":
		if total, n := weightTotal(b.Get("iD_Weightage")); n > 0 && over(total) {
			out = append(out, invalidity{req: "GB.total-over", what: "weights totalling " + fmtNum(total)})
		}
	case "ES":
		if bad := esOutside(b); bad != "" {
			out = append(out, invalidity{req: "ES.question-outside", what: bad})
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

func over(total float64) bool { return total > gradeTotalMax+0.005 }

// esOutside names the first question field of an ES body outside its
// range, at any depth (the body's form is the implementation's).
func esOutside(v gjson.Result) string {
	bad := ""
	var walk func(gjson.Result)
	walk = func(r gjson.Result) {
		if bad != "" {
			return
		}
		r.ForEach(func(k, e gjson.Result) bool {
			if lim, ok := esLimits[k.Str]; ok && k.Type == gjson.String && e.Type == gjson.Number {
				if f := e.Float(); f < lim[0] || f > lim[1] {
					bad = k.Str + " " + e.Raw + " outside " + fmtNum(lim[0]) + ".." + fmtNum(lim[1])
					return false
				}
			}
			if e.IsObject() || e.IsArray() {
				walk(e)
			}
			return bad == ""
		})
	}
	walk(v)
	return bad
}

// esHasQuestion reports whether an ES body carries a question field the
// ranges apply to.
func esHasQuestion(v gjson.Result) bool {
	found := false
	var walk func(gjson.Result)
	walk = func(r gjson.Result) {
		r.ForEach(func(k, e gjson.Result) bool {
			if _, ok := esLimits[k.Str]; ok && k.Type == gjson.String && e.Type == gjson.Number {
				found = true
			}
			if e.IsObject() || e.IsArray() {
				walk(e)
			}
			return !found
		})
	}
	walk(v)
	return found
}
