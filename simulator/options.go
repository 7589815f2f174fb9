package simulator

import (
	"io"
	"log/slog"
	"time"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/ops"
)

// Options configure a Simulator. The zero value is a quiet simulator of
// seed 1 at scale 1 without control API, latency, faults or defects.
type Options struct {
	// Seed selects the world; 0 means 1. The same seed gives the same
	// world, byte for byte.
	Seed int64
	// Scale multiplies the volume of every list; 0 means 1.
	Scale int
	// Control enables the control API under /_sim/TOKEN/.
	Control bool
	// SelfReset serves POST /_campusconf/reset, which restores the seeded
	// world for a caller holding the subscription key and a Super Admin
	// token (the fixture's "reset"), so a second run of the suite finds
	// the records the first consumed. `campusconf serve` turns it on when
	// it listens on loopback.
	SelfReset bool
	// ControlToken is the TOKEN of the control API's paths: at least 16
	// letters, digits, - or _. When empty and Control is set, New draws a
	// random one; ControlPath and the fixture file's "control" give it.
	ControlToken string
	// Latency delays every operation by a fixed or random duration.
	Latency Latency
	// Faults injects 503 and 500 answers at a rate.
	Faults Faults
	// Logger receives one line per request. When nil and LogTo is set, a
	// text logger writing to LogTo is used; when both are nil nothing is
	// logged. Lines never contain the subscription key or a token.
	Logger *slog.Logger
	LogTo  io.Writer
	// TrafficReport, when set, makes the simulator keep a record of what
	// the app did (Simulator.Traffic: operations, violations, reliances)
	// and is called with it on POST /_sim/TOKEN/report; it returns where
	// the report went. `campusconf serve --report-dir` sets it and calls
	// it again on exit.
	TrafficReport func(wire.Traffic) (string, error)
	// Defects names deliberate mistakes to make (see Defects).
	Defects []string
	// Variants names faithful choices to make where the specification is
	// open (see Variants); Fixtures describes them.
	Variants []string
	// MaxWorlds bounds the named worlds kept at once (worlds.go); 0 means
	// DefaultMaxWorlds. Beyond it the least recently used is dropped.
	MaxWorlds int
	// Clock is the world's time at start (zero: world.Now, 2025-04-06),
	// from MinClock to MaxClock: records created at run time are dated
	// from it, and the seeded history ends shortly before it, so a seed
	// has the same relative history whatever the clock says (clock.go).
	Clock time.Time
	// RealTime makes the world's time move with real time (WallClock)
	// from Clock, as `campusconf serve` does by default: a record created
	// now is dated now in the world's time. Off (the default, serve
	// --clock-mode step), the clock moves one second per write only, so
	// that runs are reproducible: the embedded target of `run`, the kill
	// matrix and the determinism tests keep it off.
	RealTime bool
	// AllowedHosts are the host names, besides localhost, names under
	// .localhost and IP addresses, under which the simulator answers
	// (wire.HostPolicy): a request whose Host header names another gets 421, so
	// a web page cannot reach the simulator through DNS rebinding. An
	// entry is a name ("campus-api"), a domain with its subdomains
	// (".example.edu"), or AnyHost ("*"), which switches the check off.
	// An in-process embedder whose requests carry a made-up host (such
	// as httptest's example.com) lists it here.
	AllowedHosts []string
	// CORSOrigins are the origins browsers may call the interface from,
	// each scheme://host[:port] (http://localhost:5173); empty, or "*",
	// allows any (wire.ParseCORSOrigins). A preflight is answered with
	// the headers it asks for; one refused is answered 403 and logged
	// with its reason.
	CORSOrigins []string
	// WallClock is the real time, read only to check one-time passwords
	// (E1), which are valid only now; nil means time.Now. Tests set it.
	WallClock func() time.Time
	// Docs serves Swagger UI at /docs with the subscription key and a
	// user's token filled in (simulator/devserver). The page holds credentials: serve
	// it only where the people who can reach it may hold them.
	Docs bool
}

// Latency is a delay: Min when Max is not above it, else uniform in
// [Min, Max] (ops.Latency).
type Latency = ops.Latency

// ParseLatency reads "50ms" (fixed) or "20ms..200ms" (range).
func ParseLatency(s string) (Latency, error) { return ops.ParseLatency(s) }

// Faults are injected failures, at rates from 0 to 1 (ops.Faults).
type Faults = ops.Faults
