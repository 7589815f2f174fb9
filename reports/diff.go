package reports

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Diff is what changed between two reports: BASE, before a change (the
// main branch's run, the last release's), and HEAD, after it. Diff(base,
// head) computes it; WriteDiffMarkdown and WriteDiffJSON write it.
type Diff struct {
	Base DiffSide `json:"base"`
	Head DiffSide `json:"head"`
	// Warnings say why the two may not compare like for like: another
	// suite version or specification digest, a run cut short or one that
	// could not start.
	Warnings []string `json:"warnings,omitempty"`
	// Regressions passed in BASE and failed in HEAD; Fixes failed in BASE
	// and passed in HEAD.
	Regressions []RequirementChange `json:"regressions"`
	Fixes       []RequirementChange `json:"fixes"`
	// NewlyCovered had no result in BASE (not run, or not in its
	// catalogue) and have one in HEAD; NewlyUncovered the other way round.
	NewlyCovered   []RequirementChange `json:"newlyCovered"`
	NewlyUncovered []RequirementChange `json:"newlyUncovered"`
	// NewlyUnsupported are unsupported in HEAD and were not in BASE: HEAD's
	// implementation claims fewer profiles. They are not regressions: an
	// implementation that stops claiming a profile breaks none of its
	// rules, and its conformance report says what it claims.
	NewlyUnsupported []RequirementChange `json:"newlyUnsupported"`
	// StillFailing counts the requirements failed in both.
	StillFailing int `json:"stillFailing"`
	// Scenarios are the scenarios whose outcome changed, or that only one
	// report has.
	Scenarios []ScenarioChange `json:"scenarios"`
	// Expired are the baseline entries HEAD's gate found expired.
	Expired []ExpiredEntry `json:"expired,omitempty"`
	// AppRegressions are the reliances (and operations) of an app checked
	// in HEAD (--app-traffic) that differ on HEAD's target and did not on
	// BASE's: an app that newly fails there. They never change the
	// conformance verdict, nor diff's exit code.
	AppRegressions []AppChange `json:"appRegressions,omitempty"`
}

// AppChange is one reliance (a decision id) or operation of an app that
// newly differs on the target.
type AppChange struct {
	App string `json:"app"`
	// ID is the decision id, or the operation id for an operation.
	ID   string  `json:"id"`
	Base Holding `json:"base"`
	Head Holding `json:"head"`
	// Simulator and Target say what the simulator did and what HEAD's
	// target does.
	Simulator string `json:"simulator,omitempty"`
	Target    string `json:"target,omitempty"`
}

// appRegressions lists what differs in head's app checks and did not in
// base's (absent there included), app by app, in head's order.
func appRegressions(base, head *Report) []AppChange {
	was := map[string]Holding{}
	for _, a := range base.Apps {
		for _, r := range a.Relies {
			was[a.Name+"\x00"+r.ID] = r.Result
		}
		for _, o := range a.Operations {
			was[a.Name+"\x00"+o.Op] = o.Result
		}
	}
	var out []AppChange
	add := func(app, id string, h Holding, sim, target string) {
		if h != Differs || was[app+"\x00"+id] == Differs {
			return
		}
		out = append(out, AppChange{App: app, ID: id, Base: was[app+"\x00"+id], Head: h, Simulator: sim, Target: target})
	}
	for _, a := range head.Apps {
		for _, r := range a.Relies {
			add(a.Name, r.ID, r.Result, r.Simulator, r.Target)
		}
		for _, o := range a.Operations {
			add(a.Name, o.Op, o.Result, o.Simulator, o.Target)
		}
	}
	return out
}

// DiffSide is what the diff says of one report.
type DiffSide struct {
	// File is the report's path, when the caller sets it.
	File        string            `json:"file,omitempty"`
	Schema      string            `json:"schema"`
	Tool        Tool              `json:"tool"`
	Target      string            `json:"target"`
	Started     time.Time         `json:"started"`
	Verdict     Verdict           `json:"verdict"`
	Cause       InconclusiveCause `json:"verdictCause,omitempty"`
	Interrupted bool              `json:"interrupted,omitempty"`
	Counts      Counts            `json:"counts"`
	// Gate is whether the run's baseline gate passed, when it had one.
	Gate *bool `json:"gate,omitempty"`
}

// RequirementChange is a requirement whose result differs between the
// reports. A result of "" means the report's catalogue lacks the
// requirement.
type RequirementChange struct {
	ID         string     `json:"id"`
	Operation  string     `json:"operation,omitempty"`
	Strictness Strictness `json:"strictness"`
	Text       string     `json:"text,omitempty"`
	Base       Result     `json:"base"`
	Head       Result     `json:"head"`
	// Reason is why it failed: in HEAD for a regression or a newly covered
	// failure, in BASE for a fix.
	Reason string `json:"reason,omitempty"`
}

// ScenarioChange is a scenario whose outcome differs between the reports;
// an outcome of "" means the report lacks the scenario.
type ScenarioChange struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Operation string  `json:"operation,omitempty"`
	Base      Outcome `json:"base"`
	Head      Outcome `json:"head"`
}

