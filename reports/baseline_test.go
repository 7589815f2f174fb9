package reports

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBaselineFrom(t *testing.T) {
	b := BaselineFrom(sampleReport())
	want := Baseline{
		Version:      BaselineVersion,
		Requirements: []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"},
		Reasons: map[string]string{
			"E17-QUERY-2": `expected first item "c", got first item "00000000-0000-4000-8000-000000000000"`,
			"E5-PERM-1":   "expected 403 (or another 4xx refusal), got 204 No Content",
			"E6-STATUS-1": "no response: dial tcp 10.0.0.7:443: connect: connection refused",
			"ERR-FORM-1":  `expected Content-Type: application/json; body "a message", got Content-Type: text/html; body <h1>Server Error</h1><script>alert("x")</script>`,
		},
	}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("BaselineFrom (-want +got):\n%s", diff)
	}
	empty := &Report{Scenarios: []Scenario{{ID: "a", Outcome: Passed}}}
	Finalize(empty)
	if got := BaselineFrom(empty); got.Requirements == nil || len(got.Requirements) != 0 {
		t.Errorf("BaselineFrom of a passing report: got %#v, want an empty, non-nil list", got.Requirements)
	}
}

func TestGate(t *testing.T) {
	r := sampleReport() // fails E5-PERM-1, E6-STATUS-1, ERR-FORM-1 (MUST), E17-QUERY-2 (SHOULD)
	tests := []struct {
		name     string
		baseline []string
		want     GateResult
		say      []string
	}{
		{
			name:     "no baseline",
			baseline: nil,
			want: GateResult{Pass: false, Ran: true,
				New: []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}, NewMust: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}},
			say: []string{"Baseline gate failed: 3 failed MUST requirements are not in the baseline: E5-PERM-1, E6-STATUS-1, ERR-FORM-1.", "1 failed SHOULD requirement is not in the baseline (a warning"},
		},
		{
			name:     "every MUST failure known",
			baseline: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"},
			want: GateResult{Pass: true, Ran: true, New: []string{"E17-QUERY-2"},
				Known: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"}},
			say: []string{"Baseline gate passed", "3 baseline entries still fail", "No baseline entry passes yet."},
		},
		{
			name:     "one new MUST failure",
			baseline: []string{"E5-PERM-1", "E6-STATUS-1", "E17-QUERY-2"},
			want: GateResult{Pass: false, Ran: true, New: []string{"ERR-FORM-1"}, NewMust: []string{"ERR-FORM-1"},
				Known: []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1"}},
			say: []string{"Baseline gate failed: 1 failed MUST requirement is not in the baseline: ERR-FORM-1."},
		},
		{
			name:     "fixed and not run entries",
			baseline: []string{"E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1", "E17-QUERY-2", "E1-STATUS-1", "E4-PERM-1", "E13-STATUS-1", "GONE-1", "E1-STATUS-1"},
			want: GateResult{Pass: true, Ran: true,
				Known:  []string{"E17-QUERY-2", "E5-PERM-1", "E6-STATUS-1", "ERR-FORM-1"},
				Fixed:  []string{"E1-STATUS-1", "E4-PERM-1"},
				NotRun: []string{"E13-STATUS-1", "GONE-1"}},
			say: []string{"2 baseline entries now pass; remove them from the baseline: E1-STATUS-1, E4-PERM-1.", "2 baseline entries did not run this time: E13-STATUS-1, GONE-1."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Baseline{Version: BaselineVersion, Requirements: tt.baseline}.Gate(r)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Gate (-want +got):\n%s", diff)
			}
			s := got.String()
			for _, want := range tt.say {
				if !strings.Contains(s, want) {
					t.Errorf("String() lacks %q:\n%s", want, s)
				}
			}
		})
	}
}

func TestGateNothingRan(t *testing.T) {
	r := &Report{Scenarios: []Scenario{{ID: "a", Outcome: Skipped}}}
	Finalize(r)
	g := Baseline{Version: BaselineVersion}.Gate(r)
	if !g.Pass || g.Ran {
		t.Errorf("Gate of a run where nothing ran: got Pass=%v Ran=%v, want Pass=true Ran=false", g.Pass, g.Ran)
	}
	if !strings.Contains(g.String(), "No scenario ran") {
		t.Errorf("String() must warn that nothing ran:\n%s", g)
	}
}

func TestBaselineFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".conformance-baseline.json")
	in := Baseline{Requirements: []string{"B-2", "A-1", "B-2"}, Reasons: map[string]string{"A-1": "expected 403, got 204"}}
	if err := WriteBaseline(path, in); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	wantFile := "{\n  \"version\": 1,\n  \"requirements\": [\n    \"A-1\",\n    \"B-2\"\n  ],\n  \"reasons\": {\n    \"A-1\": \"expected 403, got 204\"\n  }\n}\n"
	if string(data) != wantFile {
		t.Errorf("baseline file:\ngot:\n%s\nwant:\n%s", data, wantFile)
	}
	got, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Baseline{Version: 1, Requirements: []string{"A-1", "B-2"}, Reasons: in.Reasons}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadBaseline (-want +got):\n%s", diff)
	}
}

func TestReadBaselineErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		wantErr error
		wantMsg string
	}{
		{"misspelt field", `{"version":1,"requirement":["A"]}`, nil, `unknown field "requirement"`},
		{"no version", `{"requirements":["A"]}`, ErrVersion, "version: expected 1, got 0"},
		{"newer version", `{"version":2,"requirements":[]}`, ErrVersion, "expected 1, got 2"},
		{"blank id", `{"version":1,"requirements":["A"," "]}`, nil, "requirements[1]"},
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
				t.Fatal("got no error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("got %v, want it to wrap %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("got %q, want it to mention %q", err, tt.wantMsg)
			}
		})
	}
	if _, err := ReadBaseline(filepath.Join(t.TempDir(), "absent.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want os.ErrNotExist", err)
	}
}
