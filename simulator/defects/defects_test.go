package defects

import (
	"slices"
	"strings"
	"testing"
)

func TestCatalogueSortedAndDescribed(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Errorf("catalogue names are not sorted: %v", names)
	}
	seen := map[Name]bool{}
	for _, d := range All() {
		if seen[d.Name] {
			t.Errorf("defect %q listed twice", d.Name)
		}
		seen[d.Name] = true
		if d.Description == "" || strings.Contains(d.Description, "\n") {
			t.Errorf("defect %q: want a one-line description, got %q", d.Name, d.Description)
		}
	}
}

func TestNew(t *testing.T) {
	s, err := New([]string{string(PollAlways7002), string(E6Status200)})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Has(PollAlways7002) || !s.Has(E6Status200) || s.Has(ErrorBodyObject) {
		t.Errorf("Has: got enabled %v, want [%s %s]", s.Enabled(), E6Status200, PollAlways7002)
	}
	if _, err := New([]string{"no-such-defect"}); err == nil || !strings.Contains(err.Error(), "no-such-defect") {
		t.Errorf("New(unknown) error = %v, want one naming the unknown defect", err)
	}
	var zero Set
	if zero.Has(E6Status200) {
		t.Error("zero Set has a defect")
	}
}
