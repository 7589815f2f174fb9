package simulator

import (
	"sync/atomic"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// defectSwitch holds the defects in force; the console and PUT
// /_sim/TOKEN/settings replace them while the simulator serves.
type defectSwitch struct{ p atomic.Pointer[defects.Set] }

// Has reports whether the named defect is made.
func (d *defectSwitch) Has(name defects.Name) bool { return d.p.Load().Has(name) }

// Enabled returns the defects made, sorted.
func (d *defectSwitch) Enabled() []string { return d.p.Load().Enabled() }

// storePolicy is the store's share of the defects in force: the rules of
// the state that they bend. It is the one place the store's Policy is
// filled.
func (d *defectSwitch) storePolicy() store.Policy {
	set := d.p.Load()
	return store.Policy{
		GradebookTotalOfRequest: set.Has(defects.GradebookTotalPerRequest),
		GradebookTotalRounded:   set.Has(defects.GradebookTotalRounded),
		GradebookTotalBelow100:  set.Has(defects.Gradebook100Refused),
		GradebookRefusedStored:  set.Has(defects.GradebookRefusedApplied),
		NotifyStatusKept:        set.Has(defects.NotifyReadIgnored),
	}
}

// variantSwitch holds the variants in force.
type variantSwitch struct{ p atomic.Pointer[variants.Set] }

// Has reports whether the named variant is chosen.
func (v *variantSwitch) Has(name variants.Name) bool { return v.p.Load().Has(name) }

// Enabled returns the variants chosen, sorted.
func (v *variantSwitch) Enabled() []string { return v.p.Load().Enabled() }
