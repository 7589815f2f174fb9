// Package simulator is a stateful, seeded simulator of the Campus Learning
// Platform interface: every operation of the specification at its method and
// path, the five operations the specification does not place at the paths
// docs/decisions.md gives, authentication by subscription key and bearer
// token, and the validation and state rules the specification states. A
// Simulator is an http.Handler, so tests and the conformance suite can run
// it in-process; `campusconf serve` serves it on a port.
package simulator

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
	"github.com/campusconf/campusconf/simulator/world"
)

// Simulator serves one seeded world.
type Simulator struct {
	opts Options
	// name is a named world's name, "" for the default world.
	name string
	// defects and variants are the server's, switchable while it runs
	// (settings.go); variants are the faithful choices switched on.
	defects  *defectSwitch
	variants *variantSwitch
	store    *store.Store
	refs     world.Refs
	log      *slog.Logger
	// handler is the routes as the switches stand; settings.go rebuilds it.
	handler atomic.Pointer[http.Handler]

	// shared is what every world of one server shares: the faults in
	// force and the random draws of faults and latency.
	*shared
	// worlds are the named worlds (worlds.go); nil in a named world.
	worlds *worlds
	// hosts are the Host values the server answers (hosts.go); checked
	// once, by the default world's ServeHTTP, before a world is chosen.
	hosts hostPolicy

	pollMu sync.Mutex
	polls  map[string]int // polls per push transaction (push-pending-first)
}

// shared is the state the default world and the named worlds of one
// server share.
type shared struct {
	faultMu sync.Mutex
	faults  Faults
	// faultsOn is set while a fault rate of faults is above 0, so that
	// a request with none need not take faultMu.
	faultsOn atomic.Bool
	rng      *rand.Rand // fault draws and latency; guarded by faultMu

	clockMu sync.Mutex
	start   time.Time // the clock a world is seeded at (clock.go)
	// clockGiven is set when Options.Clock was: a state file's seeding
	// time then does not replace it.
	clockGiven bool

	// latency, defects and variants can be switched while serving
	// (settings.go).
	latency  atomic.Pointer[Latency]
	defects  defectSwitch
	variants variantSwitch
	// settingsMu orders switches, so two never interleave.
	settingsMu sync.Mutex
	// events feeds the console's live request log; nil without Control.
	events *eventHub
	// traffic is what the app did, for its report; nil without
	// Options.TrafficReport (traffic.go).
	traffic *trafficRecord
}

// New returns a simulator of the world opts describe.
func New(opts Options) (*Simulator, error) {
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Scale == 0 {
		opts.Scale = 1
	}
	if opts.Scale < 0 {
		return nil, fmt.Errorf("scale: expected a positive integer, got %d", opts.Scale)
	}
	if opts.Latency.Min < 0 || opts.Latency.Max < 0 {
		return nil, fmt.Errorf("latency: expected non-negative durations, got %s", opts.Latency)
	}
	if err := opts.Faults.Check(); err != nil {
		return nil, err
	}
	if opts.MaxWorlds < 0 {
		return nil, fmt.Errorf("max worlds: expected 0 (the default, %d) or a positive number, got %d", DefaultMaxWorlds, opts.MaxWorlds)
	}
	if opts.MaxWorlds == 0 {
		opts.MaxWorlds = DefaultMaxWorlds
	}
	if opts.Control && opts.ControlToken == "" {
		opts.ControlToken = newControlToken()
	}
	if opts.ControlToken != "" {
		if err := CheckControlToken(opts.ControlToken); err != nil {
			return nil, err
		}
	}
	log := opts.Logger
	if log == nil && opts.LogTo != nil {
		log = slog.New(slog.NewTextHandler(opts.LogTo, nil))
	}
	hosts, err := newHostPolicy(opts.AllowedHosts)
	if err != nil {
		return nil, err
	}
	if opts.WallClock == nil {
		opts.WallClock = time.Now
	}
	clockGiven := !opts.Clock.IsZero()
	if clockGiven {
		if err := CheckClock(opts.Clock); err != nil {
			return nil, err
		}
	} else {
		opts.Clock = world.Now
	}
	opts.Clock = opts.Clock.UTC()
	sh := &shared{faults: opts.Faults, rng: rand.New(rand.NewPCG(uint64(opts.Seed), 0x5eed)), start: opts.Clock, clockGiven: clockGiven}
	d, err := defects.New(opts.Defects)
	if err != nil {
		return nil, err
	}
	vs, err := variants.New(opts.Variants)
	if err != nil {
		return nil, err
	}
	sh.faultsOn.Store(opts.Faults.any())
	sh.defects.p.Store(&d)
	sh.variants.p.Store(&vs)
	lat := opts.Latency
	sh.latency.Store(&lat)
	if opts.Control {
		sh.events = newEventHub()
	}
	if opts.TrafficReport != nil {
		sh.traffic = newTrafficRecord()
	}
	s := build(opts, sh, log)
	s.worlds = newWorlds(opts.MaxWorlds)
	s.hosts = hosts
	return s, nil
}

// build returns a simulator of one world; New's checks are done.
func build(opts Options, sh *shared, log *slog.Logger) *Simulator {
	s := &Simulator{
		opts:     opts,
		defects:  &sh.defects,
		variants: &sh.variants,
		polls:    map[string]int{},
		shared:   sh,
		log:      log,
	}
	w, refs := world.BuildAt(opts.Seed, opts.Scale, sh.clockStart())
	s.refs = refs
	s.store = store.New(w, func() *store.World {
		w, _ := world.BuildAt(opts.Seed, opts.Scale, sh.clockStart())
		return w
	}, s.defects.storePolicy())
	h := s.routes()
	s.handler.Store(&h)
	return s
}

// ServeHTTP serves the interface: the default world, or the named world
// the request selects (worlds.go), for a Host it is served as (hosts.go).
func (s *Simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hosts.allows(r.Host) {
		s.misdirected(w, r)
		return
	}
	if s.worlds != nil && (len(r.Header[WorldHeader]) > 0 || strings.HasPrefix(r.URL.Path, worldPrefix)) {
		s.serveWorld(w, r)
		return
	}
	(*s.handler.Load()).ServeHTTP(w, r)
}

// Reset puts the world back in its seeded state: every change since New is
// undone and open push transactions are forgotten.
func (s *Simulator) Reset() {
	s.store.Reset()
	s.pollMu.Lock()
	clear(s.polls)
	s.pollMu.Unlock()
}

// Defects returns every defect the simulator can be asked to make, with a
// one-line description each.
func Defects() []defects.Defect { return defects.All() }

// Variants returns every faithful choice the simulator can be asked to make
// where the specification is open, with the open point each exercises.
func Variants() []variants.Variant { return variants.All() }
