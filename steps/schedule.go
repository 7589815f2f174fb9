package steps

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cucumber/godog"

	"github.com/campusconf/campusconf/internal/registry"
)

// Scheduling. A conformance verdict must be a function of the target
// alone, whatever the concurrency: a scenario that changes a record must
// not run while another reads or changes it, and the order in which two
// such scenarios run must not depend on which goroutine was faster. And a
// run against a target 100 ms away must not wait longer than the records
// the scenarios share require.
//
// What each scenario touches is declared, never guessed: every step
// definition declares the operations it may call (stepDef.calls, checked
// on every request: see mayCall), and the registry declares, for each
// operation, the group of records it reads or changes
// (registry.Operation.Group, ChangesState). A scenario changing a group
// holds it alone; scenarios only reading it share it.
//
// The run's order fixes which of two conflicting scenarios (both touching
// a group, one changing it) goes first: first those that change records
// of more than one group (anywhere else such a scenario would chain every
// group's scenarios before it to every group's after it, and it would
// wait for every reader of its groups), then every scenario that only
// reads, then the others; each kind in file order. A scenario waits for every
// earlier one it conflicts with, and for nothing else, so the outcome of
// every scenario is the outcome it has when the scenarios run one at a
// time in that order, which is what --concurrency 1 does. Waiting only
// ever goes to an earlier scenario, so no cycle can form.
//
// Among the scenarios free to start, the one heading the longest chain of
// requests still to come starts first (its rank: its own requests and the
// longest chain of those waiting for it), and at most --concurrency run at
// once. godog starts every scenario at once; each waits in its Before
// hook (enter) until the schedule lets it run.

// access is how a scenario touches one record group.
type access struct {
	group string
	write bool
}

// accessOf is how a call to op touches its record group: a change where
// the operation changes state (a refused call included, as a faulty target
// may change state anyway), a read where it only reads a group others
// change, nothing where no scenario changes what it reads.
func accessOf(op registry.OpID) (access, bool) {
	o, ok := registry.Lookup(string(op))
	if !ok {
		return access{}, false
	}
	group := o.Group
	if group == "" && o.ChangesState {
		group = string(o.ID) // the registry's tests keep this from happening
	}
	if group == "" {
		return access{}, false
	}
	return access{group: group, write: o.ChangesState}, true
}

// turn is one scenario's place in the schedule.
type turn struct {
	// name is the scenario's id in reports, "feature: name"; index its
	// place in the run's order.
	name  string
	index int
	// calls are the operations the scenario's steps may call; steps are
	// those of each step, by godog's pickle step id.
	calls map[registry.OpID]bool
	steps map[string][]registry.OpID
	// accesses are the record groups it touches.
	accesses []access
	// cost is the number of requests its steps make one after another,
	// as they declare them; alongside those they make at the same time.
	cost, alongside int
	// after are the earlier scenarios it waits for, next those waiting for
	// it; rank is its cost and the longest chain of those after it.
	after, next []*turn
	rank        int

	// under scheduler.mu: pending counts the turns of after not finished;
	// granted says it may run (holding a run slot), finished that it ended
	// or will not run, skip that it will not run.
	pending                 int
	granted, finished, skip bool
	run, done               chan struct{}
}

// scheduler holds the turns of one run, by godog's pickle id.
type scheduler struct {
	turns map[string]*turn
	// order are the turns in the run's order.
	order []*turn

	// limit, when set, is how many requests the target lets through at
	// once while it limits the run (pace.Pacer.Limit; 0: no bound): the
	// schedule grants no more run slots than that, so that scenarios do not
	// start only to wait at the pace with their requests' clocks running.
	limit func() int

	mu sync.Mutex
	// slots are the run slots in all, free those not held; ready are the
	// turns that wait for nothing but a slot.
	slots, free int
	ready       []*turn
}

// planned is a scenario as the schedule sees it: its id, its name in
// reports, its step texts and their ids.
type planned struct {
	id, name string
	steps    []string
	stepIDs  []string
}

// planSuite plans the scenarios suite runs: godog parses the same
// features with the same options each time, so the pickle ids of the plan
// are those the hooks see.
func (e *env) planSuite(suite godog.TestSuite) error {
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		return fmt.Errorf("the suite could not start: %w", err)
	}
	var order []planned
	for _, ft := range feats {
		for _, p := range ft.Pickles {
			pl := planned{id: p.Id, name: featureName(p.Uri) + ": " + p.Name}
			for _, st := range p.Steps {
				pl.steps = append(pl.steps, st.Text)
				pl.stepIDs = append(pl.stepIDs, st.Id)
			}
			order = append(order, pl)
		}
	}
	return e.plan(order)
}

