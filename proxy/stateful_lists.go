package proxy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// distinctEntries judges that no two entries of a page share a member the
// registry declares distinct (E20's ids, E15's matrixNo): the scenarios'
// predicate, rules.DistinctAnswer.
func distinctEntries(j *judgement) {
	for _, d := range factsOf[j.op].distinct {
		j.Breach(d.Requirement, rules.DistinctAnswer(j.resp.Array(), d.Member))
	}
}

// listRules are the rules of a paged list's answer beyond its limit
// (pagedList), by operation.
var listRules = map[registry.OpID][]statefulRule{
	registry.E10: {datesInRange, searchMatched},
	registry.E17: {creatorsPopulated},
	registry.E18: {photosPopulated},
	registry.E20: {photosPopulated},
}

// pagedList judges a paged list's length against its limit. limit=0 is
// left to the suite: some read it as "no limit".
func pagedList(j *judgement) {
	if l, err := strconv.Atoi(j.q.Get("limit")); err == nil && l >= 1 {
		n := len(j.resp.Array())
		j.Judge(j.op.Requirement(".limit"), fmt.Sprintf("at most %d entries", l), n > l, fmt.Sprintf("%d entries", n))
	}
}

// photosPopulated judges that every entry carries its photo when
// populate asks for it. Like the other entry rules, it judges only a
// break: a page without one says nothing of the entries not asked for.
func photosPopulated(j *judgement) {
	if !rules.HasEntity(j.q.Get("populate"), "photo") {
		return
	}
	req := j.op.Requirement(".photo")
	for _, e := range j.resp.Array() {
		if p := e.Get("photo"); p.Type == gjson.Null || !p.Exists() {
			j.Broke(req, "every entry with a photo (populate=photo)", "an entry without photo")
			return
		}
	}
}

// creatorsPopulated judges that every entry describes its creator when
// populate asks for Creator: one of the members the operation's Creator
// fills (registry.Populates) a non-empty string, or a creator object, as
// the scenario reads it. One member left out is no break: any one
// describes the creator.
func creatorsPopulated(j *judgement) {
	if !rules.HasEntity(j.q.Get("populate"), "Creator") {
		return
	}
	var members []string
	for _, p := range registry.Populates(j.op) {
		if p.Entity == "Creator" {
			members = p.Filled()
		}
	}
	for _, e := range j.resp.Array() {
		described := e.Get("creator").IsObject()
		for _, f := range members {
			described = described || (e.Get(f).Type == gjson.String && e.Get(f).Str != "")
		}
		if !described {
			j.Broke(j.op.Requirement(".creator"), "every entry describing its creator ("+strings.Join(members, ", ")+") with populate=Creator", "an entry with none of them")
			return
		}
	}
}

// searchMatched (E10) judges that every entry with a name or file name
// contains the text searched.
func searchMatched(j *judgement) {
	text := strings.ToLower(strings.TrimSpace(j.q.Get("SearchText")))
	if text == "" {
		return
	}
	for _, e := range j.resp.Array() {
		name, file := e.Get("name"), e.Get("fileName")
		if !name.Exists() && !file.Exists() {
			continue
		}
		if !strings.Contains(strings.ToLower(name.String()), text) && !strings.Contains(strings.ToLower(file.String()), text) {
			j.Broke("E10.search", fmt.Sprintf("entries whose name or fileName contains %q", j.q.Get("SearchText")), fmt.Sprintf("an entry with name %s, fileName %s", orAbsent(name), orAbsent(file)))
			return
		}
	}
}

// datesInRange (E10) judges that a dated list keeps within
// StartDate..EndDate, on the dated entries seen: a list with none says
// nothing of the entries the range should have kept.
func datesInRange(j *judgement) {
	start, end := j.q.Get("StartDate"), j.q.Get("EndDate")
	if start == "" && end == "" {
		return
	}
	s, errS := rules.ParseDateTime(start)
	e, errE := rules.ParseDateTime(end)
	req := j.op.Requirement(".dates")
	dated := false
	for _, entry := range j.resp.Array() {
		d, err := rules.ParseDateTime(entry.Get("logDate").String())
		if err != nil {
			continue
		}
		dated = true
		if start != "" && errS == nil && d.Before(s) || end != "" && errE == nil && d.After(e) {
			j.Broke(req, fmt.Sprintf("entries dated %s..%s", start, end), "an entry dated "+entry.Get("logDate").String())
			return
		}
	}
	if dated {
		j.Kept(req)
	}
}
