package proxy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// folderCopied (E6) judges the copy: described creator when populated, an
// id of its own.
func folderCopied(j *judgement) {
	if j.ex.Status != 201 {
		return
	}
	if rules.HasEntity(j.q.Get("populate"), "Creator") {
		described := j.resp.Get("creator").IsObject()
		for _, f := range []string{"userID", "userName", "email"} {
			described = described || j.resp.Get(f).String() != ""
		}
		j.Judge("E6.populate-creator", "a copy describing its creator (userID, userName or email)", !described, "none of them")
	}
	if id := j.resp.Get("id"); id.Exists() && idsEqual(id.String(), j.params["id"]) {
		j.Broke("E6.201", "a copy whose id differs from the source's", "id "+id.String()+", the source's")
	}
}

// attendanceAdded (E7) judges the new attendance against the request: its
// resource, its publish flag as sent or by default, isDefault.
func attendanceAdded(j *judgement) {
	if !j.is2xx {
		return
	}
	if r := j.resp.Get("resourceID"); r.Exists() && !idsEqual(r.String(), j.req.Get("resourceID").String()) {
		j.Broke("E7.201", "resourceID "+j.req.Get("resourceID").String(), "resourceID "+r.String())
	}
	pub, sent := j.resp.Get("publish"), j.req.Get("publish")
	switch {
	case !sent.Exists() && pub.Exists():
		j.Judge(rules.ReqDefaultPublish, fmt.Sprintf("publish %t when the request leaves it out", rules.DefaultAttendancePublish),
			!pub.IsBool() || pub.Bool() != rules.DefaultAttendancePublish, "publish "+pub.Raw)
	case sent.Type == gjson.False && pub.Exists():
		j.Judge("E7.publish", "publish false as sent", pub.Type != gjson.False, "publish "+pub.Raw)
	}
	if d := j.resp.Get("isDefault"); d.Exists() {
		j.Judge("E7.isDefault", "isDefault true on a new default attendance", d.Type != gjson.True, "isDefault "+d.Raw)
	}
}

// references judges, on every operation whose registry row declares
// References (the record asked for on E9, E19 and the evaluation session
// update; the question of E17's and E18's entries; the file, weblink,
// resource and group of E11, E12, E7 and NG), that each record of a 2xx
// answer names the record the request named: the scenarios' predicate
// (rules.ReferenceAnswer). An answer none of whose records carries the
// member, or a request without the input (a path parameter the fixture
// names otherwise), is not judged.
func references(j *judgement) {
	o := factsOf[j.op]
	refs := o.refs
	if !j.is2xx || len(refs) == 0 {
		return
	}
	records := []gjson.Result{j.resp}
	if o.list {
		if !j.resp.IsArray() {
			return
		}
		records = j.resp.Array()
	}
	for _, r := range refs {
		want, ok := j.input(r.Input)
		if !ok {
			continue
		}
		b, seen := rules.ReferenceAnswer(records, r.Member, r.Input, want, openapi.Optional(o.record, r.Member), o.list)
		if b != nil || seen > 0 {
			j.Breach(r.Requirement, b)
		}
	}
}

// input is the value of a request input of the exchange: "path.NAME" (its
// path parameter, the name in any case) or "body.PATH".
func (j *judgement) input(in string) (gjson.Result, bool) {
	kind, name, _ := strings.Cut(in, ".")
	switch kind {
	case "path":
		for k, v := range j.params {
			if strings.EqualFold(k, name) {
				return gjson.Result{Type: gjson.String, Str: v, Raw: strconv.Quote(v)}, true
			}
		}
	case "body":
		v := j.req.Get(name)
		return v, v.Exists()
	}
	return gjson.Result{}, false
}

// gradebookUpdated (GB) judges a refusal of weights totalling at most the
// limit, and an answer whose weights total more.
//
// GB.per-module is not judged from memory: whether an update naming some
// items keeps the others' weights (merge) or zeroes them (replace) is
// open, and a replacing implementation is right to accept what a merging
// one must refuse. An answer showing every item is judged by
// GB.total-over.
func gradebookUpdated(j *judgement) {
	sent := weightsOf(j.req.Get("iD_Weightage"))
	if gm := j.c.fx.Records.GradebookModule; gm != nil && idsEqual(gm.ID, j.params["id"]) && len(sent) > 0 && j.ex.Status == 400 {
		total, all := 0.0, true
		for _, it := range gm.GradeItems {
			w, ok := sent[strings.ToLower(it)]
			all = all && ok
			total += w
		}
		if all && !rules.TrafficWeightageOver(total) && validGradingSchema(j.req.Get("gradingSchema")) {
			j.Broke(rules.ReqWeightageAtLimit, "weights of every grade item totalling "+rules.FormatNumber(total)+" accepted", "400")
		}
	}
	if !j.is2xx {
		return
	}
	if total, n := rules.WeightTotal(j.resp.Get("iD_Weightage")); n > 0 {
		j.Judge(rules.ReqWeightageOver, fmt.Sprintf("a module whose weights total at most %d", rules.MaxWeightageTotal),
			rules.TrafficWeightageOver(total), "weights totalling "+rules.FormatNumber(total))
	}
}

