package proxy

import (
	"container/list"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/totp"
	"github.com/tidwall/gjson"
)

// memories is what the proxy keeps of earlier exchanges, for the stateful
// rules: small entries, each naming a world (see wire.WorldOf), a kind of
// fact and a record, bounded in bytes (Options.StateBytes). Past the bound
// the least recently used entry is dropped first: a rule that needed it is
// then not judged, never misjudged.
type memories struct {
	mu      sync.Mutex
	max     int64
	size    int64
	ll      *list.List // front: most recently used
	items   map[memKey]*list.Element
	evicted int64
}

// DefaultStateBytes is the default bound of the stateful rules' memory.
const DefaultStateBytes = 32 << 20

// entryOverhead is what one entry costs besides its strings: the map slot,
// the list element and the entry, estimated on amd64.
const entryOverhead = 160

// The kinds of fact remembered.
const (
	kindRead    = "read"    // notification id -> read status last set (int64)
	kindMedia   = "media"   // media id deleted (true)
	kindSlot    = "slot"    // slot id deleted (true)
	kindPush    = "push"    // transaction id -> "deny" or "approve"
	kindSection = "section" // quiz section id -> displayQuestionMark (bool)
	kindCode    = "code"    // one-time password already sent (true)
)

type memKey struct{ world, kind, id string }

type memEntry struct {
	key  memKey
	val  any
	size int64
}

func newMemory(max int64) *memories {
	if max <= 0 {
		max = DefaultStateBytes
	}
	return &memories{max: max, ll: list.New(), items: map[memKey]*list.Element{}}
}

// world returns the memory of one world.
func (ms *memories) world(name string) *memory { return &memory{ms: ms, world: name} }

// reset forgets every world: the records remembered were restored.
func (ms *memories) reset() {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.ll.Init()
	ms.items = map[memKey]*list.Element{}
	ms.size = 0
}

// stats returns the bytes held, the bound and the entries dropped so far.
func (ms *memories) stats() (size, max, evicted int64) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.size, ms.max, ms.evicted
}

func (ms *memories) get(k memKey) (any, bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	e, ok := ms.items[k]
	if !ok {
		return nil, false
	}
	ms.ll.MoveToFront(e)
	return e.Value.(*memEntry).val, true
}

func (ms *memories) set(k memKey, v any) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if e, ok := ms.items[k]; ok {
		e.Value.(*memEntry).val = v
		ms.ll.MoveToFront(e)
		return
	}
	size := int64(len(k.world)+len(k.kind)+len(k.id)) + entryOverhead
	if s, ok := v.(string); ok {
		size += int64(len(s))
	}
	ms.items[k] = ms.ll.PushFront(&memEntry{key: k, val: v, size: size})
	ms.size += size
	for ms.size > ms.max && ms.ll.Len() > 0 {
		last := ms.ll.Back()
		ent := last.Value.(*memEntry)
		ms.ll.Remove(last)
		delete(ms.items, ent.key)
		ms.size -= ent.size
		ms.evicted++
	}
}

// memory is the view of one world's memory: what a later exchange on the
// same record must show.
type memory struct {
	ms    *memories
	world string
}

func (m *memory) get(kind, id string) (any, bool) {
	return m.ms.get(memKey{m.world, kind, strings.ToLower(id)})
}

func (m *memory) set(kind, id string, v any) { m.ms.set(memKey{m.world, kind, strings.ToLower(id)}, v) }

func (m *memory) has(kind, id string) bool {
	_, ok := m.get(kind, id)
	return ok
}

// allIn reports whether every id (at least one) is remembered of kind.
func (m *memory) allIn(kind string, ids []string) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if !m.has(kind, id) {
			return false
		}
	}
	return true
}

