// Package world generates the seeded world of the simulator: the same seed
// and scale always give the same records, byte for byte, whatever the date,
// because every value comes from gofakeit fakers seeded from the world seed
// and every date is counted from a fixed epoch (or from the clock BuildAt
// is given, which moves every date by the same amount).
package world

import (
	"fmt"
	"hash/fnv"
	"time"

	"github.com/brianvoe/gofakeit/v7"
)

// Epoch is the first instant of the world's data.
var Epoch = time.Date(2025, time.January, 6, 8, 0, 0, 0, time.UTC)

// Now is the world's clock at start: records created at run time are dated
// from it (see store.World.Clock).
var Now = Epoch.AddDate(0, 3, 0)

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
