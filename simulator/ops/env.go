// Package ops serves the operations of the interface for one world: a
// file of handlers per domain, each with its route entries (the role
// model's access rule and the handler; where each operation lives comes
// from the registry), what every operation shares (credentials, the role
// model, injected latency and faults, the inspection of its request, the
// documented choices its answer relies on), the answering of lists, the
// permission-per-record variant, the encoders of the hot answers, and the
// fixture file that describes the world to the suite. A handler works
// with an Env, never with the simulator: one world's store and seeded
// records, the switches in force and the clock one-time passwords are
// checked against.
package ops

import (
	"sync"
	"time"

	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/world"
)

// Env is one world as its operations see it.
type Env struct {
	store    *store.Store
	refs     world.Refs
	defects  *switches.Defects
	variants *switches.Variants
	inject   *Injector
	// wallClock is the real time, read only to check one-time passwords.
	wallClock func() time.Time
	// observed: a request may carry a front.Note; examples: the traffic
	// record keeps example requests (Config).
	observed, examples bool

	pollMu    sync.Mutex
	polls     map[string]int       // polls per push transaction (push-pending-first)
	firstPoll map[string]time.Time // first poll of each (push-pending-for)

	// the rate-limit variant's window (limited)
	rateMu   sync.Mutex
	window   time.Time
	inWindow int
}

// Config is what an Env is made of.
type Config struct {
	// Store is the world's store; Refs name its seeded records (the
	// fixture file's).
	Store *store.Store
	Refs  world.Refs
	// Defects and Variants are the switches in force, Inject the latency
	// and faults: the server's, shared by its worlds.
	Defects  *switches.Defects
	Variants *switches.Variants
	Inject   *Injector
	// WallClock is the real time, read only to check one-time passwords
	// (E1), which are valid only now.
	WallClock func() time.Time
	// Observed is set when something reads what each request did (a
	// request log, the console's live log, the traffic record): a
	// request may then carry a front.Note to fill.
	Observed bool
	// Examples is set when the traffic record keeps an example of each
	// operation, reliance and rule broken.
	Examples bool
}

// NewEnv returns the world c describes.
func NewEnv(c Config) *Env {
	return &Env{store: c.Store, refs: c.Refs, defects: c.Defects, variants: c.Variants, inject: c.Inject,
		wallClock: c.WallClock, observed: c.Observed, examples: c.Examples, polls: map[string]int{}, firstPoll: map[string]time.Time{}}
}

// Mount registers the handler of every operation on t, at its place and
// with its access rule as the switches stand.
func (env *Env) Mount(t *front.RouteTable) {
	for _, op := range operations {
		op.access = env.variantAccess(env.defectiveAccess(op))
		method, path := env.place(op)
		t.HandleOperation(front.RoutePattern(method, path), env.opHandler(op, path))
	}
}

// Reset puts the world back in its seeded state: every change is undone
// and open push transactions are forgotten.
func (env *Env) Reset() {
	env.store.Reset()
	env.forgetPolls()
}

// Restore replaces the world with st over base, the world seeded as st
// was (store.Restore); open push transactions' poll counts are
// forgotten, as Reset forgets them.
func (env *Env) Restore(st *store.State, base *store.World) {
	env.store.Restore(st, base)
	env.forgetPolls()
}

func (env *Env) forgetPolls() {
	env.pollMu.Lock()
	clear(env.polls)
	clear(env.firstPoll)
	env.pollMu.Unlock()
}
