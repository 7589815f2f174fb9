package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/wire"
)

// Finding is one rule one exchange breaks.
type Finding struct {
	Operation   registry.OpID
	Requirement string
	Expected    string
	Got         string
}

// checker judges exchanges. Its memory of earlier exchanges (state) is the
// only part that changes; it is guarded by the state's own mutex.
type checker struct {
	cat     *features.Catalogue
	fx      *fixtures.File
	v       *openapi.Validator
	table   []route
	keys    map[string]bool // subscription keys the fixture knows
	mem     *memories
	ids     map[string]bool    // the ids the fixture names, lower case
	shapes  *shapes            // shape verdicts of answers seen
	users   []string           // the fixture's users, the admin first (see user)
	limited func(ex *Exchange) // notes a rate-limited answer, not judged
}

// loadChecker is newChecker over the embedded catalogue and the
// interface's validator: what New checks with, and the tests too.
func loadChecker(fx *fixtures.File, stateBytes int64) (*checker, error) {
	cat, err := features.Load()
	if err != nil {
		return nil, err
	}
	v, err := openapi.NewValidator()
	if err != nil {
		return nil, err
	}
	return newChecker(cat, fx, v, stateBytes), nil
}

func newChecker(cat *features.Catalogue, fx *fixtures.File, v *openapi.Validator, stateBytes int64) *checker {
	c := &checker{cat: cat, fx: fx, v: v, table: routes(fx), keys: map[string]bool{}, mem: newMemory(stateBytes), ids: fixtureIDs(fx), shapes: newShapes()}
	if fx.SubscriptionKey != "" {
		c.keys[fx.SubscriptionKey] = true
	}
	for n := range fx.Users {
		c.users = append(c.users, n)
	}
	sort.Slice(c.users, func(i, j int) bool {
		if (c.users[i] == "admin") != (c.users[j] == "admin") {
			return c.users[i] == "admin"
		}
		return c.users[i] < c.users[j]
	})
	for _, u := range fx.Users {
		if u.SubscriptionKey != "" {
			c.keys[u.SubscriptionKey] = true
		}
	}
	return c
}

// knownID reports whether id names a record the proxy knows of: one the
// fixture names. A refusal of a request naming another id may be the
// implementation's answer to an unknown id (rules.OpenUnknownID).
func (c *checker) knownID(id string) bool { return c.ids[strings.ToLower(id)] }

// fixtureIDs collects every string and number the fixture's records hold.
func fixtureIDs(fx *fixtures.File) map[string]bool {
	out := map[string]bool{}
	b, err := json.Marshal(fx.Records)
	if err != nil {
		return out
	}
	var walk func(r gjson.Result)
	walk = func(r gjson.Result) {
		switch {
		case r.IsObject() || r.IsArray():
			r.ForEach(func(_, v gjson.Result) bool { walk(v); return true })
		case r.Type == gjson.String || r.Type == gjson.Number:
			out[strings.ToLower(r.String())] = true
		}
	}
	walk(gjson.ParseBytes(b))
	return out
}

func (c *checker) known(id string) bool {
	_, ok := c.cat.Requirement(id)
	return ok
}

// success is the requirement a wrong success of op breaks.
func (c *checker) success(op registry.OpID) string {
	o, _ := c.cat.Operation(string(op))
	if o == nil {
		return ""
	}
	return o.Success
}

