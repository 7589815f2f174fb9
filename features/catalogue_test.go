package features

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	messages "github.com/cucumber/messages/go/v21"

	"github.com/campusconf/campusconf/internal/rules"
)

// otherTags are the tags that are neither requirement nor operation ids.
var otherTags = map[string]bool{"@destructive": true}

// pickles compiles every embedded feature into its scenarios.
func pickles(t *testing.T) []*messages.Pickle {
	t.Helper()
	out, err := compile(FS)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCatalogueLoads(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range c.Operations {
		if _, ok := c.Requirement(op.Success); !ok {
			t.Errorf("operation %s: success requirement %q is not in the catalogue", op.ID, op.Success)
		}
		if (op.Path == "") == (op.FixtureKey == "") {
			t.Errorf("operation %s: want either a path or a fixture key", op.ID)
		}
	}
}

// TestEveryTagIsKnown: a scenario may only name requirements and
// operations the catalogue has, and must name at least one requirement.
func TestEveryTagIsKnown(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pickles(t) {
		reqs := 0
		for _, tag := range p.Tags {
			id := strings.TrimPrefix(tag.Name, "@")
			_, isReq := c.Requirement(id)
			_, isOp := c.Operation(id)
			switch {
			case isReq:
				reqs++
			case isOp, otherTags[tag.Name]:
			default:
				t.Errorf("%s: %q: tag %s is neither a requirement, an operation nor one of %v", p.Uri, p.Name, tag.Name, otherTags)
			}
		}
		if reqs == 0 {
			t.Errorf("%s: %q names no requirement", p.Uri, p.Name)
		}
	}
}

// TestEveryRequirementIsCovered: each catalogue requirement is checked by
// at least one scenario, except the record-level ones, which the response
// validation of every scenario checks, and the generated ones, which the
// generated requests of run --generate check (generate).
func TestEveryRequirementIsCovered(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, p := range pickles(t) {
		for _, tag := range p.Tags {
			used[strings.TrimPrefix(tag.Name, "@")] = true
		}
	}
	var missing []string
	for _, r := range c.Requirements {
		if !used[r.ID] && r.Operation != "REC" && r.ID != "ALL.error-body" && r.Kind != rules.KindGenerated {
			missing = append(missing, r.ID)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d requirements have no scenario: %s", len(missing), strings.Join(missing, ", "))
	}
}

// TestScenarioNamesAreUnique: a scenario's id in reports is its feature and
// name, so names (outline rows included) must be unique per feature.
func TestScenarioNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range pickles(t) {
		key := p.Uri + ": " + p.Name
		if seen[key] {
			t.Errorf("scenario name %q appears twice", key)
		}
		seen[key] = true
	}
}

// TestParseChecksKindAndStrictness: a requirement's kind and strictness
// are closed sets, package rules' own (rules.Kind, rules.Level).
func TestParseChecksKindAndStrictness(t *testing.T) {
	const tmpl = `{"version": 1, "operations": [{"id": "E1", "name": "x", "success": "E1.200"}],
		"requirements": [{"id": "E1.200", "operation": "E1", "kind": %q, "strictness": %q, "section": "s", "text": "t"}]}`
	tests := []struct {
		kind, strictness string
		wantErr          string // "" when the catalogue is valid
	}{
		{"status", "MUST", ""},
		{"generated", "SHOULD", ""},
		{"query", "MUST", ""},
		{"Status", "MUST", `kind "Status", want one of status shape enum-range transition permission default auth error-form query generated`},
		{"status", "must", `strictness "must", want MUST or SHOULD`},
	}
	for _, tt := range tests {
		c, err := Parse([]byte(fmt.Sprintf(tmpl, tt.kind, tt.strictness)))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("kind %q, strictness %q: got error %v, want none", tt.kind, tt.strictness, err)
		case tt.wantErr == "":
			if q, _ := c.Requirement("E1.200"); q.Kind != rules.Kind(tt.kind) || q.Strictness != rules.Level(tt.strictness) {
				t.Errorf("got kind %q, strictness %q, want %q, %q", q.Kind, q.Strictness, tt.kind, tt.strictness)
			}
		case err == nil || !strings.Contains(err.Error(), tt.wantErr):
			t.Errorf("kind %q, strictness %q: got error %v, want one containing %q", tt.kind, tt.strictness, err, tt.wantErr)
		}
	}
}
