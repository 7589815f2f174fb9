package simulator

import (
	"fmt"
	"time"

	"github.com/campusconf/campusconf/simulator/world"
)

// The clock. Every world has a time: records created at run time are dated
// from it, and every seeded date is counted back from the time the world
// was seeded at, so the same seed gives the same history relative to the
// clock. By default the clock advances one second per write, so runs stay
// reproducible; with Options.RealTime (serve's default) it moves with real
// time, and so does the time a new world is seeded at.
// Options.Clock (serve --clock) sets that time at start; PUT
// /_sim/TOKEN/clock moves it while running. Moving it moves the clock of
// every world at once; records already present keep their dates (time has
// passed for them), and a world seeded afterwards (a reset, a new named
// world) is seeded relative to the new time. The clock stays within
// MinClock..MaxClock. One-time passwords (E1) are checked against the real
// time (Options.WallClock), like the authenticator apps that make them.

// MinClock and MaxClock bound the clock (Options.Clock, serve --clock, PUT
// /_sim/TOKEN/clock): within them every date the world holds is one RFC
// 3339 can write (world.MinClock, world.MaxClock).
var (
	MinClock = world.MinClock
	MaxClock = world.MaxClock
)

// CheckClock refuses a clock outside MinClock..MaxClock.
func CheckClock(t time.Time) error { return world.CheckClock(t) }

// clockStart is the time a world is seeded at: with real time
// (Options.RealTime), the time now.
func (sh *shared) clockStart() time.Time {
	sh.clockMu.Lock()
	defer sh.clockMu.Unlock()
	sh.rebaseStart()
	return sh.start
}

// setStart makes t the time worlds are seeded at, from now on. Callers
// hold clockMu.
func (sh *shared) setStart(t time.Time) {
	sh.start = t
	sh.startReal.Rebase()
}

// rebaseStart brings start up to date with the real time passed (never
// back). Callers hold clockMu.
func (sh *shared) rebaseStart() {
	sh.start = sh.startReal.Advance(sh.start)
}

// RealTime reports whether the world's time moves with real time
// (Options.RealTime).
func (s *Simulator) RealTime() bool { return s.wall != nil }

// Clock returns the world's current time.
func (s *Simulator) Clock() time.Time { return s.store.Clock() }

// SetClock moves the clock of every world to t, and seeds worlds from
// then on relative to t. A t outside MinClock..MaxClock is refused and
// nothing moves.
func (s *Simulator) SetClock(t time.Time) error {
	if err := CheckClock(t); err != nil {
		return err
	}
	t = t.UTC()
	s.clockMu.Lock()
	defer s.clockMu.Unlock()
	s.setStart(t)
	for _, sim := range s.allWorlds() {
		sim.store.SetClock(t)
	}
	return nil
}

// ShiftClock moves the clock of every world by d. A shift that would take
// the seeding time or a world's clock outside MinClock..MaxClock is
// refused and nothing moves.
func (s *Simulator) ShiftClock(d time.Duration) error {
	s.clockMu.Lock()
	defer s.clockMu.Unlock()
	s.rebaseStart()
	all := s.allWorlds()
	for _, t := range append([]time.Time{s.start}, clocks(all)...) {
		// time.Time.Add does not overflow within the bounds: a duration
		// is under 300 years
		if err := CheckClock(t.Add(d)); err != nil {
			return fmt.Errorf("clock: shift %s: %w", d, err)
		}
	}
	s.setStart(s.start.Add(d))
	for _, sim := range all {
		sim.store.SetClock(sim.store.Clock().Add(d))
	}
	return nil
}

// allWorlds returns the default world and every named world.
func (s *Simulator) allWorlds() []*Simulator {
	out := []*Simulator{s}
	if s.worlds == nil {
		return out
	}
	s.worlds.mu.Lock()
	defer s.worlds.mu.Unlock()
	for e := s.worlds.lru.Front(); e != nil; e = e.Next() {
		out = append(out, e.Value.(*namedWorld).sim)
	}
	return out
}

// clocks returns the worlds' clocks.
func clocks(worlds []*Simulator) []time.Time {
	out := make([]time.Time, len(worlds))
	for i, sim := range worlds {
		out[i] = sim.store.Clock()
	}
	return out
}
