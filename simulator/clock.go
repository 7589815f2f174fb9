package simulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The clock. Every world has a time: records created at run time are dated
// from it (it advances one second per write, so runs stay reproducible),
// and every seeded date is counted back from the time the world was seeded
// at, so the same seed gives the same history relative to the clock.
// Options.Clock (serve --clock) sets that time at start; PUT
// /_sim/TOKEN/clock moves it while running. Moving it moves the clock of
// every world at once; records already present keep their dates (time has
// passed for them), and a world seeded afterwards (a reset, a new named
// world) is seeded relative to the new time. The clock stays within
// MinClock..MaxClock. One-time passwords (E1) are checked against the real
// time (Options.WallClock), like the authenticator apps that make them.

// MinClock and MaxClock bound the clock (Options.Clock, serve --clock, PUT
// /_sim/TOKEN/clock): the seeded history reaches years back from the clock
// (longer at a large --scale), and the run-time records and the
// evaluations' closing dates go after it, so within these bounds every
// date the world holds is one RFC 3339 can write (years 0000 to 9999),
// with centuries to spare. A clock outside them is refused with a
// message, never a 500 later.
var (
	MinClock = time.Date(1971, time.January, 1, 0, 0, 0, 0, time.UTC)
	MaxClock = time.Date(9000, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// CheckClock refuses a clock outside MinClock..MaxClock.
func CheckClock(t time.Time) error {
	if t.Before(MinClock) || t.After(MaxClock) {
		return fmt.Errorf("clock: expected a date-time from %s to %s, got %s", MinClock.Format(time.RFC3339), MaxClock.Format(time.RFC3339), clockString(t))
	}
	return nil
}

// clockString writes t in RFC 3339 where it can, else as Go does.
func clockString(t time.Time) string {
	if y := t.Year(); y < 0 || y > 9999 {
		return t.String()
	}
	return t.Format(time.RFC3339)
}

// clockStart is the time a world is seeded at.
func (sh *shared) clockStart() time.Time {
	sh.clockMu.Lock()
	defer sh.clockMu.Unlock()
	return sh.start
}

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
	s.start = t
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
	all := s.allWorlds()
	for _, t := range append([]time.Time{s.start}, clocks(all)...) {
		// time.Time.Add does not overflow within the bounds: a duration
		// is under 300 years
		if err := CheckClock(t.Add(d)); err != nil {
			return fmt.Errorf("clock: shift %s: %w", d, err)
		}
	}
	s.start = s.start.Add(d)
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

// clockAnswer is what GET and PUT /_sim/TOKEN/clock answer.
type clockAnswer struct {
	// Clock is the default world's current time.
	Clock time.Time `json:"clock"`
	// Seeded is the time a world seeded now is seeded at.
	Seeded time.Time `json:"seeded"`
}

func (s *Simulator) clockAnswer() clockAnswer {
	return clockAnswer{Clock: s.Clock(), Seeded: s.clockStart()}
}

// controlClock is PUT /_sim/TOKEN/clock: a JSON string date-time sets the
// clock, {"shift": "48h"} moves it by a Go duration (negative moves it
// back).
func (s *Simulator) controlClock(w http.ResponseWriter, r *http.Request) {
	const want = `expected a JSON string date-time such as "2024-03-01T09:00:00Z" or {"shift": "48h"}`
	raw, ok := s.readRaw(w, r, MaxBodyBytes)
	if !ok {
		return
	}
	var at string
	var shift struct {
		Shift *string `json:"shift"`
	}
	switch {
	case json.Unmarshal(raw, &at) == nil:
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			s.fail(w, http.StatusBadRequest, fmt.Sprintf("clock: %s, got %q", want, clip(at)))
			return
		}
		if err := s.SetClock(t); err != nil {
			s.fail(w, http.StatusBadRequest, err.Error())
			return
		}
	case json.Unmarshal(raw, &shift) == nil && shift.Shift != nil:
		d, err := time.ParseDuration(*shift.Shift)
		if err != nil {
			s.fail(w, http.StatusBadRequest, fmt.Sprintf("clock: shift: expected a duration such as 48h or -30m, got %q", clip(*shift.Shift)))
			return
		}
		if err := s.ShiftClock(d); err != nil {
			s.fail(w, http.StatusBadRequest, err.Error())
			return
		}
	default:
		s.fail(w, http.StatusBadRequest, "clock: "+want)
		return
	}
	writeJSON(w, http.StatusOK, s.clockAnswer())
}

// readRaw reads a control API body of at most limit bytes.
func (s *Simulator) readRaw(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body: expected at most %d bytes", limit))
			return nil, false
		}
		s.fail(w, http.StatusBadRequest, "request body: "+err.Error())
		return nil, false
	}
	return data, true
}
