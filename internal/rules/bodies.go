package rules

import (
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
)

// WeightTotal adds the values of a list of {key, value} weights (a
// gradebook update's iD_Weightage); n counts the numeric values added.
func WeightTotal(list gjson.Result) (total float64, n int) {
	for _, w := range list.Array() {
		if v := w.Get("value"); v.Type == gjson.Number {
			total += v.Float()
			n++
		}
	}
	return total, n
}

// TrafficWeightageOver reports whether a weightage total seen in traffic
// breaks the limit; traffic's totals are compared to a hundredth.
func TrafficWeightageOver(total float64) bool { return WeightageOver(total, HundredthTolerance) }

// QuestionOutside names the first question field of an evaluation-session
// body outside its range, at any depth (the body's form is the
// implementation's); "" when every one is inside.
func QuestionOutside(v gjson.Result) string {
	bad := ""
	questionFields(v, func(name string, e gjson.Result, lim Range) bool {
		if !lim.Contains(e.Float()) {
			bad = name + " " + e.Raw + " outside " + lim.String()
		}
		return bad == ""
	})
	return bad
}

// HasQuestion reports whether an evaluation-session body carries a
// question field the ranges apply to.
func HasQuestion(v gjson.Result) bool {
	found := false
	questionFields(v, func(string, gjson.Result, Range) bool {
		found = true
		return false
	})
	return found
}

// questionFields calls visit with every numeric member of v, at any
// depth, that QuestionLimits bounds, until visit returns false.
func questionFields(v gjson.Result, visit func(name string, e gjson.Result, lim Range) bool) {
	more := true
	var walk func(gjson.Result)
	walk = func(r gjson.Result) {
		r.ForEach(func(k, e gjson.Result) bool {
			if lim, ok := QuestionLimits[k.Str]; ok && k.Type == gjson.String && e.Type == gjson.Number {
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

// FormatNumber writes a number as briefly as it reads.
func FormatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// BodyOverLimit names the stated limit a request body of op breaks, with
// what breaks it, in traffic's terms: the weightages of a gradebook update
// over MaxWeightageTotal (ReqWeightageOver), a question of an evaluation
// session update outside QuestionLimits (ReqQuestionOutside). req is ""
// when the body keeps every limit of op, or op has none.
func BodyOverLimit(op registry.OpID, body gjson.Result) (req, what string) {
	switch op {
	case registry.GB:
		if total, n := WeightTotal(body.Get("iD_Weightage")); n > 0 && TrafficWeightageOver(total) {
			return ReqWeightageOver, "weights totalling " + FormatNumber(total)
		}
	case registry.ES:
		if bad := QuestionOutside(body); bad != "" {
			return ReqQuestionOutside, bad
		}
	}
	return "", ""
}
