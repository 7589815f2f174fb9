package appcheck

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/tidwall/gjson"
)

// The decision ids of docs/decisions.md the app check probes, as the
// traffic report spells them. They are read as strings: this package
// links no simulator (CONTRIBUTING's layer table), and a test holds the
// list to the simulator's (TestEveryDecisionHasAProbe).
const (
	dUnplacedPaths    = "D-unplaced-paths"
	dAuth401          = "D-auth-401"
	dExtraPermissions = "D-extra-permissions"
	dLimitDefault     = "D-limit-default"
	dLimitBounds      = "D-limit-bounds"
	dSortDefault      = "D-sort-default"
	dSortbySyntax     = "D-sortby-syntax"
	dWhereSyntax      = "D-where-syntax"
	dDateBounds       = "D-date-bounds"
	dUnknownID        = "D-unknown-id"
	dDelete204        = "D-delete-204"
	dCounts           = "D-counts"
)

// probe observes what the target does on one decision and fills res:
// Result, Request, Target (or Why) and, where it observed a value of the
// simulator's own, a sharper Simulator.
type probe func(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance)

// probes are the probes by decision id.
var probes = map[string]probe{
	dUnplacedPaths:    probeUnplaced,
	dAuth401:          probeAuth,
	dExtraPermissions: probePermissions,
	dLimitDefault:     probeLimitDefault,
	dLimitBounds:      probeLimitBounds,
	dSortDefault:      probeSortDefault,
	dSortbySyntax:     probeSortby,
	dWhereSyntax:      probeWhere,
	dDateBounds:       probeDateBounds,
	dUnknownID:        probeUnknownID,
	dDelete204:        probeDelete,
	dCounts:           probeCounts,
}

// simulatorDefaultLimit is the page size the simulator gives a paged list
// read without limit, as D-limit-default says (the simulator keeps its own
// copy, listing.DefaultLimit: this is the reading of the traffic report's
// words the probe compares with).
const simulatorDefaultLimit = 100

func unobservable(res *reports.AppReliance, why string) {
	res.Result, res.Why = reports.Unobservable, why
}

func differs(res *reports.AppReliance, target string) {
	res.Result, res.Target = reports.Differs, target
}

func holds(res *reports.AppReliance, target string) {
	res.Result, res.Target = reports.Holds, target
}

// pick returns the first operation of ops (the app's, then others when
// ops gives none) that keep accepts and the run may call: claimed by the
// fixture, and not changing state in a read-only run.
func (p *prober) pick(ops []string, keep func(registry.Operation) bool) (registry.Operation, string, bool) {
	why := "none of the operations it relied on it with (" + strings.Join(ops, ", ") + ") can show it"
	for _, name := range ops {
		op, ok := registry.Lookup(name)
		if !ok || !keep(op) {
			continue
		}
		if !p.t.Fixture.Supports(string(op.ID)) {
			why = string(op.ID) + "'s profile is not claimed by the fixture"
			continue
		}
		if op.ChangesState && p.t.ReadOnly {
			why = string(op.ID) + " changes state, and the run is read-only"
			continue
		}
		return op, "", true
	}
	return registry.Operation{}, why, false
}

// example is the app's example request of the reliance, or else of op.
func example(tr *Traffic, r Reliance, op registry.Operation) *Operation {
	if r.Example != nil {
		o := &Operation{}
		o.Example = r.Example
		return o
	}
	for i := range tr.Operations {
		if tr.Operations[i].Op == string(op.ID) && tr.Operations[i].Example != nil {
			return &tr.Operations[i]
		}
	}
	return &Operation{}
}

// listCall is op's typical read as a list, with the app's query when the
// report gives one, without the parameters named in drop.
func (p *prober) listCall(tr *Traffic, r Reliance, op registry.Operation, drop ...string) (call, error) {
	c, err := p.typical(op, nil, example(tr, r, op).Example)
	if err != nil {
		return c, err
	}
	for _, d := range drop {
		c = c.with(d, "")
	}
	return c, nil
}

