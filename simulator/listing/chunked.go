package listing

import "sync"

// ChunkLen is how many items of a generated list are made at a time: a
// page in a sort order touches a chunk for each of its items.
const ChunkLen = 32

// KeptChunks is how many chunks a generated list keeps, the last used.
const KeptChunks = 64

// madeWhole is the longest walk in a sort order over a generated list
// that takes its items chunk by chunk; a longer one makes them all once.
const madeWhole = 2048

// view is a list's items as a selection reads them: held in a slice, or
// generated.
type view[T any] struct {
	items []T
	gen   *generated[T]
}

func (v view[T]) len() int {
	if v.gen != nil {
		return v.gen.n
	}
	return len(v.items)
}

func (v view[T]) at(i int) *T {
	if v.gen != nil {
		return v.gen.at(i)
	}
	return &v.items[i]
}

// generated is a list made a chunk at a time, keeping the last chunks it
// made.
type generated[T any] struct {
	n     int
	chunk func(c int) []T

	mu   sync.Mutex
	kept [KeptChunks]keptChunk[T]
	next int // the slot to overwrite next
}

type keptChunk[T any] struct {
	c     int
	items []T // nil: the slot is empty
}

// at returns the item i; the pointer stays valid after its chunk is let go.
func (g *generated[T]) at(i int) *T {
	return &g.get(i / ChunkLen)[i%ChunkLen]
}

// get returns chunk c, made anew unless it is kept.
func (g *generated[T]) get(c int) []T {
	g.mu.Lock()
	for _, k := range g.kept {
		if k.items != nil && k.c == c {
			g.mu.Unlock()
			return k.items
		}
	}
	g.mu.Unlock()
	items := g.chunk(c)
	g.mu.Lock()
	g.kept[g.next] = keptChunk[T]{c, items}
	g.next = (g.next + 1) % KeptChunks
	g.mu.Unlock()
	return items
}

// making lets one generated list at a time make all its items: at
// --scale 1000 each is megabytes that a burst of sorted or filtered
// requests would otherwise make side by side.
var making = make(chan struct{}, 1)

// all makes every item, in stored order, without keeping them.
func (g *generated[T]) all() []T {
	making <- struct{}{}
	defer func() { <-making }()
	out := make([]T, 0, g.n)
	for c := 0; c*ChunkLen < g.n; c++ {
		out = append(out, g.chunk(c)...)
	}
	return out
}
