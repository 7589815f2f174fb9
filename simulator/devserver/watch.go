package devserver

import (
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/switches"
)

// Watch is what one world's requests feed besides the request log: the
// console's live log and the traffic record (a front.Watcher).
type Watch struct {
	// Events are the console's live log, nil without the control API;
	// Traffic the traffic record, nil when none is kept.
	Events  *Events
	Traffic *TrafficRecord
	// World is the world's name, "" for the default world.
	World string
	// Variants are the variants in force: where the traffic record
	// places an operation.
	Variants *switches.Variants
}

// Inspecting reports whether a request's violations and reliances have a
// reader: a console watching, the traffic record.
func (w *Watch) Inspecting() bool {
	return w.Traffic != nil || (w.Events != nil && w.Events.watchers.Load() > 0)
}

// Observed feeds an answered request to the console's live log (but for
// control API calls) and to the traffic record.
func (w *Watch) Observed(x front.Exchange) {
	note := x.Note
	if w.Events != nil && !x.Control {
		ev := logEntry{Time: x.Start, Method: x.Method, Path: x.Path, Status: x.Status,
			Millis: float64(x.Took.Microseconds()) / 1000, User: note.User, Op: note.Op, World: w.World}
		if note.Inspect {
			ev.Violations, ev.Relies = note.ViolationIDs(), note.Relies.IDs()
		}
		w.Events.publish(ev)
	}
	if w.Traffic != nil {
		w.Traffic.add(w.Variants, note, x.Status)
	}
}
