// Package store holds the state of one simulated world and the rules that
// need that state (existence, ownership, the gradebook total). It knows
// nothing of HTTP. A Store guards its data with a mutex and copies records on
// the way in and out, so callers never share memory with it.
package store

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Policy names the rules of the store that a deliberate mistake bends
// (simulator/defects): the simulator fills it from the defects it makes.
// The zero Policy keeps every rule as the specification states it.
type Policy struct {
	// GradebookTotalOfRequest checks the 100 percent total over the
	// weightages of the request alone, not over the module after the merge.
	GradebookTotalOfRequest bool
	// GradebookTotalRounded rounds the total to a whole percent before
	// the check.
	GradebookTotalRounded bool
	// GradebookTotalBelow100 refuses a total of exactly 100 (total < 100
	// instead of total <= 100).
	GradebookTotalBelow100 bool
	// GradebookRefusedStored keeps the merged weightages of an update
	// refused for its total.
	GradebookRefusedStored bool
	// NotifyStatusKept leaves a notification's read status as it was on
	// an update, which still answers the record.
	NotifyStatusKept bool
	// NotifyStatusEveryone sets the read status of every notification of
	// the user on an update of one.
	NotifyStatusEveryone bool
}

// Store is the state of one world.
type Store struct {
	build func() *World

	mu sync.Mutex
	w  *World
	// policy is the rules bent; SetPolicy changes it.
	policy Policy
	// maxCreated bounds the run-time records per kind (0: MaxCreated).
	maxCreated int
	evicted    atomic.Int64
	// real, when on, makes the world's clock move with real time
	// (SetRealTime). Off: the clock steps one second per write.
	real RealTime
}

// New returns a store holding w, bending the rules p names; Reset replaces
// w with build().
func New(w *World, build func() *World, p Policy) *Store {
	return &Store{build: build, policy: p, w: w}
}

// SetPolicy replaces the rules bent, from the next call on.
func (s *Store) SetPolicy(p Policy) {
	s.mu.Lock()
	s.policy = p
	s.mu.Unlock()
}

// Reset puts the world back in its seeded state.
func (s *Store) Reset() {
	w := s.build()
	s.mu.Lock()
	s.w = w
	s.real.Rebase()
	s.mu.Unlock()
}

// SetRealTime makes the world's clock move with wall from now on, from
// where it stands: a write is dated at the world's time then, not one
// second after the last (serve's default; tests and the embedded target
// keep stepping, which makes runs reproducible).
func (s *Store) SetRealTime(wall func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.real = NewRealTime(wall)
}

// tick brings w.Clock up to date with the wall time passed (never back).
// Callers hold mu.
func (s *Store) tick() {
	s.w.Clock = s.real.Advance(s.w.Clock)
}

// now returns the time of a write: the world's time moved with real time
// (SetRealTime), else the clock advanced by one second. Callers hold mu.
func (s *Store) now() time.Time {
	if s.real.On() {
		s.tick()
		return s.w.Clock
	}
	s.w.Clock = s.w.Clock.Add(time.Second)
	return s.w.Clock
}

// Clock returns the world's current time.
func (s *Store) Clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tick()
	return s.w.Clock
}

// SetClock moves the world's clock to t; records already present keep
// their dates.
func (s *Store) SetClock(t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Clock = t
	s.real.Rebase()
}

// lists returns the current world's read-only lists. The store's readers
// of them (FileLogs, Students, ...) return the list of a parent and whether
// the parent exists; the list is shared and immutable, and its Page copies
// out.
func (s *Store) lists() *Lists {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Lists
}

// SubscriptionKey returns the world's subscription key.
func (s *Store) SubscriptionKey() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.SubscriptionKey
}

// Users returns the callers of the world.
func (s *Store) Users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.w.Users)
}

// UserByToken returns the user holding the bearer token.
func (s *Store) UserByToken(token string) (User, bool) {
	return s.userWhere(func(u *User) bool { return u.Token == token })
}

// UserByLogin returns the user with the institutional login id.
func (s *Store) UserByLogin(userID string) (User, bool) {
	return s.userWhere(func(u *User) bool { return u.UserID == userID })
}

// userWhere returns the first user match accepts.
func (s *Store) userWhere(match func(*User) bool) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.w.Users {
		if match(&s.w.Users[i]) {
			return s.w.Users[i], true
		}
	}
	return User{}, false
}

// NextRequestID returns a fresh id for a second-factor result.
func (s *Store) NextRequestID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newID()
}

// Faculties returns the faculty list.
func (s *Store) Faculties() []Faculty {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.w.Faculties)
}
