package world

import (
	"fmt"
	"time"
)

// MinClock and MaxClock bound the world's clock (the simulator's
// Options.Clock, serve --clock, PUT /_sim/TOKEN/clock): the seeded
// history reaches years back from the clock (longer at a large --scale),
// and the run-time records and the evaluations' closing dates go after
// it, so within these bounds every date the world holds is one RFC 3339
// can write (years 0000 to 9999), with centuries to spare. A clock
// outside them is refused with a message, never a 500 later.
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
