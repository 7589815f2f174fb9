package store

import (
	"testing"
	"time"
)

// TestRealTime: a time follows the wall clock's steps forward from the
// last Advance or Rebase, never back; without a wall clock it stays.
func TestRealTime(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		steps []time.Duration // the wall clock's moves, one before each Advance
		want  time.Duration   // how far t0 has moved after the last
	}{
		{"still", []time.Duration{0}, 0},
		{"forward", []time.Duration{time.Second, 2 * time.Second}, 3 * time.Second},
		{"back moves nothing", []time.Duration{-time.Minute}, 0},
		{"back then forward counts from the furthest", []time.Duration{time.Second, -time.Minute, time.Minute + 2*time.Second}, 3 * time.Second},
	}
	for _, tt := range tests {
		wall := t0
		r := NewRealTime(func() time.Time { return wall })
		at := t0
		for _, d := range tt.steps {
			wall = wall.Add(d)
			at = r.Advance(at)
		}
		if got := at.Sub(t0); got != tt.want {
			t.Errorf("%s: expected the time moved %s, got %s", tt.name, tt.want, got)
		}
	}
	var off RealTime
	off.Rebase()
	if off.On() || !off.Advance(t0).Equal(t0) {
		t.Errorf("the zero RealTime: expected it off and moving nothing, got on %v, %s", off.On(), off.Advance(t0))
	}
	if r := NewRealTime(nil); r.On() {
		t.Error("NewRealTime(nil): expected it off, got on")
	}
}
