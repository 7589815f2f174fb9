package proxy

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// memory is what the proxy keeps of earlier exchanges, small and per
// record: what a later exchange on the same record must show.
type memory struct {
	mu sync.Mutex
	// notifications: id -> read status last set (10 or 11)
	notifications map[string]int64
	// gone: media and slot ids deleted
	goneMedia map[string]bool
	goneSlots map[string]bool
	// pushes: transaction id -> "deny" or "approve"
	pushes map[string]string
}

// memoryCap bounds each map: past it, the map starts over, so a long
// session cannot grow the proxy without bound (a rule is then not judged,
// never misjudged).
const memoryCap = 100000

func newMemory() *memory {
	m := &memory{}
	m.reset()
	return m
}

func (m *memory) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.notifications = map[string]int64{}
	m.goneMedia = map[string]bool{}
	m.goneSlots = map[string]bool{}
	m.pushes = map[string]string{}
}

func capped[K comparable, V any](mp map[K]V) map[K]V {
	if len(mp) >= memoryCap {
		return map[K]V{}
	}
	return mp
}

// stateful judges the rules that need the request's own body or the memory
// of earlier exchanges, and updates that memory.
func (c *checker) stateful(op string, params map[string]string, ex *Exchange, user string, valid bool, note func(string)) []Finding {
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
	q := ex.URL.Query()
	m := c.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	if !valid {
		return nil
	}
	switch op {
	case "E2":
		tx := req.Get("transactionId").String()
		status := resp.Get("status")
		if !is2xx || !status.Exists() {
			break
		}
		switch m.pushes[tx] {
		case "deny":
			add("E2.deny", "status 7002 for a push the denying user turned down", is(status.String() == "0000", "status "+status.String()))
		case "approve":
			add("E2.approve", "status 0000 for a push the approving user accepted", is(status.String() == "7002", "status "+status.String()))
		}
	case "E3":
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
		m.pushes = capped(m.pushes)
		switch user {
		case c.fx.SecondFactor.DenyingUser:
			m.pushes[tx] = "deny"
		case c.fx.SecondFactor.ApprovingUser:
			m.pushes[tx] = "approve"
		}
	case "E5":
		ids := strs(req.Get("iDs"))
		if len(ids) == 0 {
			break
		}
		if user != "" && user != "owner" && is2xx && subset(ids, c.fx.Records.DeletableSlots) {
			if _, declared := c.fx.Users["staff"]; declared && user == "staff" {
				add("E5.403", "403 for staff, who lacks Access_Delete on the slots' module", fmt.Sprint(ex.Status))
			}
		}
		if allIn(ids, m.goneSlots) {
			add("E5.gone", "404 for slots already deleted", is(is2xx, fmt.Sprint(ex.Status)))
		}
		if is2xx {
			m.goneSlots = capped(m.goneSlots)
			for _, id := range ids {
				m.goneSlots[strings.ToLower(id)] = true
			}
		}
	case "E6":
		if ex.Status == 201 {
			if id := resp.Get("id"); id.Exists() && strings.EqualFold(id.String(), params["id"]) {
				add("E6.201", "a copy whose id differs from the source's", "id "+id.String()+", the source's")
			}
		}
	case "E7":
		if !is2xx {
			break
		}
		if r := resp.Get("resourceID"); r.Exists() && !strings.EqualFold(r.String(), req.Get("resourceID").String()) {
			add("E7.201", "resourceID "+req.Get("resourceID").String(), "resourceID "+r.String())
		}
		pub, sent := resp.Get("publish"), req.Get("publish")
		switch {
		case !sent.Exists() && pub.Exists():
			add("E7.default-publish", "publish true when the request leaves it out", is(pub.Type != gjson.True, "publish "+pub.Raw))
		case sent.Type == gjson.False && pub.Exists():
			add("E7.publish", "publish false as sent", is(pub.Type != gjson.False, "publish "+pub.Raw))
		}
		if d := resp.Get("isDefault"); d.Exists() {
			add("E7.isDefault", "isDefault true on a new default attendance", is(d.Type != gjson.True, "isDefault "+d.Raw))
		}
	case "E9", "E19":
		if is2xx {
			if id := resp.Get("id"); id.Exists() {
				add(op+".id", "the record asked for, id "+params["id"], is(!strings.EqualFold(id.String(), params["id"]), "id "+id.String()))
			}
		}
	case "E10", "E15", "E17", "E18", "E20":
		if !is2xx || !resp.IsArray() {
			break
		}
		n := len(resp.Array())
		if l, err := strconv.Atoi(q.Get("limit")); err == nil && l >= 1 { // limit=0 is left to the suite: some read it as "no limit"
			add(op+".limit", fmt.Sprintf("at most %d entries", l), is(n > l, fmt.Sprintf("%d entries", n)))
		}
		if op == "E17" || op == "E18" {
			for _, e := range resp.Array() {
				if qid := e.Get("questionID"); qid.Exists() && !strings.EqualFold(qid.String(), params["id"]) {
					add(op+".question", "entries of question "+params["id"], "an entry of question "+qid.String())
					break
				}
			}
		}
		if op == "E10" {
			out = append(out, c.datesInRange(op, q.Get("StartDate"), q.Get("EndDate"), resp, note)...)
		}
	case "E13":
		if m.goneMedia[strings.ToLower(params["id"])] {
			add("E14.gone", "404 for a media deleted earlier", is(is2xx, fmt.Sprint(ex.Status)))
		}
	case "E14", "E21":
		ids := strs(req.Get("iDs"))
		if is2xx && resp.Type == gjson.Number && len(ids) > 0 {
			distinct := map[string]bool{}
			for _, id := range ids {
				distinct[strings.ToLower(id)] = true
			}
			req := "E14.count"
			if op == "E21" {
				req = "E21.count-unknown"
			}
			add(req, fmt.Sprintf("a count of at most %d (the ids sent)", len(distinct)), is(resp.Int() > int64(len(distinct)), "count "+resp.Raw))
			if op == "E14" && allIn(ids, m.goneMedia) {
				add("E14.count", "0: every id sent was deleted before", is(resp.Int() != 0, "count "+resp.Raw))
			}
		}
		if op == "E14" && is2xx {
			m.goneMedia = capped(m.goneMedia)
			for _, id := range ids {
				m.goneMedia[strings.ToLower(id)] = true
			}
		}
	case "GB":
		if !is2xx {
			break
		}
		if total, n := weightTotal(resp.Get("iD_Weightage")); n > 0 {
			add("GB.total-over", "a module whose weights total at most 100", is(over(total), "weights totalling "+fmtNum(total)))
		}
	case "ES":
		if esHasQuestion(req) && esOutside(req) == "" {
			add("ES.question-inside", "a question within its limits accepted", is(ex.Status == 400, fmt.Sprint(ex.Status)))
		}
	case "NR":
		id, read := req.Get("id").String(), req.Get("read").Int()
		if !is2xx || id == "" || (read != 10 && read != 11) {
			break
		}
		rule := map[int64]string{10: "NR.unread", 11: "NR.read"}[read]
		if st := resp.Get("notifyStatus"); st.Exists() {
			add(rule, fmt.Sprintf("notifyStatus %d as set", read), is(st.Int() != read, "notifyStatus "+st.Raw))
		}
		m.notifications = capped(m.notifications)
		m.notifications[id] = read
	case "NG":
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
		if read, ok := m.notifications[resp.Get("id").String()]; ok {
			if st := resp.Get("notifyStatus"); st.Exists() {
				rule := map[int64]string{10: "NR.unread", 11: "NR.read"}[read]
				add(rule, fmt.Sprintf("notifyStatus %d, as the last read update set it", read), is(st.Int() != read, "notifyStatus "+st.Raw))
			}
		}
	case "QS":
		if !is2xx {
			break
		}
		if n := resp.Get("name"); n.Exists() && req.Get("name").Exists() {
			add("QS.200", "name "+req.Get("name").Raw+" as sent", is(n.String() != req.Get("name").String(), "name "+n.Raw))
		}
		if req.Get("displayQuestionMark").Type == gjson.True {
			if d := resp.Get("displayQuestionMark"); d.Exists() {
				add("QS.given", "displayQuestionMark true as sent", is(d.Type != gjson.True, "displayQuestionMark "+d.Raw))
			}
		}
	}
	return out
}

// datesInRange checks that a dated list keeps within StartDate..EndDate.
func (c *checker) datesInRange(op, start, end string, list gjson.Result, note func(string)) []Finding {
	if start == "" && end == "" {
		return nil
	}
	s, errS := time.Parse(time.RFC3339, start)
	e, errE := time.Parse(time.RFC3339, end)
	note(op + ".dates")
	for _, entry := range list.Array() {
		d, err := time.Parse(time.RFC3339, entry.Get("logDate").String())
		if err != nil {
			continue
		}
		if start != "" && errS == nil && d.Before(s) || end != "" && errE == nil && d.After(e) {
			return []Finding{{Operation: op, Requirement: op + ".dates", Expected: fmt.Sprintf("entries dated %s..%s", start, end), Got: "an entry dated " + entry.Get("logDate").String()}}
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

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func orAbsent(r gjson.Result) string {
	if !r.Exists() {
		return "absent"
	}
	return r.Raw
}
