package steps

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/uuid"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// statusIs checks the status against one or more accepted statuses. A
// wrong status where a success was expected breaks the operation's success
// requirement; where an error was expected, the scenario's own. An error
// status that matches must carry a JSON string body (ALL.error-body), and a
// 204 must carry no body.
func (s *state) statusIs(want ...int) error {
	if len(s.exchanges) == 0 {
		return fmt.Errorf("no request was made before checking the status")
	}
	if !slices.Contains(want, s.status) {
		reqs := s.besideRefusal()
		switch {
		case s.mediaTypeRefused():
			reqs = []string{"ALL.media-type"}
		case want[0] < 300:
			reqs = s.successMissed()
		}
		return s.fail(reqs, "status "+joinInts(want), s.gotStatus())
	}
	if s.status == 204 && len(strings.TrimSpace(string(s.body))) > 0 {
		return s.fail([]string{s.successReq(s.lastOp)}, "204 with no body", "204 with body "+s.clip(string(s.body)))
	}
	if s.status >= 400 {
		return s.errorBodyIsString()
	}
	return nil
}

// mediaTypeRefused reports whether the last request was refused (415) for
// the documented media type of its body, which breaks ALL.media-type
// whatever the check that sees it.
func (s *state) mediaTypeRefused() bool {
	return s.status == 415 && s.lastReq != nil && s.lastReq.Header.Get("Content-Type") == jsonPatch
}

// successMissed names the requirements broken by a wrong status where a
// success was expected. Another success status (200 for 201, 204 for 200)
// breaks the success requirement of the operation called. A refusal or an
// error breaks the rule the step that sent the request declared it relies
// on (s.refusal), else the scenario's own requirements when the request is
// of the scenario's operation (a refused populate entity breaks the
// populate requirement, not the success status), else the success
// requirement of the operation called: a call the scenario makes only to
// prepare its check.
func (s *state) successMissed() []string {
	switch {
	case s.status >= 200 && s.status < 300:
		return []string{s.successReq(s.lastOp)}
	case s.refusal.exchange == len(s.exchanges)-1 && len(s.refusal.reqs) > 0:
		return s.refusal.reqs
	case s.lastOp == s.op:
		return nil
	}
	return []string{s.successReq(s.lastOp)}
}

// errorBodyIsString holds an error answer to rules.ErrorBody
// (ALL.error-body).
func (s *state) errorBodyIsString() error {
	s.exercise(rules.ReqErrorBody)
	if b := rules.ErrorBody(s.status, s.body); b != nil {
		return s.fail([]string{rules.ReqErrorBody}, b.Expected, fmt.Sprintf("%d with %s", s.status, b.Got))
	}
	return nil
}

func (s *state) gotStatus() string {
	if s.status == 0 {
		return "no response"
	}
	return fmt.Sprintf("%d with body %s", s.status, s.clip(string(s.body)))
}

// refusedForKey holds the answer to a call without a valid subscription
// key to rules.KeyRefusal: any client error, as the proxy judges it.
func (s *state) refusedForKey() error {
	if b := rules.KeyRefusal(s.status, s.body); b != nil {
		return s.fail(nil, b.Expected, s.gotStatus())
	}
	// its body is the stated error form, as every refusal's (issue 37)
	return s.errorBodyIsString()
}

// notRefusedForMediaType accepts any answer but a refusal of the body's
// media type (415, 400) or a server error. A 400 may refuse the content
// rather than its media type (E1 may refuse a wrong one-time password with
// 400, OP.status-codes): the same request is sent again under the other
// JSON media type, and only an answer to that one that is neither 400 nor
// a refusal of its own media type (415) shows that the media type was the
// reason.
func (s *state) notRefusedForMediaType(ctx context.Context) error {
	ct := s.lastReq.Header.Get("Content-Type")
	sentAs := "with Content-Type " + ct
	if ct == "" {
		sentAs = "without a Content-Type"
	}
	if s.status == 400 && s.lastSent.hasBody {
		got, at := s.gotStatus(), len(s.exchanges)-1
		other := rules.MediaJSON
		if ct == other {
			other = jsonPatch
		}
		if err := s.again(ctx, s.lastSent, other); err != nil {
			return err
		}
		if s.status == 400 || s.status == 415 {
			return nil
		}
		f := s.fail(nil, "the body accepted "+sentAs, got+", where the same body as "+other+" got "+s.gotStatus())
		f.Exchange = at
		return f
	}
	if s.status == 415 || s.status == 400 || s.status >= 500 || s.status == 0 {
		return s.fail(nil, "the body accepted "+sentAs, s.gotStatus())
	}
	return nil
}

