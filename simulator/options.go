package simulator

import (
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
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
	// AllowedHosts are the host names, besides localhost, names under
	// .localhost and IP addresses, under which the simulator answers
	// (hosts.go): a request whose Host header names another gets 421, so
	// a web page cannot reach the simulator through DNS rebinding. An
	// entry is a name ("campus-api"), a domain with its subdomains
	// (".example.edu"), or AnyHost ("*"), which switches the check off.
	// An in-process embedder whose requests carry a made-up host (such
	// as httptest's example.com) lists it here.
	AllowedHosts []string
	// WallClock is the real time, read only to check one-time passwords
	// (E1), which are valid only now; nil means time.Now. Tests set it.
	WallClock func() time.Time
	// Docs serves Swagger UI at /docs with the subscription key and a
	// user's token filled in (docs.go). The page holds credentials: serve
	// it only where the people who can reach it may hold them.
	Docs bool
}

// Latency is a delay: Min when Max is not above it, else uniform in
// [Min, Max].
type Latency struct {
	Min, Max time.Duration
}

// ParseLatency reads "50ms" (fixed) or "20ms..200ms" (range).
func ParseLatency(s string) (Latency, error) {
	lo, hi, isRange := strings.Cut(s, "..")
	min, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil || min < 0 {
		return Latency{}, fmt.Errorf("latency: expected a duration such as 50ms or a range such as 20ms..200ms, got %q", s)
	}
	if !isRange {
		return Latency{Min: min, Max: min}, nil
	}
	max, err := time.ParseDuration(strings.TrimSpace(hi))
	if err != nil || max < min {
		return Latency{}, fmt.Errorf("latency: expected a range MIN..MAX with MAX >= MIN, got %q", s)
	}
	return Latency{Min: min, Max: max}, nil
}

// String returns the latency in the form ParseLatency reads.
func (l Latency) String() string {
	if l.Max <= l.Min {
		return l.Min.String()
	}
	return l.Min.String() + ".." + l.Max.String()
}

// Faults are injected failures. Rates are probabilities from 0 to 1.
type Faults struct {
	// TwoFactorRate is the rate of 503 answers on E1, E2 and E3.
	TwoFactorRate float64 `json:"twoFactorRate"`
	// Operation (an id such as "E10" or an unplaced operation's fixture
	// key) answers 500 at OperationRate.
	Operation     string  `json:"operation,omitempty"`
	OperationRate float64 `json:"operationRate"`
}

// any reports whether a fault can be drawn: a rate above 0.
func (f Faults) any() bool { return f.TwoFactorRate > 0 || f.OperationRate > 0 }

// Check reports the first invalid setting.
func (f Faults) Check() error {
	for _, r := range []struct {
		name string
		v    float64
	}{{"two-factor fault rate", f.TwoFactorRate}, {"operation fault rate", f.OperationRate}} {
		if r.v < 0 || r.v > 1 {
			return fmt.Errorf("%s: expected a number from 0 to 1, got %g", r.name, r.v)
		}
	}
	if f.Operation != "" && !slices.Contains(OperationIDs(), registry.ID(f.Operation)) {
		return fmt.Errorf("fault operation: expected one of %s, got %q", strings.Join(OperationIDs(), ", "), f.Operation)
	}
	if f.Operation == "" && f.OperationRate > 0 {
		return fmt.Errorf("operation fault rate %g given without an operation", f.OperationRate)
	}
	return nil
}
