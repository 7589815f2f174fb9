// Package simulator is a stateful, seeded simulator of the Campus Learning
// Platform interface: every operation of the specification at its method and
// path, the five operations the specification does not place at the paths
// docs/decisions.md gives, authentication by subscription key and bearer
// token, and the validation and state rules the specification states. A
// Simulator is an http.Handler, so tests and the conformance suite can run
// it in-process; `campusconf serve` serves it on a port.
//
// This package puts the simulator together and is its public face: the
// options, a Simulator per world, the named worlds, the switches of a
// running server, the worlds' clock and snapshots. Its parts, each below
// the one before: simulator/devserver (the control API, console, traffic
// record and docs), simulator/ops (the operations), simulator/passes
// (what defects and variants do to answers), simulator/front (the HTTP
// entry), and beneath them the store, the seeded world, the lists, the
// defect and variant catalogues, the switches in force and the documented
// decisions.
package simulator

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/devserver"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/ops"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
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
	defects  *switches.Defects
	variants *switches.Variants
	store    *store.Store
	// env is the world as its operations see it (simulator/ops).
	env *ops.Env
	log *slog.Logger
	// handler is the routes as the switches stand; settings.go rebuilds it.
	handler atomic.Pointer[http.Handler]
	// table is the route table handler routes with (createsWorld reads
	// it).
	table atomic.Pointer[front.RouteTable]

	// shared is what every world of one server shares: the switches,
	// the injected latency and faults, the clock's start, the console's
	// live log and the traffic record.
	*shared
	// worlds are the named worlds (worlds.go); nil in a named world.
	worlds *worlds
	// hosts are the Host values the server answers (wire.HostPolicy); checked
	// once, by the default world's ServeHTTP, before a world is chosen.
	hosts wire.HostPolicy
}

// shared is the state the default world and the named worlds of one
// server share.
type shared struct {
	// inject injects the latency and faults in force.
	inject *ops.Injector

	clockMu sync.Mutex
	start   time.Time // the clock a world is seeded at (clock.go)
	// wall, with Options.RealTime, moves start (startReal) and each
	// world's clock with real time; nil: they stay.
	wall      func() time.Time
	startReal store.RealTime
	// clockGiven is set when Options.Clock was: a state file's seeding
	// time then does not replace it.
	clockGiven bool

	// defects and variants can be switched while serving (settings.go),
	// as can latency and faults.
	defects  switches.Defects
	variants switches.Variants
	// settingsMu orders switches, so two never interleave.
	settingsMu sync.Mutex
	// events feeds the console's live request log; nil without Control.
	events *devserver.Events
	// traffic is what the app did, for its report; nil without
	// Options.TrafficReport (simulator/devserver).
	traffic *devserver.TrafficRecord
	// cors is the origins browsers may call the interface from.
	cors wire.CORSPolicy
	// redactor hides the world's credentials (the fixture's: key, tokens,
	// second factor, control token) in what the request log and the
	// console show of a request; nil when nothing shows requests.
	redactor *redact.Redactor
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
	hosts, err := wire.NewHostPolicy(opts.AllowedHosts)
	if err != nil {
		return nil, err
	}
	cors, err := wire.ParseCORSOrigins(strings.Join(opts.CORSOrigins, ","))
	if err != nil {
		return nil, fmt.Errorf("cors origins: %w", err)
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
	sh := &shared{start: opts.Clock, clockGiven: clockGiven, cors: cors}
	if opts.RealTime {
		sh.wall, sh.startReal = opts.WallClock, store.NewRealTime(opts.WallClock)
	}
	d, err := defects.New(opts.Defects)
	if err != nil {
		return nil, err
	}
	vs, err := variants.New(opts.Variants)
	if err != nil {
		return nil, err
	}
	sh.inject = ops.NewInjector(opts.Seed, opts.Faults, opts.Latency)
	sh.defects.Store(d)
	sh.variants.Store(vs)
	if opts.Control {
		sh.events = devserver.NewEvents()
	}
	if opts.TrafficReport != nil {
		sh.traffic = devserver.NewTrafficRecord()
	}
	s := build(opts, sh, log, "")
	s.worlds = newWorlds(opts.MaxWorlds)
	s.hosts = hosts
	return s, nil
}

// build returns a simulator of one world, named name ("" for the default
// world); New's checks are done.
func build(opts Options, sh *shared, log *slog.Logger, name string) *Simulator {
	s := &Simulator{
		opts:     opts,
		name:     name,
		defects:  &sh.defects,
		variants: &sh.variants,
		shared:   sh,
		log:      log,
	}
	w, refs := world.BuildAt(opts.Seed, opts.Scale, sh.clockStart())
	s.store = store.New(w, func() *store.World {
		w, _ := world.BuildAt(opts.Seed, opts.Scale, sh.clockStart())
		return w
	}, storePolicy(s.defects))
	if sh.wall != nil {
		s.store.SetRealTime(sh.wall)
	}
	s.env = ops.NewEnv(ops.Config{Store: s.store, Refs: refs, Defects: s.defects, Variants: s.variants, Inject: sh.inject,
		WallClock: opts.WallClock, Observed: s.observed(), Examples: sh.traffic != nil})
	if name == "" && s.observed() {
		// the seed's credentials are every world's
		sh.redactor = redact.New(s.Fixtures())
	}
	h := s.routes()
	s.handler.Store(&h)
	return s
}

// ServeHTTP serves the interface: the default world, or the named world
// the request selects (worlds.go), for a Host it is served as (front.Hosts).
func (s *Simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hosts.Allows(r.Host) {
		front.Misdirected(w, r, s.log)
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
func (s *Simulator) Reset() { s.env.Reset() }

// Fixtures returns the fixture file of the simulator's world: credentials
// per role, the ids of the seeded records, where the unplaced operations
// live, the refusals of the role model beyond the two the specification
// states (ops.Env.Fixtures), and where the control API and the self-reset
// are. It describes the world as seeded (Reset restores it).
func (s *Simulator) Fixtures() *fixtures.File {
	f := s.env.Fixtures(fmt.Sprintf("campusconf simulator, seed %d, scale %d", s.opts.Seed, s.opts.Scale))
	f.Control = s.ControlPath()
	if s.opts.SelfReset {
		f.Reset = &fixtures.Reset{Method: http.MethodPost, Path: ops.SelfResetPath, User: "admin"}
	}
	return f
}

// Defects returns every defect the simulator can be asked to make, with a
// one-line description each.
func Defects() []defects.Defect { return defects.All() }

// Variants returns every faithful choice the simulator can be asked to make
// where the specification is open, with the open point each exercises.
func Variants() []variants.Variant { return variants.All() }
