// Package world generates the seeded world of the simulator: the same seed,
// scale and clock always give the same records, byte for byte, whatever
// the real date, because every value comes from gofakeit fakers seeded
// from the world seed and every date is counted back (or, for what is
// scheduled, forward) from the clock BuildAt is given. gofakeit's own date
// functions read the real time and are never used.
package world

import (
	"fmt"
	"hash/fnv"
	"time"

	"github.com/brianvoe/gofakeit/v7"
)

// Now is the world's clock at start when none is given: the seeded history
// ends shortly before it, and records created at run time are dated from
// it (see store.World.Clock).
var Now = time.Date(2025, time.April, 6, 8, 0, 0, 0, time.UTC)

// faker returns a faker for one part of the world. Each part has its own,
// derived from the seed and the part's name, so that lists generated on
// first use do not depend on the order in which they are used.
func faker(seed int64, part string) *gofakeit.Faker {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, part)
	s := h.Sum64()
	if s == 0 { // gofakeit.New(0) would seed from crypto/rand
		s = 1
	}
	return gofakeit.New(s)
}

// hex returns n random bytes from f as lowercase hex.
func hex(f *gofakeit.Faker, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(f.IntN(256))
	}
	return fmt.Sprintf("%x", b)
}

// minutes returns t plus m minutes.
func minutes(t time.Time, m int) time.Time { return t.Add(time.Duration(m) * time.Minute) }
