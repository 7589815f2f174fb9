package reports

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestHTMLSelfContained checks the page can fetch nothing: no external
// script, style, image, font or link, and a CSP that forbids fetches.
func TestHTMLSelfContained(t *testing.T) {
	page := rendered(t, WriteHTML, sampleReport())
	tests := []struct {
		name string
		re   string
	}{
		{"src attribute", `(?i)\ssrc\s*=`},
		{"stylesheet link", `(?i)<link\b`},
		{"CSS import", `(?i)@import`},
		{"CSS url()", `(?i)url\(`},
		{"font face", `(?i)@font-face`},
		{"href outside the page", `(?i)href\s*=\s*"(?:[a-z][a-z0-9+.-]*:|//)`},
		{"fetch or XHR", `\bfetch\(|XMLHttpRequest|import\(`},
		{"iframe, object or embed", `(?i)<(iframe|object|embed)\b`},
	}
	for _, tt := range tests {
		if m := regexp.MustCompile(tt.re).FindString(page); m != "" {
			t.Errorf("report.html has a %s: %q", tt.name, m)
		}
	}
	if !strings.Contains(page, `http-equiv="Content-Security-Policy" content="default-src 'none';`) {
		t.Error("report.html lacks the Content-Security-Policy that forbids fetches")
	}
}

func TestHTMLContent(t *testing.T) {
	r := sampleReport()
	page := rendered(t, WriteHTML, r)
	tests := []struct {
		name string
		want string
	}{
		{"verdict", `data-verdict="not conformant"`},
		{"counts", `id="count-failed" data-count="4"`},
		{"coverage", `id="count-requirements-covered" data-count="10"`},
		{"errored count", `id="count-errored" data-count="1"`},
		{"flaky count", `id="count-flaky" data-count="1"`},
		{"flaky pill", `class="pill o-flaky"`},
		{"error card", `class="failure sev-xerror filterable"`},
		{"read-only note", `id="read-only"`},
		{"skip cause", `runner-limit: the answer of E16`},
		{"headline with its reason", `<div class="verdict-word">Not conformant: 1 failed MUST requirement not in the baseline; 1 failed MUST requirement whose baseline entry expired</div>`},
		{"matrix", `id="matrix"`},
		{"outcome filter", `data-filter-outcome="failed"`},
		{"operation filter", `<option value="E9">E9</option>`},
		{"curl with copy button", `data-copy="curl-`},
		{"open points", `id="open-points"`},
		{"escaped script from a response", `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`},
		{"unicode as is", `Ünïcødé – 日本語`},
		{"placeholder, escaped", `Bearer &lt;TOKEN_staff&gt;`},
		{"cut body marked", `cut at 16 KiB`},
		{"transport error", `no response`},
	}
	for _, tt := range tests {
		if !strings.Contains(page, tt.want) {
			t.Errorf("report.html lacks the %s: %q", tt.name, tt.want)
		}
	}
	for _, leak := range []string{sampleKey, sampleStaffToken, sampleOwnerToken, `<script>alert("x")`} {
		if strings.Contains(page, leak) {
			t.Errorf("report.html contains %q", leak)
		}
	}
	// The failures come first: before the matrix' neighbours below it and
	// before the full scenario list, MUST before SHOULD.
	idx := func(s string) int { return strings.Index(page, s) }
	if !(idx(`id="verdict"`) < idx(`id="failures"`) && idx(`id="failures"`) < idx(`id="scenarios"`) && idx(`id="scenarios"`) < idx(`id="requirements"`)) {
		t.Error("report.html section order: want verdict, failures, scenarios, requirements")
	}
	if must, should := idx(`failure sev-must`), idx(`failure sev-should`); must < 0 || should < 0 || must > should {
		t.Errorf("MUST failures must come before SHOULD ones (must at %d, should at %d)", must, should)
	}
}

func TestHTMLVerdicts(t *testing.T) {
	tests := []struct {
		name      string
		scenarios []Scenario
		want      string
	}{
		{"no scenarios", nil, "Inconclusive (nothing judged)"},
		{"conformant", []Scenario{{ID: "a", Operation: "E1", Kind: "status", Outcome: Passed}}, "Conformant"},
		{"not conformant", []Scenario{{ID: "a", Operation: "E1", Kind: "status", Strictness: Must, Outcome: Failed}}, "Not conformant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Scenarios: tt.scenarios, Implements: []string{"second-factor"}}
			Finalize(r)
			page := rendered(t, WriteHTML, r)
			if !strings.Contains(page, `<div class="verdict-word">`+tt.want) {
				t.Errorf("verdict %q not shown", tt.want)
			}
		})
	}
}

func TestMatrixCells(t *testing.T) {
	r := sampleReport()
	strict := map[string]Strictness{}
	for _, q := range r.Requirements {
		strict[q.ID] = q.Strictness
	}
	kinds, ops, rows := buildMatrix(r, strict)
	cell := func(kind Kind, op string) matrixCell {
		for i, k := range kinds {
			if k != kind {
				continue
			}
			for j, o := range ops {
				if o == op {
					return rows[i].Cells[j]
				}
			}
		}
		t.Fatalf("no cell %s × %s", op, kind)
		return matrixCell{}
	}
	tests := []struct {
		kind      Kind
		op        string
		wantClass string
		wantText  string
	}{
		{"status", "E1", "pass", "1/1"},
		{"permission", "E5", "fail-must", "0/1"},
		{"query", "E17", "fail-should", "0/1"},
		{"status", "E13", "skip", "skip"},
		{"default", "GB", "skip", "skip"},
		{"enum-range", "E9", "pass", "2/2"},
		{"error-form", "", "fail-must", "0/1*"},
		{"status", "E4", "empty", ""},
	}
	for _, tt := range tests {
		c := cell(tt.kind, tt.op)
		if c.Class != tt.wantClass || c.Text != tt.wantText {
			t.Errorf("cell %q × %s: got %s %q, want %s %q", tt.op, tt.kind, c.Class, c.Text, tt.wantClass, tt.wantText)
		}
	}
	// The columns are the operations the report speaks of, in order.
	seen := map[string]bool{}
	var want []string
	for _, s := range r.Scenarios {
		if !seen[s.Operation] {
			seen[s.Operation] = true
			want = append(want, s.Operation)
		}
	}
	for _, q := range r.Requirements {
		if !seen[q.Operation] {
			seen[q.Operation] = true
			want = append(want, q.Operation)
		}
	}
	slices.SortFunc(want, CompareOperations)
	if !slices.Equal(ops, want) {
		t.Errorf("matrix operations: got %q, want %q (those the report speaks of)", ops, want)
	}
}
