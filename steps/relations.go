package steps

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// The relation and reference checks: what a list answer means against the
// whole list (filters, search, sorting, paging, populate), and whether the
// members of an answer tied to a record the request names name it. Each
// reads its operation's declarations in the registry (its row in registry.go) and
// judges with internal/rules; features/relations.feature holds one
// outline per kind of check, whose Examples the registry makes
// (features/expand.go), so no check is written operation by operation.

// The requests of the checks after the whole list is read.
const (
	// pagesRequests estimates the walks of pagesOnce: the list in about
	// four pages and the empty one past it, twice (unsorted and sorted).
	pagesRequests = 12
)

// listFacts returns the declarations of a list operation, or an error
// naming a feature that uses a check on an operation without them (a bug
// of the suite).
func listFacts(op registry.OpID) (registry.ListFacts, error) {
	l, ok := registry.List(op)
	if !ok {
		return l, fmt.Errorf("%s declares no list (its row in internal/registry/registry.go: ListFacts)", op)
	}
	return l, nil
}

// listCall is op's typical call, the request every relation varies.
func listCall(op registry.OpID, extra ...[2]string) call {
	c := typicalCall(op)
	for _, p := range extra {
		c.params[p[0]] = p[1]
		c.order = append(c.order, p[0])
	}
	return c
}

// sendList sends op's typical call with the extra parameters and wants
// 200. refused, when not nil, is what a 400 answer means instead (an
// open limit of the implementation: nothing observed).
func (s *state) sendList(ctx context.Context, op registry.OpID, refused func() error, extra ...[2]string) error {
	if err := s.do(ctx, listCall(op, extra...)); err != nil {
		return err
	}
	if refused != nil && s.status == 400 {
		return refused()
	}
	return s.statusIs(200)
}

func readWhole(ctx context.Context, name string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	return stateFrom(ctx).pageThrough(ctx, op, registry.Must(op).Typical.Params["id"], nil)
}

// wholeList is the scenario's state, the list operation the step's text
// names (opNamed), its list declarations and the whole list the scenario
// read before.
func wholeList(ctx context.Context, name string) (*state, registry.OpID, registry.ListFacts, []gjson.Result, error) {
	s := stateFrom(ctx)
	op, err := opNamed(name)
	if err != nil {
		return s, op, registry.ListFacts{}, nil, err
	}
	l, err := listFacts(op)
	if err != nil {
		return s, op, l, nil, err
	}
	whole, err := s.whole()
	return s, op, l, whole, err
}

// whole returns the list the walk read, and whether a check can judge
// from it: the fixture's record promises entries.
func (s *state) whole() ([]gjson.Result, error) {
	v, ok := s.saved[allPages]
	if !ok {
		return nil, fmt.Errorf("the whole list was not read before this step")
	}
	all := v.Array()
	if len(all) == 0 {
		return nil, fixtureShort("the whole list is empty: the fixture's record promises entries, and an empty list shows no relation")
	}
	return all, nil
}

// complete reports whether an answer of n entries read without offset or
// limit holds all it matches: the whole list came in one page, or the
// answer is shorter than the page size the walk met.
func (s *state) complete(n, whole int) bool {
	return s.firstPage >= whole || n < s.firstPage
}

// probe is a filter's value, chosen from the list, and what the filter
// must do with each entry.
type filterProbe struct {
	param, value string
	match        func(gjson.Result) rules.Match
}

// probeOf chooses the value of filter f from entries: a search text that
// shows over-matching (rules.SearchProbe), a date bound at about fraction
// of the list's instants (rules.BoundProbe).
func probeOf(f registry.Filter, entries []gjson.Result, fraction float64) (filterProbe, bool) {
	switch f.Kind {
	case registry.SearchText:
		text, ok := rules.SearchProbe(entries, f.Members)
		return filterProbe{f.Param, text, func(e gjson.Result) rules.Match { return rules.SearchMatch(e, f.Members, text) }}, ok
	case registry.DateFrom, registry.DateTo:
		text, at, ok := rules.BoundProbe(entries, f.Members[0], fraction)
		from := f.Kind == registry.DateFrom
		return filterProbe{f.Param, text, func(e gjson.Result) rules.Match { return rules.DateMatch(e, f.Members[0], from, at) }}, ok
	}
	return filterProbe{}, false
}