// sessionUpdated (ES) judges a refusal of questions within their limits.
func sessionUpdated(j *judgement) {
	if rules.HasQuestion(j.req) && rules.QuestionOutside(j.req) == "" {
		j.Judge(rules.ReqQuestionInside, "a question within its limits accepted", j.ex.Status == 400, fmt.Sprint(j.ex.Status))
	}
}

// quizSectionUpdated (QS) judges the section answered against the
// request and the displayQuestionMark last seen of it.
func quizSectionUpdated(j *judgement) {
	if !j.is2xx {
		return
	}
	section := strings.ToLower(j.req.Get("id").String())
	d, given := j.resp.Get("displayQuestionMark"), j.req.Get("displayQuestionMark")
	if was, ok := j.m.get(kindSection, section); ok && was == false && !given.Exists() && d.Exists() {
		j.Judge(rules.ReqDefaultQuestionMark, fmt.Sprintf("displayQuestionMark still %t when left out", rules.DefaultDisplayQuestionMark),
			d.IsBool() && d.Bool() != rules.DefaultDisplayQuestionMark, "displayQuestionMark "+d.Raw)
	}
	if d.IsBool() {
		j.m.set(kindSection, section, d.Bool())
	}
	if n := j.resp.Get("name"); n.Exists() && j.req.Get("name").Exists() {
		j.Judge("QS.200", "name "+j.req.Get("name").Raw+" as sent", n.String() != j.req.Get("name").String(), "name "+n.Raw)
	}
	if given.Type == gjson.True && d.Exists() {
		j.Judge("QS.given", "displayQuestionMark true as sent", d.Type != gjson.True, "displayQuestionMark "+d.Raw)
	}
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

// listings remembers the entries of a list that another operation's read
// of one record must agree with, by their identity, with the parent the
// list was read for; it judges such a read against the entry remembered
// (E19.agrees, against E18), as the scenario does: the record names in
// its parent member the parent it was listed under, and every member both
// carry, but those a populate entity of either fills, holds the same value
// (rules.AgreeAnswer, the scenarios' predicate). A read of a record no
// list answer showed is not judged.
func listings(j *judgement) {
	if !j.is2xx {
		return
	}
	o := factsOf[j.op]
	if o.listed && o.parentIn != "" && j.resp.IsArray() {
		parent, _ := j.input(o.parentIn)
		for _, e := range j.resp.Array() {
			if key, ok := rules.Identity(o.record, e); ok {
				j.m.set(kindListed, string(j.op)+" "+key, parent.String()+"\x00"+e.Raw)
			}
		}
	}
	l := o.listedBy
	if l == nil || !j.resp.IsObject() {
		return
	}
	key, ok := rules.Identity(o.record, j.resp)
	if !ok {
		return
	}
	v, ok := j.m.get(kindListed, string(l.Op)+" "+key)
	if !ok {
		return
	}
	parent, raw, _ := strings.Cut(v.(string), "\x00")
	if p := j.resp.Get(l.Parent); p.Type == gjson.String && parent != "" && !idsEqual(p.Str, parent) {
		j.Broke(l.Requirement, fmt.Sprintf("the %s %s lists under %s %s", o.record, l.Op, l.Parent, parent), fmt.Sprintf("the %s %s answered names %s %s", o.record, j.op, l.Parent, p.Str))
		return
	}
	skip := registry.FilledBy(j.op, l.Op)
	differ, compared := rules.AgreeAnswer(o.record, j.resp, gjson.Parse(raw), func(m string) bool { return openapi.Declares(o.record, m) && !skip[m] })
	switch {
	case len(differ) > 0:
		j.Broke(l.Requirement, fmt.Sprintf("the %s %s answered as %s lists it", o.record, j.op, l.Op), strings.Join(differ, "; "))
	case compared > 0:
		j.Kept(l.Requirement)
	}
}

// updateAgrees judges the record the last read update of a notification
// answered against the notification a read shows afterwards: the
// updated record, agreeing in every member both carry but those the
// update sets or a read may show otherwise (NR.read, NR.unread, by the
// value set; the scenarios compare the same two answers).
func updateAgrees(j *judgement, id string) {
	v, ok := j.m.get(kindUpdate, id)
	if !ok {
		return
	}
	read, raw, _ := strings.Cut(v.(string), "\x00")
	rule := rules.ReadRequirement(gjson.Parse(read).Int())
	differ, compared := rules.AgreeAnswer("Notification", gjson.Parse(raw), j.resp, func(m string) bool {
		return openapi.Declares("Notification", m) && !rules.ReadUpdateSets(m)
	})
	switch {
	case len(differ) > 0:
		j.Broke(rule, "the notification the read update answered, as NG reads it afterwards", strings.Join(differ, "; "))
	case compared > 0:
		j.Kept(rule)
	}
}
