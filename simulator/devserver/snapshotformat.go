package devserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/front"
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
// size, its symbolic link). A snapshot or state file of another format,
// version, seed or scale is refused with a message saying which, and
// nothing is changed: not the worlds, not the file. Open push
// transactions' poll counts (push-pending-first) are not kept.

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
	// Traffic is the traffic record (wire.Traffic), kept so that the
	// traffic report goes on across restarts; absent without one.
	Traffic json.RawMessage `json:"traffic,omitempty"`
}

// Snapshots writes and reads the snapshots of the worlds of one seed and
// scale.
type Snapshots struct {
	Seed  int64
	Scale int
}

// Encode returns a world as a snapshot: w is what changed in it since it
// was seeded (store.Store.MarshalState).
func (sn Snapshots) Encode(w json.RawMessage) ([]byte, error) {
	return json.Marshal(snapshot{Format: snapshotFormat, Version: stateVersion, Seed: sn.Seed, Scale: sn.Scale, World: w})
}

// Decode checks a snapshot against the seed and scale and decodes it.
func (sn Snapshots) Decode(data []byte) (*store.State, error) {
	var env snapshot
	if err := strictDecode(data, &env); err != nil {
		return nil, fmt.Errorf("snapshot: expected a campusconf world snapshot (JSON object with format %q), got: %v", snapshotFormat, err)
	}
	switch {
	case env.Format != snapshotFormat:
		return nil, fmt.Errorf("snapshot: expected format %q, got %q: not a campusconf world snapshot", snapshotFormat, front.Clip(env.Format))
	case env.Version != stateVersion:
		return nil, fmt.Errorf("snapshot: expected version %d, got %d", stateVersion, env.Version)
	case env.Seed != sn.Seed || env.Scale != sn.Scale:
		return nil, fmt.Errorf("snapshot: it is of seed %d at scale %d, this simulator serves seed %d at scale %d (start it with --seed %d --scale %d)",
			env.Seed, env.Scale, sn.Seed, sn.Scale, env.Seed, env.Scale)
	}
	var st store.State
	if err := strictDecode(env.World, &st); err != nil {
		return nil, fmt.Errorf("snapshot: world: %v", err)
	}
	if err := st.Check(); err != nil {
		return nil, fmt.Errorf("snapshot: world: %v", err)
	}
	for _, t := range []time.Time{st.Clock, st.Seeded} {
		if err := world.CheckClock(t); err != nil {
			return nil, fmt.Errorf("snapshot: world: %v", err)
		}
	}
	return &st, nil
}

// StateFile is every world of a server as a state file holds it: the
// snapshots of the default world and of the named worlds, and the time
// worlds seeded from then on are seeded at.
type StateFile struct {
	Seeded  time.Time
	Default json.RawMessage
	Worlds  map[string]json.RawMessage
	// Traffic is the traffic record, nil when none is kept.
	Traffic *wire.Traffic
}

// Write writes f to path atomically: a temporary file in the directory of
// path's target (path may be a symbolic link, which stays one), synced,
// then renamed over the target (statefile.Write).
func (f StateFile) Write(path string) error {
	sf := stateFile{Format: stateFormat, Version: stateVersion, Seeded: f.Seeded, Default: f.Default, Worlds: f.Worlds}
	if f.Traffic != nil {
		t, err := json.Marshal(f.Traffic)
		if err != nil {
			return err
		}
		sf.Traffic = t
	}
	data, err := json.Marshal(sf)
	if err != nil {
		return err
	}
	if err := statefile.Write(path, data); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	return nil
}

// ReadStateFile reads the state file at path: nil, and no error, when
// there is none. A file over maxBytes (0: statefile.DefaultMaxBytes) is
// refused with its size before it is read, a file of another format or
// version, or seeded at a time outside the clock's bounds, once read; the
// file is never written. Its snapshots are left for Snapshots.Decode.
func ReadStateFile(path string, maxBytes int64) (*StateFile, error) {
	if maxBytes <= 0 {
		maxBytes = statefile.DefaultMaxBytes
	}
	data, err := statefile.Read(path, maxBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var tooBig *statefile.TooBigError
	if errors.As(err, &tooBig) {
		return nil, fmt.Errorf("state file %v; the file is left as it is (serve --state-max-mb raises the limit)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	var f stateFile
	if err := strictDecode(data, &f); err != nil {
		return nil, fmt.Errorf("state file %s: expected a campusconf state file (JSON object with format %q), got: %v; the file is left as it is", path, stateFormat, err)
	}
	if f.Format != stateFormat || f.Version != stateVersion {
		return nil, fmt.Errorf("state file %s: expected format %q version %d, got %q version %d: not a campusconf state file; the file is left as it is", path, stateFormat, stateVersion, front.Clip(f.Format), f.Version)
	}
	if !f.Seeded.IsZero() {
		if err := world.CheckClock(f.Seeded); err != nil {
			return nil, fmt.Errorf("state file %s: seeded: %v; the file is left as it is", path, err)
		}
	}
	out := &StateFile{Seeded: f.Seeded, Default: f.Default, Worlds: f.Worlds}
	if len(f.Traffic) > 0 {
		// read leniently: a later version's traffic record may have
		// members this one does not know
		var t wire.Traffic
		if err := json.Unmarshal(f.Traffic, &t); err != nil {
			return nil, fmt.Errorf("state file %s: traffic: %v; the file is left as it is", path, err)
		}
		out.Traffic = &t
	}
	return out, nil
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