// pickList picks one of the operations the app relied on with r that
// keep accepts, and its list call without the parameters drop; false
// (res made unobservable, with the reason) when there is none.
func (p *prober) pickList(tr *Traffic, r Reliance, keep func(registry.Operation) bool, res *reports.AppReliance, drop ...string) (registry.Operation, call, bool) {
	op, why, ok := p.pick(r.Ops, keep)
	if !ok {
		unobservable(res, why)
		return op, call{}, false
	}
	c, err := p.listCall(tr, r, op, drop...)
	if err != nil {
		unobservable(res, err.Error())
		return op, call{}, false
	}
	return op, c, true
}

// observe sends c as the probe's request (res.Request), with what the
// simulator answers it (res.Simulator, where simulator is not empty), and
// gives the answer; false (res unobservable, with what happened) when no
// answer came.
func (p *prober) observe(ctx context.Context, c call, res *reports.AppReliance, simulator string) (answer, bool) {
	res.Request = c.String()
	if simulator != "" {
		res.Simulator = simulator
	}
	a := p.send(ctx, c)
	if a.err != nil {
		unobservable(res, a.String())
		return a, false
	}
	return a, true
}

// entriesOf sends c and gives the entries of its answer; false when
// there are none to judge (res unobservable on a transport error, differs
// on an answer that is no successful array).
func (p *prober) entriesOf(ctx context.Context, c call, res *reports.AppReliance) ([]gjson.Result, bool) {
	a := p.send(ctx, c)
	if a.err != nil {
		unobservable(res, a.String())
		return nil, false
	}
	es, isArray := a.entries()
	if !a.ok() || !isArray {
		differs(res, "answered "+a.String())
		return nil, false
	}
	return es, true
}

func isList(o registry.Operation) bool  { return o.List }
func isPaged(o registry.Operation) bool { return o.List && o.Paged }

// probeLimitDefault reads a paged list without limit and with limit=100:
// the simulator gives the first 100 entries.
func probeLimitDefault(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	_, c, ok := p.pickList(tr, r, isPaged, res, "limit", "offset")
	if !ok {
		return
	}
	a, ok := p.observe(ctx, c, res, fmt.Sprintf("a page of its first %d entries without limit", simulatorDefaultLimit))
	if !ok {
		return
	}
	n, isArray := countOf(a)
	switch {
	case !a.ok() || !isArray:
		differs(res, "answered "+a.String()+" without limit")
		return
	case n > simulatorDefaultLimit:
		differs(res, fmt.Sprintf("a page of %d entries without limit (more than %d)", n, simulatorDefaultLimit))
		return
	case n == simulatorDefaultLimit:
		holds(res, fmt.Sprintf("a page of %d entries without limit", n))
		return
	}
	b := p.send(ctx, c.with("limit", fmt.Sprint(simulatorDefaultLimit)))
	m, _ := countOf(b)
	switch {
	case b.err != nil:
		unobservable(res, b.String())
	case !b.ok():
		differs(res, fmt.Sprintf("a page of %d entries without limit; limit=%d answered %s", n, simulatorDefaultLimit, b.String()))
	case m > n:
		differs(res, fmt.Sprintf("a page of %d entries without limit (limit=%d gives %d)", n, simulatorDefaultLimit, m))
	default:
		// the whole list, as the simulator gives it: the app's reliance
		// holds on these records, though a default between n and 100
		// cannot be told from 100 on them
		holds(res, fmt.Sprintf("all %d entries of the list without limit (a default page above %d cannot be told from %d on this list)", n, n, simulatorDefaultLimit))
	}
}

// page reads c with limit=100 (the whole list when it is shorter), or
// with no limit when the target refuses that; whole says the answer is
// the whole list.
func (p *prober) page(ctx context.Context, c call) (used call, a answer, whole bool) {
	used = c.with("limit", fmt.Sprint(simulatorDefaultLimit))
	a = p.send(ctx, used)
	if a.err == nil && a.status >= 400 && a.status < 500 {
		used = c.with("limit", "")
		return used, p.send(ctx, used), false
	}
	n, _ := countOf(a)
	return used, a, a.ok() && n < simulatorDefaultLimit
}

