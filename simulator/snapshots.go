package simulator

import (
	"encoding/json"
	"fmt"

	"github.com/campusconf/campusconf/simulator/devserver"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/world"
)

// The worlds saved and restored: a world's snapshot, and a state file of
// every world (serve --state FILE); their formats are simulator/devserver's
// (devserver.Snapshots, devserver.StateFile). A snapshot or state file
// that is not of this simulator is refused, and nothing is changed.

// snapshots reads and writes the snapshots of this simulator's worlds.
func (s *Simulator) snapshots() devserver.Snapshots {
	return devserver.Snapshots{Seed: s.opts.Seed, Scale: s.opts.Scale}
}

// Snapshot returns this world as JSON.
func (s *Simulator) Snapshot() ([]byte, error) {
	w, err := s.store.MarshalState()
	if err != nil {
		return nil, err
	}
	return s.snapshots().Encode(w)
}

// Restore replaces this world with a snapshot; a snapshot that is not one
// of this simulator's worlds is refused and nothing changes.
func (s *Simulator) Restore(data []byte) error {
	st, err := s.snapshots().Decode(data)
	if err != nil {
		return err
	}
	s.restore(st)
	return nil
}

func (s *Simulator) restore(st *store.State) {
	base, _ := world.BuildAt(s.opts.Seed, s.opts.Scale, st.Seeded)
	s.env.Restore(st, base)
}

// SaveState writes every world to path atomically: a temporary file in
// the directory of path's target (path may be a symbolic link, which stays
// one), synced, then renamed over the target (statefile.Write).
func (s *Simulator) SaveState(path string) error {
	def, err := s.Snapshot()
	if err != nil {
		return err
	}
	f := devserver.StateFile{Seeded: s.clockStart(), Default: def, Worlds: map[string]json.RawMessage{}}
	if s.traffic != nil {
		t := s.traffic.Snapshot()
		f.Traffic = &t
	}
	for _, name := range s.WorldNames() {
		sim := s.worlds.lookup(name)
		if sim == nil { // evicted meanwhile
			continue
		}
		if f.Worlds[name], err = sim.Snapshot(); err != nil {
			return err
		}
	}
	return f.Write(path)
}

// LoadState loads every world from path. A missing file is no error (it
// reports false: nothing loaded). A file holding more named worlds than
// Options.MaxWorlds is refused, naming both numbers, rather than cut. A file over maxBytes (0:
// statefile.DefaultMaxBytes) is refused with its size before it is read;
// a file that is not a state file of this simulator is refused before any
// world changes; the file is never written by LoadState.
func (s *Simulator) LoadState(path string, maxBytes int64) (bool, error) {
	f, err := devserver.ReadStateFile(path, maxBytes)
	if f == nil || err != nil {
		return false, err
	}
	// every world is checked before any is changed
	if max := s.worlds.max; len(f.Worlds) > max {
		return false, fmt.Errorf("state file %s holds %d named worlds, more than the %d this server keeps (campusconf serve --max-worlds, Options.MaxWorlds): start it with --max-worlds %d or more, or remove worlds from the file; none is dropped, and the file is left as it is", path, len(f.Worlds), max, len(f.Worlds))
	}
	sn := s.snapshots()
	def, err := sn.Decode(f.Default)
	if err != nil {
		return false, fmt.Errorf("state file %s: default world: %v; the file is left as it is", path, err)
	}
	named := map[string]*store.State{}
	for name, raw := range f.Worlds {
		if err := CheckWorldName(name); err != nil {
			return false, fmt.Errorf("state file %s: %v; the file is left as it is", path, err)
		}
		if named[name], err = sn.Decode(raw); err != nil {
			return false, fmt.Errorf("state file %s: world %q: %v; the file is left as it is", path, name, err)
		}
	}
	if !f.Seeded.IsZero() && !s.clockGiven {
		s.clockMu.Lock()
		s.setStart(f.Seeded.UTC())
		s.clockMu.Unlock()
	}
	s.restore(def)
	if s.traffic != nil && f.Traffic != nil {
		// the traffic report goes on across restarts
		s.traffic.Resume(*f.Traffic)
	}
	for name, st := range named {
		sim, err := s.World(name)
		if err != nil {
			return false, err
		}
		sim.restore(st)
	}
	return true, nil
}
