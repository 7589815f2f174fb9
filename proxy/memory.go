package proxy

import (
	"container/list"
	"strings"
	"sync"
)

// memories is what the proxy keeps of earlier exchanges, for the stateful
// rules: small entries, each naming a world (see wire.WorldOf), a kind of
// fact and a record, bounded in bytes (Options.StateBytes). Past the bound
// the least recently used entry is dropped first: a rule that needed it is
// then not judged, never misjudged.
type memories struct {
	mu      sync.Mutex
	max     int64
	size    int64
	ll      *list.List // front: most recently used
	items   map[memKey]*list.Element
	evicted int64
}

// DefaultStateBytes is the default bound of the stateful rules' memory.
const DefaultStateBytes = 32 << 20

// entryOverhead is what one entry costs besides its strings: the map slot,
// the list element and the entry, estimated on amd64.
const entryOverhead = 160

// The kinds of fact remembered.
const (
	kindRead    = "read"    // notification id -> read status last set (int64)
	kindRefused = "refused" // notification id -> a read value out of range refused since the last set (bool)
	kindUpdate  = "update"  // notification id -> the read value last set and the record its update answered ("READ\x00JSON")
	kindMedia   = "media"   // media id deleted (true)
	kindMediaAt = "mediaAt" // media id -> mediaRead or mediaRefused, what a read or a refused delete showed
	kindSlot    = "slot"    // slot id deleted (true)
	kindPush    = "push"    // transaction id -> "deny" or "approve"
	kindSection = "section" // quiz section id -> displayQuestionMark (bool)
	kindCode    = "code"    // one-time password already sent (true)
	kindListed  = "listed"  // "LIST-OP identity" -> the entry's JSON as the list carried it
)

type memKey struct{ world, kind, id string }

type memEntry struct {
	key  memKey
	val  any
	size int64
}

func newMemory(max int64) *memories {
	if max <= 0 {
		max = DefaultStateBytes
	}
	return &memories{max: max, ll: list.New(), items: map[memKey]*list.Element{}}
}

// world returns the memory of one world.
func (ms *memories) world(name string) *memory { return &memory{ms: ms, world: name} }

// reset forgets every world: the records remembered were restored.
func (ms *memories) reset() {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.ll.Init()
	ms.items = map[memKey]*list.Element{}
	ms.size = 0
}

// stats returns the bytes held, the bound and the entries dropped so far.
func (ms *memories) stats() (size, max, evicted int64) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.size, ms.max, ms.evicted
}

func (ms *memories) get(k memKey) (any, bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	e, ok := ms.items[k]
	if !ok {
		return nil, false
	}
	ms.ll.MoveToFront(e)
	return e.Value.(*memEntry).val, true
}

func (ms *memories) set(k memKey, v any) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	size := int64(len(k.world)+len(k.kind)+len(k.id)) + entryOverhead
	if s, ok := v.(string); ok {
		size += int64(len(s))
	}
	if e, ok := ms.items[k]; ok {
		ent := e.Value.(*memEntry)
		ms.size += size - ent.size
		ent.val, ent.size = v, size
		ms.ll.MoveToFront(e)
	} else {
		ms.items[k] = ms.ll.PushFront(&memEntry{key: k, val: v, size: size})
		ms.size += size
	}
	for ms.size > ms.max && ms.ll.Len() > 0 {
		last := ms.ll.Back()
		ent := last.Value.(*memEntry)
		ms.ll.Remove(last)
		delete(ms.items, ent.key)
		ms.size -= ent.size
		ms.evicted++
	}
}

// memory is the view of one world's memory: what a later exchange on the
// same record must show.
type memory struct {
	ms    *memories
	world string
}

func (m *memory) get(kind, id string) (any, bool) {
	return m.ms.get(memKey{m.world, kind, strings.ToLower(id)})
}

func (m *memory) set(kind, id string, v any) { m.ms.set(memKey{m.world, kind, strings.ToLower(id)}, v) }

func (m *memory) has(kind, id string) bool {
	_, ok := m.get(kind, id)
	return ok
}

// allIn reports whether every id (at least one) is remembered of kind.
func (m *memory) allIn(kind string, ids []string) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if !m.has(kind, id) {
			return false
		}
	}
	return true
}