// noProbe is the skip of a filter no value of which, chosen from the
// list, tells its entries apart: the entries leave the members it reads
// out (optional fields), or too few of them differ.
func (s *state) noProbe(f registry.Filter, whole []gjson.Result) error {
	for _, e := range whole {
		for _, m := range f.Members {
			if !absent(e.Get(m)) {
				return fixtureShort("too few entries differ in %s for a value of %s to keep some and drop others (%d entries)", strings.Join(f.Members, ", "), f.Param, len(whole))
			}
		}
	}
	return unobservable("no entry carries %s, an optional field this check needs", strings.Join(quoteAll(f.Members), " or "))
}

// judgeFiltered sends op with the probes and judges the answer against
// the whole list.
func (s *state) judgeFiltered(ctx context.Context, op registry.OpID, l registry.ListFacts, whole []gjson.Result, ps []filterProbe, req string) error {
	var extra [][2]string
	var what []string
	for _, p := range ps {
		extra = append(extra, [2]string{p.param, p.value})
		what = append(what, p.param+"="+strconv.Quote(p.value))
	}
	match := func(e gjson.Result) rules.Match {
		ms := make([]rules.Match, len(ps))
		for i, p := range ps {
			ms[i] = p.match(e)
		}
		return rules.All(ms...)
	}
	keep, drop, _ := rules.Tally(whole, match)
	if keep == 0 && drop == 0 {
		return unobservable("with %s every entry of the list is one the open readings disagree on: nothing to judge", strings.Join(what, " and "))
	}
	if err := s.sendList(ctx, op, nil, extra...); err != nil {
		return err
	}
	got, err := s.list()
	if err != nil {
		return err
	}
	if problems := rules.Exactly(whole, got, l.Identity, match, s.complete(len(got), len(whole))); len(problems) > 0 {
		return s.fail([]string{req}, fmt.Sprintf("with %s, exactly the %d entries of the whole list (%d) every reading keeps, and none of the %d every reading drops", strings.Join(what, " and "), keep, len(whole), drop),
			fmt.Sprintf("%d entries, %d of them wrong", len(got), len(problems)), strings.Join(problems, "\n"))
	}
	if keep == 0 || !registry.Must(op).Paged {
		return nil
	}
	// the filter keeps entries before a page is cut: limit 1 gives one
	// of them, whichever entry the whole list holds first. Where limit=1
	// does not give one entry of the list itself, that is limit's rule
	// (.limit-one), judged apart, and this one cannot be seen.
	if err := s.sendList(ctx, op, nil, [2]string{"limit", "1"}); err != nil {
		return err
	}
	if first, err := s.list(); err != nil || len(first) != 1 {
		return nil
	}
	if err := s.sendList(ctx, op, nil, append(extra, [2]string{"limit", "1"})...); err != nil {
		return err
	}
	one, err := s.list()
	if err != nil {
		return err
	}
	if len(one) != 1 || match(one[0]) == rules.Drop {
		return s.fail([]string{req}, fmt.Sprintf("with %s and limit=1, one of the %d entries every reading keeps (a filter applies before the page is cut)", strings.Join(what, " and "), keep),
			fmt.Sprintf("%d entries: %s", len(one), s.clip(s.json().Raw)))
	}
	return nil
}

func filteredExactly(ctx context.Context, name, param string) error {
	s, op, l, whole, err := wholeList(ctx, name)
	if err != nil {
		return err
	}
	for _, f := range l.Checked() {
		if f.Param != param {
			continue
		}
		p, ok := probeOf(f, whole, 0.5)
		if !ok {
			return s.noProbe(f, whole)
		}
		return s.judgeFiltered(ctx, op, l, whole, []filterProbe{p}, f.Requirement)
	}
	return fmt.Errorf("%s declares no checked filter %s", op, param)
}