func countOf(a answer) (int, bool) {
	es, ok := a.entries()
	return len(es), ok
}

// probeLimitBounds reads a list with limit=1000 and limit=0: the
// simulator accepts the first and answers the second with an empty page.
func probeLimitBounds(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	_, c, ok := p.pickList(tr, r, isList, res, "limit", "offset")
	if !ok {
		return
	}
	big, zero := c.with("limit", "1000"), c.with("limit", "0")
	res.Request = big.String() + "; " + zero.target()
	res.Simulator = "limit=1000 accepted; limit=0 answered with an empty page"
	a, b := p.send(ctx, big), p.send(ctx, zero)
	if a.err != nil || b.err != nil {
		unobservable(res, a.String()+"; "+b.String())
		return
	}
	var wrong []string
	if !a.ok() {
		wrong = append(wrong, "limit=1000 answered "+a.String())
	}
	if n, isArray := countOf(b); !b.ok() || !isArray {
		wrong = append(wrong, "limit=0 answered "+b.String())
	} else if n > 0 {
		wrong = append(wrong, fmt.Sprintf("limit=0 gave %d entries", n))
	}
	if len(wrong) > 0 {
		differs(res, strings.Join(wrong, "; "))
		return
	}
	holds(res, "limit=1000 accepted; limit=0 gave an empty page")
}

// probeSortDefault reads a list twice without sortby: the simulator keeps
// creation order, which for a log is oldest first.
func probeSortDefault(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	_, c, ok := p.pickList(tr, r, isList, res, "sortby", "offset")
	if !ok {
		return
	}
	res.Request = c.String() + " (twice)"
	res.Simulator = "creation order, the logs oldest first, the same in every read"
	a, b := p.send(ctx, c), p.send(ctx, c)
	first, okA := a.entries()
	second, okB := b.entries()
	switch {
	case a.err != nil || b.err != nil:
		unobservable(res, a.String()+"; "+b.String())
		return
	case !a.ok() || !b.ok() || !okA || !okB:
		unobservable(res, "the list read answered "+a.String()+" and "+b.String())
		return
	case len(first) < 2:
		unobservable(res, fmt.Sprintf("the list holds %d entries: no order to observe", len(first)))
		return
	}
	if !sameOrder(first, second) {
		differs(res, "two reads gave the entries in different orders")
		return
	}
	if dates, ok := fieldValues(first, "logDate"); ok {
		asc, desc := ordered(dates)
		switch {
		case desc && !asc:
			differs(res, "a log newest first")
			return
		case !asc:
			differs(res, "a log in neither date order")
			return
		}
		holds(res, "the log oldest first, the same in two reads")
		return
	}
	holds(res, "the same order in two reads")
}

func sameOrder(a, b []gjson.Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Raw != b[i].Raw {
			return false
		}
	}
	return true
}

// fieldValues are the string values of field in every entry, or false
// when one lacks it.
func fieldValues(es []gjson.Result, field string) ([]string, bool) {
	var out []string
	for _, e := range es {
		v := e.Get(gjson.Escape(field))
		if v.Type != gjson.String {
			return nil, false
		}
		out = append(out, v.String())
	}
	return out, len(out) > 0
}

// ordered reports whether vs are in ascending and in descending order (as
// strings: RFC 3339 date-times of one offset sort so).
func ordered(vs []string) (asc, desc bool) {
	asc, desc = true, true
	for i := 1; i < len(vs); i++ {
		c := strings.Compare(vs[i-1], vs[i])
		asc = asc && c <= 0
		desc = desc && c >= 0
	}
	return asc, desc
}

