package steps

import (
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
)

// TestChanges: the operations whose destructive scenarios a run selects,
// by its tag expression and the profiles its fixture claims, are those the
// warning before the suite names.
func TestChanges(t *testing.T) {
	tests := []struct {
		name string
		tags string
		f    *fixtures.File
		want string // operation ids, comma-joined
	}{
		{"every destructive operation", "", nil, "E3,E4,E5,E6,E7,E8,E14,E21,GB,ES,NR,QS"},
		{"reads only", "@E10 or @E11", nil, ""},
		{"all but one", "not @E5", nil, "E3,E4,E6,E7,E8,E14,E21,GB,ES,NR,QS"},
		{"by requirement id", "@E5.403", nil, "E5"},
		{"non-destructive scenarios only", "not @destructive", nil, ""},
		{"one profile claimed", "", &fixtures.File{Implements: []string{"consultation", "poll"}}, "E5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Changes(tt.tags, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, string(c.Op))
			}
			if strings.Join(got, ",") != tt.want {
				t.Errorf("Changes(%q): expected %s, got %s", tt.tags, tt.want, strings.Join(got, ","))
			}
			if text := ChangesWarning(tt.tags, tt.f); (text != "") != (tt.want != "") {
				t.Errorf("ChangesWarning(%q): expected a warning %v, got %q", tt.tags, tt.want != "", text)
			}
		})
	}
	if c, _ := Changes("@E5", nil); len(c) != 1 || !c[0].Deletes || c[0].Records[0] != "records.deletableSlots" || c[0].Op != registry.E5 {
		t.Errorf("E5: expected it to delete records.deletableSlots, got %+v", c)
	}
}