// filteredTogether gives every checked filter at once: the date bounds
// a quarter and three quarters into the list, the search text chosen
// among the entries both keep, so that each parameter drops entries the
// others keep.
func filteredTogether(ctx context.Context, name string) error {
	s, op, l, whole, err := wholeList(ctx, name)
	if err != nil {
		return err
	}
	var ps []filterProbe
	for _, f := range l.Checked() {
		if f.Kind == registry.SearchText {
			continue
		}
		fraction := 0.25
		if f.Kind == registry.DateTo {
			fraction = 0.75
		}
		p, ok := probeOf(f, whole, fraction)
		if !ok {
			return s.noProbe(f, whole)
		}
		ps = append(ps, p)
	}
	inside := whole
	if len(ps) > 0 {
		inside = nil
		for _, e := range whole {
			ms := make([]rules.Match, len(ps))
			for i, p := range ps {
				ms[i] = p.match(e)
			}
			if rules.All(ms...) == rules.Keep {
				inside = append(inside, e)
			}
		}
	}
	for _, f := range l.Checked() {
		if f.Kind != registry.SearchText {
			continue
		}
		p, ok := probeOf(f, inside, 0)
		if !ok {
			if len(inside) == 0 {
				return fixtureShort("too few entries: none of the %d lies surely between the date bounds, for %s to keep some and drop others there", len(whole), f.Param)
			}
			return s.noProbe(f, inside)
		}
		ps = append(ps, p)
	}
	return s.judgeFiltered(ctx, op, l, whole, ps, op.Requirement("."+string(registry.CheckCombined)))
}

// sortedSame reads the whole list sorted by the operation's first sort key
// and compares its entries with those of the whole list.
func sortedSame(ctx context.Context, name string) error {
	s, op, l, whole, err := wholeList(ctx, name)
	if err != nil {
		return err
	}
	if len(l.SortKeys) == 0 {
		return fmt.Errorf("%s declares no sort key", op)
	}
	saved := s.saved[allPages]
	defer func() { s.saved[allPages] = saved }()
	key := l.SortKeys[0]
	if err := s.pageThrough(ctx, op, registry.Must(op).Typical.Params["id"], [][2]string{{"sortby", "{sortby." + key + ".ascending}"}}); err != nil {
		return err
	}
	sorted := s.saved[allPages].Array()
	missing, extra := rules.SameEntries(whole, sorted, l.Identity)
	if len(missing)+len(extra) > 0 {
		var detail []string
		for _, m := range missing {
			detail = append(detail, "missing: "+m)
		}
		for _, m := range extra {
			detail = append(detail, "not in the list: "+m)
		}
		return s.fail([]string{op.Requirement("." + string(registry.CheckSorted))},
			fmt.Sprintf("sorted by %s, the %d entries of the whole list", key, len(whole)),
			fmt.Sprintf("%d entries, %d missing and %d not in the list", len(sorted), len(missing), len(extra)), strings.Join(detail, "\n"))
	}
	return nil
}

// limitOne reads the list with limit=1: an array of one entry, since the
// whole list has some.
func limitOne(ctx context.Context, name string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	if _, err := s.whole(); err != nil {
		return err
	}
	if err := s.sendList(ctx, op, nil, [2]string{"limit", "1"}); err != nil {
		return err
	}
	req := []string{op.Requirement("." + string(registry.CheckLimitOne))}
	v := s.json()
	if !v.IsArray() {
		return s.fail(req, "with limit=1, an array of one entry", s.describeValue(v))
	}
	if n := len(v.Array()); n != 1 {
		return s.fail(req, "with limit=1, an array of one entry (the list has entries)", fmt.Sprintf("an array of %d", n))
	}
	return nil
}