// sortField chooses the field a sortby probe orders by: the first key of
// the app's own sortby when its example has one, else the first member of
// the entries that is a string in each and takes two values at least.
func sortField(appSort string, es []gjson.Result) string {
	if s := appSort; s != "" {
		key, _, _ := strings.Cut(strings.Split(s, ",")[0], " ")
		key = strings.TrimLeft(strings.TrimSpace(key), "-+")
		if _, ok := fieldValues(es, key); ok {
			return key
		}
	}
	return varyingField(es)
}

// varyingField is the first member of es[0] that is a string in every
// entry and takes two distinct values at least, or "".
func varyingField(es []gjson.Result) string {
	if len(es) < 2 {
		return ""
	}
	var keys []string
	es[0].ForEach(func(k, v gjson.Result) bool {
		if v.Type == gjson.String {
			keys = append(keys, k.String())
		}
		return true
	})
	for _, k := range keys {
		vs, ok := fieldValues(es, k)
		if !ok {
			continue
		}
		for _, v := range vs[1:] {
			if !strings.EqualFold(v, vs[0]) {
				return k
			}
		}
	}
	return ""
}

// probeSortby sorts a list by one field with "FIELD asc" and "FIELD
// desc": the simulator accepts both and gives one order reversed.
func probeSortby(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	op, c, ok := p.pickList(tr, r, isList, res, "offset", "where")
	if !ok {
		return
	}
	appSort := c.query.Get("sortby")
	c, base, whole := p.page(ctx, c.with("sortby", ""))
	es, _ := base.entries()
	field := sortField(appSort, es)
	if field == "" {
		unobservable(res, fmt.Sprintf("%s: no member of the %d entries read takes two values to sort by (%s)", op.ID, len(es), base.String()))
		return
	}
	asc := c.with("sortby", field+" asc")
	desc := c.with("sortby", field+" desc")
	res.Request = desc.String() + "; " + asc.target()
	res.Simulator = fmt.Sprintf("sortby=%q and %q accepted, one order the other reversed", field+" desc", field+" asc")
	a, d := p.send(ctx, asc), p.send(ctx, desc)
	if a.err != nil || d.err != nil {
		unobservable(res, a.String()+"; "+d.String())
		return
	}
	if !a.ok() || !d.ok() {
		differs(res, fmt.Sprintf("sortby=%q answered %s; sortby=%q answered %s", field+" asc", a.String(), field+" desc", d.String()))
		return
	}
	ae, _ := a.entries()
	de, _ := d.entries()
	av, okA := fieldValues(ae, field)
	dv, okD := fieldValues(de, field)
	if !okA || !okD {
		unobservable(res, "the sorted answers lack "+field)
		return
	}
	up, _ := ordered(lower(av))
	_, down := ordered(lower(dv))
	if whole {
		// the whole list: one order is the other reversed
		rev := slices.Clone(dv)
		slices.Reverse(rev)
		down = slices.EqualFunc(rev, av, strings.EqualFold)
	}
	if !up || !down {
		differs(res, fmt.Sprintf("sortby=%q and %q accepted but not applied: the orders are not by %s, one the other reversed", field+" asc", field+" desc", field))
		return
	}
	holds(res, fmt.Sprintf("sorted by %s both ways", field))
}

func lower(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.ToLower(v)
	}
	return out
}