// stateful judges the rules that need the request's own body or the memory
// of earlier exchanges, and updates that memory.
func (c *checker) stateful(m *memory, op registry.OpID, params map[string]string, q url.Values, ex *Exchange, user string, valid bool, note func(string)) []Finding {
	var out []Finding
	add := func(req, expected, got string) {
		note(req)
		if c.known(req) && got != "" {
			out = append(out, Finding{Operation: op, Requirement: req, Expected: expected, Got: got})
		}
	}
	is2xx := ex.Status >= 200 && ex.Status < 300
	if ex.ResponseCut || ex.RequestCut {
		return nil
	}
	req := gjson.ParseBytes(ex.RequestBody)
	resp := gjson.ParseBytes(ex.ResponseBody)
	if !valid {
		return nil
	}
	switch op {
	case registry.E1:
		code := req.Get("otp").String()
		first := !m.has(kindCode, code)
		m.set(kindCode, code, true)
		out = append(out, c.secondFactor(ex, req, resp, first, note)...)
	case registry.E2:
		tx := req.Get("transactionId").String()
		status := resp.Get("status")
		if !is2xx || !status.Exists() {
			break
		}
		was, _ := m.get(kindPush, tx)
		switch was {
		case "deny":
			add("E2.deny", "status 7002 for a push the denying user turned down", is(status.String() == "0000", "status "+status.String()))
		case "approve":
			add("E2.approve", "status 0000 for a push the approving user accepted", is(status.String() == "7002", "status "+status.String()))
		}
	case registry.E3:
		if !is2xx {
			break
		}
		if t := resp.Get("transactionId"); t.Exists() && (t.Type != gjson.String || t.Str == "") {
			add("E3.200", "a non-empty transactionId", "transactionId "+t.Raw)
		}
		tx := resp.Get("transactionId").String()
		if tx == "" {
			break
		}
		switch user {
		case c.fx.SecondFactor.DenyingUser:
			m.set(kindPush, tx, "deny")
		case c.fx.SecondFactor.ApprovingUser:
			m.set(kindPush, tx, "approve")
		}
	case registry.E5:
		ids := strs(req.Get("iDs"))
		if len(ids) == 0 {
			break
		}
		if user != "" && user != "owner" && is2xx && subset(ids, c.fx.Records.DeletableSlots) {
			if _, declared := c.fx.Users["staff"]; declared && user == "staff" {
				add("E5.403", "403 for staff, who lacks Access_Delete on the slots' module", fmt.Sprint(ex.Status))
			}
		}
		if m.allIn(kindSlot, ids) {
			add("E5.gone", "404 for slots already deleted", is(is2xx, fmt.Sprint(ex.Status)))
		}
		if is2xx {
			for _, id := range ids {
				m.set(kindSlot, id, true)
			}
		}
	case registry.E6:
		if ex.Status == 201 && rules.HasEntity(q.Get("populate"), "Creator") {
			described := resp.Get("creator").IsObject()
			for _, f := range []string{"userID", "userName", "email"} {
				described = described || resp.Get(f).String() != ""
			}
			add("E6.populate-creator", "a copy describing its creator (userID, userName or email)", is(!described, "none of them"))
		}
		if ex.Status == 201 {
			if id := resp.Get("id"); id.Exists() && strings.EqualFold(id.String(), params["id"]) {
				add("E6.201", "a copy whose id differs from the source's", "id "+id.String()+", the source's")
			}
		}
	case registry.E7:
		if !is2xx {
			break
		}
		if r := resp.Get("resourceID"); r.Exists() && !strings.EqualFold(r.String(), req.Get("resourceID").String()) {
			add("E7.201", "resourceID "+req.Get("resourceID").String(), "resourceID "+r.String())
		}
		pub, sent := resp.Get("publish"), req.Get("publish")
		switch {
		case !sent.Exists() && pub.Exists():
			add(rules.ReqDefaultPublish, "publish true when the request leaves it out", is(pub.Type != gjson.True, "publish "+pub.Raw))
		case sent.Type == gjson.False && pub.Exists():
			add("E7.publish", "publish false as sent", is(pub.Type != gjson.False, "publish "+pub.Raw))
		}
		if d := resp.Get("isDefault"); d.Exists() {
			add("E7.isDefault", "isDefault true on a new default attendance", is(d.Type != gjson.True, "isDefault "+d.Raw))
		}
	case registry.E9, registry.E19:
		if is2xx {
			if id := resp.Get("id"); id.Exists() {
				add(op.Requirement(".id"), "the record asked for, id "+params["id"], is(!strings.EqualFold(id.String(), params["id"]), "id "+id.String()))
			}
		}
	case registry.E13:
		if m.has(kindMedia, params["id"]) {
			add("E14.gone", "404 for a media deleted earlier", is(is2xx, fmt.Sprint(ex.Status)))
		}
	case registry.E14, registry.E21:
		ids := strs(req.Get("iDs"))
		if is2xx && resp.Type == gjson.Number && len(ids) > 0 {
			distinct := map[string]bool{}
			for _, id := range ids {
				distinct[strings.ToLower(id)] = true
			}
			req := "E14.count"
			if op == registry.E21 {
				req = "E21.count-unknown"
			}
			add(req, fmt.Sprintf("a count of at most %d (the ids sent)", len(distinct)), is(resp.Int() > int64(len(distinct)), "count "+resp.Raw))
			if op == registry.E14 && m.allIn(kindMedia, ids) {
				add("E14.count", "0: every id sent was deleted before", is(resp.Int() != 0, "count "+resp.Raw))
			}
		}
		// the ids are gone only when the count says every one was deleted:
		// an implementation may serve a caller who owns some of them, or
		// none (a count of 0), and which were deleted the answer does not say
		if op == registry.E14 && is2xx && resp.Type == gjson.Number && resp.Int() == int64(distinctCount(ids)) {
			for _, id := range ids {
				m.set(kindMedia, id, true)
			}
		}
	case registry.GB:
		module := strings.ToLower(params["id"])
		sent := weightsOf(req.Get("iD_Weightage"))
		if gm := c.fx.Records.GradebookModule; gm != nil && strings.EqualFold(gm.ID, module) && len(sent) > 0 && ex.Status == 400 {
			total, all := 0.0, true
			for _, it := range gm.GradeItems {
				w, ok := sent[strings.ToLower(it)]
				all = all && ok
				total += w
			}
			if all && !rules.TrafficWeightageOver(total) && validGradingSchema(req.Get("gradingSchema")) {
				add(rules.ReqWeightageAtLimit, "weights of every grade item totalling "+rules.FormatNumber(total)+" accepted", "400")
			}
		}
		// GB.per-module is not judged from memory: whether an update naming
		// some items keeps the others' weights (merge) or zeroes them
		// (replace) is open, and a replacing implementation is right to
		// accept what a merging one must refuse. An answer showing every
		// item is judged by GB.total-over below.
		if !is2xx {
			break
		}
		if total, n := rules.WeightTotal(resp.Get("iD_Weightage")); n > 0 {
			add(rules.ReqWeightageOver, fmt.Sprintf("a module whose weights total at most %d", rules.MaxWeightageTotal), is(rules.TrafficWeightageOver(total), "weights totalling "+rules.FormatNumber(total)))
		}
	case registry.ES:
		if rules.HasQuestion(req) && rules.QuestionOutside(req) == "" {
			add(rules.ReqQuestionInside, "a question within its limits accepted", is(ex.Status == 400, fmt.Sprint(ex.Status)))
		}
	case registry.NR:
		id, read := req.Get("id").String(), req.Get("read").Int()
		rule := rules.ReadRequirement(read)
		if !is2xx || id == "" || rule == "" {
			break
		}
		if st := resp.Get("notifyStatus"); st.Exists() {
			add(rule, fmt.Sprintf("notifyStatus %d as set", read), is(st.Int() != read, "notifyStatus "+st.Raw))
		}
		m.set(kindRead, id, read)
	case registry.NG:
		if !is2xx {
			break
		}
		if g := resp.Get("notifyGroupId"); g.Exists() {
			add("NG.group", "notifyGroupId "+params["id"], is(!strings.EqualFold(g.String(), params["id"]), "notifyGroupId "+g.String()))
		}
		if strings.Contains(strings.ToLower(q.Get("populate")), "ancestor") {
			a := resp.Get("ancestor")
			add("NG.ancestor", "an ancestor array", is(!a.IsArray(), "ancestor "+orAbsent(a)))
		}
		if v, ok := m.get(kindRead, resp.Get("id").String()); ok {
			read := v.(int64)
			if st := resp.Get("notifyStatus"); st.Exists() {
				rule := rules.ReadRequirement(read)
				add(rule, fmt.Sprintf("notifyStatus %d, as the last read update set it", read), is(st.Int() != read, "notifyStatus "+st.Raw))
			}
		}
	case registry.QS:
		if !is2xx {
			break
		}
		section := strings.ToLower(req.Get("id").String())
		if was, ok := m.get(kindSection, section); ok && was == false && !req.Get("displayQuestionMark").Exists() {
			if d := resp.Get("displayQuestionMark"); d.Exists() {
				add(rules.ReqDefaultQuestionMark, "displayQuestionMark still false when left out", is(d.Type == gjson.True, "displayQuestionMark true"))
			}
		}
		if d := resp.Get("displayQuestionMark"); d.IsBool() {
			m.set(kindSection, section, d.Bool())
		}
		if n := resp.Get("name"); n.Exists() && req.Get("name").Exists() {
			add("QS.200", "name "+req.Get("name").Raw+" as sent", is(n.String() != req.Get("name").String(), "name "+n.Raw))
		}
		if req.Get("displayQuestionMark").Type == gjson.True {
			if d := resp.Get("displayQuestionMark"); d.Exists() {
				add("QS.given", "displayQuestionMark true as sent", is(d.Type != gjson.True, "displayQuestionMark "+d.Raw))
			}
		}
	default:
		if registry.Must(op).Paged {
			c.list(op, params, q, resp, is2xx, add, func(fs ...Finding) { out = append(out, fs...) }, note)
		}
	}
	return out
}

