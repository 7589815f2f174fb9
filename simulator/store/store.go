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

// Defects says which deliberate mistakes are made (a defects.Set, or a
// switch the simulator can change while it runs).
type Defects interface {
	Has(name string) bool
}

// Store is the state of one world.
type Store struct {
	build   func() *World
	defects Defects

	mu sync.Mutex
	w  *World
	// maxCreated bounds the run-time records per kind (0: MaxCreated).
	maxCreated int
	evicted    atomic.Int64
}

// New returns a store holding w; Reset replaces it with build().
func New(w *World, build func() *World, d Defects) *Store {
	return &Store{build: build, defects: d, w: w}
}

// Reset puts the world back in its seeded state.
func (s *Store) Reset() {
	w := s.build()
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}

// now advances the world clock by one second and returns it. Callers hold mu.
func (s *Store) now() time.Time {
	s.w.Clock = s.w.Clock.Add(time.Second)
	return s.w.Clock
}

// Clock returns the world's current time.
func (s *Store) Clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Clock
}

// SetClock moves the world's clock to t; records already present keep
// their dates.
func (s *Store) SetClock(t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Clock = t
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
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.w.Users {
		if u.Token == token {
			return u, true
		}
	}
	return User{}, false
}

// UserByLogin returns the user with the institutional login id.
func (s *Store) UserByLogin(userID string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.w.Users {
		if u.UserID == userID {
			return u, true
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
