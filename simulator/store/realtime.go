package store

import "time"

// RealTime moves a time with a wall clock, never back: Advance adds to a
// time the wall time passed since the last Advance or Rebase. The zero
// RealTime follows no wall clock and moves nothing. A world's clock
// (Store.SetRealTime) and the time worlds are seeded at (the simulator's
// Options.RealTime) both follow one.
type RealTime struct {
	wall   func() time.Time
	anchor time.Time
}

// NewRealTime follows wall from now on; with a nil wall it moves nothing.
func NewRealTime(wall func() time.Time) RealTime {
	r := RealTime{wall: wall}
	r.Rebase()
	return r
}

// On reports whether r follows a wall clock.
func (r *RealTime) On() bool { return r.wall != nil }

// Rebase counts the wall time passed from now.
func (r *RealTime) Rebase() {
	if r.wall != nil {
		r.anchor = r.wall()
	}
}

// Advance is t moved on by the wall time passed since the last Advance or
// Rebase; the wall clock going back moves nothing.
func (r *RealTime) Advance(t time.Time) time.Time {
	if r.wall == nil {
		return t
	}
	n := r.wall()
	if d := n.Sub(r.anchor); d > 0 {
		t = t.Add(d)
		r.anchor = n
	}
	return t
}
