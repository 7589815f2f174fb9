package rules

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestKeyRefusal(t *testing.T) {
	for _, tc := range []struct {
		status int
		ok     bool
	}{
		{400, true}, {401, true}, {403, true}, {404, true}, {429, true}, {499, true},
		{0, false}, {200, false}, {204, false}, {302, false}, {500, false}, {503, false},
	} {
		got := KeyRefusal(tc.status, []byte(`"no key"`)) == nil
		if got != tc.ok {
			t.Errorf("KeyRefusal(%d): kept the rule %v, want %v", tc.status, got, tc.ok)
		}
	}
}

func TestErrorBody(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		ok     bool
	}{
		{400, `"bad request"`, true},
		{404, " \"not found\"\n", true},
		{500, `""`, true},
		{200, `{"id": 1}`, true}, // no error: not this rule's
		{400, `null`, false},
		{400, ``, false},
		{400, `{"message": "bad"}`, false},
		{400, `["bad"]`, false},
		{400, `"unterminated`, false},
		{403, `not json`, false},
	} {
		b := ErrorBody(tc.status, []byte(tc.body))
		if (b == nil) != tc.ok {
			t.Errorf("ErrorBody(%d, %q) = %+v, want kept %v", tc.status, tc.body, b, tc.ok)
		}
	}
}

func TestIsJSONMediaType(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json":                true,
		"application/json; charset=utf-8": true,
		"application/problem+json":        true,
		"application/json-patch+json":     true,
		"text/json":                       false,
		"text/plain":                      false,
		"":                                false,
		"application/jsonx":               false,
	} {
		if got := IsJSONMediaType(ct); got != want {
			t.Errorf("IsJSONMediaType(%q) = %v, want %v", ct, got, want)
		}
	}
}

func TestWrongCodeAnswer(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		ok     bool
	}{
		{400, `"wrong code"`, true},
		{404, `"no such user"`, true},
		{200, `{"status": "1001"}`, true},
		{200, `{}`, true},
		{200, `{"status": "0000"}`, false},
		{201, `{"status": "1001"}`, false},
		{500, `"oops"`, false},
		{503, `"down"`, false},
	} {
		b := WrongCodeAnswer(tc.status, gjson.Parse(tc.body))
		if (b == nil) != tc.ok {
			t.Errorf("WrongCodeAnswer(%d, %s) = %+v, want kept %v", tc.status, tc.body, b, tc.ok)
		}
	}
}
