package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// BaselineVersion is the version of the baseline file form.
const BaselineVersion = 1

// Baseline is the list of requirement ids known to fail, kept in a JSON file
// (by convention .conformance-baseline.json) next to the code under test.
// A CI run passes the gate when every failed MUST requirement is in it, so
// an implementation can adopt the suite before it conforms and still fail
// on any new failure. The file is meant to shrink: the gate names entries
// that now pass.
//
//	{
//	  "version": 1,
//	  "requirements": ["E5-PERM-1", "E9-SHAPE-2"],
//	  "reasons": {"E5-PERM-1": "expected 403, got 204"}
//	}
type Baseline struct {
	// Version is BaselineVersion.
	Version int `json:"version"`
	// Requirements are the known failing requirement ids, sorted.
	Requirements []string `json:"requirements"`
	// Reasons give, per id, the one-line reason it failed when the baseline
	// was made; for the people who review the file, ignored by the gate.
	Reasons map[string]string `json:"reasons,omitempty"`
}

// BaselineFrom returns the baseline of r: the ids of the requirements that
// failed in it, MUST and SHOULD alike, with their reasons. r should be
// finalized.
func BaselineFrom(r *Report) Baseline {
	b := Baseline{Version: BaselineVersion, Requirements: []string{}, Reasons: map[string]string{}}
	must, should := failedRequirements(r)
	for _, f := range append(must, should...) {
		b.Requirements = append(b.Requirements, f.ID)
		b.Reasons[f.ID] = f.Reason
	}
	slices.Sort(b.Requirements)
	if len(b.Reasons) == 0 {
		b.Reasons = nil
	}
	return b
}

// ReadBaseline reads a baseline file. It refuses unknown fields, since a
// misspelt field in a hand-edited file would silently gate nothing, and a
// version other than BaselineVersion (wrapping ErrVersion).
func ReadBaseline(path string) (Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Baseline{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return Baseline{}, fmt.Errorf("baseline %s: %w", path, err)
	}
	if b.Version != BaselineVersion {
		return Baseline{}, fmt.Errorf("baseline %s: version: expected %d, got %d: %w", path, BaselineVersion, b.Version, ErrVersion)
	}
	for i, id := range b.Requirements {
		if strings.TrimSpace(id) == "" {
			return Baseline{}, fmt.Errorf("baseline %s: requirements[%d]: expected a requirement id, got %q", path, i, id)
		}
	}
	return b, nil
}

// WriteBaseline writes b to path as indented JSON, ids sorted and
// deduplicated, so that regenerating it gives a small diff.
func WriteBaseline(path string, b Baseline) error {
	if b.Version == 0 {
		b.Version = BaselineVersion
	}
	b.Requirements = slices.Compact(slices.Sorted(slices.Values(b.Requirements)))
	if b.Requirements == nil {
		b.Requirements = []string{}
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// GateResult is the outcome of Baseline.Gate.
type GateResult struct {
	// File is the baseline file, when the caller sets it.
	File string `json:"file,omitempty"`
	// Pass is true when every failed MUST requirement is in the baseline.
	Pass bool `json:"pass"`
	// New are the failed requirements missing from the baseline, MUST and
	// SHOULD alike; NewMust are those of them that are MUST and so fail
	// the gate.
	New     []string `json:"new,omitempty"`
	NewMust []string `json:"newMust,omitempty"`
	// Known are the baseline entries that still fail.
	Known []string `json:"known,omitempty"`
	// Fixed are the baseline entries that now pass: remove them, so that
	// they cannot regress unnoticed.
	Fixed []string `json:"fixed,omitempty"`
	// NotRun are the baseline entries no scenario concluded on in this run
	// (not run, or unknown to the catalogue): neither fixed nor failing.
	NotRun []string `json:"notRun,omitempty"`
	// Ran is false when no scenario ran at all; the gate then proves
	// nothing even when it passes.
	Ran bool `json:"ran"`
}

// Gate compares the failures of a finalized report with the baseline.
func (b Baseline) Gate(r *Report) GateResult {
	in := map[string]bool{}
	for _, id := range b.Requirements {
		in[id] = true
	}
	must, should := failedRequirements(r)
	failed := map[string]bool{}
	g := GateResult{Pass: true, Ran: r.Counts.Passed+r.Counts.Failed > 0}
	for _, f := range must {
		failed[f.ID] = true
		if !in[f.ID] {
			g.Pass = false
			g.New = append(g.New, f.ID)
			g.NewMust = append(g.NewMust, f.ID)
		}
	}
	for _, f := range should {
		failed[f.ID] = true
		if !in[f.ID] {
			g.New = append(g.New, f.ID)
		}
	}
	result := map[string]Result{}
	for _, q := range r.Requirements {
		result[q.ID] = q.Result
	}
	for _, id := range slices.Compact(slices.Sorted(slices.Values(b.Requirements))) {
		switch {
		case failed[id]:
			g.Known = append(g.Known, id)
		case result[id] == ResultPassed:
			g.Fixed = append(g.Fixed, id)
		default:
			g.NotRun = append(g.NotRun, id)
		}
	}
	slices.Sort(g.New)
	slices.Sort(g.NewMust)
	return g
}

// String says in plain words whether the gate passed, which failures are
// new, and which baseline entries can go.
func (g GateResult) String() string {
	var b strings.Builder
	if g.Pass {
		b.WriteString("Baseline gate passed: every failed MUST requirement is in the baseline.")
	} else {
		fmt.Fprintf(&b, "Baseline gate failed: %s not in the baseline: %s.",
			plural(len(g.NewMust), "failed MUST requirement is", "failed MUST requirements are"), strings.Join(g.NewMust, ", "))
	}
	if !g.Ran {
		b.WriteString("\nNo scenario ran, so this proves nothing: check the fixtures and options.")
	}
	if warn := without(g.New, g.NewMust); len(warn) > 0 {
		fmt.Fprintf(&b, "\n%s not in the baseline (a warning: the gate ignores SHOULD): %s.",
			plural(len(warn), "failed SHOULD requirement is", "failed SHOULD requirements are"), strings.Join(warn, ", "))
	}
	if len(g.Known) > 0 {
		fmt.Fprintf(&b, "\n%s still %s as the baseline expects.", plural(len(g.Known), "baseline entry", "baseline entries"), verb(len(g.Known), "fails", "fail"))
	}
	if len(g.Fixed) > 0 {
		fmt.Fprintf(&b, "\n%s now %s; remove %s from the baseline: %s.",
			plural(len(g.Fixed), "baseline entry", "baseline entries"), verb(len(g.Fixed), "passes", "pass"),
			verb(len(g.Fixed), "it", "them"), strings.Join(g.Fixed, ", "))
	} else if len(g.Known)+len(g.NotRun) > 0 {
		b.WriteString("\nNo baseline entry passes yet.")
	}
	if len(g.NotRun) > 0 {
		fmt.Fprintf(&b, "\n%s did not run this time: %s.", plural(len(g.NotRun), "baseline entry", "baseline entries"), strings.Join(g.NotRun, ", "))
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func without(list, drop []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}