// MustRegressions returns the regressions of MUST requirements: those that
// make `campusconf diff` exit 1. A SHOULD regression is reported and warns,
// as a SHOULD failure does everywhere else.
func (d Diff) MustRegressions() []RequirementChange {
	var out []RequirementChange
	for _, c := range d.Regressions {
		if c.Strictness != Should {
			out = append(out, c)
		}
	}
	return out
}

// CompareReports returns the diff of two finalized reports (as ReadJSON
// returns them): requirement by requirement and scenario by scenario, in
// report order.
func CompareReports(base, head *Report) Diff {
	d := Diff{
		Base: sideOf(base), Head: sideOf(head),
		Regressions: []RequirementChange{}, Fixes: []RequirementChange{},
		NewlyCovered: []RequirementChange{}, NewlyUncovered: []RequirementChange{}, NewlyUnsupported: []RequirementChange{},
		Scenarios: []ScenarioChange{},
	}
	d.Warnings = diffWarnings(base, head)
	d.AppRegressions = appRegressions(base, head)
	if head.Gate != nil {
		d.Expired = head.Gate.Expired
	}

	reqID := func(q Requirement) string { return q.ID }
	baseReq, headReq := indexBy(base.Requirements, reqID), indexBy(head.Requirements, reqID)
	baseWhy, headWhy := failureReasons(base), failureReasons(head)
	for _, id := range unionInOrder(keysOf(head.Requirements, reqID), keysOf(base.Requirements, reqID)) {
		b, inBase := baseReq[id]
		h, inHead := headReq[id]
		c := RequirementChange{ID: id, Base: b.Result, Head: h.Result}
		for _, q := range []Requirement{b, h} { // HEAD's words win
			if q.ID != "" {
				c.Operation, c.Strictness, c.Text = q.Operation, q.Strictness, q.Text
			}
		}
		if !inBase {
			c.Base = ""
		}
		if !inHead {
			c.Head = ""
		}
		ran := func(r Result) bool { return r == ResultPassed || r == ResultFailed }
		switch {
		case c.Head == ResultUnsupported && c.Base != ResultUnsupported:
			d.NewlyUnsupported = append(d.NewlyUnsupported, c)
		case c.Base == ResultPassed && c.Head == ResultFailed:
			c.Reason = headWhy[id]
			d.Regressions = append(d.Regressions, c)
		case c.Base == ResultFailed && c.Head == ResultPassed:
			c.Reason = baseWhy[id]
			d.Fixes = append(d.Fixes, c)
		case c.Base == ResultFailed && c.Head == ResultFailed:
			d.StillFailing++
		case !ran(c.Base) && ran(c.Head):
			c.Reason = headWhy[id]
			d.NewlyCovered = append(d.NewlyCovered, c)
		case ran(c.Base) && !ran(c.Head):
			d.NewlyUncovered = append(d.NewlyUncovered, c)
		}
	}

	scID := func(s Scenario) string { return s.ID }
	baseSc, headSc := indexBy(base.Scenarios, scID), indexBy(head.Scenarios, scID)
	for _, id := range unionInOrder(keysOf(head.Scenarios, scID), keysOf(base.Scenarios, scID)) {
		b, inBase := baseSc[id]
		h, inHead := headSc[id]
		if inBase && inHead && b.Outcome == h.Outcome {
			continue
		}
		c := ScenarioChange{ID: id, Name: cmp.Or(h.Name, b.Name), Operation: cmp.Or(h.Operation, b.Operation), Base: b.Outcome, Head: h.Outcome}
		d.Scenarios = append(d.Scenarios, c)
	}
	slices.SortStableFunc(d.Scenarios, func(x, y ScenarioChange) int {
		if c := CompareOperations(x.Operation, y.Operation); c != 0 {
			return c
		}
		return compareNatural(x.ID, y.ID)
	})
	return d
}

