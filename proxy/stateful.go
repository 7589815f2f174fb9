package proxy

import (
	"net/url"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// judgement is one exchange as the stateful rules see it: the request's
// body, the answer, the memory of earlier exchanges of its world, and the
// findings so far. A rule says what it judged through its methods, each
// explicit about the verdict: Kept, Broke, Judge, Breach.
type judgement struct {
	c      *checker
	m      *memory
	op     registry.OpID
	params map[string]string
	q      url.Values
	ex     *Exchange
	user   string
	req    gjson.Result // the request's body
	resp   gjson.Result // the answer's body
	is2xx  bool
	note   func(string)
	out    []Finding
}

// Kept notes req judged on the exchange, and kept.
func (j *judgement) Kept(req string) { j.note(req) }

// Broke notes req judged, and broken: expected, got.
func (j *judgement) Broke(req, expected, got string) {
	j.note(req)
	if j.c.known(req) {
		j.out = append(j.out, Finding{Operation: j.op, Requirement: req, Expected: expected, Got: got})
	}
}

// Judge notes req judged: broken when bad (expected, got), kept otherwise.
func (j *judgement) Judge(req, expected string, bad bool, got string) {
	if bad {
		j.Broke(req, expected, got)
		return
	}
	j.Kept(req)
}

// Breach notes req judged by a predicate of internal/rules: broken when
// it returned a Breach.
func (j *judgement) Breach(req string, b *rules.Breach) {
	if b != nil {
		j.Broke(req, b.Expected, b.Got)
		return
	}
	j.Kept(req)
}

// opFacts are the registry's facts of one operation that the stateful
// rules read on every exchange, gathered once: the registry's accessors
// copy its row and clone its slices on each call.
type opFacts struct {
	record   string
	list     bool
	paged    bool
	refs     []registry.Reference
	distinct []registry.Distinct
	listedBy *registry.Listing
	// listed: another operation's read of one record agrees with this
	// list's entry for it; parentIn is the input naming the list's parent.
	listed   bool
	parentIn string
}

var factsOf = func() map[registry.OpID]opFacts {
	out := map[registry.OpID]opFacts{}
	for _, o := range registry.All() {
		f := opFacts{record: o.Record, list: o.List, paged: o.Paged, refs: o.References, listedBy: o.ListedBy}
		if l, ok := registry.List(o.ID); ok {
			f.distinct = l.Distinct
		}
		f.parentIn, _, _ = o.Addresses()
		out[o.ID] = f
	}
	for _, o := range registry.All() {
		if o.ListedBy != nil {
			f := out[o.ListedBy.Op]
			f.listed = true
			out[o.ListedBy.Op] = f
		}
	}
	return out
}()

// statefulRule judges the rules of one operation that need the request's
// own body or the memory of earlier exchanges, and updates that memory.
type statefulRule func(j *judgement)

// statefulRules are each operation's stateful rules; a paged list's are
// listRules. An operation with neither has none.
var statefulRules = map[registry.OpID]statefulRule{
	registry.E1:  oneTimePassword,
	registry.E2:  pushPolled,
	registry.E3:  pushSent,
	registry.E5:  slotsDeleted,
	registry.E6:  folderCopied,
	registry.E7:  attendanceAdded,
	registry.E13: mediaRead,
	registry.E14: mediasDeleted,
	registry.E21: sessionsPublished,
	registry.GB:  gradebookUpdated,
	registry.ES:  sessionUpdated,
	registry.NR:  readStatusSet,
	registry.NG:  notificationRead,
	registry.QS:  quizSectionUpdated,
}

// refusedRules remember what a request breaking a rule named, to judge
// later that its refusal changed nothing.
var refusedRules = map[registry.OpID]statefulRule{
	registry.E14: mediasNamed,
	registry.NR:  readRefused,
}

// stateful judges the stateful rules of op on a valid request's exchange
// whose bodies were captured whole; of an invalid one, it only remembers
// what the request named (refusedRules).
func (c *checker) stateful(m *memory, op registry.OpID, params map[string]string, q url.Values, ex *Exchange, user string, valid bool, note func(string)) []Finding {
	if ex.ResponseCut || ex.RequestCut {
		return nil
	}
	j := &judgement{c: c, m: m, op: op, params: params, q: q, ex: ex, user: user, note: note,
		req: gjson.ParseBytes(ex.RequestBody), resp: gjson.ParseBytes(ex.ResponseBody),
		is2xx: ex.Status >= 200 && ex.Status < 300}
	if !valid {
		if rule, ok := refusedRules[op]; ok {
			rule(j)
		}
		return j.out
	}
	if rule, ok := statefulRules[op]; ok {
		rule(j)
	}
	references(j)
	listings(j)
	if factsOf[op].paged && j.is2xx && j.resp.IsArray() {
		pagedList(j)
		distinctEntries(j)
		for _, rule := range listRules[op] {
			rule(j)
		}
	}
	return j.out
}

func strs(list gjson.Result) []string {
	var out []string
	for _, e := range list.Array() {
		out = append(out, e.String())
	}
	return out
}

func subset(ids, of []string) bool {
	set := map[string]bool{}
	for _, o := range of {
		set[strings.ToLower(o)] = true
	}
	return allIn(ids, set)
}

func allIn(ids []string, set map[string]bool) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if !set[strings.ToLower(id)] {
			return false
		}
	}
	return true
}

func orAbsent(r gjson.Result) string {
	if !r.Exists() {
		return "absent"
	}
	return r.Raw
}

// distinctCount is the number of distinct ids, without regard to case.
func distinctCount(ids []string) int {
	seen := map[string]bool{}
	for _, id := range ids {
		seen[strings.ToLower(id)] = true
	}
	return len(seen)
}