// literal interpolates and parses an expected JSON value.
func (s *state) literal(text string) (gjson.Result, error) {
	text, err := s.interpolate(text)
	if err != nil {
		return gjson.Result{}, err
	}
	if !gjson.Valid(text) {
		return gjson.Result{}, fmt.Errorf("expected value %s is not a JSON value (quote strings)", text)
	}
	return gjson.Parse(text), nil
}

func (s *state) field(path string) gjson.Result {
	if path == "" || path == "@this" {
		return s.json()
	}
	return s.json().Get(path)
}

func (s *state) fieldIs(path, want string, negate bool) error {
	exp, err := s.literal(want)
	if err != nil {
		return err
	}
	got := s.field(path)
	same := got.Exists() && sameJSON(got, exp)
	if same == negate {
		verb := ""
		if negate {
			verb = "not "
		}
		return s.fail(nil, fmt.Sprintf("%s %s%s", describePath(path), verb, exp.Raw), s.describeValue(got))
	}
	return nil
}

func (s *state) fieldHasType(path, kind string) error {
	got := s.field(path)
	ok := false
	switch kind {
	case "array":
		ok = got.IsArray()
	case "object":
		ok = got.IsObject()
	case "string":
		ok = got.Type == gjson.String
	case "boolean":
		ok = got.IsBool()
	case "number":
		ok = got.Type == gjson.Number
	case "integer":
		ok = got.Type == gjson.Number && isInteger(got.Raw)
	case "non-empty string":
		ok = got.Type == gjson.String && got.Str != ""
	case "non-empty array":
		ok = got.IsArray() && len(got.Array()) > 0
	}
	if !ok {
		return s.fail(nil, fmt.Sprintf("%s to be a %s", describePath(path), kind), s.describeValue(got))
	}
	return nil
}

func isInteger(raw string) bool {
	_, err := strconv.ParseInt(raw, 10, 64)
	return err == nil
}

func describePath(path string) string {
	if path == "" || path == "@this" {
		return "the body"
	}
	if f, ok := strings.CutPrefix(path, "#."); ok {
		if f, ok := strings.CutSuffix(f, "|0"); ok {
			return "field " + strconv.Quote(f) + " on every entry"
		}
	}
	return "field " + strconv.Quote(path)
}

func (s *state) describeValue(v gjson.Result) string {
	if !v.Exists() {
		return "no such field"
	}
	return s.clip(v.Raw)
}

// sameJSON compares two JSON values: numbers numerically, uuids without
// regard to case, arrays and objects deeply.
func sameJSON(a, b gjson.Result) bool {
	switch {
	case a.Type == gjson.Number && b.Type == gjson.Number:
		return a.Float() == b.Float()
	case a.Type == gjson.String && b.Type == gjson.String:
		if uuid.Valid(a.Str) && uuid.Valid(b.Str) {
			return strings.EqualFold(a.Str, b.Str)
		}
		return a.Str == b.Str
	}
	return equalValues(a.Value(), b.Value())
}

// list returns the body as a list, or a failure.
func (s *state) list() ([]gjson.Result, error) {
	v := s.json()
	if !v.IsArray() {
		return nil, s.fail([]string{s.successReq(s.lastOp)}, "a JSON array", s.describeValue(v))
	}
	return v.Array(), nil
}

func (s *state) listAtMost(n int) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	if len(items) > n {
		return s.fail(nil, fmt.Sprintf("at most %d entries", n), fmt.Sprintf("%d entries", len(items)))
	}
	return nil
}

func (s *state) listNotEmpty() error {
	items, err := s.list()
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return s.fail(nil, "at least one entry", "an empty list")
	}
	return nil
}

// listEqualsSlice checks that the list holds the records of entries
// from..to (1-based, inclusive) of a saved list, in that order. Entries
// are compared by what identifies their record (rules.Identity), never
// whole: the specification states no other member as stable from one
// answer to the next (a signed link, a date-time's spelling may differ).
func (s *state) listEqualsSlice(from, to int, name string) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	saved, ok := s.saved[name]
	if !ok || !saved.IsArray() {
		return fmt.Errorf("no list was saved as %q", name)
	}
	all := saved.Array()
	if len(all) < to {
		return fixtureShort("the saved list %q has %d entries, fewer than the %d this check needs: the fixture's record has too few", name, len(all), to)
	}
	record := s.recordKind()
	want := identities(record, all[from-1:to])
	got := identities(record, items)
	if slices.Contains(want, "") {
		// the members that identify a record are optional like any other:
		// without them, nothing tells one record from another across
		// answers, and no other member may be compared
		return unobservable("entries %d to %d of the list saved as %q carry nothing that identifies their record (%s), an optional field this check needs", from, to, name, strings.Join(registry.Identity(record), ", "))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		return s.fail(nil, fmt.Sprintf("the records of entries %d to %d of the list saved as %q, in that order (compared by %s)", from, to, name, strings.Join(registry.Identity(record), ", ")), fmt.Sprintf("%d other entries", len(items)), "(-want +got):\n"+diff)
	}
	return nil
}

