package rules

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
)

// A refusal (400) of a request is a verdict only where the request is
// plainly valid: it breaks no rule the document states, and it touches no
// matter the specification leaves open, where a faithful implementation
// may refuse it (Open.Accepts). OpenIn names the open matter a request
// touches; every producer that judges a refusal of a valid request reads
// it (the proxy; the suite sends only plain requests where it does).

// PlainLimit and PlainOffset are the paging values every faithful reading
// serves: the maximum and default of limit and offset are open (Limits),
// and an implementation may refuse values beyond a cap of its own, at any
// size the specification does not state. The plain values are those the
// suite itself holds an implementation to (docs/decisions.md, paging):
// limit=2, and offset=1 with it; anything else may be refused. limit=0 is
// open too (limit-bound).
var (
	PlainLimit  = Range{1, 2}
	PlainOffset = Range{0, 1}
)

// OpenIn returns the open matter a request of op touches, nil when it
// touches none: a paging value outside PlainLimit or PlainOffset, or
// given twice (OpenPaging); a sortby or where, whose syntax is open
// (OpenQuerySyntax); a date range with one end, a start after its
// end, or an end given twice (OpenDateRange); an id the caller does not
// know to name a record, in the path, the query or a body member whose
// name ends in "id" or "ids" (OpenUnknownID: known nil knows every id).
func OpenIn(op registry.OpID, path map[string]string, query url.Values, body []byte, known func(id string) bool) *Open {
	for name, plain := range map[string]Range{"limit": PlainLimit, "offset": PlainOffset} {
		vs, ok := query[name]
		if !ok {
			continue
		}
		if len(vs) != 1 {
			return &OpenPaging
		}
		n, err := strconv.ParseFloat(vs[0], 64)
		if err != nil || !plain.Contains(n) {
			return &OpenPaging
		}
	}
	for _, name := range []string{"sortby", "where"} {
		if _, ok := query[name]; ok {
			return &OpenQuerySyntax
		}
	}
	for _, f := range DateFilters {
		if f.Op != op {
			continue
		}
		s, e := query[f.Start], query[f.End]
		switch {
		case len(s) == 0 && len(e) == 0:
		case len(s) != 1 || len(e) != 1:
			return &OpenDateRange
		default:
			st, err1 := ParseDateTime(s[0])
			en, err2 := ParseDateTime(e[0])
			if err1 != nil || err2 != nil || st.After(en) {
				return &OpenDateRange
			}
		}
	}
	if known == nil {
		return nil
	}
	for _, id := range path {
		if !known(id) {
			return &OpenUnknownID
		}
	}
	for name, vs := range query {
		if !idName(name) {
			continue
		}
		for _, v := range vs {
			if !known(v) {
				return &OpenUnknownID
			}
		}
	}
	if len(body) > 0 && gjson.ValidBytes(body) && !idsKnown(gjson.ParseBytes(body), false, known) {
		return &OpenUnknownID
	}
	return nil
}

// idName reports whether a member or parameter name names ids.
func idName(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "id") || strings.HasSuffix(n, "ids")
}

// idsKnown walks a body: every value of a member named for ids (scalars,
// or arrays of them) is known.
func idsKnown(r gjson.Result, isID bool, known func(string) bool) bool {
	ok := true
	switch {
	case r.IsObject():
		r.ForEach(func(k, v gjson.Result) bool {
			ok = idsKnown(v, idName(k.String()), known)
			return ok
		})
	case r.IsArray():
		r.ForEach(func(_, v gjson.Result) bool {
			ok = idsKnown(v, isID, known)
			return ok
		})
	case isID:
		ok = r.Type != gjson.Null && known(r.String())
	}
	return ok
}
