package ops

import (
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
	"github.com/campusconf/campusconf/simulator/world"
)

// newTestEnv is the world of seed and scale as its operations see it,
// with neither defect nor variant, and the records its fixture file
// names.
func newTestEnv(t testing.TB, seed int64, scale int) (*Env, world.Refs) {
	t.Helper()
	w, refs := world.Build(seed, scale)
	st := store.New(w, func() *store.World {
		w, _ := world.Build(seed, scale)
		return w
	}, store.Policy{})
	var d switches.Defects
	var v switches.Variants
	d.Store(defects.Set{})
	v.Store(variants.Set{})
	return NewEnv(Config{Store: st, Refs: refs, Defects: &d, Variants: &v, Inject: NewInjector(seed, Faults{}, Latency{}), WallClock: time.Now}), refs
}
