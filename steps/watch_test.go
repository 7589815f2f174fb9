package steps

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWatchdog: the run stops on the fifth transport error in a row, or
// on one that comes ten seconds after the last answer; an answer between
// errors starts the count again.
func TestWatchdog(t *testing.T) {
	tests := []struct {
		name   string
		events string // a: answered, e: no answer, +: ten seconds pass
		stop   int    // index of the event that stops the run, -1: none
		why    string
	}{
		{"five errors in a row", "aeeeee", 5, "5 transport errors in a row"},
		{"isolated errors", "aeeeeaeeeeaeeee", -1, ""},
		{"an error after ten silent seconds", "aa+e", 3, "no answer for 10s"},
		{"ten seconds of answers", "a+a+a", -1, ""},
		{"errors from the start, then silence", "ee+e", 3, "no answer for 10s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
			ctx, stop := context.WithCancelCause(context.Background())
			defer stop(nil)
			w := newWatchdog(now, stop)
			w.now = func() time.Time { return now }
			stoppedAt := -1
			for i, ev := range tt.events {
				switch ev {
				case 'a':
					w.Answered()
				case 'e':
					w.NoAnswer()
				case '+':
					now = now.Add(deadAfterSilence)
				}
				if stoppedAt < 0 && w.Stopped() != nil {
					stoppedAt = i
				}
			}
			if stoppedAt != tt.stop {
				t.Fatalf("events %q: expected the stop at event %d, got %d", tt.events, tt.stop, stoppedAt)
			}
			if tt.stop < 0 {
				if ctx.Err() != nil {
					t.Errorf("the run's context ended without a stop")
				}
				return
			}
			if st := w.Stopped(); st.Why != tt.why {
				t.Errorf("why: expected %q, got %q", tt.why, st.Why)
			}
			if !errors.Is(context.Cause(ctx), ErrTargetStopped) {
				t.Errorf("the run's context: expected it ended with ErrTargetStopped, got %v", context.Cause(ctx))
			}
		})
	}
}
