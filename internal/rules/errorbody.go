package rules

import (
	"bytes"
	"encoding/json"

	"github.com/tidwall/gjson"
)

// ReqErrorBody: every error response carries a body that is a single JSON
// string (Errors).
const ReqErrorBody = "ALL.error-body"

// IsErrorBody reports whether b is an error body the specification
// allows: one JSON string, white space around it allowed. JSON null, an
// object or an empty body is none.
func IsErrorBody(b []byte) bool {
	b = trimSpace(b)
	if len(b) == 0 || b[0] != '"' {
		return false
	}
	var s string
	return json.Unmarshal(b, &s) == nil
}

// ErrorBody judges the body of an error answer (status 400 or more): nil
// when it is a JSON string (IsErrorBody) or the answer is no error, a
// Breach naming what the body was otherwise.
func ErrorBody(status int, body []byte) *Breach {
	return breachIf(status >= 400 && !IsErrorBody(body), "an error body that is a single JSON string", DescribeBody(body))
}

// DescribeBody says what kind of JSON a body is, with its first 80 bytes,
// for a Breach's Got.
func DescribeBody(b []byte) string {
	b = trimSpace(b)
	switch {
	case len(b) == 0:
		return "an empty body"
	case !json.Valid(b):
		return "a body that is not JSON"
	}
	r := gjson.ParseBytes(b)
	kind := map[gjson.Type]string{gjson.String: "a JSON string", gjson.Number: "a JSON number", gjson.True: "a JSON boolean", gjson.False: "a JSON boolean", gjson.Null: "JSON null"}[r.Type]
	switch {
	case r.IsObject():
		kind = "a JSON object"
	case r.IsArray():
		kind = "a JSON array"
	}
	s := string(b)
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return kind + ": " + s
}

func trimSpace(b []byte) []byte { return bytes.TrimSpace(b) }
