package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/brianvoe/gofakeit/v7"
)

// State is what changes in a World: everything but the read-only lists,
// which the seed regenerates, and the run-time faker, which is replayed to
// where it stopped. It is the JSON form of a world in snapshots and state
// files (simulator/state.go).
type State struct {
	Clock           time.Time
	Seeded          time.Time
	SubscriptionKey string
	Users           []User
	Faculties       []Faculty
	Modules         map[string]*Module
	Slots           map[string]string
	BankFolders     map[string]BankFolder
	Attendances     map[string]Attendance
	Evaluations     map[string]Evaluation
	Questions       map[string]Question
	Media           map[string]MediaLog
	Sessions        map[string]bool
	Gradebooks      map[string]Gradebook
	Notifications   map[int64]Notification
	Ancestors       map[string][]Target
	QuizSections    map[string]QuizSection
	Pushes          map[string]Push
	RuntimeDraws    int64
	// Created holds the ids created at run time per kind (bank folder
	// copies, attendances, pushes), oldest first.
	Created [createdKinds][]string
}

// MarshalState encodes the world's state as JSON.
func (s *Store) MarshalState() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.w
	st := State{
		Clock: w.Clock, Seeded: w.Seeded, SubscriptionKey: w.SubscriptionKey,
		Users: w.Users, Faculties: w.Faculties, Modules: w.Modules, Slots: w.Slots,
		BankFolders: w.BankFolders, Attendances: w.Attendances, Evaluations: w.Evaluations,
		Questions: w.Questions, Media: w.Media, Sessions: w.Sessions, Gradebooks: w.Gradebooks,
		Notifications: w.Notifications, Ancestors: w.Ancestors, QuizSections: w.QuizSections,
		Pushes: w.Pushes, RuntimeDraws: w.RuntimeDraws,
	}
	for k := range createdKinds {
		st.Created[k] = w.created.queues[k].inOrder()
	}
	return json.Marshal(st)
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
	for _, m := range []struct {
		name string
		nil  bool
	}{
		{"Modules", st.Modules == nil}, {"Slots", st.Slots == nil}, {"BankFolders", st.BankFolders == nil},
		{"Attendances", st.Attendances == nil}, {"Evaluations", st.Evaluations == nil},
		{"Questions", st.Questions == nil}, {"Media", st.Media == nil}, {"Sessions", st.Sessions == nil},
		{"Gradebooks", st.Gradebooks == nil}, {"Notifications", st.Notifications == nil},
		{"Ancestors", st.Ancestors == nil}, {"QuizSections", st.QuizSections == nil}, {"Pushes", st.Pushes == nil},
	} {
		if m.nil {
			return fmt.Errorf("expected %s (an object)", m.name)
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
	w.Clock, w.Seeded, w.SubscriptionKey = st.Clock, st.Seeded, st.SubscriptionKey
	w.Users, w.Faculties, w.Modules, w.Slots = st.Users, st.Faculties, st.Modules, st.Slots
	w.BankFolders, w.Attendances, w.Evaluations = st.BankFolders, st.Attendances, st.Evaluations
	w.Questions, w.Media, w.Sessions, w.Gradebooks = st.Questions, st.Media, st.Sessions, st.Gradebooks
	w.Notifications, w.Ancestors, w.QuizSections, w.Pushes = st.Notifications, st.Ancestors, st.QuizSections, st.Pushes
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
	bound := s.maxCreated
	if bound <= 0 {
		bound = MaxCreated
	}
	w.created = created{}
	for k, ids := range st.Created {
		for _, id := range ids {
			w.created.queues[k].push(id, bound)
		}
	}
	s.w = w
}

// newID draws the id of a record created at run time. Callers hold mu.
func (s *Store) newID() string {
	s.w.RuntimeDraws++
	return s.w.Runtime.UUID()
}

// inOrder returns the queue's ids, oldest first.
func (q *fifo) inOrder() []string {
	if q.count < len(q.ids) || q.head == 0 {
		return append([]string(nil), q.ids...)
	}
	return append(append([]string(nil), q.ids[q.head:]...), q.ids[:q.head]...)
}
