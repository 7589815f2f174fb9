package ops

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
)

// Injected latency and faults: what every operation of every world of a
// server shares (serveOperation), switched while the server runs.

// Injector injects the latency and the faults in force into the
// operations of every world of one server, drawing both from one random
// source.
type Injector struct {
	mu     sync.Mutex
	faults Faults
	// on is set while a fault rate of faults is above 0, so that a
	// request with none need not take mu.
	on  atomic.Bool
	rng *rand.Rand // fault draws and latency; guarded by mu
	// latency can be switched while serving.
	latency atomic.Pointer[Latency]
}

// NewInjector returns an injector of f and l, drawing from a source
// seeded with seed. f must pass f.Check.
func NewInjector(seed int64, f Faults, l Latency) *Injector {
	in := &Injector{faults: f, rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
	in.on.Store(f.any())
	in.latency.Store(&l)
	return in
}

// Faults returns the faults in force.
func (in *Injector) Faults() Faults {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.faults
}

// SetFaults replaces the faults in force.
func (in *Injector) SetFaults(f Faults) error {
	if err := f.Check(); err != nil {
		return err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.faults = f
	in.on.Store(f.any())
	return nil
}

// Latency returns the latency in force.
func (in *Injector) Latency() Latency { return *in.latency.Load() }

// SetLatency replaces the latency in force.
func (in *Injector) SetLatency(l Latency) { in.latency.Store(&l) }

// delay sleeps for the latency in force; false when the client left.
func (in *Injector) delay(ctx context.Context) bool {
	l := *in.latency.Load()
	if l.Max <= 0 && l.Min <= 0 {
		return true
	}
	d := l.Min
	if l.Max > l.Min {
		in.mu.Lock()
		d += time.Duration(in.rng.Int64N(int64(l.Max - l.Min + 1)))
		in.mu.Unlock()
	}
	select {
	case <-time.After(d): // collected unfired once unreferenced (Go 1.23)
		return true
	case <-ctx.Done():
		return false
	}
}

// fault draws the faults in force for op: a status and message, or 0.
func (in *Injector) fault(op registry.OpID) (int, string) {
	if !in.on.Load() {
		return 0, ""
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	f := in.faults
	if f.TwoFactorRate > 0 && registry.Must(op).Profile == registry.ProfileSecondFactor && in.rng.Float64() < f.TwoFactorRate {
		return http.StatusServiceUnavailable, "the second-factor service is unavailable (injected fault)"
	}
	if f.OperationRate > 0 && string(op) == registry.ID(f.Operation) && in.rng.Float64() < f.OperationRate {
		return http.StatusInternalServerError, "internal server error (injected fault on " + string(op) + ")"
	}
	return 0, ""
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
	// TwoFactorRate is the rate of 503 answers on E1, E2 and E3 (the
	// second-factor profile).
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
	if ids := registry.Strings(registry.IDs()); f.Operation != "" && !slices.Contains(ids, registry.ID(f.Operation)) {
		return fmt.Errorf("fault operation: expected one of %s, got %q", strings.Join(ids, ", "), f.Operation)
	}
	if f.Operation == "" && f.OperationRate > 0 {
		return fmt.Errorf("operation fault rate %g given without an operation", f.OperationRate)
	}
	return nil
}
