package reports

import (
	"fmt"
	"io"
	"strings"
	"text/template"
	"unicode/utf8"
)

// Caps that keep summary.md short enough for a pull-request comment or a
// CI step summary.
const (
	markdownMaxItems  = 10
	markdownMaxReason = 160
)

var markdownTemplate = template.Must(template.New("summary.md.tmpl").Funcs(template.FuncMap{
	"md":    markdownAny,
	"build": toolBuild,
	"ms":    formatMillis,
	"pct":   percent,
	"join":  func(ids []string) string { return strings.Join(ids, ", ") },
	"some": func(ids []string) string {
		shown, more := capList(ids, markdownMaxItems)
		s := strings.Join(shown, ", ")
		if more > 0 {
			s += fmt.Sprintf(" … and %d more", more)
		}
		return s
	},
	"code":    markdownCode,
	"ccode":   markdownCellCode,
	"picon":   profileIcon,
	"appicon": appIcon,
}).ParseFS(templateFS, "templates/summary.md.tmpl"))

// markdownView is what summary.md.tmpl reads.
type markdownView struct {
	R           *Report
	Icon        string
	Headline    string
	Must        []failedRequirement
	MustMore    int
	Should      []failedRequirement
	ShouldMore  int
	MustTotal   int
	ShouldTotal int
	Gaps        []Gap
	GapsMore    int
	// Limits are the skips for a runner limit, by reason.
	Limits     []Gap
	LimitsMore int
	// Errored are the scenarios that got no HTTP answer, Flaky those that
	// passed only on a retry.
	Errored     []scenarioLine
	ErroredMore int
	Flaky       []scenarioLine
	FlakyMore   int
	// ReadOnly is the number of scenarios a read-only run skipped, and
	// Unchecked the requirements left unchecked because of it.
	ReadOnly      int
	Unchecked     string
	UncheckedMore int
	Gate          *markdownGate
	// Conformance is the conformance report: its status heads the profile
	// table, whose rows are the claimed profiles; Unclaimed names the rest.
	Conformance ConformanceReport
	StatusIcon  string
	Claimed     []ProfileResult
	Unclaimed   []string
}

// scenarioLine is one scenario in a list of summary.md.
type scenarioLine struct {
	Operation, Name, Why string
}

// markdownGate is the baseline gate's section of summary.md.
type markdownGate struct {
	G           *GateResult
	Icon        string
	Expired     []ExpiredEntry
	ExpiredMore int
}

// failedRequirement is a failed requirement with the one-line reason of the
// first scenario that failed it.
type failedRequirement struct {
	ID         string
	Operation  string
	Kind       string
	Strictness Strictness
	Reason     string
	Scenario   string
}

// WriteMarkdown writes a short summary of r (summary.md) for a pull-request
// comment or $GITHUB_STEP_SUMMARY: the verdict, a counts table, and the
// failed MUST requirements with a one-line reason each, capped with "and N
// more" (SHOULD warnings likewise, shorter), and the baseline gate's
// result when the run had one, expired entries named. r should be
// finalized.
func WriteMarkdown(w io.Writer, r *Report) error {
	v := markdownView{R: r, Headline: Headline(r)}
	v.Icon = verdictIcon(r.Verdict)
	must, should := failedRequirements(r)
	v.MustTotal, v.ShouldTotal = len(must), len(should)
	v.Must, v.MustMore = capList(must, markdownMaxItems)
	v.Should, v.ShouldMore = capList(should, markdownMaxItems/2)
	v.Gaps, v.GapsMore = capList(Gaps(r), markdownMaxItems)
	v.Limits, v.LimitsMore = capList(SkipsOf(r, CauseRunnerLimit), markdownMaxItems)
	var errored, flaky []scenarioLine
	for _, s := range r.Scenarios {
		switch {
		case s.Outcome == Error:
			why := "no HTTP answer"
			if s.Failure != nil {
				why = s.Failure.Message
			}
			errored = append(errored, scenarioLine{s.Operation, s.Name, shorten(oneLine(why), markdownMaxReason)})
		case s.Outcome == Passed && s.Flaky:
			flaky = append(flaky, scenarioLine{s.Operation, s.Name, plural(s.Retries, "read sent again", "reads sent again")})
		}
	}
	v.Errored, v.ErroredMore = capList(errored, markdownMaxItems)
	v.Flaky, v.FlakyMore = capList(flaky, markdownMaxItems/2)
	v.ReadOnly = r.Counts.SkippedBy.ReadOnly
	unchecked, more := capList(r.ReadOnlyUnchecked, markdownMaxItems*2)
	v.Unchecked, v.UncheckedMore = strings.Join(unchecked, ", "), more
	v.Conformance = ConformanceOf(r)
	v.StatusIcon = statusIcon(v.Conformance.Status)
	for _, p := range r.Profiles {
		if p.Result == ProfileUnsupported {
			v.Unclaimed = append(v.Unclaimed, p.Name)
		} else {
			v.Claimed = append(v.Claimed, p)
		}
	}
	if g := r.Gate; g != nil {
		v.Gate = &markdownGate{G: g, Icon: "❌"}
		if g.Pass {
			v.Gate.Icon = "✅"
		}
		v.Gate.Expired, v.Gate.ExpiredMore = capList(g.Expired, markdownMaxItems)
	}
	return execute(w, markdownTemplate, v, MarkdownFile)
}

