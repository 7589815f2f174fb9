package switchset

import (
	"slices"
	"testing"
)

type name string

func TestSet(t *testing.T) {
	var zero Set[name]
	if zero.Has("a") || len(zero.Enabled()) != 0 {
		t.Errorf("zero Set: Has(a) = %v, Enabled = %v; want false, []", zero.Has("a"), zero.Enabled())
	}
	var s Set[name]
	for _, n := range []name{"b", "a", "b"} {
		s.Add(n)
	}
	if got, want := s.Enabled(), []string{"a", "b"}; !slices.Equal(got, want) {
		t.Errorf("Enabled() = %v, want %v", got, want)
	}
	if !s.Has("a") || s.Has("c") {
		t.Errorf("Has(a), Has(c) = %v, %v; want true, false", s.Has("a"), s.Has("c"))
	}
}
