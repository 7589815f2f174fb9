package world

import (
	"math/rand/v2"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/campusconf/campusconf/simulator/listing"
)

// keptWhole is the longest list held whole. A longer one (the fixture's
// lists from --scale 103 on, every list from 513 on) holds none of its
// entries: it keeps the faker's state and the walk's at the start of each
// chunk, saved on a first pass, and makes a chunk again from them when it
// is wanted (listing.Generated), equal to the first time. Up to --scale
// 100 every list is held, as before (about 16 MB for all of them); at
// 1000 the lists held whole were about 120 MB during a suite run (issue
// 30).
const keptWhole = 4096

// walk makes a list of n entries, one step at a time in the order of
// generation: step makes the entry stored at index j, which is k at step
// k, or n-1-k when back is set (a history walked back from now, kept
// oldest first). s is the walk's state besides the faker (the time it
// walks, say): a plain value, copied at each saved point. seen, when not
// nil, sees each entry once, as the first pass makes it. f is left where
// a walk that held every entry would leave it, so the next walk of the
// same faker goes on as before.
func walk[T, S any](f *gofakeit.Faker, n int, back bool, s S, step func(f *gofakeit.Faker, s *S, j int) T, seen func(j int, e *T)) *listing.List[T] {
	return walkKeeping(keptWhole, f, n, back, s, step, seen)
}

// walkKeeping is walk holding lists of up to kept entries whole.
func walkKeeping[T, S any](kept int, f *gofakeit.Faker, n int, back bool, s S, step func(f *gofakeit.Faker, s *S, j int) T, seen func(j int, e *T)) *listing.List[T] {
	at := func(k int) int {
		if back {
			return n - 1 - k
		}
		return k
	}
	if n <= kept {
		items := make([]T, n)
		for k := range n {
			j := at(k)
			items[j] = step(f, &s, j)
			if seen != nil {
				seen(j, &items[j])
			}
		}
		return listing.New(items)
	}
	const chunk = listing.ChunkLen
	// stored chunk c holds j in [j0, j1), made at steps [k0, k1)
	span := func(c int) (j0, j1, k0, k1 int) {
		j0, j1 = c*chunk, min(n, (c+1)*chunk)
		if back {
			return j0, j1, n - j1, n - j0
		}
		return j0, j1, j0, j1
	}
	type mark struct {
		pcg rand.PCG
		s   S
	}
	pcg := f.Rand.(*rand.PCG)
	marks := make([]mark, (n+chunk-1)/chunk)
	for k := range n {
		j := at(k)
		if _, _, k0, _ := span(j / chunk); k == k0 {
			marks[j/chunk] = mark{*pcg, s}
		}
		e := step(f, &s, j)
		if seen != nil {
			seen(j, &e)
		}
	}
	return listing.Generated(n, func(c int) []T {
		m := marks[c]
		g := gofakeit.NewFaker(&m.pcg, false)
		j0, j1, k0, k1 := span(c)
		out := make([]T, j1-j0)
		for k := k0; k < k1; k++ {
			j := at(k)
			out[j-j0] = step(g, &m.s, j)
		}
		return out
	})
}