// statusIcon marks an overall status in summary.md.
func statusIcon(s ConformanceStatus) string {
	switch s {
	case StatusConformant:
		return "✅"
	case StatusNotConformant:
		return "❌"
	case StatusPartial:
		return "⚠️"
	}
	return "⚪"
}

// appIcon marks an app check's verdict in summary.md.
func appIcon(v AppVerdict) string {
	switch v {
	case AppCompatible:
		return "✅"
	case AppAtRisk:
		return "⚠️"
	}
	return "⚪"
}

// profileIcon marks a profile's result in summary.md.
func profileIcon(s ProfileStatus) string {
	switch s {
	case ProfileSuccess:
		return "✅"
	case ProfileFailure:
		return "❌"
	case ProfilePartial:
		return "⚠️"
	}
	return "—"
}

func capList[T any](list []T, n int) ([]T, int) {
	if len(list) <= n {
		return list, 0
	}
	return list[:n], len(list) - n
}

// failedRequirements lists the failed requirements of r, MUST and SHOULD
// apart, in catalogue order; ids a failure names that the catalogue lacks
// come after, with the failing scenario's strictness.
func failedRequirements(r *Report) (must, should []failedRequirement) {
	reason := map[string]failedRequirement{}
	var order []string
	for _, s := range r.Scenarios {
		for _, id := range FailedRequirements(s) {
			if _, ok := reason[id]; ok {
				continue
			}
			order = append(order, id)
			reason[id] = failedRequirement{
				ID: id, Operation: s.Operation, Kind: string(s.Kind), Strictness: s.Strictness,
				Reason: failureReason(s), Scenario: s.Name,
			}
		}
	}
	seen := map[string]bool{}
	add := func(f failedRequirement) {
		if f.Strictness == Should {
			should = append(should, f)
		} else {
			must = append(must, f)
		}
	}
	for _, q := range r.Requirements {
		f, ok := reason[q.ID]
		if !ok || seen[q.ID] {
			continue
		}
		seen[q.ID] = true
		// A cross-cutting requirement has no operation: keep the one of the
		// scenario that failed it, which is where to look.
		if q.Operation != "" {
			f.Operation = q.Operation
		}
		f.Kind, f.Strictness = string(q.Kind), q.Strictness
		add(f)
	}
	for _, id := range order {
		if !seen[id] {
			seen[id] = true
			add(reason[id])
		}
	}
	return must, should
}

// failureReason says in one line why a scenario failed: "expected X, got
// Y" when the failure says both, its message otherwise.
func failureReason(s Scenario) string {
	f := s.Failure
	if f == nil {
		return "failed"
	}
	var r string
	switch {
	case f.Expected != "" || f.Got != "":
		r = "expected " + oneLine(f.Expected) + ", got " + oneLine(f.Got)
	case f.Message != "":
		r = oneLine(f.Message)
	default:
		r = "failed at step " + oneLine(f.Step)
	}
	return shorten(r, markdownMaxReason)
}

// shorten cuts s to at most n characters, marking the cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return strings.TrimSpace(string(runes[:n-1])) + "…"
}
