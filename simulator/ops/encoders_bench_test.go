package ops

import (
	"testing"

	"github.com/campusconf/campusconf/simulator/listing"
)

// BenchmarkAppendFileLogs encodes the E10 page of BenchmarkHotList (20
// entries), the encoder alone.
func BenchmarkAppendFileLogs(b *testing.B) {
	env, refs := newTestEnv(b, 1, 1)
	l, _ := env.store.FileLogs(refs.Folder)
	page, err := l.Page(listing.Query{Offset: 10, Limit: 20}, nil)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 16<<10)
	b.ReportAllocs()
	for b.Loop() {
		buf = appendFileLogs(buf[:0], page)
	}
	b.SetBytes(int64(len(buf)))
}
