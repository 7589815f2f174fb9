package switches

import (
	"slices"
	"testing"

	"github.com/campusconf/campusconf/simulator/defects"
)

// TestSwitch puts two sets in force in turn: Has and Enabled follow the
// set in force, and each Store is a set of its own.
func TestSwitch(t *testing.T) {
	var d Defects
	first, err := defects.New([]string{string(defects.LimitIgnored)})
	if err != nil {
		t.Fatal(err)
	}
	d.Store(first)
	was := d.Set()
	if !d.Has(defects.LimitIgnored) || d.Has(defects.OffsetIgnored) {
		t.Errorf("with %s: Has(%s), Has(%s) = %v, %v; want true, false", defects.LimitIgnored, defects.LimitIgnored, defects.OffsetIgnored, d.Has(defects.LimitIgnored), d.Has(defects.OffsetIgnored))
	}
	d.Store(defects.Set{})
	if d.Has(defects.LimitIgnored) || len(d.Enabled()) != 0 {
		t.Errorf("with none: Has(%s) = %v, Enabled = %v; want false, []", defects.LimitIgnored, d.Has(defects.LimitIgnored), d.Enabled())
	}
	if d.Set() == was {
		t.Error("Set: expected a new set after Store, got the one before")
	}
	d.Store(first)
	if got, want := d.Enabled(), []string{string(defects.LimitIgnored)}; !slices.Equal(got, want) {
		t.Errorf("Enabled() = %v, want %v", got, want)
	}
}
