package reports

import (
	"fmt"
	"strings"
	"testing"
)

// TestGitHubAnnotations: an error per blocking MUST failure, a warning per
// SHOULD failure and excused MUST one, MUST first, at most max with a last
// line counting the rest, and the messages escaped so that a target's
// text cannot start a workflow command of its own.
func TestGitHubAnnotations(t *testing.T) {
	r := &Report{
		Requirements: []Requirement{
			{ID: "A.should", Strictness: Should, Section: "1", Text: "t", Result: ResultFailed},
			{ID: "B.must", Strictness: Must, Section: "2", Text: "t", Result: ResultFailed},
			{ID: "C.passed", Strictness: Must, Result: ResultPassed},
			{ID: "D.excused", Strictness: Must, Section: "3", Text: "t", Result: ResultFailed},
		},
		Scenarios: []Scenario{{Name: "s1", Failure: &Failure{Requirements: []string{"B.must"}, Message: "got 100%\n::set-env name=X::y"}}},
		Gate:      &GateResult{NewMust: []string{"B.must"}, Known: []string{"D.excused"}},
	}
	got := GitHubAnnotations(r, 50)
	want := []string{
		"::error title=B.must::MUST B.must (2): t%0AScenario s1: got 100%25%0A::set-env name=X::y",
		"::warning title=A.should::SHOULD A.should (1): t",
		"::warning title=D.excused::MUST D.excused (3): t%0A(excused by the baseline)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("GitHubAnnotations: expected\n%s\ngot\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	if got := FailedMust(r); len(got) != 1 || got[0] != "B.must" {
		t.Errorf("FailedMust: expected [B.must], got %v", got)
	}
	r.Gate = nil
	if got := FailedMust(r); len(got) != 2 {
		t.Errorf("FailedMust without a baseline: expected [B.must D.excused], got %v", got)
	}
	var many Report
	for i := range 60 {
		many.Requirements = append(many.Requirements, Requirement{ID: fmt.Sprintf("R%02d", i), Strictness: Must, Result: ResultFailed})
	}
	got = GitHubAnnotations(&many, MaxAnnotations)
	if len(got) != MaxAnnotations || !strings.HasPrefix(got[len(got)-1], "::warning title=campusconf::11 more failed requirements") {
		t.Errorf("60 failures: expected %d annotations, the last counting 11 more, got %d, last %q", MaxAnnotations, len(got), got[len(got)-1])
	}
}
