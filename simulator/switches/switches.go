// Package switches holds the defects and variants in force in a running
// simulator. The settings (PUT /_sim/TOKEN/settings, the console) replace
// a set whole while requests read it: every layer of the simulator reads
// it at its decision points, so a switch takes effect from the next
// request, without a restart.
package switches

import (
	"sync/atomic"

	"github.com/campusconf/campusconf/internal/switchset"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/variants"
)

// Switch holds a set of named switches in force. Its zero value holds
// none yet: Store one before any Has.
type Switch[N ~string] struct {
	p atomic.Pointer[switchset.Set[N]]
}

// Defects holds the defects in force; Variants holds the faithful choices
// switched on.
type (
	Defects  = Switch[defects.Name]
	Variants = Switch[variants.Name]
)

// Has reports whether the named switch is on.
func (s *Switch[N]) Has(name N) bool { return s.p.Load().Has(name) }

// Enabled returns the names of the switches on, sorted.
func (s *Switch[N]) Enabled() []string { return s.p.Load().Enabled() }

// Set returns the set in force. Each Store puts a new set in force, so
// two sets tell two settings apart (an encoded page is kept per set).
func (s *Switch[N]) Set() *switchset.Set[N] { return s.p.Load() }

// Store puts set in force.
func (s *Switch[N]) Store(set switchset.Set[N]) { s.p.Store(&set) }
