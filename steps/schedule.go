package steps

import (
	"context"
	"fmt"
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
// such scenarios run must not depend on which goroutine was faster.
//
// Each scenario's record groups are derived from what it touches: the
// operations its steps call (stepDef.calls) and, for each, whether it
// changes state (registry.Operation.ChangesState) and which group of
// records it reads or changes (registry.Operation.Group). A scenario
// changing a group holds it alone; scenarios reading one share it. Where
// two scenarios conflict on a group (at least one changes it), the one
// earlier in the run order (features in file order, scenarios in their
// order, as godog dispatches them) runs first, always: the outcome of
// every scenario is then the outcome it has at --concurrency 1. Scenarios
// that touch no group in common run in parallel. Waiting only ever goes to
// an earlier scenario, which godog started first, so no cycle can form.

// access is how a scenario touches one record group.
type access struct {
	group string
	write bool
}

// accessOf is how a call to op touches its record group: a change where
// the operation changes state (a refused call included, as a faulty target
// may change state anyway), a read where it only reads a group others
// change, nothing where no scenario changes what it reads.
func accessOf(op string) (access, bool) {
	o, ok := registry.Lookup(op)
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
	// name is the scenario's id in reports, "feature: name".
	name string
	// cost is the number of requests its steps declare.
	cost int
	// calls are the operations the scenario's steps may call.
	calls map[string]bool
	// accesses are the record groups it touches.
	accesses []access
	// after are the earlier scenarios it waits for.
	after []*turn
	done  chan struct{}
	once  sync.Once
}

// finish ends the turn: the scenarios waiting for it may run.
func (t *turn) finish() { t.once.Do(func() { close(t.done) }) }

// scheduler holds the turns of one run, by godog's pickle id.
type scheduler struct {
	turns map[string]*turn
	// order are the turns in run order.
	order []*turn
}

// planned is a scenario as the schedule sees it: its id and step texts.
type planned struct {
	id, name string
	steps    []string
}

// planSuite plans the scenarios suite runs, in the order it runs them:
// godog parses the same features with the same options each time, so the
// pickle ids of the plan are those the hooks see.
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
			}
			order = append(order, pl)
		}
	}
	return e.plan(order)
}

// plan computes the turns of the scenarios, given in run order.
func (e *env) plan(scenarios []planned) error {
	sc := scheduler{turns: map[string]*turn{}}
	writer := map[string]*turn{}    // the last scenario changing each group
	readers := map[string][]*turn{} // the scenarios reading it since
	for _, p := range scenarios {
		t := &turn{name: p.name, calls: map[string]bool{}, done: make(chan struct{})}
		for _, text := range p.steps {
			ops := e.stepCalls(text)
			t.cost += len(ops)
			for _, op := range ops {
				t.calls[op] = true
			}
		}
		for _, op := range mapKeys(t.calls) {
			if a, ok := accessOf(op); ok {
				t.accesses = mergeAccess(t.accesses, a)
			}
		}
		for _, a := range t.accesses {
			if w := writer[a.group]; w != nil {
				t.after = append(t.after, w)
			}
			if a.write {
				t.after = append(t.after, readers[a.group]...)
				writer[a.group], readers[a.group] = t, nil
			} else {
				readers[a.group] = append(readers[a.group], t)
			}
		}
		sc.turns[p.id] = t
		sc.order = append(sc.order, t)
	}
	e.schedule = sc
	return nil
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

func mapKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stepCalls returns the operations one step text may call, from the step
// definition it matches (none for an undefined step: godog reports it).
func (e *env) stepCalls(text string) []string {
	for _, d := range stepDefs {
		m := d.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if d.calls == nil {
			return nil
		}
		return d.calls(e, m)
	}
	return nil
}

// enter blocks until the scenario may run: every earlier scenario it
// conflicts with has finished, or ctx ended (the run is then cut short and
// the scenario fails at once). It returns the scenario's turn, nil for a
// scenario the plan does not know (none: a test holds every scenario to
// the plan).
func (sc *scheduler) enter(ctx context.Context, p *godog.Scenario) *turn {
	t := sc.turns[p.Id]
	if t == nil {
		return nil
	}
	for _, w := range t.after {
		select {
		case <-w.done:
		case <-ctx.Done():
			return t
		}
	}
	return t
}

// release ends the turn of a scenario that will not run (the fixture does
// not claim its profile), so the scenarios planned after it do not wait
// for it.
func (sc *scheduler) release(p *godog.Scenario) {
	if t := sc.turns[p.Id]; t != nil {
		t.finish()
	}
}

// mayCall refuses a call the scenario's plan did not foresee: the
// schedule would not have kept it apart from the scenarios it touches. It
// is a fault of this package (a step that calls an operation its stepDef
// does not declare), never of the target.
func (t *turn) mayCall(op string) error {
	if t == nil || t.calls[op] {
		return nil
	}
	return fmt.Errorf("campusconf: the scenario calls %s, which its steps do not declare (steps/schedule.go): a bug of the suite, not of the implementation", op)
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
	return "calls " + strings.Join(mapKeys(t.calls), ",") + "; groups " + strings.Join(t.groups(), ",")
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
			cost = made[t.name]
		}
		b.Requests += cost
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