// pagesOnce walks the list at a fixed limit (about a quarter of it, no
// more than the page the implementation chose itself), and again sorted
// by the first sort key where the fixture declares the sortby syntax:
// together the pages hold each entry of the whole list once.
func pagesOnce(ctx context.Context, name string) error {
	s, op, l, whole, err := wholeList(ctx, name)
	if err != nil {
		return err
	}
	// about four pages, the last one short where the list allows it (a
	// short last page is where a filled-up one shows)
	k := max(1, min((len(whole)+3)/4, s.firstPage))
	for j := k; j <= min(len(whole)/2, s.firstPage); j++ {
		if len(whole)%j != 0 {
			k = j
			break
		}
	}
	orders := [][2]string{{}}
	if len(l.SortKeys) > 0 && s.env.cfg.Fixture.Conventions.Sortby.Declared() {
		orders = append(orders, [2]string{"sortby", "{sortby." + l.SortKeys[0] + ".ascending}"})
	}
	req := []string{op.Requirement("." + string(registry.CheckPages))}
	for _, order := range orders {
		var pages [][]gjson.Result
		bound := 2*((len(whole)+k-1)/k) + 2
		for offset := 0; ; {
			if len(pages) == bound {
				return s.fail(req, fmt.Sprintf("an empty page after the %d entries of the list, at limit=%d", len(whole), k), fmt.Sprintf("%d pages and no end", bound))
			}
			extra := [][2]string{{"limit", strconv.Itoa(k)}}
			if order[0] != "" {
				extra = append(extra, order)
			}
			if offset > 0 {
				extra = append(extra, [2]string{"offset", strconv.Itoa(offset)})
			}
			var refused func() error
			if offset > 0 {
				refused = func() error {
					return unobservable("offset=%d, within the %d entries of the list, is refused with 400: the implementation caps offset below the list's length", offset, len(whole))
				}
			}
			if err := s.sendList(ctx, op, refused, extra...); err != nil {
				return err
			}
			page, err := s.list()
			if err != nil {
				return err
			}
			if len(page) == 0 {
				break
			}
			pages = append(pages, page)
			offset += len(page)
		}
		if problems := rules.Pages(whole, pages, l.Identity); len(problems) > 0 {
			how := "in the default order"
			if order[0] != "" {
				how = "sorted by " + l.SortKeys[0]
			}
			return s.fail(req, fmt.Sprintf("pages of limit=%d %s holding each of the %d entries of the whole list once", k, how, len(whole)),
				fmt.Sprintf("%d pages, %d problems", len(pages), len(problems)), strings.Join(problems, "\n"))
		}
	}
	return nil
}

// populateOnly reads op's typical call without and with the populate
// entity: the same entries, and no member changed but the one the
// specification says the entity fills (where it names none, only the
// entries are compared).
func populateOnly(ctx context.Context, name, entity string) error {
	op, p, err := populateNamed(name, entity, "", func(registry.Populate) bool { return true })
	if err != nil {
		return err
	}
	s, filled := stateFrom(ctx), p.Filled()
	if err := s.sendList(ctx, op, nil); err != nil {
		return err
	}
	without := s.json()
	if err := s.sendList(ctx, op, populateRefused(op, entity), [2]string{"populate", entity}); err != nil {
		return err
	}
	got := s.json()
	record := registry.Must(op).Record
	listed := func(member string) bool { return openapi.Declares(record, member) }
	var problems []string
	if l, isList := registry.List(op); isList {
		if !without.IsArray() || !got.IsArray() {
			return s.fail([]string{s.successReq(op)}, "two arrays", s.describeValue(got))
		}
		if len(without.Array()) == 0 {
			return fixtureShort("the list is empty: the fixture's record promises entries")
		}
		if !rules.Identified(without.Array(), l.Identity) {
			return unobservable("no entry carries %s, an optional field this check needs to tell entries apart", strings.Join(quoteAll(l.Identity), " or "))
		}
		problems = rules.PopulateOnly(without.Array(), got.Array(), l.Identity, filled, listed)
	} else {
		problems = rules.PopulateOnlyRecord(without, got, filled, listed)
	}
	if len(problems) > 0 {
		but := "the members it fills: " + strings.Join(quoteAll(filled), ", ")
		if len(filled) == 1 {
			but = "the member it fills, " + strconv.Quote(filled[0])
		}
		if len(filled) == 0 {
			but = "nothing (it fills no member)"
		}
		return s.fail([]string{op.Requirement("." + string(registry.CheckPopulate))},
			fmt.Sprintf("with populate=%s, the answer without it, but for %s", entity, but),
			fmt.Sprintf("%d changes", len(problems)), strings.Join(problems, "\n"))
	}
	return nil
}

