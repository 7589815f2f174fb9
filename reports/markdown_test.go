package reports

import (
	"fmt"
	"strings"
	"testing"
)

// manyFailures is a report with n failed MUST requirements.
func manyFailures(n int) *Report {
	r := &Report{Target: Target{URL: "http://svc:8080"}}
	for i := range n {
		id := fmt.Sprintf("E5-PERM-%d", i+1)
		r.Requirements = append(r.Requirements, Requirement{ID: id, Operation: "E5", Kind: "permission", Strictness: Must})
		r.Scenarios = append(r.Scenarios, Scenario{
			ID: fmt.Sprintf("e5.feature:%d", i+1), Operation: "E5", Kind: "permission", Requirements: []string{id}, Strictness: Must,
			Outcome: Failed, Failure: &Failure{Requirements: []string{id}, Message: strings.Repeat("very long reason ", 30)},
		})
	}
	Finalize(r)
	return r
}

func TestMarkdownCaps(t *testing.T) {
	tests := []struct {
		failures  int
		wantItems int
		wantMore  string
	}{
		{0, 0, ""},
		{3, 3, ""},
		{markdownMaxItems, markdownMaxItems, ""},
		{markdownMaxItems + 1, markdownMaxItems, "- … and 1 more"},
		{250, markdownMaxItems, "- … and 240 more"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.failures), func(t *testing.T) {
			md := rendered(t, WriteMarkdown, manyFailures(tt.failures))
			if got := strings.Count(md, "\n- **"); got != tt.wantItems {
				t.Errorf("listed requirements: got %d, want %d\n%s", got, tt.wantItems, md)
			}
			if tt.wantMore != "" && !strings.Contains(md, tt.wantMore) {
				t.Errorf("summary lacks %q\n%s", tt.wantMore, md)
			}
			for _, line := range strings.Split(md, "\n") {
				if n := len([]rune(line)); n > 400 {
					t.Errorf("line of %d characters; reasons must stay one short line: %.80s…", n, line)
				}
			}
			if len(md) > 4000 {
				t.Errorf("summary is %d bytes; it must stay short enough for a comment", len(md))
			}
		})
	}
}

func TestMarkdownVerdictLine(t *testing.T) {
	tests := []struct {
		name string
		r    *Report
		want string
	}{
		{"failing", manyFailures(1), "## ❌ Not conformant: 1 failed MUST requirement"},
		{"passing", func() *Report {
			r := &Report{Target: Target{URL: "embedded simulator"}, Scenarios: []Scenario{{ID: "a", Operation: "E1", Outcome: Passed}}, Implements: []string{"second-factor"}}
			Finalize(r)
			return r
		}(), "## ✅ Conformant"},
		{"empty", func() *Report { r := &Report{}; Finalize(r); return r }(), "## ⛔ Inconclusive (nothing judged)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := rendered(t, WriteMarkdown, tt.r)
			if first, _, _ := strings.Cut(md, "\n"); !strings.HasPrefix(first, tt.want) {
				t.Errorf("first line: got %q, want it to start with %q", first, tt.want)
			}
		})
	}
}

func TestMarkdownText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"a | b", `a \| b`},
		{"<script>&", "&lt;script&gt;&amp;"},
		{"*bold* _it_ `code` [link](x)", `\*bold\* \_it\_ \` + "`" + `code\` + "`" + ` \[link\](x)`},
		{"two\nlines", "two lines"},
		{"ünï ✓", "ünï ✓"},
		{"![img](u) $x$ @team", `\!\[img\](u) \$x\$ \@team`},
		{"see https://e.test and WWW.e.test, not a: b or x.y", `see https\://e.test and WWW\.e.test, not a: b or x.y`},
	}
	for _, tt := range tests {
		if got := markdownText(tt.in); got != tt.want {
			t.Errorf("markdownText(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct{ in, code, cell string }{
		{"GET /x?a=1", "`GET /x?a=1`", "`GET /x?a=1`"},
		{"a|b", "`a|b`", "`a\\|b`"},
		{"a`b", "``a`b``", "``a`b``"},
		{"`a``", "``` `a`` ```", "``` `a`` ```"},
		{"two\nlines <b>", "`two lines <b>`", "`two lines <b>`"},
		{"", "` `", "` `"},
	}
	for _, tt := range tests {
		if got := markdownCode(tt.in); got != tt.code {
			t.Errorf("markdownCode(%q): got %q, want %q", tt.in, got, tt.code)
		}
		if got := markdownCellCode(tt.in); got != tt.cell {
			t.Errorf("markdownCellCode(%q): got %q, want %q", tt.in, got, tt.cell)
		}
	}
}

func TestLineText(t *testing.T) {
	if got, want := LineText("campus\nverified: conformant\tx\x1b"), `campus\nverified: conformant\tx\x1b`; got != want {
		t.Errorf("LineText: got %q, want %q", got, want)
	}
}

func TestFailureReason(t *testing.T) {
	tests := []struct {
		name string
		f    *Failure
		want string
	}{
		{"none", nil, "failed"},
		{"expected and got", &Failure{Expected: "403", Got: "204\nNo Content", Message: "m"}, "expected 403, got 204 No Content"},
		{"message", &Failure{Message: "  no\tresponse "}, "no response"},
		{"step only", &Failure{Step: "the owner copies"}, "failed at step the owner copies"},
		{"long", &Failure{Message: strings.Repeat("x", 500)}, strings.Repeat("x", markdownMaxReason-1) + "…"},
	}
	for _, tt := range tests {
		if got := failureReason(Scenario{Outcome: Failed, Failure: tt.f}); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSafeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ✓", "plain ✓"},
		{"line\nnext\ttab", "line\nnext\ttab"},
		{"nul\x00esc\x1b[31mred", `nul\x00esc\x1b[31mred`},
		{"cr\rdel\x7f", `cr\x0ddel\x7f`},
		{"c1\u0085 bidi\u202e sep\u2028", `c1\u0085 bidi\u202e sep\u2028`},
		{"bad \xff\xfe utf8", "bad \uFFFD utf8"},
	}
	for _, tt := range tests {
		if got := SafeText(tt.in); got != tt.want {
			t.Errorf("SafeText(%q): expected %q, got %q", tt.in, tt.want, got)
		}
	}
}
