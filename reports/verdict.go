package reports

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Verdict is the one word a run concludes with: the console, summary.md,
// report.html, report.json, junit.xml, ctrf.json, conformance-report.yaml,
// the badge, the Action's output and the exit code all give it
// (VerdictRules). The set is closed.
type Verdict string

// Verdicts of a run, from best to worst.
const (
	// VerdictConformant: every claimed profile's scenarios ran in a run of
	// the whole suite and none failed.
	VerdictConformant Verdict = "conformant"
	// VerdictWarnings: no MUST requirement failed, but a SHOULD one did, or
	// a MUST failure the baseline excuses.
	VerdictWarnings Verdict = "conformant with warnings"
	// VerdictPartial: no MUST requirement failed, but part of the suite was
	// not judged: a selection (--tags, --read-only, live traffic), or
	// scenarios skipped, not configured or errored. The reason says what.
	VerdictPartial Verdict = "partial"
	// VerdictNotConformant: a MUST requirement failed (one the baseline
	// does not excuse), or --strict counted a scenario that judged nothing.
	VerdictNotConformant Verdict = "not conformant"
	// VerdictInconclusive: the run says nothing of conformance; its
	// InconclusiveCause says why.
	VerdictInconclusive Verdict = "inconclusive"
)

// Verdicts is the closed set of verdicts, from best to worst.
var Verdicts = []Verdict{VerdictConformant, VerdictWarnings, VerdictPartial, VerdictNotConformant, VerdictInconclusive}

// InconclusiveCause says why a run is inconclusive. The set is closed.
type InconclusiveCause string

// Causes of an inconclusive run.
const (
	// InconclusiveSetup: the fixture does not fit the target (a check
	// before the suite, or a symptom of the run: SetupSymptoms); what the
	// scenarios saw is the setup's doing, not the implementation's.
	InconclusiveSetup InconclusiveCause = "setup"
	// InconclusiveUnreachable: nothing ran, the target could not be
	// reached (or its container did not start).
	InconclusiveUnreachable InconclusiveCause = "target unreachable"
	// InconclusiveStopped: the target stopped answering during the run.
	InconclusiveStopped InconclusiveCause = "target stopped answering"
	// InconclusiveCutShort: a signal or the --budget cut the run short.
	InconclusiveCutShort InconclusiveCause = "cut short"
	// InconclusiveNothingJudged: every scenario was skipped, not
	// configured, unsupported or errored.
	InconclusiveNothingJudged InconclusiveCause = "nothing judged"
)

// InconclusiveCauses is the closed set of causes, in the order they win.
var InconclusiveCauses = []InconclusiveCause{InconclusiveSetup, InconclusiveUnreachable, InconclusiveStopped, InconclusiveCutShort, InconclusiveNothingJudged}

// Exit codes of a run, by verdict (VerdictRule.Exit).
const (
	// ExitPass: conformant, with warnings or partial.
	ExitPass = 0
	// ExitFail: not conformant; also inconclusive because the run was
	// cut short or judged nothing (a gate must not pass on it).
	ExitFail = 1
	// ExitSetup: inconclusive (setup), the same code as a usage error:
	// the run's configuration is to be fixed.
	ExitSetup = 2
	// ExitUnfinished: inconclusive because the target was unreachable or
	// stopped answering.
	ExitUnfinished = 3
)

// VerdictRule is one row of the verdict table: a verdict (and cause), when
// it holds, and the exit code it gives. VerdictRules lists them in the
// order they win: the first that holds is the run's.
type VerdictRule struct {
	Verdict Verdict
	Cause   InconclusiveCause
	Exit    int
	When    string
}

// VerdictRules is the verdict table, in the order the rules win, as
// docs/reports.md shows it (a test holds the page to it).
var VerdictRules = []VerdictRule{
	{VerdictInconclusive, InconclusiveSetup, ExitSetup, "a check before the suite found a setup mistake, or the run shows one's symptoms (it wins over failures, which it explains)"},
	{VerdictInconclusive, InconclusiveUnreachable, ExitUnfinished, "nothing ran: the target could not be reached"},
	{VerdictNotConformant, "", ExitFail, "a MUST requirement failed that the baseline does not excuse (it wins over a run stopped or cut short: what was seen stands)"},
	{VerdictInconclusive, InconclusiveStopped, ExitUnfinished, "the target stopped answering during the run"},
	{VerdictInconclusive, InconclusiveCutShort, ExitFail, "a signal or --budget cut the run short before every scenario finished"},
	{VerdictNotConformant, "", ExitFail, "--strict: a scenario judged nothing (skipped, not configured, errored)"},
	{VerdictInconclusive, InconclusiveNothingJudged, ExitFail, "no scenario passed or failed"},
	{VerdictPartial, "", ExitPass, "a selection of the suite (--tags, --read-only, live traffic), or scenarios of a claimed profile skipped, not configured or errored"},
	{VerdictWarnings, "", ExitPass, "a SHOULD requirement failed, or a MUST failure the baseline excuses"},
	{VerdictConformant, "", ExitPass, "otherwise: the whole suite ran for every claimed profile and nothing failed"},
}