func sideOf(r *Report) DiffSide {
	s := DiffSide{Schema: r.Schema, Tool: r.Tool, Target: r.Target.URL, Started: r.Started, Verdict: r.Verdict, Cause: r.VerdictCause, Interrupted: r.Interrupted, Counts: r.Counts}
	if r.Gate != nil {
		pass := r.Gate.Pass
		s.Gate = &pass
	}
	return s
}

// diffWarnings say why base and head may not compare like for like.
func diffWarnings(base, head *Report) []string {
	var w []string
	differ := func(what, b, h, unsaid string) {
		switch {
		case b == h:
		case b == "" || h == "":
			side := "BASE"
			if h == "" {
				side = "HEAD"
			}
			w = append(w, fmt.Sprintf("%s does not say which %s it was checked against (%s); compare with care", side, what, unsaid))
		default:
			w = append(w, fmt.Sprintf("the reports were checked against different %ss (BASE %s, HEAD %s): requirements may differ between them, compare with care", what, b, h))
		}
	}
	const old = "a report written before campusconf recorded it"
	differ("suite version", base.Tool.SuiteVersion, head.Tool.SuiteVersion, old)
	differ("specification digest", base.Tool.SpecDigest, head.Tool.SpecDigest, old)
	for _, s := range []struct {
		name string
		r    *Report
	}{{"BASE", base}, {"HEAD", head}} {
		switch {
		case s.r.Verdict == VerdictInconclusive && s.r.VerdictCause == InconclusiveUnreachable:
			w = append(w, fmt.Sprintf("%s did not run (%s): every requirement it lacks shows as uncovered, not as fixed or broken", s.name, cmp.Or(s.r.Reason, "target unreachable")))
		case s.r.Interrupted:
			w = append(w, s.name+" was cut short (interrupted): scenarios it did not finish are not the implementation's results")
		}
	}
	return w
}

// indexBy maps the items of list by their key (the first of a repeated
// key kept).
func indexBy[T any](list []T, key func(T) string) map[string]T {
	m := make(map[string]T, len(list))
	for _, v := range list {
		if _, ok := m[key(v)]; !ok {
			m[key(v)] = v
		}
	}
	return m
}

// keysOf is the key of each item of list, in order.
func keysOf[T any](list []T, key func(T) string) []string {
	out := make([]string, 0, len(list))
	for _, v := range list {
		out = append(out, key(v))
	}
	return out
}

