package rules

import "github.com/tidwall/gjson"

// ErrorBodyIsString reports whether body is the error form the
// specification states for every refusal (Errors; Endpoints / common): a
// single JSON string. Every refusal the suite judges, whatever refused it
// (the subscription key, the user's token, the user's role, a value),
// is held to it through this one rule.
//
// Merge note (issue 40 consolidates the refusal predicates into
// internal/rules): this is the one predicate of the error body's form;
// keep one of the two if that issue adds its own.
func ErrorBodyIsString(body []byte) bool {
	return gjson.ValidBytes(body) && gjson.ParseBytes(body).Type == gjson.String
}

// SameAtFloatPrecision reports whether a number sent as a member the
// specification types number (float) came back as the same value at
// float (32-bit) precision: an implementation may store it as a float
// and give back the float nearest to what was sent.
func SameAtFloatPrecision(sent, got float64) bool {
	return sent == got || float32(sent) == float32(got)
}