// recordKind is the record kind the last operation answers (an OpenAPI
// component), "" when it is not known.
func (s *state) recordKind() string {
	if op, ok := registry.Lookup(string(s.lastOp)); ok {
		return op.Record
	}
	return ""
}

// identities returns what identifies each entry's record (rules.Identity),
// "" for an entry that carries none of it.
func identities(record string, items []gjson.Result) []string {
	out := make([]string, len(items))
	for i, it := range items {
		if k, ok := rules.Identity(record, it); ok {
			out[i] = k
		}
	}
	return out
}

func (s *state) listShorterThan(name string) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	saved := s.saved[name]
	if n := len(saved.Array()); len(items) >= n {
		return s.fail(nil, fmt.Sprintf("fewer entries than the %d of the list saved as %q", n, name), fmt.Sprintf("%d entries", len(items)))
	}
	return nil
}

// every checks a condition on each entry of the list. A list with no entry
// proves nothing: every list record of the fixture promises entries, so an
// empty list fails the check rather than passing it vacuously.
func (s *state) every(check func(gjson.Result) (bool, string)) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	if len(items) == 0 {
		_, want := check(gjson.Result{})
		return s.fail(nil, "every entry "+want+", and at least one entry: the fixture's record promises entries", "[]")
	}
	for i, it := range items {
		if ok, want := check(it); !ok {
			return s.fail(nil, "every entry "+want, fmt.Sprintf("entry %d: %s", i, s.clip(it.Raw)))
		}
	}
	return nil
}

// absent reports whether an optional field is left out: missing, or null
// as many serialisers write a missing value.
func absent(v gjson.Result) bool { return !v.Exists() || v.Type == gjson.Null }

// optionalAbsent returns the skip of a check whose field the last answer
// leaves out where its record makes the field optional: leaving it out is
// the implementation's right, so the check is unobservable, neither passed
// nor failed. It returns nil for a field that is there, required, or of
// no record (the check then fails on it as usual).
func (s *state) optionalAbsent(path string) error {
	if !absent(s.field(path)) || path == "" || path == "@this" || strings.ContainsAny(path, ".#|") {
		return nil
	}
	o, ok := registry.Lookup(string(s.lastOp))
	if !ok || !openapi.Optional(o.Record, path) || s.populated(path) {
		return nil
	}
	return unobservable("the answer of %s leaves out %q, an optional field this check needs, and nothing else shows it", s.lastOp, path)
}

// populated reports whether the last request asked for field by a
// populate entity of the same name (ancestor, photo): a field asked for
// is no longer the implementation's to leave out.
func (s *state) populated(field string) bool {
	if s.lastReq == nil {
		return false
	}
	for _, v := range s.lastReq.URL.Query()["populate"] {
		for _, e := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(e), field) {
				return true
			}
		}
	}
	return false
}

// noneCarries returns the skip of a check over every entry of a list when
// no entry carries any of the (optional) fields it reads: a check that
// judges no entry must not pass.
func (s *state) noneCarries(paths ...string) error {
	items, err := s.list()
	if err != nil || len(items) == 0 {
		return nil // the check itself fails on these
	}
	for _, it := range items {
		for _, p := range paths {
			if !absent(it.Get(p)) {
				return nil
			}
		}
	}
	return unobservable("no entry of the answer carries %s, an optional field this check needs", strings.Join(quoteAll(paths), " or "))
}

func quoteAll(v []string) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = strconv.Quote(s)
	}
	return out
}

// everyEquals checks a field of every entry; with wherePresent an entry
// that leaves the (optional) field out passes.
func (s *state) everyEquals(path, want string, wherePresent bool) error {
	exp, err := s.literal(want)
	if err != nil {
		return err
	}
	if wherePresent {
		if err := s.noneCarries(path); err != nil {
			return err
		}
	}
	return s.every(func(it gjson.Result) (bool, string) {
		v := it.Get(path)
		if wherePresent && absent(v) {
			return true, fmt.Sprintf("with %q, where present, equal to %s", path, exp.Raw)
		}
		return sameJSON(v, exp), fmt.Sprintf("with %q equal to %s", path, exp.Raw)
	})
}

// everyContains checks that one of two fields of every entry contains a
// text. An entry that leaves both (optional) fields out is not judged.
func (s *state) everyContains(a, b, text string) error {
	text, err := s.interpolate(text)
	if err != nil {
		return err
	}
	needle := strings.ToLower(text)
	if err := s.noneCarries(a, b); err != nil {
		return err
	}
	return s.every(func(it gjson.Result) (bool, string) {
		va, vb := it.Get(a), it.Get(b)
		ok := (absent(va) && absent(vb)) || strings.Contains(strings.ToLower(va.String()), needle) || strings.Contains(strings.ToLower(vb.String()), needle)
		return ok, fmt.Sprintf("with %q or %q containing %q", a, b, text)
	})
}

