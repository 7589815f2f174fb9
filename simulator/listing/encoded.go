package listing

import (
	"runtime"
	"sync/atomic"
)

// The encoded-page cache pays for itself: measured with bench/loopback.sh
// against the same simulator encoding every page on every request (-tags
// campusconf_nopagecache; three alternated rounds of 5 s per phase,
// 2026-11-29), it bought 46% on a 20-entry page of E20 and 113% on one of
// E10 (median of the rounds' ratios 1.46 and 2.13; CPU per request 1.43
// and 2.11 times less), and nothing elsewhere (BENCHMARKS.md, "What the
// hand-written machinery buys").
//
// The bounds of the encoded-page cache: a page is kept when it encodes to
// at most MaxEncodedPage bytes, a list keeps at most MaxEncodedPages pages
// (beyond, it starts again empty), and all lists together at most
// MaxEncodedBytes (beyond, pages are encoded and not kept until lists are
// let go).
const (
	MaxEncodedPage  = 64 << 10
	MaxEncodedPages = 16
	MaxEncodedBytes = 32 << 20
)

// encodedBytes counts the bytes held by the encoded pages of every list.
var encodedBytes atomic.Int64

// pageKey names an encoded page: the query (with one sort key at most)
// and the caller's tag.
type pageKey struct {
	offset, limit          int
	sort                   string
	desc, reverse          bool
	whereField, whereValue string
	tag                    any
}

// pageCache is a list's encoded pages.
type pageCache struct {
	pages map[pageKey][]byte
	bytes int64
}

// Encoded returns the page q of l as enc encodes it. A list never
// changes, so the bytes of a page are encoded once and kept for the next
// request of the same page (within the bounds above). tag tells apart
// answers of one page that differ by what the caller does to its entries
// or how it encodes them: it must be comparable, and equal only for equal
// answers. The bytes returned are shared: callers must not change them.
func (l *List[T]) Encoded(q Query, tag any, enc func(b []byte, items []T) []byte) ([]byte, error) {
	cacheable := pageCaching && len(q.Then) == 0
	k := pageKey{q.Offset, q.Limit, q.Sort, q.Desc, q.Reverse, q.WhereField, q.WhereValue, tag}
	if cacheable {
		l.mu.Lock()
		var b []byte
		ok := false
		if l.encoded != nil {
			b, ok = l.encoded.pages[k]
		}
		l.mu.Unlock()
		if ok {
			return b, nil
		}
	}
	items, err := l.Page(q, nil)
	if err != nil {
		return nil, err
	}
	b := enc(nil, items)
	if !cacheable || len(b) > MaxEncodedPage || encodedBytes.Load()+int64(len(b)) > MaxEncodedBytes {
		return b, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.encoded
	if c == nil {
		// held apart from the list, so that the cleanup can count the
		// bytes of a list let go off the bound
		c = &pageCache{pages: map[pageKey][]byte{}}
		l.encoded = c
		runtime.AddCleanup(l, func(c *pageCache) { encodedBytes.Add(-atomic.LoadInt64(&c.bytes)) }, c)
	}
	if len(c.pages) >= MaxEncodedPages {
		clear(c.pages)
		encodedBytes.Add(-atomic.SwapInt64(&c.bytes, 0))
	}
	if _, ok := c.pages[k]; !ok {
		c.pages[k] = b
		atomic.AddInt64(&c.bytes, int64(len(b)))
		encodedBytes.Add(int64(len(b)))
	}
	return b, nil
}
