package features

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// TestExpand: a marker becomes one tagged Examples block per selected
// operation, and an unknown selection is an error naming it.
func TestExpand(t *testing.T) {
	got, err := expand("x.feature", []byte("  Scenario Outline: <op>\n    # examples: one per operation with-body\n\n  Scenario: next\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "    @E1\n    Examples:\n      | op |\n      | E1 |\n\n    @E2\n    Examples:\n      | op |\n      | E2 |\n\n    @E5\n"
	if !strings.Contains(string(got), want) || strings.Contains(string(got), "@E3\n") || !strings.HasSuffix(string(got), "| QS |\n\n  Scenario: next\n") {
		t.Errorf("expand = %q, want blocks for the operations with a body, starting %q", got, want)
	}
	if _, err := expand("x.feature", []byte("    # examples: one per operation sometimes\n")); err == nil || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Errorf("unknown selection: err = %v, want one naming it", err)
	}
	data, err := fs.ReadFile(FS, "common.feature")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "# examples:") || !strings.Contains(string(data), "      | QS |\n") {
		t.Error("FS serves common.feature unexpanded")
	}
}

// TestPlaceholdersKnown: every {name...} in the feature files is a
// placeholder the steps fill (registry.Fill): a misspelt one would reach
// the target as text, and a call refused for it could pass a check that
// expects a refusal without having sent what it meant to.
func TestPlaceholdersKnown(t *testing.T) {
	token := regexp.MustCompile(`\{[A-Za-z][A-Za-z0-9]*(\.[^{}\s"]*)?\}`)
	names, err := fs.Glob(FS, "*.feature")
	if err != nil || len(names) == 0 {
		t.Fatalf("no feature files: %v", err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range token.FindAllString(string(data), -1) {
			filled := false
			if _, err := registry.Fill(tok, func(string) (string, error) { filled = true; return "", nil }); err != nil || !filled {
				t.Errorf("%s: %s is no placeholder the steps fill (registry.Fill: %v)", name, tok, err)
			}
		}
	}
}

// TestFactsAreTheScenarios: each fact the registry declares for the proxy
// to judge on live traffic (a member distinct in a list, a list a read
// agrees with) is the one its requirement's scenario checks, so the two
// judge one rule.
func TestFactsAreTheScenarios(t *testing.T) {
	var text strings.Builder
	names, _ := fs.Glob(FS, "*.feature")
	for _, name := range names {
		data, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(data)
	}
	checks := func(id registry.OpID, req, want string) {
		tag := "@" + req + "\n"
		at := strings.Index(text.String(), tag)
		if at < 0 {
			t.Errorf("%s: no scenario is tagged %s", id, strings.TrimSpace(tag))
			return
		}
		scenario := text.String()[at:]
		if end := strings.Index(scenario[len(tag):], "\n  @"); end >= 0 {
			scenario = scenario[:len(tag)+end]
		}
		if !strings.Contains(scenario, want) {
			t.Errorf("%s: the scenario of %s does not check %q", id, req, want)
		}
	}
	for _, o := range registry.All() {
		if l, ok := registry.List(o.ID); ok {
			for _, d := range l.Distinct {
				checks(o.ID, d.Requirement, `no two entries have the same "`+d.Member+`"`)
			}
		}
		if l := o.ListedBy; l != nil {
			checks(o.ID, l.Requirement, "the same record as "+string(l.Op)+` lists it for the answer's "`+l.Parent+`" agrees`)
		}
	}
}

// TestUnknownIDSelection pins the operations ALL.unknown-id derives from
// the registry: those answering the one record they name by an id, or
// listing its entries, with no 404 listed.
func TestUnknownIDSelection(t *testing.T) {
	var got []string
	for _, o := range registry.All() {
		if selections["naming-a-record-without-404"](o) {
			got = append(got, string(o.ID))
		}
	}
	if want := []string{"E10", "E11", "E15", "E16", "E18", "E19", "E20", "ES", "NG", "NR", "QS"}; !slices.Equal(got, want) {
		t.Errorf("naming-a-record-without-404: got %v, want %v (registry.Operation.Addresses, Statuses)", got, want)
	}
}
