package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/campusconf/campusconf/internal/sharedref"
)

// ctrfSchemaFile is the CTRF JSON schema kept in testdata, with its licence
// beside it.
const ctrfSchemaFile = "testdata/ctrf/ctrf.schema.json"

func compileCTRFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(ctrfSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	return compileJSONSchema(t, "https://ctrf.io/ctrf.schema.json", data)
}

// validateCTRF validates a ctrf.json against the CTRF schema and returns
// it decoded.
func validateCTRF(t *testing.T, sch *jsonschema.Schema, data []byte) map[string]any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ctrf.json is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("ctrf.json does not match the CTRF schema: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCTRFSchemaCopyIsShared holds the copy in testdata to the schema and
// licence beside the checkout (../shared/ctrf), where they are.
func TestCTRFSchemaCopyIsShared(t *testing.T) {
	dir, ok := sharedref.Dir("ctrf")
	if !ok {
		t.Skip("no ../shared/ctrf beside the checkout: the copy in testdata/ctrf is not compared (CI has the folder)")
	}
	for _, name := range []string{"ctrf.schema.json", "LICENSE"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("testdata", "ctrf", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/ctrf/%s: expected a copy of %s, got another text (reproduce: cp %s testdata/ctrf/)", name, filepath.Join(dir, name), filepath.Join(dir, name))
		}
	}
}

// TestCTRFMapsEveryOutcome: every outcome of the closed set has a CTRF
// status of its own choosing, so a new outcome fails here until mapped.
func TestCTRFMapsEveryOutcome(t *testing.T) {
	want := map[Outcome]string{Passed: "passed", Failed: "failed", Skipped: "skipped", NotConfigured: "skipped"}
	for _, o := range Outcomes {
		got, ok := ctrfStatus(o)
		if !ok {
			t.Errorf("outcome %q: expected a CTRF status in ctrfStatus, got none (it would be written as %q)", o, got)
			continue
		}
		if w, listed := want[o]; listed && got != w {
			t.Errorf("outcome %q: expected CTRF status %q, got %q", o, w, got)
		}
	}
	if _, ok := ctrfStatus("no such outcome"); ok {
		t.Error("ctrfStatus of an unknown outcome: expected ok false, got true")
	}
}

// TestCTRFValid validates ctrf.json of the sample run, of a run that could
// not start and of a run with a flaky scenario against the CTRF schema.
func TestCTRFValid(t *testing.T) {
	sch := compileCTRFSchema(t)
	unreachable := &Report{Reason: "target unreachable: dial tcp 127.0.0.1:1: connect: connection refused",
		Requirements: []Requirement{{ID: "A", Strictness: Must, Result: ResultNotRun}}}
	Finalize(unreachable)
	flaky := sampleReport()
	flaky.Scenarios[0].Flaky, flaky.Scenarios[0].Retries = true, 1
	for name, r := range map[string]*Report{"sample": sampleReport(), "unreachable": unreachable, "flaky": flaky, "empty": {}} {
		t.Run(name, func(t *testing.T) {
			buf := written(t, WriteCTRF, r)
			validateCTRF(t, sch, buf)
		})
	}
}

// TestSchemaRejectsBrokenCTRF: the CTRF schema is not vacuous here; each
// broken document is refused.
func TestSchemaRejectsBrokenCTRF(t *testing.T) {
	sch := compileCTRFSchema(t)
	buf := written(t, WriteCTRF, sampleReport())
	for name, breakIt := range map[string]func(m map[string]any){
		"no specVersion":   func(m map[string]any) { delete(m, "specVersion") },
		"a status unknown": func(m map[string]any) { test0(m)["status"] = "not configured" },
		"a duration in ms with a fraction": func(m map[string]any) {
			test0(m)["duration"] = 1.5
		},
		"no summary.other": func(m map[string]any) { delete(m["results"].(map[string]any)["summary"].(map[string]any), "other") },
	} {
		t.Run(name, func(t *testing.T) {
			if err := schemaError(t, sch, spoiled(t, buf, breakIt)); err == nil {
				t.Errorf("expected the CTRF schema to refuse ctrf.json with %s, got it accepted", name)
			}
		})
	}
}

func test0(m map[string]any) map[string]any {
	return m["results"].(map[string]any)["tests"].([]any)[0].(map[string]any)
}

// TestCTRFContent: the summary agrees with the report's counts, and each
// test carries what a dashboard needs to act on it.
func TestCTRFContent(t *testing.T) {
	r := sampleReport()
	r.Tool = Tool{Name: "campusconf", Version: "v1.2.3", Commit: "0123abc", SuiteVersion: "3.0.0", SpecDigest: "sha256:00ff"}
	r.Scenarios[0].Flaky, r.Scenarios[0].Retries = true, 2
	r.StrictJUnit = true // today's mapping: every failed scenario failed
	Finalize(r)
	buf := written(t, WriteCTRF, r)
	var doc ctrfDoc
	if err := json.Unmarshal(buf, &doc); err != nil {
		t.Fatal(err)
	}
	c := r.Counts
	wantSum := ctrfSummary{
		Tests: c.Scenarios, Passed: c.Passed, Failed: c.Failed, Skipped: c.Skipped + c.NotConfigured + c.Unsupported, Other: c.Errored, Flaky: c.Flaky, Suites: doc.Results.Summary.Suites,
		Start: r.Started.UnixMilli(), Stop: r.Started.UnixMilli() + 12345, Duration: 12345,
	}
	if diff := cmp.Diff(wantSum, doc.Results.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if want := (ctrfTool{Name: "campusconf", Version: "v1.2.3", Extra: map[string]any{"commit": "0123abc", "suiteVersion": "3.0.0", "specDigest": "sha256:00ff"}}); !cmp.Equal(want, doc.Results.Tool) {
		t.Errorf("tool: expected %+v, got %+v", want, doc.Results.Tool)
	}
	byID := map[string]ctrfTest{}
	for _, tt := range doc.Results.Tests {
		byID[tt.Extra.ID] = tt
	}
	if len(byID) != len(r.Scenarios) {
		t.Fatalf("tests: expected one per scenario (%d), got %d", len(r.Scenarios), len(byID))
	}
	for _, s := range r.Scenarios {
		got := byID[s.ID]
		if got.Extra.Outcome != string(s.Outcome) || got.RawStatus != string(s.Outcome) {
			t.Errorf("%s: expected extra.outcome and rawStatus %q, got %q and %q", s.ID, s.Outcome, got.Extra.Outcome, got.RawStatus)
		}
		if !cmp.Equal(got.Extra.Requirements, s.Requirements) {
			t.Errorf("%s: expected extra.requirements %v, got %v", s.ID, s.Requirements, got.Extra.Requirements)
		}
		if got.Flaky != s.Flaky || got.Retries != s.Retries {
			t.Errorf("%s: expected flaky %v with %d retries, got %v with %d", s.ID, s.Flaky, s.Retries, got.Flaky, got.Retries)
		}
		switch s.Outcome {
		case Failed:
			f := s.Failure
			if got.Extra.Curl != f.Curl || got.Extra.Expected != f.Expected || got.Extra.Got != f.Got || got.Message == "" {
				t.Errorf("%s: expected the failure's message, expected, got and curl line, got %+v", s.ID, got)
			}
			if !cmp.Equal(got.Extra.FailedRequirements, FailedRequirements(s)) {
				t.Errorf("%s: expected extra.failedRequirements %v, got %v", s.ID, FailedRequirements(s), got.Extra.FailedRequirements)
			}
		case NotConfigured, Skipped, Unsupported:
			if got.Extra.SkipReason != s.SkipReason || got.Status != "skipped" {
				t.Errorf("%s: expected status skipped with skip reason %q, got %q with %q", s.ID, s.SkipReason, got.Status, got.Extra.SkipReason)
			}
		}
	}
	// a cross-cutting failure of a SHOULD scenario on a MUST requirement is
	// MUST; the SHOULD failure is SHOULD
	for id, want := range map[string]Strictness{"features/e17_survey.feature:40": Should, "features/e5_slots.feature:14": Must} {
		if got := byID[id].Extra.Severity; got != want {
			t.Errorf("%s: expected severity %s, got %s", id, want, got)
		}
	}
}