// check judges one exchange and returns the rules it breaks. op is ""
// when the request matches no operation.
func (c *checker) check(ex *Exchange) (op registry.OpID, out []Finding) {
	if c.isReset(ex) {
		c.mem.reset()
		return "", nil
	}
	world, path := wire.WorldOf(ex.URL.Path, ex.RequestHeader)
	op, params := match(c.table, ex.Method, path)
	if op == "" || ex.Err != nil {
		return op, nil
	}
	// a rate-limited answer (internal/pace: the producers' reading) is
	// the target's pace, not an answer to judge: the app sends again
	o := registry.Must(op)
	write := o.ChangesState
	if _, limited := pace.Limited(ex.Status, ex.ResponseHeader, write, slices.Contains(o.Statuses, http.StatusServiceUnavailable), ex.Started.Add(ex.Duration)); limited {
		if c.limited != nil {
			c.limited(ex)
		}
		return op, nil
	}
	note := func(req string) {
		if req != "" {
			ex.judged = append(ex.judged, req)
		}
	}
	add := func(req, expected, got string) {
		if req == "" || !c.known(req) {
			return
		}
		out = append(out, Finding{Operation: op, Requirement: req, Expected: expected, Got: got})
	}
	status := ex.Status
	got := fmt.Sprintf("%d", status)
	if gotBody := strings.TrimSpace(string(ex.ResponseBody)); gotBody != "" && len(gotBody) <= 120 {
		got += " " + gotBody
	}
	is2xx := status >= 200 && status < 300

	// error body form, whatever the request
	judge := func(req string, b *rules.Breach) {
		note(req)
		if b != nil {
			add(req, b.Expected, b.Got)
		}
	}
	if status >= 400 && !ex.ResponseCut {
		judge(rules.ReqErrorBody, rules.ErrorBody(status, ex.ResponseBody))
	}
	if len(bytes.TrimSpace(ex.ResponseBody)) > 0 && !ex.ResponseCut && c.shapes.json(ex.ResponseBody) {
		judge(rules.ReqResponseJSON, rules.ResponseMediaType(status, ex.ResponseHeader.Get("Content-Type")))
	}

	// subscription key: a call without a valid key is refused and not
	// served. A refused write may still have been carried out, which one
	// exchange cannot show (the scenarios read the record back): the
	// refusal of a write is left unjudged, its acceptance is a breach.
	keyRule := func(req string) {
		b := rules.KeyRefusal(status, ex.ResponseBody)
		if b == nil && write {
			return
		}
		judge(req, b)
	}
	key := ex.RequestHeader.Get(wire.KeyHeader)
	switch {
	case key == "":
		keyRule(rules.ReqKeyMissing)
		return op, out
	case len(c.keys) > 0 && !c.keys[key]:
		keyRule(rules.ReqKeyUnknown)
		return op, out
	}

	// the request's validity decides what the status may be
	q := ex.URL.Query()
	invalid, doubt := c.requestProblems(op, params, q, ex)
	// a body under a media type the specification does not name may be
	// refused as such, with 415 or 400 (rules.OpenContentType)
	openMedia := len(ex.RequestBody) > 0 && rules.MediaTypeRequirement(ex.RequestHeader.Get("Content-Type")) == ""
	refused := status == 400 || status == 401 || status == 403 || status == 415 && openMedia
	for _, p := range invalid {
		note(p.Requirement)
		if !refused {
			add(p.Requirement, "400 for "+p.What, got)
		}
	}
	plain := len(invalid) == 0 && !ex.RequestCut && !rules.ValidityNotShown(op) && doubt == "" && !openMedia
	if len(invalid) == 0 && !ex.RequestCut {
		switch {
		case status == 400 && plain:
			req := c.success(op)
			// an accepted populate entity refused breaks its own rule
			if q.Get("populate") != "" && c.known(op.Requirement(rules.SuffixPopulate)) {
				req = op.Requirement(rules.SuffixPopulate)
			}
			note(req)
			add(req, "a valid request served (not 400)", got)
		case status == 415 && len(ex.RequestBody) > 0:
			// a media type other than the documented ones is open
			req := rules.MediaTypeRequirement(ex.RequestHeader.Get("Content-Type"))
			if req == "" {
				break
			}
			note(req)
			add(req, "a JSON body served whatever its declared media type", got)
		}
	}

	// status among those listed, success body shape
	if is2xx && len(invalid) == 0 {
		success := c.success(op)
		problems := c.shapes.check(c.v, op, status, ex.ResponseBody)
		switch {
		case ex.ResponseCut:
			problems = nil // judged on a part of the body: not at all
		case len(problems) == 0 && (emptyList(ex.ResponseBody) || countAnswer(op)):
			// an empty list shows no record, and an answer of no record
			// (a count) only its form: whether the records asked for were
			// left out, or the right ones counted, the traffic does not say
		default:
			note(success)
		}
		reqs := map[string][]string{}
		for _, p := range problems {
			id := success
			if p.Rule != rules.RuleStatus {
				id = p.Requirement(success, c.known)
			}
			reqs[id] = append(reqs[id], p.String())
		}
		ids := make([]string, 0, len(reqs))
		for id := range reqs {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			lines := reqs[id]
			if len(lines) > 3 {
				lines = append(lines[:3], fmt.Sprintf("and %d more", len(lines)-3))
			}
			add(id, "a body matching the interface's record definitions", strings.Join(lines, "; "))
		}
	}

	// roles the fixture and the specification state
	user := c.user(ex)
	if user != "" {
		for _, f := range c.fx.Forbidden {
			if f.Operation == string(op) && f.User == user {
				// only a breach is judged: a refused write may still have
				// been carried out, which one exchange cannot show (the
				// scenario reads the record back), and the scenario
				// judges its reads and writes together
				if is2xx {
					note("ALL.forbidden")
					add("ALL.forbidden", fmt.Sprintf("403 for %s, whom the fixture declares unauthorised", user), got)
				}
			}
		}
		if registry.Must(op).Stated == registry.SuperAdmin && user != "admin" {
			req := op.Requirement(".403")
			note(req)
			if is2xx {
				add(req, fmt.Sprintf("403 for %s, who is not the Super Admin", user), got)
			}
		}
	}

	out = append(out, c.stateful(c.mem.world(world), op, params, q, ex, user, len(invalid) == 0, note)...)
	return op, dedupe(out)
}