// plan computes the turns of the scenarios, given in file order.
func (e *env) plan(scenarios []planned) error {
	sc := scheduler{turns: map[string]*turn{}}
	for _, p := range scenarios {
		t := &turn{name: p.name, calls: map[registry.OpID]bool{}, steps: map[string][]registry.OpID{},
			run: make(chan struct{}), done: make(chan struct{})}
		for i, text := range p.steps {
			d := e.stepDeclares(text)
			t.cost += d.cost()
			t.alongside += d.alongside
			for _, op := range d.ops {
				t.calls[op] = true
			}
			if i < len(p.stepIDs) {
				t.steps[p.stepIDs[i]] = d.ops
			}
		}
		for _, op := range mapKeys(t.calls) {
			if a, ok := accessOf(op); ok {
				t.accesses = mergeAccess(t.accesses, a)
			}
		}
		sc.turns[p.id] = t
		sc.order = append(sc.order, t)
	}
	// the run's order: changes of several groups, then readers, then the
	// other changes; file order within each (a stable sort)
	slices.SortStableFunc(sc.order, func(a, b *turn) int { return cmp.Compare(a.kind(), b.kind()) })
	writer := map[string]*turn{}    // the last scenario changing each group
	readers := map[string][]*turn{} // the scenarios reading it since
	for i, t := range sc.order {
		t.index = i
		for _, a := range t.accesses {
			if w := writer[a.group]; w != nil {
				t.waitFor(w)
			}
			if a.write {
				for _, r := range readers[a.group] {
					t.waitFor(r)
				}
				writer[a.group], readers[a.group] = t, nil
			} else {
				readers[a.group] = append(readers[a.group], t)
			}
		}
	}
	sc.rank()
	e.schedule = &sc
	return nil
}

// rank computes each turn's rank, from the last in the run's order to the
// first.
func (sc *scheduler) rank() {
	for _, t := range slices.Backward(sc.order) {
		t.rank = t.cost
		for _, n := range t.next {
			t.rank = max(t.rank, t.cost+n.rank)
		}
	}
}

// kind sorts a turn in the run's order: 0 it changes records of several
// groups, 1 it only reads, 2 it changes one group.
func (t *turn) kind() int {
	writes := slices.ContainsFunc(t.accesses, func(a access) bool { return a.write })
	switch {
	case writes && len(t.accesses) > 1:
		return 0
	case !writes:
		return 1
	}
	return 2
}

// waitFor makes t wait for w, once.
func (t *turn) waitFor(w *turn) {
	if w != t && !slices.Contains(t.after, w) {
		t.after = append(t.after, w)
		w.next = append(w.next, t)
	}
}

// mergeAccess adds a to list, a change of a group outranking a read of it.
func mergeAccess(list []access, a access) []access {
	for i := range list {
		if list[i].group == a.group {
			list[i].write = list[i].write || a.write
			return list
		}
	}
	return append(list, a)
}

func mapKeys[K ~string](m map[K]bool) []K {
	return slices.Sorted(maps.Keys(m))
}

// stepDeclares returns what one step text may send, from the step
// definition it matches (nothing for an undefined step: godog reports it).
func (e *env) stepDeclares(text string) declared {
	for _, d := range stepDefs {
		m := d.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if d.calls == nil {
			return declared{}
		}
		return d.calls(e, m)
	}
	return declared{}
}

// start opens the schedule with slots run slots: the turns that wait for
// nothing may run.
func (sc *scheduler) start(slots int) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.slots = max(slots, 1)
	sc.free = sc.slots
	for _, t := range sc.order {
		t.pending = len(t.after)
		if t.pending == 0 {
			sc.ready = append(sc.ready, t)
		}
	}
	sc.dispatch()
}

// dispatch gives the free slots to the ready turns, highest rank first,
// earlier in the run's order among equals, while the pace's limit allows;
// a ready turn that will not run ends without one. sc.mu is held.
func (sc *scheduler) dispatch() {
	for len(sc.ready) > 0 {
		full := sc.free == 0
		if sc.limit != nil {
			if l := sc.limit(); l > 0 && sc.slots-sc.free >= l {
				full = true
			}
		}
		i := 0
		for j, t := range sc.ready {
			if t.skip {
				i = j
				break
			}
			if b := sc.ready[i]; t.rank > b.rank || t.rank == b.rank && t.index < b.index {
				i = j
			}
		}
		t := sc.ready[i]
		if !t.skip && full {
			return
		}
		sc.ready = slices.Delete(sc.ready, i, i+1)
		if t.skip {
			sc.end(t)
			continue
		}
		sc.free--
		t.granted = true
		close(t.run)
	}
}

