package simulator

import (
	"fmt"
	"net/http"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/variants"
)

// Settings are the switches of a running simulator: latency, faults,
// defects and variants. They are the server's: every world follows them.
// GET /_sim/TOKEN/settings reads them with the catalogues of what can be
// switched; PUT replaces the ones it names and takes effect from the next
// request, without a restart. Options set them at start.
type Settings struct {
	Latency  string   `json:"latency"`
	Faults   Faults   `json:"faults"`
	Defects  []string `json:"defects"`
	Variants []string `json:"variants"`
}

// settingsChange is a PUT body: absent fields are kept.
type settingsChange struct {
	Latency  *string   `json:"latency"`
	Faults   *Faults   `json:"faults"`
	Defects  *[]string `json:"defects"`
	Variants *[]string `json:"variants"`
}

// Settings returns the switches in force.
func (s *Simulator) Settings() Settings {
	return Settings{Latency: s.latency.Load().String(), Faults: s.Faults(),
		Defects: s.defects.Enabled(), Variants: s.variants.Enabled()}
}

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
func (s *Simulator) ApplySettings(c settingsChange) error {
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
		s.latency.Store(lat)
	}
	if c.Faults != nil {
		_ = s.SetFaults(*c.Faults) // checked above, before anything changed
	}
	if d != nil || v != nil {
		if d != nil {
			s.defects.p.Store(d)
		}
		if v != nil {
			s.variants.p.Store(v)
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
		sim.store.SetPolicy(sim.defects.storePolicy())
		h := sim.routes()
		sim.handler.Store(&h)
	}
}

// settingsAnswer is GET /_sim/TOKEN/settings.
type settingsAnswer struct {
	Settings
	// The catalogues: what can be switched.
	Operations  []string         `json:"operations"`
	AllDefects  []catalogueEntry `json:"allDefects"`
	AllVariants []catalogueEntry `json:"allVariants"`
}

type catalogueEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func (s *Simulator) settingsAnswer() settingsAnswer {
	a := settingsAnswer{Settings: s.Settings(), Operations: OperationIDs()}
	for _, d := range defects.All() {
		a.AllDefects = append(a.AllDefects, catalogueEntry{string(d.Name), d.Description})
	}
	for _, v := range variants.All() {
		a.AllVariants = append(a.AllVariants, catalogueEntry{string(v.Name), v.Description})
	}
	return a
}

// controlSettings is PUT /_sim/TOKEN/settings.
func (s *Simulator) controlSettings(w http.ResponseWriter, r *http.Request) {
	raw, ok := s.readRaw(w, r, MaxBodyBytes)
	if !ok {
		return
	}
	var c settingsChange
	if err := strictDecode(raw, &c); err != nil {
		s.fail(w, http.StatusBadRequest, fmt.Sprintf(`settings: expected {"latency": "50ms", "faults": {...}, "defects": [...], "variants": [...]} (each optional), got: %v`, err))
		return
	}
	if err := s.ApplySettings(c); err != nil {
		s.fail(w, http.StatusBadRequest, "settings: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, s.settingsAnswer())
}