// everyTime checks a date-time field of every entry against a bound: no
// entry lies surely outside the range the bound opens (rules.DateRange),
// whichever way the implementation reads its end; an entry at the bound's
// own instant passes. An entry that leaves the (optional) field out is
// not judged.
func (s *state) everyTime(path, rel, bound string) error {
	bound, err := s.interpolate(bound)
	if err != nil {
		return err
	}
	limit, err := rules.ParseDateTime(bound)
	if err != nil {
		return fmt.Errorf("bound %q is not an RFC 3339 date-time", bound)
	}
	if err := s.noneCarries(path); err != nil {
		return err
	}
	return s.every(func(it gjson.Result) (bool, string) {
		v := it.Get(path)
		if rel == "after" {
			rel = "at or after"
		} else if rel == "before" {
			rel = "at or before"
		}
		want := fmt.Sprintf("with %q %s %s", path, rel, bound)
		if absent(v) {
			return true, want
		}
		t, err := rules.ParseDateTime(v.String())
		if err != nil {
			return false, fmt.Sprintf("with an RFC 3339 %q", path)
		}
		r := rules.DateRange{End: limit}
		if rel == "at or after" {
			r = rules.DateRange{Start: limit}
		}
		return !r.SurelyOutside(t), want
	})
}

// saveBetween saves an instant strictly between the earliest and the
// latest date-time of a field across the list (rules.Between): a bound on
// which, at most, an entry sits that either reading of the bound may keep,
// with entries surely on each side of it.
func (s *state) saveBetween(path, name string) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	var first, last time.Time
	seen := 0
	for _, it := range items {
		v := it.Get(path)
		if absent(v) {
			continue
		}
		t, err := rules.ParseDateTime(v.String())
		if err != nil {
			return s.fail(nil, fmt.Sprintf("entries with an RFC 3339 %q", path), s.clip(v.Raw))
		}
		if seen == 0 || t.Before(first) {
			first = t
		}
		if seen == 0 || t.After(last) {
			last = t
		}
		seen++
	}
	switch {
	case seen == 0 && len(items) > 0:
		return unobservable("no entry carries %q, an optional field this check needs", path)
	case !first.Before(last):
		return fixtureShort("the list shows %d entries with %q and no two instants of it: this check needs two (the fixture's record promises two distinct %s)", seen, path, path)
	}
	mid := rules.Between(first, last).UTC().Format(time.RFC3339Nano)
	s.saved[name] = gjson.Result{Type: gjson.String, Str: mid, Raw: strconv.Quote(mid)}
	return nil
}

// noTwoSame checks that no two entries of the list carry the same value of
// a field. Entries that leave the (optional) field out are not judged; a
// list none of whose entries carries it is unobservable.
func (s *state) noTwoSame(path string) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	if err := s.noneCarries(path); err != nil {
		return err
	}
	if b := rules.DistinctAnswer(items, path); b != nil {
		return s.fail(nil, b.Expected, b.Got)
	}
	return nil
}

func (s *state) everyNonEmpty(path string) error {
	return s.every(func(it gjson.Result) (bool, string) {
		v := it.Get(path)
		return v.Exists() && v.String() != "", fmt.Sprintf("with a non-empty %q", path)
	})
}

// sortedBy checks the list's order by a field: numbers numerically,
// date-times chronologically, other strings case-insensitively. Entries
// that leave the (optional) field out are not judged; an empty list fails
// (the fixture's record promises entries), and fewer than two entries
// carrying the field cannot show an order, so the check is skipped.
func (s *state) sortedBy(path, dir string) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return s.fail(nil, fmt.Sprintf("entries in %s order of %q, and at least one entry: the fixture's record promises entries", dir, path), "[]")
	}
	var with []gjson.Result
	for _, it := range items {
		if v := it.Get(path); !absent(v) {
			with = append(with, v)
		}
	}
	if len(with) < 2 {
		return unobservable("fewer than two entries carry %q, an optional field this check needs", path)
	}
	for i := 1; i < len(with); i++ {
		c := compareValues(with[i-1], with[i])
		if (dir == "ascending" && c > 0) || (dir == "descending" && c < 0) {
			return s.fail(nil, fmt.Sprintf("entries in %s order of %q", dir, path), fmt.Sprintf("%s before %s", with[i-1].Raw, with[i].Raw))
		}
	}
	return nil
}

func compareValues(a, b gjson.Result) int {
	if a.Type == gjson.Number && b.Type == gjson.Number {
		return cmpFloat(a.Float(), b.Float())
	}
	if c, ok := rules.CompareInstants(a.String(), b.String()); ok {
		return c
	}
	return strings.Compare(strings.ToLower(a.String()), strings.ToLower(b.String()))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, " or ")
}