// probeWhere filters a list by a member's value, in upper case: the
// simulator keeps exactly the entries whose member equals it ignoring case.
func probeWhere(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	op, c, ok := p.pickList(tr, r, isList, res, "offset", "where", "sortby")
	if !ok {
		return
	}
	c, all, _ := p.page(ctx, c)
	es, _ := all.entries()
	field := ""
	if w := example(tr, r, op).Example; w != nil {
		if q, err := p.typical(op, nil, w); err == nil {
			if f, _, ok := strings.Cut(q.query.Get("where"), ":"); ok {
				if vs, ok := fieldValues(es, f); ok && len(vs) > 1 {
					field = f
				}
			}
		}
	}
	if field == "" {
		field = varyingField(es)
	}
	if field == "" {
		unobservable(res, fmt.Sprintf("%s: no member of the %d entries read takes two values to filter on (%s)", op.ID, len(es), all.String()))
		return
	}
	value := es[0].Get(gjson.Escape(field)).String()
	f := c.with("where", field+":"+strings.ToUpper(value))
	res.Request = f.String()
	vs, _ := fieldValues(es, field)
	want := 0
	for _, v := range vs {
		if strings.EqualFold(v, value) {
			want++
		}
	}
	res.Simulator = fmt.Sprintf("where=FIELD:VALUE keeps the entries whose %s equals the value ignoring case (%d of the %d read)", field, want, len(es))
	got, ok := p.entriesOf(ctx, f, res)
	if !ok {
		return
	}
	other := 0
	for _, e := range got {
		if !strings.EqualFold(e.Get(gjson.Escape(field)).String(), value) {
			other++
		}
	}
	switch {
	case other > 0:
		differs(res, fmt.Sprintf("%d of the %d entries answered do not match: where read otherwise, or ignored", other, len(got)))
	case len(got) == 0:
		differs(res, "no entry: the value in another case does not match")
	default:
		holds(res, fmt.Sprintf("%d entries, each matching", len(got)))
	}
}

// probeDateBounds reads E10 with StartDate and EndDate both at an entry's
// logDate: the simulator includes both ends, so the entry is kept.
func probeDateBounds(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	op := registry.Must(registry.E10)
	if !p.t.Fixture.Supports(string(op.ID)) {
		unobservable(res, "the date bounds are observed on E10, whose profile the fixture does not claim")
		return
	}
	c, err := p.typical(op, nil, nil)
	if err != nil {
		unobservable(res, err.Error())
		return
	}
	c, all, _ := p.page(ctx, c)
	es, _ := all.entries()
	dates, ok := fieldValues(es, "logDate")
	if !all.ok() || !ok {
		unobservable(res, fmt.Sprintf("E10 answered %s with %d entries carrying logDate", all.String(), len(dates)))
		return
	}
	d := dates[len(dates)/2]
	b := c.with("StartDate", d).with("EndDate", d)
	res.Request = b.String()
	res.Simulator = "both ends included: an entry logged at the bound is kept"
	if !slices.Contains(r.Ops, "E10") {
		res.Simulator += " (observed on E10; the app used " + strings.Join(r.Ops, ", ") + ")"
	}
	got, ok := p.entriesOf(ctx, b, res)
	if !ok {
		return
	}
	kept, _ := fieldValues(got, "logDate")
	if !slices.Contains(kept, d) {
		differs(res, fmt.Sprintf("the entry logged at %s is left out when both bounds are %s: an end excluded", d, d))
		return
	}
	holds(res, "the entry logged at the bound is kept")
}

