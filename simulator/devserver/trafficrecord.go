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
	requests int
	ops      map[string]*wire.OperationUse
	viols    map[string]*wire.ViolationUse
	relies   [decisions.NumChoices]struct {
		count int
		ops   []string
	}
}

// NewTrafficRecord returns a record of no traffic yet, since now.
func NewTrafficRecord() *TrafficRecord {
	return &TrafficRecord{since: time.Now().UTC(), ops: map[string]*wire.OperationUse{}, viols: map[string]*wire.ViolationUse{}}
}

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
	for _, v := range note.Violations {
		vu := t.viols[v.Requirement]
		if vu == nil {
			vu = &wire.ViolationUse{Requirement: v.Requirement, What: v.What, Example: note.Example, Status: status}
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
	out.Since, out.Until, out.Requests = t.since, time.Now().UTC(), t.requests
	for _, id := range registry.IDs() {
		if u := t.ops[string(id)]; u != nil {
			c := *u
			c.Statuses = maps.Clone(u.Statuses)
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
				Section: dt.Section, Count: r.count, Ops: slices.Clone(r.ops)})
		}
	}
	return out
}

// emptyTraffic is a record of no traffic, its lists empty (JSON [], not
// null).
func emptyTraffic() wire.Traffic {
	return wire.Traffic{Operations: []wire.OperationUse{}, Violations: []wire.ViolationUse{}, Relies: []wire.Reliance{}}
}