// list judges the answer of a paged list: its limit, its populated photos,
// its entries' question, the E10 dates and search.
func (c *checker) list(op registry.OpID, params map[string]string, q url.Values, resp gjson.Result, is2xx bool, add func(req, expected, got string), emit func(...Finding), note func(string)) {
	if !is2xx || !resp.IsArray() {
		return
	}
	n := 0
	resp.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	if l, err := strconv.Atoi(q.Get("limit")); err == nil && l >= 1 { // limit=0 is left to the suite: some read it as "no limit"
		add(op.Requirement(".limit"), fmt.Sprintf("at most %d entries", l), is(n > l, fmt.Sprintf("%d entries", n)))
	}
	if (op == registry.E18 || op == registry.E20) && rules.HasEntity(q.Get("populate"), "photo") {
		for _, e := range resp.Array() {
			if p := e.Get("photo"); p.Type == gjson.Null || !p.Exists() {
				add(op.Requirement(".photo"), "every entry with a photo (populate=photo)", "an entry without photo")
				break
			}
		}
	}
	if op == registry.E17 || op == registry.E18 {
		for _, e := range resp.Array() {
			if qid := e.Get("questionID"); qid.Exists() && !strings.EqualFold(qid.String(), params["id"]) {
				add(op.Requirement(".question"), "entries of question "+params["id"], "an entry of question "+qid.String())
				break
			}
		}
	}
	if op == registry.E10 {
		emit(c.datesInRange(op, q.Get("StartDate"), q.Get("EndDate"), resp, note)...)
		if text := strings.ToLower(strings.TrimSpace(q.Get("SearchText"))); text != "" {
			for _, e := range resp.Array() {
				name, file := e.Get("name"), e.Get("fileName")
				if !name.Exists() && !file.Exists() {
					continue
				}
				if !strings.Contains(strings.ToLower(name.String()), text) && !strings.Contains(strings.ToLower(file.String()), text) {
					add("E10.search", fmt.Sprintf("entries whose name or fileName contains %q", q.Get("SearchText")), fmt.Sprintf("an entry with name %s, fileName %s", orAbsent(name), orAbsent(file)))
					break
				}
			}
		}
	}
}

