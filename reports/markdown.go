package reports

import (
	"fmt"
	"io"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"
)

// Caps that keep summary.md short enough for a pull-request comment or a
// CI step summary.
const (
	markdownMaxItems  = 10
	markdownMaxReason = 160
)

var markdownTemplate = template.Must(template.New("summary.md.tmpl").Funcs(template.FuncMap{
	"md":   markdownText,
	"ms":   formatMillis,
	"pct":  percent,
	"join": func(ids []string) string { return strings.Join(ids, ", ") },
	"some": func(ids []string) string {
		shown, more := capList(ids, markdownMaxItems)
		s := strings.Join(shown, ", ")
		if more > 0 {
			s += fmt.Sprintf(" … and %d more", more)
		}
		return s
	},
	"code":  markdownCode,
	"picon": profileIcon,
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
	Gate        *markdownGate
	// Conformance is the conformance report: its status heads the profile
	// table, whose rows are the claimed profiles; Unclaimed names the rest.
	Conformance ConformanceReport
	StatusIcon  string
	Claimed     []ProfileResult
	Unclaimed   []string
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
	v := markdownView{R: r, Headline: verdictHeadline(r.Verdict)}
	switch r.Verdict {
	case VerdictConformant:
		v.Icon = "✅"
	case VerdictNotConformant:
		v.Icon = "❌"
	case VerdictUnreachable:
		v.Icon = "⛔"
	default:
		v.Icon = "⚪"
	}
	if r.Interrupted {
		v.Headline += " (interrupted)"
	}
	must, should := failedRequirements(r)
	v.MustTotal, v.ShouldTotal = len(must), len(should)
	v.Must, v.MustMore = capList(must, markdownMaxItems)
	v.Should, v.ShouldMore = capList(should, markdownMaxItems/2)
	v.Gaps, v.GapsMore = capList(Gaps(r), markdownMaxItems)
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

// markdownCode writes s as one line of inline code, safe for Markdown.
func markdownCode(s string) string {
	return "`" + strings.ReplaceAll(SafeText(oneLine(s)), "`", "'") + "`"
}

// markdownText makes s safe as inline Markdown text in a table cell or a
// list item: one line, no markup, HTML-special characters as entities
// (GitHub renders raw HTML in comments).
func markdownText(s string) string {
	s = SafeText(oneLine(s))
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '|':
			b.WriteString(`\|`)
		case '\\', '`', '*', '_', '[', ']', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// SafeText makes text from a target safe for a terminal, a CI log or a
// Markdown page: invalid UTF-8 becomes U+FFFD and every control character
// but newline and tab (NUL, ESC, a carriage return that would overwrite
// the line, DEL, the C1 codes, bidirectional overrides, line and paragraph
// separators) is written as a Go escape such as \x1b, so that no byte from
// the target can move the cursor, change colours or hide text.
func SafeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, isUnsafeControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isUnsafeControl(r):
			b.WriteRune(r)
		case r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func isUnsafeControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.In(r, unicode.Bidi_Control))
}
