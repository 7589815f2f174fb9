package defects

import (
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
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

// TestStatusChangesNameOperations keeps every status defect on an
// operation of the registry, changing its status to another.
func TestStatusChangesNameOperations(t *testing.T) {
	for _, d := range All() {
		if d.Status == nil {
			continue
		}
		if _, ok := registry.Lookup(string(d.Status.Op)); !ok {
			t.Errorf("defect %s changes the status of %q, which the registry does not know", d.Name, d.Status.Op)
		}
		if c := d.Status; c.From == c.To || c.From < 100 || c.To < 100 || c.From > 599 || c.To > 599 {
			t.Errorf("defect %s: status change %s is no change of an HTTP status", d.Name, c)
		}
		if d.Rewrite != nil {
			t.Errorf("defect %s is both a status change and a rewrite", d.Name)
		}
	}
}

// TestDefaultShapes: a record the table leaves out gets a names and a
// types defect from its schema, each breaking its record's requirement
// with one edit of one field.
func TestDefaultShapes(t *testing.T) {
	tests := []struct {
		name                    Name
		requirement, field, arg string
		edit                    Edit
	}{
		{"bank-folder-names", "REC.BankFolder.names", "createdDate", "CreatedDate", Rename}, // id is required
		{"bank-folder-types", "REC.BankFolder.types", "createdDate", "2006-01-02 15:04:05", DateLayout},
		{"file-annotation-names", "REC.FileAnnotation.names", "annotationId", "AnnotationId", Rename},
		{"channel-user-types", "REC.ChannelUser.types", "comments", "", Quote},
	}
	got := map[Name]shape{}
	for _, s := range defaultShapesBut(nil) {
		got[s.name] = s
	}
	for _, tt := range tests {
		s, ok := got[tt.name]
		switch {
		case !ok:
			t.Errorf("%s: expected a default defect, got none", tt.name)
		case s.requirement != tt.requirement || s.rewrite.Field != tt.field || s.rewrite.Edit != tt.edit || s.rewrite.Arg != tt.arg:
			t.Errorf("%s: expected %s by %v of %s (%q), got %s by %v of %s (%q)", tt.name, tt.requirement, tt.edit, tt.field, tt.arg,
				s.requirement, s.rewrite.Edit, s.rewrite.Field, s.rewrite.Arg)
		}
	}
}
