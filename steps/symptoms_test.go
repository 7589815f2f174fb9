package steps

import (
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
)

// TestSetupSymptoms holds each rule of setupSymptoms: what makes a run's
// answers a setup mistake, and what stays the implementation's.
func TestSetupSymptoms(t *testing.T) {
	ans := func(op registry.OpID, user string, status int, reqs ...string) heard {
		return heard{op: op, user: user, status: status, ownKey: true, requirements: reqs}
	}
	many := func(n int, a heard) []heard {
		out := make([]heard, n)
		for i := range out {
			out[i] = a
		}
		return out
	}
	sc := func(req string, o reports.Outcome, status int, body string) reports.Scenario {
		return reports.Scenario{Requirements: []string{req}, Outcome: o, Exchanges: []reports.Exchange{{Status: status, ResponseBody: body}}}
	}
	tests := []struct {
		name    string
		answers []heard
		results []reports.Scenario
		want    string // in the one symptom, "" for none
	}{
		{"a user mostly refused", append(many(5, ans("E9", "staff", 403)), ans("E9", "staff", 200)), nil, `5 of 6 answers to fixture user "staff" were 401 or 403`},
		{"refusals a scenario expects do not count", many(6, ans("E5", "staff", 403, "E5.403")), nil, ""},
		{"a refusal the fixture lists does not count", many(6, ans("E10", "student", 403)), nil, ""},
		{"too few answers", many(3, ans("E9", "staff", 401)), nil, ""},
		{"half refused is no majority", append(many(3, ans("E9", "owner", 403)), many(3, ans("E9", "owner", 200))...), nil, ""},
		{"a placed unplaced operation always 404", many(2, ans("GB", "owner", 404)), nil, "every call to operations.GB (PATCH /gradebook/{id}/settings) answered 404 or 405"},
		{"a placed operation always 404 stays the implementation's", append(many(2, ans("E9", "owner", 404)), ans("E10", "owner", 200)), nil, ""},
		{"every answer 404", append(many(3, ans("E9", "owner", 404)), ans("GB", "owner", 404)), nil, "every answer of the run was 404"},
		{"E1 refuses the fixture's password", nil, []reports.Scenario{
			sc("E1.200", reports.Failed, 200, `{"status":"0001"}`), sc("E1.reject", reports.Passed, 200, `{"status":"0001"}`)}, "E1 refused the fixture's one-time password"},
		{"E1 answering otherwise stays the implementation's", nil, []reports.Scenario{
			sc("E1.200", reports.Failed, 200, `{"status":"0"}`), sc("E1.reject", reports.Passed, 200, `{"status":"0001"}`)}, ""},
		{"E2 swapped", nil, []reports.Scenario{
			sc("E2.approve", reports.Failed, 200, `{"status":"7002"}`), sc("E2.deny", reports.Failed, 200, `{"status":"0000"}`)}, "exactly swapped"},
		{"E2 always denied stays the implementation's", nil, []reports.Scenario{
			sc("E2.approve", reports.Failed, 200, `{"status":"7002"}`), sc("E2.deny", reports.Passed, 200, `{"status":"7002"}`)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := hostileFixture()
			f.Operations = map[string]fixtures.Operation{"GB": {Method: "PATCH", Path: "/gradebook/{id}/settings"}}
			f.Forbidden = []fixtures.Forbidden{{Operation: "E10", User: "student"}}
			e := &env{cfg: Config{Fixture: f}, answers: tt.answers}
			got := e.setupSymptoms(tt.results)
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("expected no symptom, got %q", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("expected one symptom containing %q, got %q", tt.want, got)
			}
		})
	}
}
