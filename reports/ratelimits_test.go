package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRateLimitsInEveryReport: the figures of a rate-limited run are in
// report.json, junit.xml, ctrf.json, summary.md and report.html.
func TestRateLimitsInEveryReport(t *testing.T) {
	r := sampleReport()
	r.RateLimits = &RateLimits{Answers: 7, Requests: 410, Waited: Duration(3 * time.Second), Rate: "50/s"}
	dir := t.TempDir()
	if _, err := WriteAll(dir, r); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"report.json": `"rateLimits"`,
		"junit.xml":   "7 rate-limited answers (of 410 requests) waited out, 3s spent waiting, requests capped at 50/s",
		"ctrf.json":   `"rateLimits"`,
		"summary.md":  "**Rate limits:** 7 rate-limited answers",
		"report.html": `id="rate-limits"`,
	}
	for name, s := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.Contains(string(b), s) {
			t.Errorf("%s: expected %q in it, got none", name, s)
		}
	}
	back, err := ReadJSON(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if back.RateLimits == nil || *back.RateLimits != *r.RateLimits {
		t.Errorf("report.json read back: expected %+v, got %+v", r.RateLimits, back.RateLimits)
	}
	if got := (&RateLimits{Answers: 1}).String(); got != "1 rate-limited answer forwarded, not judged" {
		t.Errorf("the proxy's figures: expected %q, got %q", "1 rate-limited answer forwarded, not judged", got)
	}
}

// TestRateLimitsMatchSchema: a report with rate-limit figures matches
// report.schema.json, and a negative count does not.
func TestRateLimitsMatchSchema(t *testing.T) {
	sch := compileSchema(t)
	r := sampleReport()
	Finalize(r)
	for _, c := range []struct {
		name    string
		answers int
		ok      bool
	}{{"as written", 3, true}, {"a negative count", -1, false}} {
		r.RateLimits = &RateLimits{Answers: c.answers, Requests: 10, Waited: Duration(time.Second)}
		if err := schemaError(t, sch, written(t, WriteJSON, r)); (err == nil) != c.ok {
			t.Errorf("%s: validation error %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