// datesInRange checks that a dated list keeps within StartDate..EndDate.
func (c *checker) datesInRange(op registry.OpID, start, end string, list gjson.Result, note func(string)) []Finding {
	if start == "" && end == "" {
		return nil
	}
	s, errS := rules.ParseDateTime(start)
	e, errE := rules.ParseDateTime(end)
	note(op.Requirement(".dates"))
	for _, entry := range list.Array() {
		d, err := rules.ParseDateTime(entry.Get("logDate").String())
		if err != nil {
			continue
		}
		if start != "" && errS == nil && d.Before(s) || end != "" && errE == nil && d.After(e) {
			return []Finding{{Operation: op, Requirement: op.Requirement(".dates"), Expected: fmt.Sprintf("entries dated %s..%s", start, end), Got: "an entry dated " + entry.Get("logDate").String()}}
		}
	}
	return nil
}

// is returns got when bad holds, "" (no finding) otherwise.
func is(bad bool, got string) string {
	if bad {
		return got
	}
	return ""
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

// weightsOf reads a list of {key, value} weights by lower-cased item id.
func weightsOf(list gjson.Result) map[string]float64 {
	out := map[string]float64{}
	for _, w := range list.Array() {
		if k, v := w.Get("key"), w.Get("value"); k.Type == gjson.String && v.Type == gjson.Number {
			out[strings.ToLower(k.Str)] = v.Float()
		}
	}
	return out
}

// validGradingSchema reports whether every grading schema entry has its
// letter grade and maximum mark.
func validGradingSchema(list gjson.Result) bool {
	for _, e := range list.Array() {
		if !e.Get("letterGrade").Exists() || !e.Get("maxMark").Exists() {
			return false
		}
	}
	return true
}

// secondFactor judges E1 when the request's one-time password is surely
// valid (the fixture's fixed one, or the TOTP of now give or take 30 s) or
// surely wrong (neither, even 90 s either way), for the fixture's user. A
// valid code is judged on its first use only.
func (c *checker) secondFactor(ex *Exchange, req, resp gjson.Result, first bool, note func(string)) []Finding {
	sf := c.fx.SecondFactor
	if sf.UserID == "" || req.Get("userid").String() != sf.UserID || (sf.OTP == "" && sf.TOTPSecret == "") {
		return nil
	}
	code := req.Get("otp").String()
	now := time.Now()
	valid := sf.OTP != "" && code == sf.OTP || sf.TOTPSecret != "" && totp.Verify(sf.TOTPSecret, code, now, 1)
	wrong := !valid && !(sf.TOTPSecret != "" && totp.Verify(sf.TOTPSecret, code, now, 3))
	status := resp.Get("status")
	var out []Finding
	f := func(req, expected, got string) {
		note(req)
		if got != "" {
			out = append(out, Finding{Operation: registry.E1, Requirement: req, Expected: expected, Got: got})
		}
	}
	switch {
	case valid && first:
		bad := ex.Status >= 400 && ex.Status < 500 || ex.Status == 200 && status.Exists() && status.String() != "0000"
		f("E1.200", "200 with status 0000 for a valid one-time password", is(bad, fmt.Sprintf("%d %s", ex.Status, resp.Raw)))
	case wrong:
		bad := ex.Status >= 500 || ex.Status == 200 && status.String() == "0000"
		f("E1.reject", "a wrong one-time password refused (4xx, or 200 with a status other than 0000)", is(bad, fmt.Sprintf("%d %s", ex.Status, resp.Raw)))
	}
	return out
}

// distinctCount is the number of distinct ids, without regard to case.
func distinctCount(ids []string) int {
	seen := map[string]bool{}
	for _, id := range ids {
		seen[strings.ToLower(id)] = true
	}
	return len(seen)
}
