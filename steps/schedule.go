package steps

import (
	"sync"

	"github.com/cucumber/godog"

	"github.com/campusconf/campusconf/internal/registry"
)

// scheduler serialises the destructive scenarios of each record group.
type scheduler struct {
	mu     sync.Mutex
	groups map[string]*sync.Mutex
}

// enter blocks until a scenario may run and returns the function that ends
// its turn. Only a scenario tagged @destructive waits, for the other
// destructive scenarios of its operation's group (of every operation when
// its operation has no group).
func (sc *scheduler) enter(sc2 *godog.Scenario, op string) (leave func()) {
	destructive := false
	for _, t := range sc2.Tags {
		if t.Name == "@destructive" {
			destructive = true
		}
	}
	if !destructive {
		return func() {}
	}
	// The registry gives each operation the group of fixture records its
	// destructive scenarios change (registry.Operation.Group). Scenarios of
	// one group never run at the same time; scenarios of different groups,
	// and every read, run in parallel. The scenarios are written so that
	// their order within a group does not matter (each sets the state it
	// checks first), so a run's outcomes are the same at every concurrency.
	group := "(ungrouped)"
	if o, ok := registry.Lookup(op); ok && o.Group != "" {
		group = o.Group
	}
	sc.mu.Lock()
	if sc.groups == nil {
		sc.groups = map[string]*sync.Mutex{}
	}
	m := sc.groups[group]
	if m == nil {
		m = &sync.Mutex{}
		sc.groups[group] = m
	}
	sc.mu.Unlock()
	m.Lock()
	return m.Unlock
}
