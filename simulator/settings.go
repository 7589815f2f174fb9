package simulator

import (
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/devserver"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
)

// Settings are the switches of a running simulator: latency, faults,
// defects and variants (devserver.Settings).
type Settings = devserver.Settings

// Settings returns the switches in force.
func (s *Simulator) Settings() Settings {
	return Settings{Latency: s.inject.Latency().String(), Faults: s.Faults(),
		Defects: s.defects.Enabled(), Variants: s.variants.Enabled()}
}

// Faults returns the faults in force.
func (s *Simulator) Faults() Faults { return s.inject.Faults() }

// SetFaults replaces the faults in force.
func (s *Simulator) SetFaults(f Faults) error { return s.inject.SetFaults(f) }

// parseSet parses the names of a set of switches (defects or variants)
// with parse when the change gives them; nil names are no change (nil).
func parseSet[T any](names *[]string, parse func([]string) (T, error)) (*T, error) {
	if names == nil {
		return nil, nil
	}
	set, err := parse(*names)
	if err != nil {
		return nil, err
	}
	return &set, nil
}

// ApplySettings replaces the switches c names, all or none: a change with
// one invalid field changes nothing.
func (s *Simulator) ApplySettings(c devserver.SettingsChange) error {
	s.settingsMu.Lock()
	defer s.settingsMu.Unlock()
	var lat *Latency
	if c.Latency != nil {
		l := Latency{}
		if *c.Latency != "" {
			var err error
			if l, err = ParseLatency(*c.Latency); err != nil {
				return err
			}
		}
		lat = &l
	}
	if c.Faults != nil {
		if err := c.Faults.Check(); err != nil {
			return err
		}
	}
	d, err := parseSet(c.Defects, defects.New)
	if err != nil {
		return err
	}
	v, err := parseSet(c.Variants, variants.New)
	if err != nil {
		return err
	}
	if lat != nil {
		s.inject.SetLatency(*lat)
	}
	if c.Faults != nil {
		_ = s.SetFaults(*c.Faults) // checked above, before anything changed
	}
	if d != nil || v != nil {
		if d != nil {
			s.defects.Store(*d)
		}
		if v != nil {
			s.variants.Store(*v)
		}
		s.rebuild()
	}
	return nil
}

// rebuild makes the routes of every world again, as the defects and
// variants now stand (they decide paths, access and answer wrappers), and
// gives every world's store the policy of the defects now in force.
func (s *Simulator) rebuild() {
	sims := []*Simulator{s}
	if s.worlds != nil {
		s.worlds.mu.Lock()
		for e := s.worlds.lru.Front(); e != nil; e = e.Next() {
			sims = append(sims, e.Value.(*namedWorld).sim)
		}
		s.worlds.mu.Unlock()
	}
	for _, sim := range sims {
		sim.store.SetPolicy(storePolicy(sim.defects))
		h := sim.routes()
		sim.handler.Store(&h)
	}
}

// storePolicy is the store's share of the defects in force: the rules of
// the state that they bend. It is the one place the store's Policy is
// filled.
func storePolicy(d *switches.Defects) store.Policy {
	set := d.Set()
	return store.Policy{
		GradebookTotalOfRequest: set.Has(defects.GradebookTotalPerRequest),
		GradebookTotalRounded:   set.Has(defects.GradebookTotalRounded),
		GradebookTotalBelow100:  set.Has(defects.Gradebook100Refused),
		GradebookRefusedStored:  set.Has(defects.GradebookRefusedApplied),
		NotifyStatusKept:        set.Has(defects.NotifyReadIgnored),
		NotifyStatusEveryone:    set.Has(defects.NotifyReadNeighbours),
	}
}
