package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
)

// uuidForm is the textual form of a uuid, in either case (RFC 9562).
var uuidForm = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// Identity returns what identifies an entry of a record kind (an OpenAPI
// component, Operation.Record) as one comparable string: the values of the
// members registry.Identity declares, each in a canonical spelling (a uuid
// in lower case, a date-time as its instant in UTC, a number as its
// value). ok is false when the entry carries none of them: then nothing
// identifies it across requests.
//
// Every check that compares entries of two answers (paging, sorting,
// repeated reads, read-backs) compares these and nothing else: the
// specification states no other member as stable from one answer to the
// next.
func Identity(record string, entry gjson.Result) (key string, ok bool) {
	var b strings.Builder
	for i, m := range registry.Identity(record) {
		v := entry.Get(gjsonEscape(m))
		if i > 0 {
			b.WriteByte('\x1f')
		}
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		ok = true
		b.WriteString(Canonical(v))
	}
	return b.String(), ok
}

// SameRecord reports whether two entries of a record kind are the same
// record: their identities (Identity) are equal. Two entries that carry no
// identity are never the same record.
func SameRecord(record string, a, b gjson.Result) bool {
	ka, oka := Identity(record, a)
	kb, okb := Identity(record, b)
	return oka && okb && ka == kb
}

// SameValue reports whether two JSON values are equal as the interface's
// values: numbers numerically, uuids without regard to case, date-times as
// instants, arrays and objects member by member.
func SameValue(a, b gjson.Result) bool {
	return Canonical(a) == Canonical(b)
}

// AgreeAnswer compares a record as one operation answers it with the same
// record as a list carries it (E19.agrees): every member of one that
// compare accepts and both carry (null is not carried) holds the same
// value (SameValue). differ words each member that does not; compared
// counts the members compared beyond what identifies the record, so that
// a producer tells agreement from nothing to compare (0).
func AgreeAnswer(record string, one, listed gjson.Result, compare func(member string) bool) (differ []string, compared int) {
	identity := registry.Identity(record)
	one.ForEach(func(k, v gjson.Result) bool {
		w := listed.Get(gjsonEscape(k.Str))
		if !compare(k.Str) || !v.Exists() || v.Type == gjson.Null || !w.Exists() || w.Type == gjson.Null {
			return true
		}
		if !slices.Contains(identity, k.Str) {
			compared++
		}
		if !SameValue(v, w) {
			differ = append(differ, fmt.Sprintf("%s: %s, listed %s", k.Str, clipRaw(v.Raw), clipRaw(w.Raw)))
		}
		return true
	})
	slices.Sort(differ)
	return differ, compared
}

// Canonical spells a JSON value so that two values SameValue holds equal
// are spelled alike: a uuid in lower case, an RFC 3339 date-time as its
// instant in UTC, a number as its float value, objects with their members
// in sorted order.
func Canonical(v gjson.Result) string {
	switch v.Type {
	case gjson.Number:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case gjson.String:
		if uuidForm.MatchString(v.Str) {
			return strconv.Quote(strings.ToLower(v.Str))
		}
		if t, err := ParseDateTime(v.Str); err == nil {
			return strconv.Quote(t.UTC().Format(time.RFC3339Nano))
		}
		return strconv.Quote(v.Str)
	case gjson.JSON:
		if v.IsArray() {
			var parts []string
			for _, e := range v.Array() {
				parts = append(parts, Canonical(e))
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		var parts []string
		v.ForEach(func(k, e gjson.Result) bool {
			parts = append(parts, strconv.Quote(k.Str)+":"+Canonical(e))
			return true
		})
		slices.Sort(parts)
		return "{" + strings.Join(parts, ",") + "}"
	}
	return v.Raw
}

// gjsonEscape escapes the characters gjson reads as path syntax in a
// member name.
func gjsonEscape(name string) string {
	r := strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`)
	return r.Replace(name)
}