// VerdictTableMarkdown is the verdict table as docs/reports.md shows it:
// one row per rule of VerdictRules, in the order they win.
func VerdictTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| verdict | exit code | when (the first row that holds wins) |\n|---|---|---|\n")
	for _, r := range VerdictRules {
		fmt.Fprintf(&b, "| %s | %d | %s |\n", Word(r.Verdict, r.Cause), r.Exit, r.When)
	}
	return b.String()
}

// ExitCode is the exit code of verdict v with cause c (VerdictRules).
func ExitCode(v Verdict, c InconclusiveCause) int {
	for _, rule := range VerdictRules {
		if rule.Verdict == v && (v != VerdictInconclusive || rule.Cause == c) {
			return rule.Exit
		}
	}
	return ExitFail
}

// ExitCode is the exit code of r's verdict. r should be finalized.
func (r *Report) ExitCode() int { return ExitCode(r.Verdict, r.VerdictCause) }

// Word is the verdict as every output writes it: "inconclusive (setup)"
// for an inconclusive one, the verdict itself otherwise.
func Word(v Verdict, c InconclusiveCause) string {
	if v == VerdictInconclusive && c != "" {
		return string(v) + " (" + string(c) + ")"
	}
	return string(v)
}

// verdictHeadline is how the reports title a verdict.
func verdictHeadline(v Verdict, c InconclusiveCause) string {
	w := Word(v, c)
	if w == "" {
		return "No verdict"
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// Headline is the verdict with its reason in one line, as the console,
// summary.md, report.html and junit.xml all give it: "Not conformant: 2
// scenarios not configured (--strict)", "Conformant with warnings except
// 1 known failure (baseline)", "Inconclusive (target stopped answering):
// the target stopped answering after 12s …". r should be finalized.
func Headline(r *Report) string {
	h := verdictHeadline(r.Verdict, r.VerdictCause)
	switch {
	case r.VerdictReason == "":
		return h
	case strings.HasPrefix(r.VerdictReason, "except "):
		return h + " " + r.VerdictReason
	}
	return h + ": " + r.VerdictReason
}

// verdictFacts are what the verdict rule reads, from a report (factsOf) or
// from a conformance report (conformanceFacts): each non-empty member is a
// rule of VerdictRules that holds, with the phrases saying why.
type verdictFacts struct {
	setup       []string
	unreachable string
	failed      []string // MUST failures that count
	stopped     string
	cutShort    string
	strict      string
	judged      bool
	nothingWhy  string
	partial     []string
	warnings    []string
	claimed     []string // a conformance report's claimed profiles
}

// judge is the one verdict rule (VerdictRules): the first that holds, its
// cause and its reason.
func judge(f verdictFacts) (Verdict, InconclusiveCause, string) {
	switch {
	case len(f.setup) > 0:
		return VerdictInconclusive, InconclusiveSetup, strings.Join(f.setup, "; ")
	case f.unreachable != "":
		return VerdictInconclusive, InconclusiveUnreachable, f.unreachable
	case len(f.failed) > 0:
		why := slices.Clone(f.failed)
		if f.strict != "" {
			why = append(why, f.strict)
		}
		return VerdictNotConformant, "", strings.Join(why, "; ")
	case f.stopped != "":
		return VerdictInconclusive, InconclusiveStopped, f.stopped
	case f.cutShort != "":
		return VerdictInconclusive, InconclusiveCutShort, f.cutShort
	case f.strict != "":
		return VerdictNotConformant, "", f.strict
	case !f.judged:
		return VerdictInconclusive, InconclusiveNothingJudged, f.nothingWhy
	case len(f.partial) > 0:
		return VerdictPartial, "", strings.Join(append(slices.Clone(f.partial), f.warnings...), "; ")
	case len(f.warnings) > 0:
		return VerdictWarnings, "", strings.Join(f.warnings, "; ")
	}
	return VerdictConformant, "", ""
}

// factsOf are the verdict facts of a report whose counts and profiles are
// computed; ran counts the scenarios that passed or failed.
func factsOf(r *Report, ran int) verdictFacts {
	c := r.Counts
	f := verdictFacts{setup: r.Setup, judged: ran > 0}
	if ran == 0 && r.Reason != "" && r.Stopped == nil {
		f.unreachable = strings.TrimPrefix(r.Reason, "target unreachable: ")
	}
	if st := r.Stopped; st != nil {
		f.stopped = fmt.Sprintf("the target stopped answering after %s (%s since %s); %s, %s not finished",
			time.Duration(st.After).Round(time.Second), st.Why, st.Since.UTC().Format("15:04:05 UTC"),
			errored(c.Errored), plural(c.SkippedBy.CutShort, "scenario", "scenarios"))
	}
	if r.Interrupted && c.SkippedBy.CutShort > 0 {
		f.cutShort = "the run was cut short, " + plural(c.SkippedBy.CutShort, "scenario", "scenarios") + " not finished"
	}
	switch g := r.Gate; {
	case g != nil && !g.Pass:
		if len(g.NewMust) > 0 {
			f.failed = append(f.failed, plural(len(g.NewMust), "failed MUST requirement", "failed MUST requirements")+" not in the baseline")
		}
		if len(g.ExpiredMust) > 0 {
			f.failed = append(f.failed, plural(len(g.ExpiredMust), "failed MUST requirement", "failed MUST requirements")+" whose baseline entry expired")
		}
	case g != nil:
		if n := len(g.Known); n > 0 {
			f.warnings = append(f.warnings, "except "+plural(n, "known failure", "known failures")+" (baseline)")
		}
	case c.FailedMust > 0:
		must, _ := failedRequirements(r)
		f.failed = append(f.failed, plural(len(must), "failed MUST requirement", "failed MUST requirements"))
	}
	if _, should := failedRequirements(r); len(should) > 0 {
		f.warnings = append(f.warnings, plural(len(should), "failed SHOULD requirement", "failed SHOULD requirements"))
	}
	if r.Strict && c.StrictCounted > 0 {
		f.strict = strictGaps(c) + " (--strict)"
	}
	if c.Errored > 0 {
		f.nothingWhy = "nothing was judged: " + errored(c.Errored) + ", the rest skipped, not configured or unsupported"
	} else {
		f.nothingWhy = "every scenario was skipped, not configured or unsupported"
	}
	var claimed []ProfileResult
	for _, p := range r.Profiles {
		if r.Claims(p.Name) {
			claimed = append(claimed, p)
		}
	}
	f.partial = partialProfiles(claimed, modeName(r.Mode), r.Mode.Tags)
	if len(f.partial) == 0 && c.Errored > 0 {
		f.partial = append(f.partial, errored(c.Errored)+" (no HTTP answer), judged on the rest")
	}
	f.partial = append(f.partial, modePartial(modeName(r.Mode), r.Mode.Tags)...)
	return f
}

// partialProfiles says which claimed profiles make a run partial: those
// with scenarios skipped, not configured or errored, and in a run of the
// whole suite those with no scenario judged (in a selection, the
// selection says it).
func partialProfiles(claimed []ProfileResult, mode, tags string) []string {
	var gaps, none []string
	for _, p := range claimed {
		switch {
		case p.Result != ProfilePartial && p.Result != ProfileFailure:
		case p.Counts.Skipped > 0 || p.Counts.NotConfigured > 0:
			gaps = append(gaps, p.Name)
		case p.Result == ProfileFailure:
		case p.Counts.Passed+p.Counts.Failed > 0:
			gaps = append(gaps, p.Name)
		case mode == ModeFull && tags == "":
			none = append(none, p.Name)
		}
	}
	var why []string
	if len(gaps) > 0 {
		why = append(why, profilesPhrase(gaps)+" had scenarios skipped, not configured or errored")
	}
	if len(none) > 0 {
		why = append(why, profilesPhrase(none)+" had no scenario judged")
	}
	return why
}

// modePartial says why a run's mode and tag selection make it partial.
func modePartial(mode, tags string) []string {
	var why []string
	switch mode {
	case ModeReadOnly:
		why = append(why, "the run was read-only")
	case ModeTraffic:
		why = append(why, "judged on live traffic, not the whole suite")
	case ModeFull:
	default:
		why = append(why, fmt.Sprintf("mode %q is not a run of the whole suite", mode))
	}
	if tags != "" {
		why = append(why, "the run selected scenarios (tags "+tags+")")
	}
	return why
}

// decide sets the verdict of a report whose counts and profiles are
// computed, by the one rule (judge).
func decide(r *Report, ran int) (Verdict, InconclusiveCause, string) {
	return judge(factsOf(r, ran))
}

// verdictIcon is the mark summary.md and the diff put before a verdict.
func verdictIcon(v Verdict) string {
	switch v {
	case VerdictConformant:
		return "✅"
	case VerdictWarnings:
		return "⚠️"
	case VerdictPartial:
		return "◐"
	case VerdictNotConformant:
		return "❌"
	case VerdictInconclusive:
		return "⛔"
	}
	return "⚪"
}

// verdictClass is report.html's class of a verdict: ok, none or bad.
func verdictClass(v Verdict) string {
	switch v {
	case VerdictConformant, VerdictWarnings:
		return "ok"
	case VerdictNotConformant, VerdictInconclusive:
		return "bad"
	}
	return "none"
}

// upgradeVerdict brings the verdict of a report of schema version 1 or 2
// to the current words: "no scenarios", "target unreachable" and "error"
// were inconclusive runs.
func upgradeVerdict(r *Report) error {
	switch r.Verdict {
	case "no scenarios":
		r.Verdict, r.VerdictCause = VerdictInconclusive, InconclusiveNothingJudged
	case "target unreachable":
		r.Verdict, r.VerdictCause = VerdictInconclusive, InconclusiveUnreachable
	case "error":
		r.Verdict, r.VerdictCause = VerdictInconclusive, InconclusiveStopped
	}
	return nil
}
