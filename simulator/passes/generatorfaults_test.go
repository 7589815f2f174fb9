package passes

import (
	"testing"

	"github.com/campusconf/campusconf/simulator/defects"
)

// TestEveryGeneratorDefectHasAFault: a generator defect the simulator has
// no fault for would be switched on and change nothing, silently.
func TestEveryGeneratorDefectHasAFault(t *testing.T) {
	for _, d := range defects.Generated() {
		f, ok := faults[d.Name]
		if !ok || f.before == nil && f.after == nil {
			t.Errorf("generator defect %s (%s) has no fault in simulator/passes/generatorfaults.go", d.Name, d.Description)
		}
	}
	for name := range faults {
		if d, ok := defects.Lookup(string(name)); !ok || !d.Generated {
			t.Errorf("faults lists %s, which is not a generator defect", name)
		}
	}
}
