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
	if st := j.resp.Get("notifyStatus"); st.Exists() {
		j.Judge(rule, fmt.Sprintf("notifyStatus %d as set", read), st.Int() != read, "notifyStatus "+st.Raw)
	}
	j.m.set(kindRead, id, read)
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
	if v, ok := j.m.get(kindRead, j.resp.Get("id").String()); ok {
		read := v.(int64)
		if st := j.resp.Get("notifyStatus"); st.Exists() {
			j.Judge(rules.ReadRequirement(read), fmt.Sprintf("notifyStatus %d, as the last read update set it", read), st.Int() != read, "notifyStatus "+st.Raw)
		}
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
