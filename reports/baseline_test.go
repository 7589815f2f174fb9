package reports

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// gateDay is the day the gate tests judge expiry dates on.
var gateDay = time.Date(2026, 11, 25, 23, 30, 0, 0, time.UTC)

func TestBaselineFrom(t *testing.T) {
	tests := []struct {
		name string
		opts BaselineOptions
		want []BaselineEntry
	}{
		{"reasons from the report", BaselineOptions{}, []BaselineEntry{
			{ID: "E17-QUERY-2", Reason: `failed in the run of 2026-11-21: expected first item "c", got first item "00000000-0000-4000-8000-000000000000"`},
			{ID: "E5-PERM-1", Reason: "failed in the run of 2026-11-21: expected 403 (or another 4xx refusal), got 204 No Content"},
			{ID: "E6-STATUS-1", Reason: "failed in the run of 2026-11-21: no response: dial tcp 10.0.0.7:443: connect: connection refused"},
			{ID: "ERR-FORM-1", Reason: `failed in the run of 2026-11-21: expected Content-Type: application/json; body "a message", got Content-Type: text/html; body <h1>Server Error</h1><script>alert("x")</script>`},
		}},
		{"one reason, expiry and owner for all", BaselineOptions{Reason: "vendor fix in 2.4", Expires: "2027-01-31", Owner: "team-a"}, []BaselineEntry{
			{ID: "E17-QUERY-2", Reason: "vendor fix in 2.4", Expires: "2027-01-31", Owner: "team-a"},
			{ID: "E5-PERM-1", Reason: "vendor fix in 2.4", Expires: "2027-01-31", Owner: "team-a"},
			{ID: "E6-STATUS-1", Reason: "vendor fix in 2.4", Expires: "2027-01-31", Owner: "team-a"},
			{ID: "ERR-FORM-1", Reason: "vendor fix in 2.4", Expires: "2027-01-31", Owner: "team-a"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BaselineFrom(sampleReport(), tt.opts)
			want := Baseline{Version: BaselineVersion, Entries: tt.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("BaselineFrom (-want +got):\n%s", diff)
			}
		})
	}
	empty := &Report{Scenarios: []Scenario{{ID: "a", Outcome: Passed}}}
	Finalize(empty)
	if got := BaselineFrom(empty, BaselineOptions{}); got.Entries == nil || len(got.Entries) != 0 {
		t.Errorf("BaselineFrom of a passing report: expected an empty, non-nil list, got %#v", got.Entries)
	}
}

func TestGate(t *testing.T) {
	r := sampleReport() // fails E5-PERM-1, E6-STATUS-1, ERR-FORM-1 (MUST), E17-QUERY-2 (SHOULD); passes E1-STATUS-1, E4-PERM-1
	entries := func(ids ...string) []BaselineEntry {
		var es []BaselineEntry
		for _, id := range ids {
			es = append(es, BaselineEntry{ID: id, Reason: "known"})
		}
		return es
	}
	expiring := func(id, day string) BaselineEntry {
		return BaselineEntry{ID: id, Reason: "known", Expires: day, Owner: "team-a"}
	}
	tests := []struct {
		name    string
		entries []BaselineEntry
		want    GateResult
		say     []string
	}{
		{
			name:    "no baseline",
			entries: nil,
			want: GateResult{Pass: false, Ran: true,
				New: []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}, NewMust: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}},
			say: []string{"Baseline gate failed: 3 failed MUST requirements are not in the baseline: E5-PERM-1, E6-STATUS-1, ERR-FORM-1.", "1 failed SHOULD requirement is not in the baseline (a warning"},
		},
		{
			name:    "every MUST failure known",
			entries: entries("E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"),
			want: GateResult{Pass: true, Ran: true, New: []string{"E17-QUERY-2"},
				Known: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}},
			say: []string{"Baseline gate passed", "3 baseline entries still fail", "No baseline entry passes yet."},
		},
		{
			name:    "one new MUST failure",
			entries: entries("E5-PERM-1", "E6-STATUS-1", "E17-QUERY-2"),
			want: GateResult{Pass: false, Ran: true, New: []string{"ERR-FORM-1"}, NewMust: []string{"ERR-FORM-1"},
				Known: []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1"}},
			say: []string{"Baseline gate failed: 1 failed MUST requirement is not in the baseline: ERR-FORM-1."},
		},
		{
			name:    "fixed and not run entries",
			entries: entries("E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1", "E17-QUERY-2", "E1-STATUS-1", "E4-PERM-1", "E13-STATUS-1", "GONE-1"),
			want: GateResult{Pass: true, Ran: true,
				Known:  []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"},
				Fixed:  []string{"E1-STATUS-1", "E4-PERM-1"},
				NotRun: []string{"E13-STATUS-1", "GONE-1"}},
			say: []string{"2 baseline entries now pass; remove them from the baseline: E1-STATUS-1, E4-PERM-1.", "2 baseline entries did not run this time: E13-STATUS-1, GONE-1."},
		},
		{
			name: "an entry expiring today still excuses",
			entries: append(entries("E6-STATUS-1", "ERR-FORM-1"),
				expiring("E5-PERM-1", "2026-11-25")),
			want: GateResult{Pass: true, Ran: true, New: []string{"E17-QUERY-2"},
				Known: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}},
			say: []string{"Baseline gate passed"},
		},
		{
			name: "an expired entry of a failing MUST fails the gate and is named",
			entries: append(entries("E6-STATUS-1", "ERR-FORM-1", "E17-QUERY-2"),
				expiring("E5-PERM-1", "2026-11-24"), expiring("E1-STATUS-1", "2026-01-01"), expiring("GONE-1", "2025-12-31")),
			want: GateResult{Pass: false, Ran: true,
				ExpiredMust: []string{"E5-PERM-1"},
				Known:       []string{"E17-QUERY-2", "E6-STATUS-1", "ERR-FORM-1"},
				Fixed:       []string{"E1-STATUS-1"},
				NotRun:      []string{"GONE-1"},
				Expired: []ExpiredEntry{
					{BaselineEntry: expiring("E1-STATUS-1", "2026-01-01"), Result: ResultPassed},
					{BaselineEntry: expiring("E5-PERM-1", "2026-11-24"), Result: ResultFailed},
					{BaselineEntry: expiring("GONE-1", "2025-12-31"), Result: ResultNotRun},
				}},
			say: []string{
				"Baseline gate failed: 1 failed MUST requirement is no longer excused, its baseline entry expired: E5-PERM-1.",
				"3 baseline entries have expired (an expired entry excuses nothing: fix the failure, or renew the date with a reason): E1-STATUS-1 (expired 2026-01-01, owner team-a, now passes); E5-PERM-1 (expired 2026-11-24, owner team-a, still fails); GONE-1 (expired 2025-12-31, owner team-a, not run).",
			},
		},
		{
			name:    "an expired entry of a failing SHOULD warns",
			entries: append(entries("E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"), expiring("E17-QUERY-2", "2026-11-01")),
			want: GateResult{Pass: true, Ran: true,
				Known:   []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"},
				Expired: []ExpiredEntry{{BaselineEntry: expiring("E17-QUERY-2", "2026-11-01"), Result: ResultFailed}}},
			say: []string{"Baseline gate passed", "E17-QUERY-2 (expired 2026-11-01, owner team-a, still fails)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Baseline{Version: BaselineVersion, Entries: tt.entries}.Gate(r, gateDay)
			tt.want.Date = "2026-11-25"
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Gate (-want +got):\n%s", diff)
			}
			s := got.String()
			for _, want := range tt.say {
				if !strings.Contains(s, want) {
					t.Errorf("String(): expected it to contain %q, got:\n%s", want, s)
				}
			}
		})
	}
}

