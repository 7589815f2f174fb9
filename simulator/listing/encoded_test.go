package listing

import (
	"fmt"
	"testing"
)

// TestEncodedOncePerPage: a page is encoded once per query and tag and
// then answered from the cache, a different tag or query is encoded
// apart, a query of several sort keys is never kept, and a list keeps at
// most MaxEncodedPages pages.
func TestEncodedOncePerPage(t *testing.T) {
	type rec struct {
		N int `json:"n"`
	}
	items := make([]rec, 50)
	for i := range items {
		items[i] = rec{N: i}
	}
	l := New(items)
	calls := 0
	enc := func(b []byte, page []rec) []byte {
		calls++
		return fmt.Appendf(b, "%v", page)
	}
	get := func(q Query, tag any) string {
		t.Helper()
		b, err := l.Encoded(q, tag, enc)
		if err != nil {
			t.Fatalf("Encoded(%+v, %v): %v", q, tag, err)
		}
		return string(b)
	}
	q := Query{Offset: 2, Limit: 3}
	first := get(q, "a")
	if again := get(q, "a"); again != first || calls != 1 {
		t.Errorf("the same page twice: got %q then %q with %d encodings, want equal bytes and 1 encoding", first, again, calls)
	}
	if want := "[{2} {3} {4}]"; first != want {
		t.Errorf("page: got %q, want %q", first, want)
	}
	get(q, "b")
	get(Query{Offset: 3, Limit: 3}, "a")
	if calls != 3 {
		t.Errorf("another tag and another offset: %d encodings in all, want 3", calls)
	}
	several := Query{Limit: 3, Sort: "n", Then: []SortKey{{Field: "n", Desc: true}}}
	get(several, "a")
	get(several, "a")
	if calls != 5 {
		t.Errorf("a query of several sort keys, twice: %d encodings in all, want 5 (never kept)", calls)
	}
	for i := range 2 * MaxEncodedPages {
		get(Query{Offset: i, Limit: 1}, "bound")
	}
	if n := len(l.encoded.pages); n > MaxEncodedPages {
		t.Errorf("the list keeps %d pages, want at most %d", n, MaxEncodedPages)
	}
}
