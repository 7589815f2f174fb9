package proxy

import (
	"testing"
)

// TestRateLimitedAnswersAreNotJudged: a 429, or a 503 with Retry-After,
// is the target's pace (internal/pace), not an answer to judge: no
// finding, and the checker counts it; a 503 without Retry-After to a
// write is judged as any answer.
func TestRateLimitedAnswersAreNotJudged(t *testing.T) {
	c, fx := testChecker(t)
	limited := 0
	c.limited = func(*Exchange) { limited++ }
	for _, tc := range []struct {
		name        string
		s           step
		retryAfter  string
		wantLimited bool
	}{
		{"429 to a read, a body that is no JSON string", step{method: "GET", path: "/files/" + fixtureFolder + "/downloaded", status: 429, resp: `{"error":"slow down"}`}, "2", true},
		{"429 to a write without Retry-After", step{method: "PUT", path: "/quiz/section", body: `{}`, status: 429, resp: `"slow down"`}, "", true},
		{"503 with Retry-After", step{method: "GET", path: "/files/" + fixtureFolder + "/downloaded", status: 503, resp: `<html>`}, "Wed, 21 Oct 2015 07:28:00 GMT", true},
		{"503 without Retry-After to a write", step{method: "PUT", path: "/quiz/section", body: `{}`, status: 503, resp: `<html>`}, "", false},
	} {
		ex := exchangeOf(fx, tc.s)
		if tc.retryAfter != "" {
			ex.ResponseHeader.Set("Retry-After", tc.retryAfter)
		}
		before := limited
		_, findings := c.check(ex)
		got := limited > before
		if got != tc.wantLimited {
			t.Errorf("%s: expected limited %v, got %v", tc.name, tc.wantLimited, got)
		}
		if got && len(findings) > 0 {
			t.Errorf("%s: expected no finding on a rate-limited answer, got %v", tc.name, findings)
		}
		if !got && len(findings) == 0 {
			t.Errorf("%s: expected the answer judged (an HTML error body breaks ALL.error-body), got no finding", tc.name)
		}
	}
}
