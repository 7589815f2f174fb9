package steps

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/campusconf/campusconf/reports"
)

// ErrTargetStopped is the cause of a run's context ending because the
// target stopped answering (see watchdog).
var ErrTargetStopped = errors.New("the target stopped answering")

// Watch is told of every exchange a producer of the run makes with the
// target, so that the run stops when the target stops answering.
type Watch interface {
	// Answered records an HTTP answer, whatever its status.
	Answered()
	// NoAnswer records a transport error: no HTTP answer at all.
	NoAnswer()
}

// The rules that take a target for dead: this many requests in a row with
// no HTTP answer (a read counts once its retry got none either), or one
// such request this long after the last answer.
const (
	deadAfterErrors  = 5
	deadAfterSilence = 10 * time.Second
)

// watchdog is the run's Watch: when the target stops answering it
// records why in Stopped and ends the run's context with
// ErrTargetStopped, so the scenarios not finished end at once. Isolated
// errors on a target that still answers stop nothing.
type watchdog struct {
	mu      sync.Mutex
	start   time.Time
	last    time.Time // last answer, or the start
	since   time.Time // first error of the current run of errors
	streak  int
	stop    context.CancelCauseFunc
	stopped *reports.Stopped
	now     func() time.Time
}

func newWatchdog(start time.Time, stop context.CancelCauseFunc) *watchdog {
	return &watchdog{start: start, last: start, stop: stop, now: time.Now}
}

// Answered records an answer: the run of errors, if any, ends.
func (w *watchdog) Answered() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = w.now()
	w.streak = 0
}

// NoAnswer records a transport error and stops the run when it makes
// deadAfterErrors in a row, or comes deadAfterSilence after the last
// answer.
func (w *watchdog) NoAnswer() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped != nil {
		return
	}
	t := w.now()
	if w.streak == 0 {
		w.since = t
	}
	w.streak++
	var why string
	switch {
	case w.streak >= deadAfterErrors:
		why = fmt.Sprintf("%d transport errors in a row", w.streak)
	case t.Sub(w.last) >= deadAfterSilence:
		why = fmt.Sprintf("no answer for %s", t.Sub(w.last).Round(time.Second))
	default:
		return
	}
	w.stopped = &reports.Stopped{LastAnswer: w.last, Since: w.since, After: reports.Duration(t.Sub(w.start)), Errors: w.streak, Why: why}
	if w.stop != nil {
		w.stop(ErrTargetStopped)
	}
}

// Stopped is how the run stopped, or nil when the target kept answering.
func (w *watchdog) Stopped() *reports.Stopped {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped == nil {
		return nil
	}
	st := *w.stopped
	return &st
}
