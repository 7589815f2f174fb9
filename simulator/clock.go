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
// world) is seeded relative to the new time. One-time passwords (E1) are
// checked against the real time, like the authenticator apps that make
// them.

// clockStart is the time a world is seeded at.
func (sh *shared) clockStart() time.Time {
	sh.clockMu.Lock()
	defer sh.clockMu.Unlock()
	return sh.start
}

// Clock returns the world's current time.
func (s *Simulator) Clock() time.Time { return s.store.Clock() }

// SetClock moves the clock of every world to t, and seeds worlds from
// then on relative to t.
func (s *Simulator) SetClock(t time.Time) {
	t = t.UTC()
	s.clockMu.Lock()
	s.start = t
	s.clockMu.Unlock()
	s.store.SetClock(t)
	if s.worlds == nil {
		return
	}
	s.worlds.mu.Lock()
	defer s.worlds.mu.Unlock()
	for e := s.worlds.lru.Front(); e != nil; e = e.Next() {
		e.Value.(*namedWorld).sim.store.SetClock(t)
	}
}

// ShiftClock moves the clock of every world by d.
func (s *Simulator) ShiftClock(d time.Duration) {
	s.clockMu.Lock()
	s.start = s.start.Add(d)
	s.clockMu.Unlock()
	shift := func(sim *Simulator) { sim.store.SetClock(sim.store.Clock().Add(d)) }
	shift(s)
	if s.worlds == nil {
		return
	}
	s.worlds.mu.Lock()
	defer s.worlds.mu.Unlock()
	for e := s.worlds.lru.Front(); e != nil; e = e.Next() {
		shift(e.Value.(*namedWorld).sim)
	}
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
		s.SetClock(t)
	case json.Unmarshal(raw, &shift) == nil && shift.Shift != nil:
		d, err := time.ParseDuration(*shift.Shift)
		if err != nil {
			s.fail(w, http.StatusBadRequest, fmt.Sprintf("clock: shift: expected a duration such as 48h or -30m, got %q", clip(*shift.Shift)))
			return
		}
		s.ShiftClock(d)
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
