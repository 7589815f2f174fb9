package devserver

import (
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/ops"
	"github.com/campusconf/campusconf/simulator/switches"
)

// TrafficRecord accumulates what the app did (wire.Traffic): the
// operations it called, the request rules its requests broke and the
// documented choices their answers relied on (simulator/ops notes both
// on each request). One per server, every world feeding it (Watch).
type TrafficRecord struct {
	mu       sync.Mutex
	since    time.Time
	restarts int
	requests int
	ops      map[string]*wire.OperationUse
	viols    map[string]*wire.ViolationUse
	relies   [decisions.NumChoices]struct {
		count   int
		ops     []string
		example *wire.Example
	}
}

// NewTrafficRecord returns a record of no traffic yet, since now.
func NewTrafficRecord() *TrafficRecord {
	t := &TrafficRecord{}
	t.clear()
	return t
}

// clear empties the record, since now. Callers hold mu (or own t).
func (t *TrafficRecord) clear() {
	t.since, t.restarts, t.requests = time.Now().UTC(), 0, 0
	t.ops, t.viols = map[string]*wire.OperationUse{}, map[string]*wire.ViolationUse{}
	for d := range t.relies {
		t.relies[d].count, t.relies[d].ops, t.relies[d].example = 0, nil, nil
	}
}

// StartOver empties the record: the traffic report's period starts now
// (DELETE /_sim/TOKEN/traffic).
func (t *TrafficRecord) StartOver() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clear()
}

// Resume replaces the record with one saved by an earlier run of the
// server (a state file's): the period goes on from its start, the
// counts and examples go on from where they were, and one more restart
// is counted. An operation, requirement or choice the record does not
// know is dropped.
func (t *TrafficRecord) Resume(saved wire.Traffic) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clear()
	if !saved.Since.IsZero() {
		t.since = saved.Since.UTC()
	}
	t.restarts, t.requests = saved.Restarts+1, saved.Requests
	for _, u := range saved.Operations {
		if o, ok := registry.Lookup(u.Op); !ok || string(o.ID) != u.Op {
			continue
		}
		c := u
		c.Statuses = maps.Clone(u.Statuses)
		if c.Statuses == nil {
			c.Statuses = map[string]int{}
		}
		t.ops[u.Op] = &c
	}
	for _, v := range saved.Violations {
		c := v
		c.Ops = slices.Clone(v.Ops)
		t.viols[v.Requirement] = &c
	}
	for _, r := range saved.Relies {
		for d := range decisions.NumChoices {
			if d.Decision().ID == r.ID {
				t.relies[d].count, t.relies[d].ops, t.relies[d].example = r.Count, slices.Clone(r.Ops), r.Example
			}
		}
	}
}

// exampleOf is the note's example as the record keeps it.
func exampleOf(note *front.Note, status int) *wire.Example {
	e := note.Example
	e.Op, e.User, e.Status = note.Op, note.User, status
	return &e
}

// better reports whether an example answered status should replace
// the one kept: none kept, or a 2xx in place of another status.
func better(kept *wire.Example, status int) bool {
	return kept == nil || (!ok2xx(kept.Status) && ok2xx(status))
}

func ok2xx(status int) bool { return status >= 200 && status < 300 }

// add records one answered operation request, placing its operation as
// the variants in force v do.
func (t *TrafficRecord) add(v *switches.Variants, note *front.Note, status int) {
	if note.Op == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.requests++
	u := t.ops[note.Op]
	if u == nil {
		op := registry.Must(registry.OpID(note.Op))
		method, path := ops.Place(op, v)
		u = &wire.OperationUse{Op: note.Op, Method: method, Path: path, Statuses: map[string]int{}}
		t.ops[note.Op] = u
	}
	u.Count++
	u.Statuses[strconv.Itoa(status)]++
	kept := note.Example.Method != ""
	if kept && better(u.Example, status) {
		u.Example = exampleOf(note, status)
	}
	for _, v := range note.Violations {
		vu := t.viols[v.Requirement]
		if vu == nil {
			vu = &wire.ViolationUse{Requirement: v.Requirement, What: v.What, Example: *exampleOf(note, status), Status: status}
			t.viols[v.Requirement] = vu
		}
		vu.Count++
		if !slices.Contains(vu.Ops, note.Op) {
			vu.Ops = append(vu.Ops, note.Op)
		}
	}
	for d := range decisions.NumChoices {
		if note.Relies.Has(d) {
			r := &t.relies[d]
			r.count++
			if kept && better(r.example, status) {
				r.example = exampleOf(note, status)
			}
			if !slices.Contains(r.ops, note.Op) {
				r.ops = append(r.ops, note.Op)
			}
		}
	}
}

// Snapshot returns the record as it stands: empty, its lists empty, for
// a nil record (no traffic is recorded).
func (t *TrafficRecord) Snapshot() wire.Traffic {
	if t == nil {
		return emptyTraffic()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	out := emptyTraffic()
	out.Since, out.Until, out.Restarts, out.Requests = t.since, time.Now().UTC(), t.restarts, t.requests
	for _, id := range registry.IDs() {
		if u := t.ops[string(id)]; u != nil {
			c := *u
			c.Statuses = maps.Clone(u.Statuses)
			c.Example = cloneExample(u.Example)
			out.Operations = append(out.Operations, c)
		}
	}
	for _, req := range slices.Sorted(maps.Keys(t.viols)) {
		c := *t.viols[req]
		c.Ops = slices.Clone(c.Ops)
		out.Violations = append(out.Violations, c)
	}
	for d := range decisions.NumChoices {
		if r := t.relies[d]; r.count > 0 {
			dt := d.Decision()
			out.Relies = append(out.Relies, wire.Reliance{ID: dt.ID, Simulator: dt.Simulator, Instead: dt.Instead, Robust: dt.Robust,
				Section: dt.Section, Count: r.count, Ops: slices.Clone(r.ops), Example: cloneExample(r.example)})
		}
	}
	return out
}

// emptyTraffic is a record of no traffic, its lists empty (JSON [], not
// null).
func emptyTraffic() wire.Traffic {
	return wire.Traffic{Operations: []wire.OperationUse{}, Violations: []wire.ViolationUse{}, Relies: []wire.Reliance{}}
}

// cloneExample copies an example (nil stays nil); its FixtureIDs are
// filled by the report writer, never here.
func cloneExample(e *wire.Example) *wire.Example {
	if e == nil {
		return nil
	}
	c := *e
	c.FixtureIDs = maps.Clone(e.FixtureIDs)
	return &c
}
