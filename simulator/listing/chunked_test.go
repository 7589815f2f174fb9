package listing

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// TestGeneratedAnswersAsHeld: a generated list answers every query as the
// same items held in a slice do, across chunk boundaries, in stored,
// reversed and sorted order, filtered or not, and counts its chunks.
func TestGeneratedAnswersAsHeld(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	const n = madeWhole + 3*ChunkLen + 17 // sorted walks both chunk by chunk and made whole
	make1 := func(i int) rec {
		return rec{Name: fmt.Sprintf("r%04d", (i*7919)%n), N: int32(i % 5), On: i%3 == 0, At: t0.Add(time.Duration(i) * time.Minute)}
	}
	items := make([]rec, n)
	for i := range items {
		items[i] = make1(i)
	}
	var made atomic.Int64
	gen := Generated(n, func(c int) []rec {
		made.Add(1)
		out := make([]rec, 0, ChunkLen)
		for i := c * ChunkLen; i < min(n, (c+1)*ChunkLen); i++ {
			out = append(out, make1(i))
		}
		return out
	})
	held := New(items)
	queries := []Query{
		{Limit: -1},
		{Limit: 20},
		{Offset: ChunkLen - 5, Limit: 20},
		{Offset: n - 3, Limit: 20},
		{Offset: n + 3, Limit: 20},
		{Limit: 0},
		{Limit: 30, Reverse: true},
		{Limit: -1, Reverse: true},
		{Limit: 25, Offset: 300, Sort: "name"},
		{Limit: 25, Offset: 300, Sort: "name", Desc: true}, // made with the ascending order
		{Limit: -1, Sort: "n", Desc: true},
		{Limit: -1, Sort: "n", Then: []SortKey{{"name", true}}},
		{Limit: 10, WhereField: "n", WhereValue: "3"},
		{Limit: -1, Offset: 4, WhereField: "on", WhereValue: "true", Sort: "at", Desc: true},
	}
	keeps := map[string]func(*rec) bool{"all": nil, "odd n": func(r *rec) bool { return r.N%2 == 1 }}
	for _, q := range queries {
		for kname, keep := range keeps {
			want, err1 := held.Page(q, keep)
			got, err2 := gen.Page(q, keep)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("Page(%+v, %s): generated gave %d items (%v), held %d (%v); expected the same items", q, kname, len(got), err2, len(want), err1)
			}
		}
	}
	if gen.Len() != n || !reflect.DeepEqual(gen.At(n-1), items[n-1]) || !reflect.DeepEqual(gen.Items(), items) {
		t.Errorf("Len, At or Items of the generated list differ from the held one")
	}
	// a page in stored order makes only the chunks it touches, once
	made.Store(0)
	g2 := Generated(n, func(c int) []rec { made.Add(1); return items[c*ChunkLen : min(n, (c+1)*ChunkLen)] })
	for range 3 {
		if _, err := g2.Page(Query{Offset: ChunkLen - 10, Limit: 20}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := made.Load(); got != 2 {
		t.Errorf("three requests of one page across two chunks made %d chunks; expected 2 (made once, then kept)", got)
	}
}
