package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"
	"time"

	"github.com/brianvoe/gofakeit/v7"
)

// State is what changes in a World: everything but the read-only lists,
// which the seed regenerates, and the run-time faker, which is replayed to
// where it stopped. It is the JSON form of a world in snapshots and state
// files (simulator/snapshots.go), so its field names are the file format
// (version 1): renaming or adding one needs a new version, and a reader
// of the old one, for the files of earlier servers to load (Check
// requires every map). Each field but Created is copied to and
// from the World field of the same name and type (stateFields); a World
// field State does not carry is listed in notSaved with the reason, and
// TestStateCoversWorld fails naming a field that is in neither.
type State struct {
	Clock  time.Time
	Seeded time.Time
	// Records are the world's records (the default attendances created
	// at run time expanded to full records).
	Records
	RuntimeDraws int64
	// Created holds the ids created at run time per kind (bank folder
	// copies, attendances, pushes), oldest first.
	Created [createdKinds][]string
}

// notSaved are the World fields State does not carry, and why.
var notSaved = map[string]string{
	"Runtime": "the run-time faker is replayed from the seed to RuntimeDraws draws",
	"Lists":   "the read-only lists are regenerated from the seed",
	// with the default attendances it holds compactly, saved in
	// State.Attendances expanded to full records (and compacted again
	// by Restore)
	"created":               "saved as State.Created, the ids in order",
	"attendanceModules":     "the modules of the compact attendances, saved expanded with them",
	"attendanceModuleIndex": "the modules of the compact attendances, saved expanded with them",
}

// stateFields pairs the index of each State field but Created with the
// index of the World field of the same name. It panics, at start, when a
// State field has no World field of its name and type: the two structs
// are held to each other here, not by two hand-written lists.
var stateFields = func() [][2]int {
	st, wt := reflect.TypeFor[State](), reflect.TypeFor[World]()
	var out [][2]int
	for i := range st.NumField() {
		f := st.Field(i)
		if f.Name == "Created" {
			continue
		}
		wf, ok := wt.FieldByName(f.Name)
		if !ok || wf.Type != f.Type || len(wf.Index) != 1 {
			panic("store: State." + f.Name + " has no World field of the same name and type")
		}
		out = append(out, [2]int{i, wf.Index[0]})
	}
	return out
}()

// MarshalState encodes the world's state as JSON.
func (s *Store) MarshalState() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tick()
	st := s.state()
	return json.Marshal(&st)
}

// state is the world's state. It shares the world's maps: callers hold mu
// until they are done with it.
func (s *Store) state() State {
	w := s.w
	var st State
	sv, wv := reflect.ValueOf(&st).Elem(), reflect.ValueOf(w).Elem()
	for _, p := range stateFields {
		sv.Field(p[0]).Set(wv.Field(p[1]))
	}
	for k := range createdKinds {
		st.Created[k] = w.created.inOrder(k)
	}
	st.Attendances = w.allAttendances()
	return st
}

// Check reports the first sign that st is not a world's state.
func (st *State) Check() error {
	switch {
	case st.Clock.IsZero() || st.Seeded.IsZero():
		return errors.New("expected Clock and Seeded date-times")
	case st.SubscriptionKey == "":
		return errors.New("expected a SubscriptionKey")
	case len(st.Users) == 0:
		return errors.New("expected Users")
	case st.RuntimeDraws < 0:
		return fmt.Errorf("expected RuntimeDraws >= 0, got %d", st.RuntimeDraws)
	}
	// every map of a world is present, if empty
	sv := reflect.ValueOf(st).Elem()
	for _, f := range reflect.VisibleFields(sv.Type()) {
		if v := sv.FieldByIndex(f.Index); v.Kind() == reflect.Map && v.IsNil() {
			return fmt.Errorf("expected %s (an object)", f.Name)
		}
	}
	return nil
}

// maxReplay is the most run-time id draws Restore replays (about a second).
const maxReplay = 5_000_000

// Restore replaces the world with st. base is a freshly built world of
// the same seed and scale seeded at st.Seeded: its lists and its run-time
// faker are kept (the faker replayed to st.RuntimeDraws draws). st must
// have passed Check.
func (s *Store) Restore(st *State, base *World) {
	w := base
	wv, sv := reflect.ValueOf(w).Elem(), reflect.ValueOf(st).Elem()
	for _, p := range stateFields {
		wv.Field(p[1]).Set(sv.Field(p[0]))
	}
	if st.RuntimeDraws <= maxReplay {
		for range st.RuntimeDraws {
			w.Runtime.UUID()
		}
	} else {
		// too many to replay quickly: a faker of its own, seeded from the
		// state, still gives every later record a fresh id
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", st.SubscriptionKey, st.RuntimeDraws)
		w.Runtime = gofakeit.New(h.Sum64() | 1)
	}
	w.RuntimeDraws = st.RuntimeDraws
	s.mu.Lock()
	defer s.mu.Unlock()
	w.created = created{}
	for k, ids := range st.Created {
		kind := createdKind(k)
		for _, id := range ids {
			if kind == createdAttendance {
				w.restoreAttendance(id, s.bound(kind), len(ids) <= s.bound(kind))
			} else {
				w.created.queues[k].push(id, s.bound(kind))
			}
		}
	}
	s.w = w
	s.real.Rebase() // the saved time, moving on from now
}

// newID draws the id of a record created at run time. Callers hold mu.
func (s *Store) newID() string {
	s.w.RuntimeDraws++
	return s.w.Runtime.UUID()
}
