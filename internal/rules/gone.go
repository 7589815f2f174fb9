package rules

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// GoneAnswer judges the answer to a call addressing records deleted
// earlier (E5.gone, E14.gone): 404 keeps the rule; a 403 says nothing of
// the records (a permission may be checked first), so judged is false;
// any other answer is a Breach.
func GoneAnswer(status int) (b *Breach, judged bool) {
	if status == 403 {
		return nil, false
	}
	return breachIf(status != 404, "404 for records deleted earlier", fmt.Sprint(status)), true
}

// DeletedIDsAnswer judges the 200 answer of a delete that may name what it
// deleted (E5.success): an array holding each id of sent, every one of
// which names a record that existed, once, and no other id (uuids compared
// in either case, the order free). A 204, or any status but 200, is not
// this predicate's to judge.
func DeletedIDsAnswer(status int, body, sent gjson.Result) *Breach {
	if status != 200 {
		return nil
	}
	want := map[string]bool{}
	for _, id := range sent.Array() {
		want[strings.ToLower(id.String())] = true
	}
	expected := fmt.Sprintf("200 with the array of the %d ids deleted (%s)", len(want), sent.Raw)
	if !body.IsArray() {
		return &Breach{Expected: expected, Got: answered(status, []byte(body.Raw))}
	}
	seen := map[string]bool{}
	for _, id := range body.Array() {
		k := strings.ToLower(id.String())
		if id.Type != gjson.String || !want[k] || seen[k] {
			return &Breach{Expected: expected, Got: answered(status, []byte(body.Raw))}
		}
		seen[k] = true
	}
	return breachIf(len(seen) != len(want), expected, answered(status, []byte(body.Raw)))
}

// UnknownIDAnswer judges the answer to a call that names, by an id, a
// record that does not exist, on an operation whose specification lists no
// 404 for it (ALL.unknown-id): a refusal (4xx) keeps the rule, and so does
// a success that describes no record and lists no entry (no body, null,
// or an object or array with nothing in it). A record with members made
// up for the id, entries listed for it, or a server error, is a Breach.
func UnknownIDAnswer(status int, body []byte) *Breach {
	expected := "a refusal (4xx), or a success describing no record and listing no entry, for an id that names none"
	if ClientError(status) {
		return nil
	}
	if status < 200 || status >= 300 {
		return &Breach{Expected: expected, Got: answered(status, body)}
	}
	b := trimSpace(body)
	v := gjson.ParseBytes(b)
	empty := len(b) == 0 || v.Type == gjson.Null || v.IsObject() && len(v.Map()) == 0 || v.IsArray() && len(v.Array()) == 0
	return breachIf(!empty, expected, answered(status, body))
}
