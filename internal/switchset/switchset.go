// Package switchset is a set of named switches (the simulator's defects and
// variants): which are on, asked by a typed name.
package switchset

import "slices"

// Set holds the switches that are on. The zero value has none.
type Set[N ~string] struct {
	on map[N]bool
}

// Add switches name on.
func (s *Set[N]) Add(name N) {
	if s.on == nil {
		s.on = map[N]bool{}
	}
	s.on[name] = true
}

// Has reports whether the named switch is on.
func (s Set[N]) Has(name N) bool { return s.on[name] }

// Enabled returns the names of the switches that are on, sorted.
func (s Set[N]) Enabled() []string {
	out := make([]string, 0, len(s.on))
	for n := range s.on {
		out = append(out, string(n))
	}
	slices.Sort(out)
	return out
}
