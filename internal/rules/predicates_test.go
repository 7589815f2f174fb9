package rules

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestPredicates holds each shared predicate to the answers it keeps and
// those it breaks.
func TestPredicates(t *testing.T) {
	key := func(status int) func() *Breach {
		return func() *Breach { return KeyRefusal(status, []byte(`"no key"`)) }
	}
	body := func(status int, b string) func() *Breach {
		return func() *Breach { return ErrorBody(status, []byte(b)) }
	}
	code := func(status int, b string) func() *Breach {
		return func() *Breach { return WrongCodeAnswer(status, gjson.Parse(b)) }
	}
	media := func(ct string) func() *Breach { return func() *Breach { return ResponseMediaType(200, ct) } }
	unknown := func(status int, body string) func() *Breach {
		return func() *Breach { return UnknownIDAnswer(status, []byte(body)) }
	}
	const a, b = "0b6c8a52-1f3e-4d2a-9c1e-5a7b3c9d2e10", "7f2d1c4b-8e9a-4b6c-a1d3-2e5f7a9b0c11"
	deleted := func(status int, body string) func() *Breach {
		return func() *Breach {
			return DeletedIDsAnswer(status, gjson.Parse(body), gjson.Parse(`["`+a+`", "`+b+`"]`))
		}
	}
	for _, tc := range []struct {
		name  string
		judge func() *Breach
		kept  bool
	}{
		{"key 400", key(400), true}, {"key 401", key(401), true}, {"key 403", key(403), true},
		{"key 404", key(404), true}, {"key 429", key(429), true}, {"key 499", key(499), true},
		{"key no answer", key(0), false}, {"key 200", key(200), false}, {"key 204", key(204), false},
		{"key 302", key(302), false}, {"key 500", key(500), false}, {"key 503", key(503), false},

		{"body string", body(400, `"bad request"`), true},
		{"body string, spaced", body(404, " \"not found\"\n"), true},
		{"body empty string", body(500, `""`), true},
		{"body of a success", body(200, `{"id": 1}`), true},
		{"body null", body(400, `null`), false},
		{"body none", body(400, ``), false},
		{"body object", body(400, `{"message": "bad"}`), false},
		{"body array", body(400, `["bad"]`), false},
		{"body unterminated", body(400, `"unterminated`), false},
		{"body not JSON", body(403, `not json`), false},

		{"code refused", code(400, `"wrong code"`), true},
		{"code refused 404", code(404, `"no such user"`), true},
		{"code 200 other status", code(200, `{"status": "1001"}`), true},
		{"code 200 no status", code(200, `{}`), true},
		{"code confirmed", code(200, `{"status": "0000"}`), false},
		{"code 201", code(201, `{"status": "1001"}`), false},
		{"code 500", code(500, `"oops"`), false},
		{"code 503", code(503, `"down"`), false},

		{"deleted 204", deleted(204, ``), true},
		{"deleted ids", deleted(200, `["`+a+`", "`+b+`"]`), true},
		{"deleted ids, other order and case", deleted(200, `["`+strings.ToUpper(b)+`", "`+a+`"]`), true},
		{"deleted not 200", deleted(400, `"bad"`), true},
		{"deleted empty", deleted(200, `[]`), false},
		{"deleted one missing", deleted(200, `["`+a+`"]`), false},
		{"deleted one twice", deleted(200, `["`+a+`", "`+a+`", "`+b+`"]`), false},
		{"deleted another", deleted(200, `["`+a+`", "`+b+`", "00000000-0000-4000-8000-000000000000"]`), false},
		{"deleted object", deleted(200, `{"iDs": ["`+a+`", "`+b+`"]}`), false},
		{"deleted numbers", deleted(200, `[1, 2]`), false},

		{"unknown 400", unknown(400, `"no such record"`), true},
		{"unknown 404", unknown(404, `"not found"`), true},
		{"unknown 204", unknown(204, ``), true},
		{"unknown 200 null", unknown(200, `null`), true},
		{"unknown 200 {}", unknown(200, ` {} `), true},
		{"unknown 200 []", unknown(200, `[]`), true},
		{"unknown zero record", unknown(200, `{"id": 0, "notifyStatus": 0}`), false},
		{"unknown echoed id", unknown(200, `{"id": "`+a+`"}`), false},
		{"unknown array of one", unknown(200, `[{"id": "`+a+`"}]`), false},
		{"unknown 500", unknown(500, `"oops"`), false},

		{"media json", media("application/json"), true},
		{"media json charset", media("application/json; charset=utf-8"), true},
		{"media problem+json", media("application/problem+json"), true},
		{"media json-patch", media("application/json-patch+json"), true},
		{"media text/json", media("text/json"), false},
		{"media text/plain", media("text/plain"), false},
		{"media none", media(""), false},
		{"media jsonx", media("application/jsonx"), false},
	} {
		if b := tc.judge(); (b == nil) != tc.kept {
			t.Errorf("%s: expected kept %v, got breach %+v", tc.name, tc.kept, b)
		}
	}
}

func TestGoneAnswer(t *testing.T) {
	for status, want := range map[int]string{404: "kept", 403: "unjudged", 200: "broken", 400: "broken", 500: "broken"} {
		b, judged := GoneAnswer(status)
		got := map[bool]string{true: "broken", false: "kept"}[b != nil]
		if !judged {
			got = "unjudged"
		}
		if got != want {
			t.Errorf("GoneAnswer(%d): expected %s, got %s", status, want, got)
		}
	}
}
