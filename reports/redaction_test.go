package reports

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/campusconf/campusconf/reports/redact"
)

func TestTruncateBody(t *testing.T) {
	pad := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name    string
		in      string
		wantLen int
		wantCut bool
	}{
		{"empty", "", 0, false},
		{"short", "hello", 5, false},
		{"exactly MaxBody", pad(MaxBody), MaxBody, false},
		{"one byte over", pad(MaxBody + 1), MaxBody, true},
		{"two-byte rune across the limit", pad(MaxBody-1) + "ü" + "tail", MaxBody - 1, true},
		{"three-byte rune across the limit", pad(MaxBody-2) + "学" + "tail", MaxBody - 2, true},
		{"four-byte rune across the limit", pad(MaxBody-1) + "😀" + "tail", MaxBody - 1, true},
		{"rune ends at the limit", pad(MaxBody-2) + "ü" + "tail", MaxBody, true},
		{"not UTF-8 at all", strings.Repeat("\xff", MaxBody+10), MaxBody, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := TruncateBody([]byte(tt.in))
			if len(got) != tt.wantLen || cut != tt.wantCut {
				t.Errorf("TruncateBody: got %d bytes, cut %v; want %d bytes, cut %v", len(got), cut, tt.wantLen, tt.wantCut)
			}
			if !strings.HasPrefix(tt.in, got) {
				t.Error("TruncateBody: result is not a prefix of the input")
			}
			if utf8.ValidString(tt.in) && !utf8.ValidString(got) {
				t.Error("TruncateBody: cut a valid body inside a character")
			}
		})
	}
}

// TestReportRedact: the report pass redacts what the run recorded and
// leaves the suite's own ids alone.
func TestReportRedact(t *testing.T) {
	red := redact.With(map[string]string{"s3cr3t": "<KEY>"})
	rep := &Report{
		Reason: "target unreachable: s3cr3t",
		Scenarios: []Scenario{{
			ID: "a: s3cr3t", Requirements: []string{"E1.s3cr3t"},
			Failure:   &Failure{Requirements: []string{"E1.s3cr3t"}, Message: "got s3cr3t", Expected: "s3cr3t", Got: "czNjcjN0", Curl: "curl -H 'X: s3cr3t'"},
			Exchanges: []Exchange{{URL: "/x?k=s3cr3t", ResponseHeaders: map[string]string{"X-s3cr3t": "s3cr3t"}, ResponseBody: `"s3cr3t"`, Error: "s3cr3t"}},
		}},
	}
	rep.Redact(red)
	b, _ := json.Marshal(rep)
	if got, want := strings.Count(string(b), "s3cr3t"), 3; got != want {
		t.Errorf("expected the secret only in the suite's ids (%d times), got it %d times: %s", want, got, b)
	}
}
