package features

import (
	"io/fs"
	"strings"
	"testing"
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