// unionInOrder is a's ids, then b's not in a.
func unionInOrder(a, b []string) []string {
	seen := make(map[string]bool, len(a))
	out := slices.Clone(a)
	for _, id := range a {
		seen[id] = true
	}
	for _, id := range b {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// failureReasons is the one-line reason of each failed requirement of r.
func failureReasons(r *Report) map[string]string {
	must, should := failedRequirements(r)
	m := make(map[string]string, len(must)+len(should))
	for _, f := range append(must, should...) {
		m[f.ID] = f.Reason
	}
	return m
}

// WriteDiffJSON writes d as indented JSON, for programs.
func WriteDiffJSON(w io.Writer, d Diff) error {
	return writeIndentedJSON(w, d, "diff")
}

// diffMaxItems caps each list of the Markdown diff, so that it fits a
// pull-request comment; the JSON form has everything.
const diffMaxItems = 20

// WriteDiffMarkdown writes d as Markdown for a pull-request comment or
// $GITHUB_STEP_SUMMARY: a headline (regressions first), the two runs side
// by side, the warnings, then regressions, fixes, newly covered and
// uncovered requirements, expired baseline entries and the scenarios
// whose outcome changed, each list capped with "… and N more". Text from
// the reports is escaped, so a target's answer cannot inject Markdown or
// HTML into the comment.
func WriteDiffMarkdown(w io.Writer, d Diff) error {
	var b strings.Builder
	must := len(d.MustRegressions())
	should := len(d.Regressions) - must
	switch {
	case must > 0:
		fmt.Fprintf(&b, "## ❌ campusconf diff: %s\n\n", plural(must, "MUST regression", "MUST regressions"))
	case should > 0:
		fmt.Fprintf(&b, "## ⚠️ campusconf diff: %s, no MUST regression\n\n", plural(should, "SHOULD regression", "SHOULD regressions"))
	default:
		fmt.Fprintf(&b, "## ✅ campusconf diff: no regression\n\n")
	}
	b.WriteString(diffSummaryLine(d))
	b.WriteString("\n\n| | Base | Head |\n|---|---|---|\n")
	row := func(name string, f func(DiffSide) string) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, f(d.Base), f(d.Head))
	}
	row("Report", func(s DiffSide) string { return markdownCellCode(cmp.Or(s.File, "report.json")) })
	row("Verdict", func(s DiffSide) string {
		v := verdictIcon(s.Verdict) + " " + markdownText(Word(s.Verdict, s.Cause))
		if s.Interrupted {
			v += " (interrupted)"
		}
		if s.Gate != nil {
			v += map[bool]string{true: ", baseline gate passed", false: ", baseline gate failed"}[*s.Gate]
		}
		return v
	})
	row("Target", func(s DiffSide) string { return markdownCellCode(s.Target) })
	row("Started", func(s DiffSide) string {
		if s.Started.IsZero() {
			return "—"
		}
		return s.Started.UTC().Format("2006-01-02 15:04 UTC")
	})
	row("Written by", func(s DiffSide) string { return markdownText(toolLine(s.Tool)) })
	row("Specification", func(s DiffSide) string {
		if s.Tool.SpecDigest == "" {
			return "not recorded"
		}
		return markdownCellCode(shortDigest(s.Tool.SpecDigest))
	})
	row("Scenarios passed / failed / skipped / not configured", func(s DiffSide) string {
		c := s.Counts
		return fmt.Sprintf("%d / %d / %d / %d", c.Passed, c.Failed, c.Skipped, c.NotConfigured)
	})
	row("Requirements covered / passing", func(s DiffSide) string {
		c := s.Counts
		return fmt.Sprintf("%d / %d of %d", c.RequirementsCovered, c.RequirementsPassing, c.Requirements)
	})
	for _, warn := range d.Warnings {
		fmt.Fprintf(&b, "\n> ⚠️ %s\n", markdownText(warn))
	}
	section := func(title string, list []RequirementChange, line func(RequirementChange) string) {
		cappedSection(&b, "\n### "+title+" (%d)\n\n", list, diffMoreItem, func(c RequirementChange) string {
			return fmt.Sprintf("- **%s** (%s%s): %s\n", markdownText(c.ID), markdownText(string(c.Strictness)), opSuffix(c.Operation), line(c))
		})
	}
	reasonOr := func(c RequirementChange, alt string) string {
		if c.Reason != "" {
			return markdownText(c.Reason)
		}
		return markdownText(cmp.Or(c.Text, alt))
	}
	section("Regressions: passed in base, failed in head", d.Regressions, func(c RequirementChange) string { return reasonOr(c, "failed") })
	section("Fixes: failed in base, passed in head", d.Fixes, func(c RequirementChange) string { return "was: " + reasonOr(c, "failed") })
	section("Newly covered", d.NewlyCovered, func(c RequirementChange) string {
		s := resultWord(c.Base) + " → " + resultWord(c.Head)
		if c.Head == ResultFailed && c.Reason != "" {
			s += ": " + markdownText(c.Reason)
		}
		return s
	})
	section("Newly uncovered", d.NewlyUncovered, func(c RequirementChange) string {
		return resultWord(c.Base) + " → " + resultWord(c.Head)
	})
	section("Newly unsupported: head claims fewer profiles (not a regression)", d.NewlyUnsupported, func(c RequirementChange) string {
		return resultWord(c.Base) + " → " + resultWord(c.Head)
	})
	cappedSection(&b, "\n### Expired baseline entries in head (%d)\n\n", d.Expired, diffMoreItem, func(e ExpiredEntry) string {
		return fmt.Sprintf("- **%s** (%s): %s\n", markdownText(e.ID), markdownText(e.Describe()), markdownText(e.Reason))
	})
	cappedSection(&b, "\n### Apps: reliances that newly fail in head (%d; the conformance verdict is not theirs)\n\n", d.AppRegressions, diffMoreItem, func(c AppChange) string {
		was := string(c.Base)
		if was == "" {
			was = "not checked"
		}
		return fmt.Sprintf("- **%s** of %s: %s → %s: the simulator %s; head's target: %s\n", markdownText(c.ID), markdownCode(c.App),
			markdownText(was), markdownText(string(c.Head)), markdownText(c.Simulator), markdownText(c.Target))
	})
	cappedSection(&b, "\n### Scenarios with another outcome (%d)\n\n| Scenario | Base | Head |\n|---|---|---|\n", d.Scenarios, "| … and %d more | | |\n", func(s ScenarioChange) string {
		return fmt.Sprintf("| %s%s | %s | %s |\n", markdownText(s.Name), opSuffixDash(s.Operation), outcomeWord(s.Base), outcomeWord(s.Head))
	})
	b.WriteString("\n`campusconf diff --json` gives every change; each failure's request, response and curl line are in the head run's `report.html`.\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write diff: %w", err)
	}
	return nil
}