// populateNamed is the operation a step's text names (opNamed) and its
// last declaration of the populate entity that want accepts; it is an
// error naming the entity, and what want asks (kind), where there is none.
func populateNamed(name, entity, kind string, want func(registry.Populate) bool) (registry.OpID, registry.Populate, error) {
	op, err := opNamed(name)
	if err != nil {
		return op, registry.Populate{}, err
	}
	var got registry.Populate
	found := false
	for _, p := range registry.Populates(op) {
		if p.Entity == entity && want(p) {
			got, found = p, true
		}
	}
	if !found {
		return op, got, fmt.Errorf("%s declares no populate entity %s%s", op, entity, kind)
	}
	return op, got, nil
}

// populateRefused is what a 400 to populate=entity means: its
// acceptance is the operation's populate requirement's to judge.
func populateRefused(id registry.OpID, entity string) func() error {
	return func() error {
		return unobservable("populate=%s is refused with 400: whether it is accepted is %s's to judge", entity, id.Requirement(".populate"))
	}
}

// populateFilled reads op with the populate entity whose member the
// fixture promises is not empty.
func populateFilled(ctx context.Context, name, entity string) error {
	op, p, err := populateNamed(name, entity, " promised non-empty", func(p registry.Populate) bool { return p.NonEmpty && p.Member != "" })
	if err != nil {
		return err
	}
	s, member := stateFrom(ctx), p.Member
	if err := s.sendList(ctx, op, populateRefused(op, entity), [2]string{"populate", entity}); err != nil {
		return err
	}
	v := s.json().Get(member)
	if (v.IsArray() && len(v.Array()) > 0) || (v.IsObject() && len(v.Map()) > 0) || (v.Type == gjson.String && v.Str != "") {
		return nil
	}
	return s.fail([]string{op.Requirement("." + member + "-filled")},
		fmt.Sprintf("with populate=%s, %q filled: the fixture's record promises it is not empty", entity, member), orAbsent(v))
}

func orAbsent(v gjson.Result) string {
	if absent(v) {
		return "absent"
	}
	return clip(v.Raw)
}

// answerNamesRecords checks the members of the last answer that the
// specification ties to a record its request named (registry.References):
// each names that record. An optional member left out is not judged; an
// answer none of whose entries carries it is unobservable.
func answerNamesRecords(ctx context.Context) error {
	s := stateFrom(ctx)
	id := s.lastOp
	o, ok := registry.Lookup(string(id))
	refs := registry.References(id)
	if !ok || len(refs) == 0 {
		return fmt.Errorf("%s declares no reference (its row in internal/registry/registry.go: References)", s.lastOp)
	}
	if s.status < 200 || s.status >= 300 {
		return unobservable("the call was answered %d: there is no record whose references could be read", s.status)
	}
	body := s.json()
	records := []gjson.Result{body}
	if o.List {
		if !body.IsArray() {
			return s.fail([]string{s.successReq(id)}, "a JSON array", s.describeValue(body))
		}
		records = body.Array()
		if len(records) == 0 {
			// the fixture's record promises entries: the operation's
			// success scenario judges an empty list
			return unobservable("the list is empty: no entry whose references could be read")
		}
	}
	for _, r := range refs {
		want, err := s.inputOf(o, r.Input)
		if err != nil {
			return err
		}
		b, seen := rules.ReferenceAnswer(records, r.Member, r.Input, want, openapi.Optional(o.Record, r.Member), o.List)
		if b != nil {
			return s.fail([]string{r.Requirement}, b.Expected, b.Got)
		}
		if seen == 0 {
			return unobservable("no record of the answer carries %q, an optional field this check needs", r.Member)
		}
	}
	return nil
}