// probeUnknownID names a record that does not exist: the simulator
// answers 400, or an empty list for a list of a record's entries.
func probeUnknownID(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	readFirst := slices.Clone(r.Ops)
	slices.SortStableFunc(readFirst, func(a, b string) int {
		return boolRank(changesState(a)) - boolRank(changesState(b))
	})
	op, why, ok := p.pick(readFirst, func(o registry.Operation) bool { return pathID(o) != "" })
	if !ok {
		unobservable(res, why+" (the probe names an absent record in the path)")
		return
	}
	c, err := p.typical(op, map[string]string{pathID(op): absentID}, nil)
	if err != nil {
		unobservable(res, err.Error())
		return
	}
	a, ok := p.observe(ctx, c, res, "")
	if !ok {
		return
	}
	es, isArray := a.entries()
	if op.List {
		res.Simulator = "200 with an empty list"
		if a.ok() && isArray && len(es) == 0 {
			holds(res, fmt.Sprintf("%d with an empty list", a.status))
			return
		}
		differs(res, fmt.Sprintf("%d%s", a.status, map[bool]string{true: " with entries", false: ""}[a.ok() && len(es) > 0]))
		return
	}
	res.Simulator = "400"
	if a.status == 400 {
		holds(res, "400")
		return
	}
	differs(res, fmt.Sprint(a.status))
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func changesState(op string) bool {
	o, ok := registry.Lookup(op)
	return ok && o.ChangesState
}

// pathID is the path parameter of o's typical call that names a record,
// or "".
// The last path parameter is the record the call is about (E9's question
// rather than its evaluation).
func pathID(o registry.Operation) string {
	var names []string
	for k := range o.IDs {
		if name, ok := strings.CutPrefix(k, "path."); ok {
			if _, typical := o.Typical.Params[name]; typical {
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.SortFunc(names, func(a, b string) int {
		return strings.Index(o.Path, "{"+a+"}") - strings.Index(o.Path, "{"+b+"}")
	})
	return names[len(names)-1]
}

// probeAuth calls an operation the app used without any credential: the
// simulator answers 401 with a JSON string.
func probeAuth(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	op, _, ok := p.pick(r.Ops, func(o registry.Operation) bool { return !o.ChangesState })
	if !ok {
		var why string
		if op, why, ok = p.pick(r.Ops, func(registry.Operation) bool { return true }); !ok {
			unobservable(res, why)
			return
		}
	}
	c, err := p.typical(op, nil, example(tr, r, op).Example)
	if err != nil {
		unobservable(res, err.Error())
		return
	}
	c.anonymous = true
	a, ok := p.observe(ctx, c, res, "401 with a JSON string")
	if !ok {
		return
	}
	body := "a JSON string"
	if v := gjson.ParseBytes(a.body); v.Type != gjson.String || !gjsonValid(a.body) {
		body = "a body that is not a JSON string"
	}
	got := fmt.Sprintf("%d with %s", a.status, body)
	if a.status == 401 && body == "a JSON string" {
		holds(res, got)
		return
	}
	differs(res, got)
}

func gjsonValid(b []byte) bool { return gjson.ValidBytes(b) }

// probePermissions reads, as the fixture's student, a log the app read:
// the simulator refuses students every log read with 403.
func probePermissions(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	if _, ok := p.t.Fixture.Users["student"]; !ok {
		unobservable(res, "the fixture has no student (users.student)")
		return
	}
	op, why, ok := p.pick(r.Ops, func(o registry.Operation) bool { return !o.ChangesState })
	if !ok {
		unobservable(res, why+" (a write as a student would change records where the target allows it: only reads are sent)")
		return
	}
	c, err := p.typical(op, nil, example(tr, r, op).Example)
	if err != nil {
		unobservable(res, err.Error())
		return
	}
	c.user = "student"
	a, ok := p.observe(ctx, c, res, "403 to a student")
	if !ok {
		return
	}
	switch {
	case a.status == 403:
		holds(res, "403")
	default:
		differs(res, fmt.Sprintf("%d to a student", a.status))
	}
}

// probeUnplaced compares where the simulator served each unplaced
// operation the app called with where the fixture places it; no request.
func probeUnplaced(_ context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	var sim, target, missing []string
	same := true
	for _, name := range r.Ops {
		op, ok := registry.Lookup(name)
		if !ok || op.Placed {
			continue
		}
		m, path := op.Method, op.Path
		for _, u := range tr.Operations {
			if u.Op == string(op.ID) && u.Method != "" {
				m, path = u.Method, u.Path
			}
		}
		sim = append(sim, fmt.Sprintf("%s at %s %s", op.ID, m, path))
		tm, tp, placed := p.t.Fixture.Placement(op)
		if !placed {
			missing = append(missing, string(op.ID))
			continue
		}
		target = append(target, fmt.Sprintf("%s at %s %s", op.ID, tm, tp))
		same = same && strings.EqualFold(tm, m) && tp == path
	}
	res.Simulator = strings.Join(sim, "; ")
	switch {
	case len(sim) == 0:
		unobservable(res, "no unplaced operation named")
	case len(target) == 0:
		unobservable(res, "the fixture places none of them (operations."+strings.Join(missing, ", operations.")+")")
	case !same:
		differs(res, strings.Join(target, "; ")+" (the fixture's operations)")
	case len(missing) > 0:
		holds(res, strings.Join(target, "; ")+"; the fixture places no "+strings.Join(missing, ", "))
	default:
		holds(res, strings.Join(target, "; "))
	}
}

// writeCall is op's typical call for a probe that changes one of
// records (the fixture's records.KEY); false (res made unobservable, with
// the reason) when it cannot be sent: the run is read-only, the fixture
// does not claim op's profile, or it names none of the records.
func (p *prober) writeCall(op registry.Operation, key string, records []string, res *reports.AppReliance) (call, bool) {
	switch {
	case p.t.ReadOnly:
		unobservable(res, fmt.Sprintf("the probe changes records with %s, and the run is read-only", op.ID))
	case !p.t.Fixture.Supports(string(op.ID)):
		unobservable(res, fmt.Sprintf("the probe is sent to %s, whose profile the fixture does not claim", op.ID))
	case len(records) == 0:
		unobservable(res, "the fixture names no records."+key)
	default:
		c, err := p.typical(op, nil, nil)
		if err == nil {
			return c, true
		}
		unobservable(res, err.Error())
	}
	return call{}, false
}

// probeDelete deletes one of the fixture's deletable slots with E5: the
// simulator answers 204 and no body.
func probeDelete(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	op := registry.Must(registry.E5)
	slots := p.t.Fixture.Records.DeletableSlots
	c, ok := p.writeCall(op, "deletableSlots", slots, res)
	if !ok {
		return
	}
	c.body = `{"iDs": ["` + slots[len(slots)-1] + `"]}`
	a, ok := p.observe(ctx, c, res, "204 and no body")
	if !ok {
		return
	}
	switch {
	case a.status == 204:
		holds(res, "204")
	case a.status == 404:
		unobservable(res, "the slot is gone (404): the suite's destructive scenarios delete the fixture's slots; run the app check on fresh records")
	case a.ok() && len(strings.TrimSpace(string(a.body))) > 0:
		differs(res, fmt.Sprintf("%d with a body: %.80s", a.status, a.body))
	default:
		differs(res, fmt.Sprint(a.status))
	}
}

// probeCounts publishes one lecture session twice with E21, naming it
// twice: the simulator counts the distinct ids named that exist (1), the
// second time too.
func probeCounts(ctx context.Context, p *prober, tr *Traffic, r Reliance, res *reports.AppReliance) {
	op := registry.Must(registry.E21)
	sessions := p.t.Fixture.Records.LectureSessions
	c, ok := p.writeCall(op, "lectureSessions", sessions, res)
	if !ok {
		return
	}
	c.body = `{"iDs": ["` + sessions[0] + `", "` + sessions[0] + `"], "publish": true}`
	res.Request = c.String() + " (twice)"
	res.Simulator = "1, the second time too (the distinct ids named that exist)"
	if !slices.Contains(r.Ops, "E21") {
		res.Simulator += "; observed on E21, the app relied on it with " + strings.Join(r.Ops, ", ")
	}
	first := p.send(ctx, c)
	a := p.send(ctx, c)
	if first.err != nil || a.err != nil {
		unobservable(res, first.String()+"; "+a.String())
		return
	}
	v := gjson.ParseBytes(a.body)
	if !a.ok() || v.Type != gjson.Number {
		differs(res, "answered "+a.String()+" without a count")
		return
	}
	if v.Int() == 1 {
		holds(res, "1")
		return
	}
	differs(res, fmt.Sprintf("%d the second time", v.Int()))
}

// Probed lists the decision ids the app check has a probe for, in the
// order of docs/decisions.md.
func Probed() []string {
	return []string{dUnplacedPaths, dAuth401, dExtraPermissions, dLimitDefault, dLimitBounds, dSortDefault,
		dSortbySyntax, dWhereSyntax, dDateBounds, dUnknownID, dDelete204, dCounts}
}
