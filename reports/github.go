package reports

import (
	"fmt"
	"slices"
	"strings"
)

// MaxAnnotations bounds the annotations GitHubAnnotations writes: GitHub
// shows at most 50 of a kind per step anyway, and a flood hides the rest.
const MaxAnnotations = 50

// FailedMust returns the ids of the MUST requirements r fails that its
// baseline does not excuse (all of them when r had no baseline): those
// that decide a gated run's verdict.
func FailedMust(r *Report) []string {
	if r.Gate != nil {
		out := slices.Concat(r.Gate.NewMust, r.Gate.ExpiredMust)
		slices.Sort(out)
		return slices.Compact(out)
	}
	var out []string
	for _, q := range r.Requirements {
		if q.Result == ResultFailed && q.Strictness == Must {
			out = append(out, q.ID)
		}
	}
	return out
}

// GitHubAnnotations returns the workflow commands that annotate a run of
// the GitHub Action: "::error" for each failed MUST requirement the
// baseline does not excuse, "::warning" for each failed SHOULD one (and
// each excused MUST one), titled with the requirement id and saying what
// the first failing scenario found, at most max in all (MUST first), with
// a last warning counting those left out. The feature files are embedded
// in the binary, so the annotations name no file.
func GitHubAnnotations(r *Report, max int) []string {
	blocking := map[string]bool{}
	for _, id := range FailedMust(r) {
		blocking[id] = true
	}
	type note struct {
		level, title, msg string
	}
	var errs, warns []note
	for _, q := range r.Requirements {
		if q.Result != ResultFailed {
			continue
		}
		msg := fmt.Sprintf("%s %s (%s): %s", q.Strictness, q.ID, q.Section, q.Text)
		if s, f := firstFailure(r, q.ID); f != nil {
			msg += "\nScenario " + s.Name + ": " + f.Message
		}
		switch {
		case blocking[q.ID]:
			errs = append(errs, note{"error", q.ID, msg})
		case q.Strictness == Must:
			warns = append(warns, note{"warning", q.ID, msg + "\n(excused by the baseline)"})
		default:
			warns = append(warns, note{"warning", q.ID, msg})
		}
	}
	all := slices.Concat(errs, warns)
	var out []string
	for i, n := range all {
		if i == max-1 && len(all) > max {
			out = append(out, fmt.Sprintf("::warning title=%s::%d more failed requirements are not annotated: see the job summary and report.html",
				escapeProperty("campusconf"), len(all)-i))
			break
		}
		out = append(out, "::"+n.level+" title="+escapeProperty(n.title)+"::"+escapeData(n.msg))
	}
	return out
}

// firstFailure is the first scenario of r that fails naming requirement
// id, and its failure.
func firstFailure(r *Report, id string) (*Scenario, *Failure) {
	for i, s := range r.Scenarios {
		if f := s.Failure; f != nil && slices.Contains(f.Requirements, id) {
			return &r.Scenarios[i], f
		}
	}
	return nil, nil
}

// escapeData escapes a workflow command's message, as the runner's
// toolkit does: %, CR and LF; the runner turns them back.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: also : and ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