// inputOf is the value of a request input of the last call: a path
// parameter of the operation's typical call, or a member of the body sent.
func (s *state) inputOf(o registry.Operation, input string) (gjson.Result, error) {
	kind, name, _ := strings.Cut(input, ".")
	switch kind {
	case "path":
		v, err := s.interpolate(o.Typical.Params[name])
		if err != nil {
			return gjson.Result{}, err
		}
		return gjson.Result{Type: gjson.String, Str: v, Raw: strconv.Quote(v)}, nil
	case "body":
		v := gjson.GetBytes(s.lastSent.body, name)
		if !v.Exists() {
			return v, fmt.Errorf("the body sent has no %q to compare %s's answer with", name, o.ID)
		}
		return v, nil
	}
	return gjson.Result{}, fmt.Errorf("input %q is neither path.NAME nor body.NAME", input)
}

// deletedIDsNamed judges a delete's 200 answer against the ids its request
// sent in member that name a record, all but the scenario's {absent}
// (rules.DeletedIDsAnswer). A 204 names no ids: the status step before
// this one judged it.
func deletedIDsNamed(ctx context.Context, member string) error {
	s := stateFrom(ctx)
	sent := gjson.GetBytes(s.lastSent.body, member)
	if !sent.IsArray() {
		return fmt.Errorf("the body sent has no array %q to compare the answer with", member)
	}
	// the ids naming a record: all but the scenario's {absent}
	var named []string
	for _, id := range sent.Array() {
		if !strings.EqualFold(id.String(), s.absentID()) {
			named = append(named, strconv.Quote(id.String()))
		}
	}
	if b := rules.DeletedIDsAnswer(s.status, s.json(), gjson.Parse("["+strings.Join(named, ",")+"]")); b != nil {
		return s.fail(nil, b.Expected, b.Got)
	}
	return nil
}

// noRecordMadeUp judges the answer to a call naming a record that does not
// exist, where the operation lists no 404 (rules.UnknownIDAnswer): a
// refusal, in the stated error form, or a success describing nothing. A
// refusal of the caller (401, 403) shows nothing of the id: unobservable.
func noRecordMadeUp(ctx context.Context) error {
	s := stateFrom(ctx)
	if s.status == 401 || s.status == 403 {
		if err := s.errorBodyIsString(); err != nil {
			return err
		}
		// refused for who is calling: the lookup of the id was not reached
		return unobservable("the call was refused with %d for its caller before the id was looked up: whether a record is made up for an id that names none was not observed", s.status)
	}
	if b := rules.UnknownIDAnswer(s.status, s.body); b != nil {
		return s.fail(nil, b.Expected, b.Got)
	}
	if s.status >= 400 {
		return s.errorBodyIsString()
	}
	return nil
}

// typicalUnknown makes op's typical call with the record it names by an id
// (registry.Operation.Addresses) replaced by one that does not exist: a
// uuid no implementation has in a path or a quoted member, an int64 id
// none has issued in an unquoted one. The fixture need not name the record.
func typicalUnknown(ctx context.Context, name string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	in, key, ok := registry.Must(op).Addresses()
	if !ok {
		return fmt.Errorf("%s names no one record by an id (its IDs in internal/registry/registry.go)", op)
	}
	s := stateFrom(ctx)
	c := typicalCall(op)
	kind, param, _ := strings.Cut(in, ".")
	ref := "{" + key + "}"
	switch {
	case kind == "path":
		c.params[param] = "{absent}"
	case strings.Contains(c.body, `"`+ref+`"`):
		c.body = strings.Replace(c.body, ref, "{absent}", 1)
	case strings.Contains(c.body, ref):
		c.body = strings.Replace(c.body, ref, "{absentNumber}", 1)
	default:
		return fmt.Errorf("%s's typical body does not name %s", op, ref)
	}
	restore, err := s.asTypicalUser(op)
	if err != nil {
		return err
	}
	defer restore()
	return s.do(ctx, c)
}
