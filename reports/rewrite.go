package reports

import (
	"maps"
	"slices"

	"github.com/campusconf/campusconf/reports/redact"
)

// Redact replaces every secret red knows in every string of rep: target,
// options, scenarios with their failures and exchanges (header names
// included), requirements and open points. The suite redacts what it
// records as it records it; this pass catches what reached the report by
// another way, such as a failure message quoting a response.
func (rep *Report) Redact(red *redact.Redactor) {
	if red.Empty() {
		return
	}
	rewriteStrings(rep, red.String, false)
}

// rewriteStrings replaces every string s of rep that a reader sees by f(s):
// what the run recorded (tool, target, options, reasons, notes, the
// baseline gate's file and entries, skip reasons, failure texts and
// exchanges) and, when catalogue is true, also the names and
// ids that come from the suite itself (scenario ids and names, tags, steps,
// requirement ids and texts, open points), which must stay as they are for
// redaction since reports cross-reference them. Map keys are rewritten too;
// two keys that become one are joined by ", ". Verdict, Outcome and
// Strictness are closed sets and stay.
func rewriteStrings(rep *Report, f func(string) string, catalogue bool) {
	if rep == nil {
		return
	}
	list := func(l []string) {
		for i := range l {
			l[i] = f(l[i])
		}
	}
	m := func(in map[string]string) map[string]string {
		if in == nil {
			return nil
		}
		out := make(map[string]string, len(in))
		for _, k := range slices.Sorted(maps.Keys(in)) {
			nk, nv := f(k), f(in[k])
			if prev, ok := out[nk]; ok {
				nv = prev + ", " + nv
			}
			out[nk] = nv
		}
		return out
	}
	rep.Tool.Name, rep.Tool.Version, rep.Tool.Commit = f(rep.Tool.Name), f(rep.Tool.Version), f(rep.Tool.Commit)
	for i := range rep.Apps {
		// what the traffic report and the target said
		a := &rep.Apps[i]
		a.Name, a.VerdictReason = f(a.Name), f(a.VerdictReason)
		for j := range a.Relies {
			r := &a.Relies[j]
			r.Request, r.Simulator, r.Target, r.Why, r.Robust = f(r.Request), f(r.Simulator), f(r.Target), f(r.Why), f(r.Robust)
		}
		for j := range a.Operations {
			o := &a.Operations[j]
			o.Request, o.Simulator, o.Target, o.Why = f(o.Request), f(o.Simulator), f(o.Target), f(o.Why)
		}
	}
	if g := rep.Gate; g != nil {
		// what a hand-edited baseline file says
		g.File = f(g.File)
		for i := range g.Expired {
			e := &g.Expired[i].BaselineEntry
			e.Reason, e.Owner = f(e.Reason), f(e.Owner)
		}
	}
	t := &rep.Target
	t.URL, t.Fixtures, t.Image = f(t.URL), f(t.Fixtures), f(t.Image)
	list(t.Defects)
	rep.Options = m(rep.Options)
	rep.Reason = f(rep.Reason)
	list(rep.Notes)
	// the setup mistakes name requests and headers; the verdict's reason
	// is made from them again by Finalize
	list(rep.Setup)
	for i := range rep.Scenarios {
		s := &rep.Scenarios[i]
		if catalogue {
			s.ID, s.Feature, s.Name, s.Operation, s.Kind = f(s.ID), f(s.Feature), f(s.Name), f(s.Operation), Kind(f(string(s.Kind)))
			list(s.Requirements)
			list(s.Tags)
		}
		s.SkipReason = f(s.SkipReason)
		if fl := s.Failure; fl != nil {
			if catalogue {
				list(fl.Requirements)
				fl.Step = f(fl.Step)
			}
			fl.Message, fl.Expected, fl.Got, fl.Curl = f(fl.Message), f(fl.Expected), f(fl.Got), f(fl.Curl)
		}
		for j := range s.Exchanges {
			ex := &s.Exchanges[j]
			ex.Method, ex.URL, ex.Error = f(ex.Method), f(ex.URL), f(ex.Error)
			ex.RequestHeaders, ex.ResponseHeaders = m(ex.RequestHeaders), m(ex.ResponseHeaders)
			ex.RequestBody, ex.ResponseBody = f(ex.RequestBody), f(ex.ResponseBody)
		}
	}
	if !catalogue {
		return
	}
	for i := range rep.Requirements {
		q := &rep.Requirements[i]
		q.ID, q.Operation, q.Kind, q.Section, q.Text = f(q.ID), f(q.Operation), Kind(f(string(q.Kind))), f(q.Section), f(q.Text)
		list(q.Scenarios)
	}
	for i := range rep.OpenPoints {
		p := &rep.OpenPoints[i]
		p.ID, p.Section, p.Topic, p.Treatment = f(p.ID), f(p.Section), f(p.Topic), f(p.Treatment)
	}
}