func TestGateNothingRan(t *testing.T) {
	r := &Report{Scenarios: []Scenario{{ID: "a", Outcome: Skipped}}}
	Finalize(r)
	g := Baseline{Version: BaselineVersion}.Gate(r, gateDay)
	if !g.Pass || g.Ran {
		t.Errorf("Gate of a run where nothing ran: expected Pass=true Ran=false, got Pass=%v Ran=%v", g.Pass, g.Ran)
	}
	if !strings.Contains(g.String(), "No scenario ran") {
		t.Errorf("String(): expected a warning that nothing ran, got:\n%s", g)
	}
}

func TestBaselineFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".conformance-baseline.json")
	in := Baseline{Entries: []BaselineEntry{
		{ID: "B-2", Reason: "second"},
		{ID: "A-1", Reason: "expected 403, got 204", Expires: "2027-03-31", Owner: "team-a"},
		{ID: "B-2", Reason: "repeated"},
	}}
	if err := WriteBaseline(path, in); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	wantFile := `{
  "version": 2,
  "entries": [
    {
      "id": "A-1",
      "reason": "expected 403, got 204",
      "expires": "2027-03-31",
      "owner": "team-a"
    },
    {
      "id": "B-2",
      "reason": "second"
    }
  ]
}
`
	if string(data) != wantFile {
		t.Errorf("baseline file: expected\n%s\ngot\n%s", wantFile, data)
	}
	got, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Baseline{Version: 2, Entries: []BaselineEntry{in.Entries[1], in.Entries[0]}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadBaseline (-want +got):\n%s", diff)
	}
	if err := WriteBaseline(path, Baseline{Entries: []BaselineEntry{{ID: "A-1"}}}); err == nil || !strings.Contains(err.Error(), "reason") {
		t.Errorf("WriteBaseline of an entry without a reason: expected an error naming the reason, got %v", err)
	}
}