// end finishes t: its slot is free again and the turns waiting for it
// count one fewer to wait for. sc.mu is held; the caller dispatches.
func (sc *scheduler) end(t *turn) {
	if t.finished {
		return
	}
	t.finished = true
	if t.granted {
		sc.free++
	} else if i := slices.Index(sc.ready, t); i >= 0 {
		sc.ready = slices.Delete(sc.ready, i, i+1)
	}
	close(t.done)
	for _, n := range t.next {
		if n.pending--; n.pending == 0 && !n.finished {
			sc.ready = append(sc.ready, n)
		}
	}
}

// enter blocks until the scenario may run: every earlier scenario it
// conflicts with has finished and a run slot is its, or ctx ended (the run
// is then cut short and the scenario fails at once). It returns the
// scenario's turn, nil for a scenario the plan does not know (none: a test
// holds every scenario to the plan).
func (sc *scheduler) enter(ctx context.Context, p *godog.Scenario) *turn {
	t := sc.turns[p.Id]
	if t == nil {
		return nil
	}
	select {
	case <-t.run:
	case <-ctx.Done():
	}
	return t
}

// finish ends the turn of a scenario that ran (or was cut short): its
// slot goes to the next ready scenario.
func (sc *scheduler) finish(t *turn) {
	if t == nil {
		return
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.end(t)
	sc.dispatch()
}

// release ends the turn of a scenario that will not run (the fixture does
// not claim its profile) once the scenarios it waits for have ended, so
// that the scenarios after it keep their order with those before it; it
// never holds a run slot.
func (sc *scheduler) release(p *godog.Scenario) {
	t := sc.turns[p.Id]
	if t == nil {
		return
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	t.skip = true
	switch {
	case t.granted:
		sc.end(t)
	case t.pending == 0:
		sc.end(t)
	}
	sc.dispatch()
}

// mayCall refuses a call the step sending it did not declare: the
// schedule would not have kept it apart from the scenarios it touches. It
// is a fault of this package (a step that calls an operation its stepDef
// does not declare), never of the target. step is the declaring step's
// operations.
func (t *turn) mayCall(op registry.OpID, step []registry.OpID) error {
	if t == nil || slices.Contains(step, op) {
		return nil
	}
	return &undeclared{op: op}
}

// undeclared is the error of a call its step did not declare. The
// scenario errs (it judged nothing of the implementation), which fails
// every test running the suite against the simulator.
type undeclared struct{ op registry.OpID }

func (e *undeclared) Error() string {
	return "campusconf: the step calls " + string(e.op) + ", which its step definition does not declare (steps/steps.go; CONTRIBUTING.md, \"What a check touches\"): a bug of the suite, not of the implementation, and nothing was sent"
}

// groups names the record groups of a turn, for tests and messages:
// "notification" for a read, "notification!" for a change, sorted.
func (t *turn) groups() []string {
	var out []string
	for _, a := range t.accesses {
		if a.write {
			out = append(out, a.group+"!")
		} else {
			out = append(out, a.group)
		}
	}
	sort.Strings(out)
	return out
}

// String describes the turn, for failure messages of tests.
func (t *turn) String() string {
	return t.name + ": calls " + strings.Join(registry.Strings(mapKeys(t.calls)), ",") + "; groups " + strings.Join(t.groups(), ",")
}

// bound is the longest chain of the schedule: made gives the requests of
// each scenario by name, nil the turns' own estimates.
func (sc *scheduler) bound(made map[string]int) Bound {
	var b Bound
	end := map[*turn]int{}
	prev := map[*turn]*turn{}
	var last *turn
	for _, t := range sc.order { // every turn waits only for earlier ones
		cost := t.cost
		if made != nil {
			// the requests it made, less those made beside its chain
			b.Requests += made[t.name]
			cost = made[t.name] - t.alongside
			if made[t.name] > 0 {
				cost = max(cost, 1)
			}
		} else {
			b.Requests += t.cost + t.alongside
		}
		start := 0
		for _, w := range t.after {
			if end[w] > start {
				start, prev[t] = end[w], w
			}
		}
		end[t] = start + cost
		if last == nil || end[t] > end[last] {
			last = t
		}
	}
	if last != nil {
		b.Chain = end[last]
	}
	for t := last; t != nil; t = prev[t] {
		b.Path = append(b.Path, t.name)
	}
	slices.Reverse(b.Path)
	return b
}
