package generate

import (
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// sameRecords compares two answers of one operation across requests the
// one way every producer does (rules.Identity): the same records in the
// same order, and, for the members named, the same values
// (rules.SameValue). No other member is compared: the specification states
// none as stable from one answer to the next (a signed link, a date-time's
// spelling may differ). An answer that is not a record (a count, a
// string) is compared as a value.
func sameRecords(op registry.OpID, a, b []byte, members []string) bool {
	ja, jb := gjson.ParseBytes(a), gjson.ParseBytes(b)
	if !gjson.ValidBytes(a) || !gjson.ValidBytes(b) {
		return string(a) == string(b)
	}
	record := registry.Must(op).Record
	if record == "" || (!ja.IsObject() && !ja.IsArray()) {
		return rules.SameValue(ja, jb)
	}
	ea, eb := entries(ja), entries(jb)
	if len(ea) != len(eb) {
		return false
	}
	for i := range ea {
		ka, oka := rules.Identity(record, ea[i])
		kb, okb := rules.Identity(record, eb[i])
		if oka != okb || ka != kb {
			return false
		}
		for _, m := range members {
			if !rules.SameValue(ea[i].Get(m), eb[i].Get(m)) {
				return false
			}
		}
	}
	return true
}

func entries(v gjson.Result) []gjson.Result {
	if v.IsArray() {
		return v.Array()
	}
	return []gjson.Result{v}
}