// diffMoreItem is the line that ends a list of the diff cut at
// diffMaxItems, with how many more there are.
const diffMoreItem = "- … and %d more\n"

// cappedSection writes a section of the diff when list has items: head (a
// format taking their number), a line per item up to diffMaxItems, then
// more (a format taking the number left out) when some are.
func cappedSection[T any](b *strings.Builder, head string, list []T, more string, line func(T) string) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(b, head, len(list))
	shown, left := capList(list, diffMaxItems)
	for _, x := range shown {
		b.WriteString(line(x))
	}
	if left > 0 {
		fmt.Fprintf(b, more, left)
	}
}

// diffSummaryLine counts what changed in one line.
func diffSummaryLine(d Diff) string {
	unsupported := ""
	if n := len(d.NewlyUnsupported); n > 0 {
		unsupported = fmt.Sprintf(", %d newly unsupported", n)
	}
	return fmt.Sprintf("%s, %s, %s newly covered, %s newly uncovered%s, %s still failing; %s",
		plural(len(d.Regressions), "regression", "regressions"), plural(len(d.Fixes), "fix", "fixes"),
		fmt.Sprint(len(d.NewlyCovered)), fmt.Sprint(len(d.NewlyUncovered)), unsupported, fmt.Sprint(d.StillFailing),
		plural(len(d.Scenarios), "scenario with another outcome", "scenarios with another outcome"))
}

// toolLine names the build and suite that wrote a report.
func toolLine(t Tool) string {
	s := strings.TrimSpace(t.Name + " " + t.Version)
	if t.Commit != "" && t.Commit != "unknown" {
		c := t.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (" + c + ")"
	}
	if t.SuiteVersion != "" {
		s += " · suite " + t.SuiteVersion
	}
	return s
}

// shortDigest shows the algorithm and the first 12 hex digits.
func shortDigest(d string) string {
	alg, hex, ok := strings.Cut(d, ":")
	if !ok || len(hex) <= 12 {
		return d
	}
	return alg + ":" + hex[:12] + "…"
}

func opSuffix(op string) string {
	if op == "" {
		return ""
	}
	return ", " + markdownText(op)
}

func opSuffixDash(op string) string {
	if op == "" {
		return ""
	}
	return " (" + markdownText(op) + ")"
}

func resultWord(r Result) string {
	if r == "" {
		return "not in the catalogue"
	}
	return markdownText(string(r))
}

func outcomeWord(o Outcome) string {
	if o == "" {
		return "—"
	}
	return markdownText(string(o))
}
