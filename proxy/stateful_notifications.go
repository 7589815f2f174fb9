package proxy

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// readStatusSet (NR) judges the status answered against the one set, and
// remembers it for the read that shows it (notificationRead). An update to
// the status the traffic last set is NR.same's, as in the scenarios: the
// table lists no transition from a status to itself.
func readStatusSet(j *judgement) {
	id, read := j.req.Get("id").String(), j.req.Get("read").Int()
	rule := rules.ReadRequirement(read)
	if !j.is2xx || id == "" || rule == "" {
		return
	}
	if prev, ok := j.m.get(kindRead, id); ok && prev.(int64) == read {
		rule = registry.NR.Requirement(".same")
	}
	j.m.set(kindRefused, id, false)
	if st := j.resp.Get("notifyStatus"); st.Exists() {
		j.Judge(rule, fmt.Sprintf("notifyStatus %d as set", read), st.Int() != read, "notifyStatus "+st.Raw)
	}
	j.m.set(kindRead, id, read)
	if j.resp.IsObject() {
		j.m.set(kindUpdate, id, fmt.Sprint(read)+"\x00"+j.resp.Raw)
	}
}

// notificationRead (NG) judges the notification answered: its ancestors
// when populated, and the status last set of it (its group is the
// registry's reference: references).
func notificationRead(j *judgement) {
	if !j.is2xx {
		return
	}
	if strings.Contains(strings.ToLower(j.q.Get("populate")), "ancestor") {
		a := j.resp.Get("ancestor")
		j.Judge("NG.ancestor", "an ancestor array", !a.IsArray(), "ancestor "+orAbsent(a))
		ancestorsNotTarget(j, a)
	}
	id := j.resp.Get("id").String()
	updateAgrees(j, id)
	if v, ok := j.m.get(kindRead, id); ok {
		read := v.(int64)
		rule, what := rules.ReadRequirement(read), "as the last read update set it"
		if refused, _ := j.m.get(kindRefused, id); refused == true {
			rule, what = registry.NR.Requirement(".range-unchanged"), "as the last read update set it, a refused one since changing nothing"
		}
		if st := j.resp.Get("notifyStatus"); st.Exists() {
			j.Judge(rule, fmt.Sprintf("notifyStatus %d, %s", read, what), st.Int() != read, "notifyStatus "+st.Raw)
		}
	}
}

// readRefused (NR, a request breaking a rule) remembers a read value
// outside 10 and 11 refused (4xx) for a notification whose status the
// traffic set: until the next update, a read showing another status than
// the one set shows the refused update carried out (NR.range-unchanged),
// as the scenario reads it.
func readRefused(j *judgement) {
	id, read := j.req.Get("id"), j.req.Get("read")
	if !rules.ClientError(j.ex.Status) || id.Type != gjson.Number || read.Type != gjson.Number || rules.ReadRequirement(read.Int()) != "" {
		return
	}
	if j.m.has(kindRead, id.String()) {
		j.m.set(kindRefused, id.String(), true)
	}
}

// ancestorsNotTarget judges that no ancestor of the notification's target
// is the target itself; entries without an id, or an answer without
// targetID, leave it unjudged.
func ancestorsNotTarget(j *judgement, ancestors gjson.Result) {
	target := j.resp.Get("targetID")
	if target.Type != gjson.String {
		return
	}
	carried := false
	for i, e := range ancestors.Array() {
		id := e.Get("id")
		if id.Type != gjson.String {
			continue
		}
		carried = true
		if idsEqual(id.Str, target.Str) {
			j.Broke("NG.ancestor-self", "no ancestor that is the target "+target.Str, fmt.Sprintf("ancestor %d is the target", i))
			return
		}
	}
	if carried {
		j.Kept("NG.ancestor-self")
	}
}