// TestReadBaselineVersion1 reads the form campusconf wrote before expiry
// dates: the ids become entries, with their reasons where it had them.
func TestReadBaselineVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	v1 := `{"version": 1, "requirements": ["A-1", "B-2"], "reasons": {"A-1": "expected 403, got 204"}}`
	if err := os.WriteFile(path, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Baseline{Version: 1, Entries: []BaselineEntry{{ID: "A-1", Reason: "expected 403, got 204"}, {ID: "B-2"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadBaseline of version 1 (-want +got):\n%s", diff)
	}
	// the gate reads it as before: A-1 excused, nothing expires
	r := &Report{Requirements: []Requirement{{ID: "A-1", Strictness: Must}},
		Scenarios: []Scenario{{ID: "s", Requirements: []string{"A-1"}, Strictness: Must, Outcome: Failed}}}
	Finalize(r)
	if g := got.Gate(r, gateDay); !g.Pass || len(g.Known) != 1 {
		t.Errorf("Gate with a version 1 baseline listing the failure: expected a pass with 1 known entry, got %+v", g)
	}
}

func TestReadBaselineErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		wantErr error
		wantMsg string
	}{
		{"misspelt field", `{"version":2,"entry":[]}`, nil, `unknown field "entry"`},
		{"misspelt field of an entry", `{"version":2,"entries":[{"id":"A","reason":"r","expiry":"2027-01-01"}]}`, nil, `unknown field "expiry"`},
		{"misspelt field, version 1", `{"version":1,"requirement":["A"]}`, nil, `unknown field "requirement"`},
		{"version 1 fields in a version 2 file", `{"version":2,"requirements":["A"]}`, nil, `unknown field "requirements"`},
		{"no version", `{"entries":[]}`, ErrVersion, "version: expected 2 or 1, got nothing"},
		{"a version in words", `{"version":"2","entries":[]}`, ErrVersion, `version: expected 2 or 1, got "2"`},
		{"newer version", `{"version":3,"entries":[]}`, ErrVersion, "expected 2 or 1, got 3"},
		{"no reason", `{"version":2,"entries":[{"id":"A"}]}`, nil, "entries[0]: A: reason: expected why the failure is accepted, got nothing"},
		{"blank reason", `{"version":2,"entries":[{"id":"A","reason":"  "}]}`, nil, "A: reason"},
		{"no id", `{"version":2,"entries":[{"id":"A","reason":"r"},{"reason":"r"}]}`, nil, "entries[1]: id: expected a requirement id"},
		{"a date in another form", `{"version":2,"entries":[{"id":"A","reason":"r","expires":"31/12/2026"}]}`, nil, `A: expires: expected a date YYYY-MM-DD, got "31/12/2026"`},
		{"no such day", `{"version":2,"entries":[{"id":"A","reason":"r","expires":"2026-02-30"}]}`, nil, `expected a date YYYY-MM-DD, got "2026-02-30"`},
		{"an id twice", `{"version":2,"entries":[{"id":"A","reason":"r"},{"id":"A","reason":"s"}]}`, nil, `requirement "A" is listed twice`},
		{"blank id, version 1", `{"version":1,"requirements":["A"," "]}`, nil, "requirements[1]"},
		{"not JSON", `requirements: [A]`, nil, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "b.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadBaseline(path)
			if err == nil {
				t.Fatalf("expected an error mentioning %q, got none", tt.wantMsg)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("expected an error wrapping %v, got %v", tt.wantErr, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) || !strings.Contains(err.Error(), path) {
				t.Errorf("expected an error naming %s and mentioning %q, got %q", path, tt.wantMsg, err)
			}
		})
	}
	if _, err := ReadBaseline(filepath.Join(t.TempDir(), "absent.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: expected os.ErrNotExist, got %v", err)
	}
}
