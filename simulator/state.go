package simulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/campusconf/campusconf/simulator/statefile"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/world"
)

// Snapshots and state files. A snapshot is one world as JSON: what changed
// since it was seeded (the records, the clock, the ids created at run
// time), with the seed and scale it belongs to; the read-only lists are
// not in it, since the seed regenerates them. GET /_sim/TOKEN/snapshot
// exports one, PUT imports one, so a team can share "the state where the
// bug shows". A state file (serve --state FILE) holds the default world
// and every named world; serve loads it at start and writes it back on
// shutdown and periodically, atomically (a temporary file renamed over
// it); simulator/statefile keeps the file itself safe (its lock, its
// size, its symbolic link). A snapshot or state file of another format, version, seed or scale
// is refused with a message saying which, and nothing is changed: not the
// worlds, not the file. Open push transactions' poll counts
// (push-pending-first) are not kept.

const (
	snapshotFormat = "campusconf-world-snapshot"
	stateFormat    = "campusconf-state"
	stateVersion   = 1
)

// snapshot is the envelope of one world.
type snapshot struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Seed    int64           `json:"seed"`
	Scale   int             `json:"scale"`
	World   json.RawMessage `json:"world"`
}

// stateFile is the envelope of every world of a server.
type stateFile struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Seeded is the time worlds seeded from now on are seeded at (moved by
	// PUT /_sim/TOKEN/clock); a start without --clock goes on from it.
	Seeded  time.Time                  `json:"seeded"`
	Default json.RawMessage            `json:"default"`
	Worlds  map[string]json.RawMessage `json:"worlds"`
}

// Snapshot returns this world as JSON.
func (s *Simulator) Snapshot() ([]byte, error) {
	w, err := s.store.MarshalState()
	if err != nil {
		return nil, err
	}
	return json.Marshal(snapshot{Format: snapshotFormat, Version: stateVersion, Seed: s.opts.Seed, Scale: s.opts.Scale, World: w})
}

// Restore replaces this world with a snapshot; a snapshot that is not one
// of this simulator's worlds is refused and nothing changes.
func (s *Simulator) Restore(data []byte) error {
	st, err := s.decodeSnapshot(data)
	if err != nil {
		return err
	}
	s.restore(st)
	return nil
}

func (s *Simulator) restore(st *store.State) {
	base, _ := world.BuildAt(s.opts.Seed, s.opts.Scale, st.Seeded)
	s.store.Restore(st, base)
	s.pollMu.Lock()
	clear(s.polls)
	s.pollMu.Unlock()
}

// strictDecode decodes data into v, refusing unknown fields and trailing
// data.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// decodeSnapshot checks a snapshot against this simulator and decodes it.
func (s *Simulator) decodeSnapshot(data []byte) (*store.State, error) {
	var env snapshot
	if err := strictDecode(data, &env); err != nil {
		return nil, fmt.Errorf("snapshot: expected a campusconf world snapshot (JSON object with format %q), got: %v", snapshotFormat, err)
	}
	switch {
	case env.Format != snapshotFormat:
		return nil, fmt.Errorf("snapshot: expected format %q, got %q: not a campusconf world snapshot", snapshotFormat, clip(env.Format))
	case env.Version != stateVersion:
		return nil, fmt.Errorf("snapshot: expected version %d, got %d", stateVersion, env.Version)
	case env.Seed != s.opts.Seed || env.Scale != s.opts.Scale:
		return nil, fmt.Errorf("snapshot: it is of seed %d at scale %d, this simulator serves seed %d at scale %d (start it with --seed %d --scale %d)",
			env.Seed, env.Scale, s.opts.Seed, s.opts.Scale, env.Seed, env.Scale)
	}
	var st store.State
	if err := strictDecode(env.World, &st); err != nil {
		return nil, fmt.Errorf("snapshot: world: %v", err)
	}
	if err := st.Check(); err != nil {
		return nil, fmt.Errorf("snapshot: world: %v", err)
	}
	for _, t := range []time.Time{st.Clock, st.Seeded} {
		if err := CheckClock(t); err != nil {
			return nil, fmt.Errorf("snapshot: world: %v", err)
		}
	}
	return &st, nil
}

// SaveState writes every world to path atomically: a temporary file in
// the directory of path's target (path may be a symbolic link, which stays
// one), synced, then renamed over the target (statefile.Write).
func (s *Simulator) SaveState(path string) error {
	def, err := s.Snapshot()
	if err != nil {
		return err
	}
	f := stateFile{Format: stateFormat, Version: stateVersion, Seeded: s.clockStart(), Default: def, Worlds: map[string]json.RawMessage{}}
	for _, name := range s.WorldNames() {
		sim := s.worlds.lookup(name)
		if sim == nil { // evicted meanwhile
			continue
		}
		if f.Worlds[name], err = sim.Snapshot(); err != nil {
			return err
		}
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if err := statefile.Write(path, data); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	return nil
}

// LoadState loads every world from path. A missing file is no error (it
// reports false: nothing loaded). A file over maxBytes (0:
// statefile.DefaultMaxBytes) is refused with its size before it is read;
// a file that is not a state file of this simulator is refused before any
// world changes; the file is never written by LoadState.
func (s *Simulator) LoadState(path string, maxBytes int64) (bool, error) {
	if maxBytes <= 0 {
		maxBytes = statefile.DefaultMaxBytes
	}
	data, err := statefile.Read(path, maxBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	var tooBig *statefile.TooBigError
	if errors.As(err, &tooBig) {
		return false, fmt.Errorf("state file %v; the file is left as it is (serve --state-max-mb raises the limit)", err)
	}
	if err != nil {
		return false, fmt.Errorf("state file %s: %w", path, err)
	}
	var f stateFile
	if err := strictDecode(data, &f); err != nil {
		return false, fmt.Errorf("state file %s: expected a campusconf state file (JSON object with format %q), got: %v; the file is left as it is", path, stateFormat, err)
	}
	if f.Format != stateFormat || f.Version != stateVersion {
		return false, fmt.Errorf("state file %s: expected format %q version %d, got %q version %d: not a campusconf state file; the file is left as it is", path, stateFormat, stateVersion, clip(f.Format), f.Version)
	}
	if !f.Seeded.IsZero() {
		if err := CheckClock(f.Seeded); err != nil {
			return false, fmt.Errorf("state file %s: seeded: %v; the file is left as it is", path, err)
		}
	}
	// every world is checked before any is changed
	def, err := s.decodeSnapshot(f.Default)
	if err != nil {
		return false, fmt.Errorf("state file %s: default world: %v; the file is left as it is", path, err)
	}
	named := map[string]*store.State{}
	for name, raw := range f.Worlds {
		if err := CheckWorldName(name); err != nil {
			return false, fmt.Errorf("state file %s: %v; the file is left as it is", path, err)
		}
		if named[name], err = s.decodeSnapshot(raw); err != nil {
			return false, fmt.Errorf("state file %s: world %q: %v; the file is left as it is", path, name, err)
		}
	}
	if !f.Seeded.IsZero() && !s.clockGiven {
		s.clockMu.Lock()
		s.start = f.Seeded.UTC()
		s.clockMu.Unlock()
	}
	s.restore(def)
	for name, st := range named {
		sim, err := s.World(name)
		if err != nil {
			return false, err
		}
		sim.restore(st)
	}
	return true, nil
}