func dedupe(fs []Finding) []Finding {
	seen := map[string]bool{}
	var out []Finding
	for _, f := range fs {
		if seen[f.Requirement] {
			continue
		}
		seen[f.Requirement] = true
		out = append(out, f)
	}
	return out
}

// isReset reports whether the exchange restores the target's records (the
// fixture's reset call, or the simulator's control API): what the proxy
// remembers of earlier exchanges no longer holds.
func (c *checker) isReset(ex *Exchange) bool {
	if ex.Status < 200 || ex.Status > 299 {
		return false
	}
	if c.fx.Control != "" && strings.HasPrefix(ex.URL.Path, c.fx.Control) {
		return true
	}
	if r := c.fx.Reset; r != nil {
		m := r.Method
		if m == "" {
			m = "POST"
		}
		return strings.EqualFold(m, ex.Method) && strings.TrimRight(r.Path, "/") == strings.TrimRight(ex.URL.Path, "/")
	}
	return false
}

// user names the fixture user whose headers the request carries: "" when
// none does. The admin is tried first, so a token shared with another role
// counts as the admin's.
func (c *checker) user(ex *Exchange) string {
	for _, n := range c.users {
		u := c.fx.Users[n]
		if len(u.Headers) == 0 {
			continue
		}
		all := true
		for h, v := range u.Headers {
			if ex.RequestHeader.Get(h) != v {
				all = false
				break
			}
		}
		if all {
			return n
		}
	}
	return ""
}

// emptyList reports whether b is an empty JSON array.
func emptyList(b []byte) bool {
	r := gjson.ParseBytes(b)
	return r.IsArray() && len(r.Array()) == 0
}

// countAnswer reports whether op answers a value that is no record (a
// count): its form is all the traffic shows of it.
func countAnswer(op registry.OpID) bool {
	o := registry.Must(op)
	return o.Record == "" && !o.EmptyAnswer
}
