package store

import "encoding/binary"

// MaxCreated is how many bank folder copies and push transactions created
// at run time a world keeps, per kind: creating one more evicts the oldest
// of its kind. The seeded world is never evicted. It bounds the memory of
// a simulator left running under a write load (docs/simulator.md).
const MaxCreated = 100_000

// MaxCreatedAttendances is how many default attendances (E7) created at
// run time a world keeps; one more evicts the oldest. They are stored
// compactly (attendanceLog: 32 bytes and no pointer each, and 5 to 11 of
// index), so a million take about 40 MB of heap; the bound keeps a
// simulator flooded for longer within 128 MB resident (BENCHMARKS.md, (e)).
const MaxCreatedAttendances = 1_000_000

// createdKind names a kind of record created at run time.
type createdKind int

const (
	createdFolder createdKind = iota
	createdAttendance
	createdPush
	createdKinds
)

// maxCreatedOf is the bound of each kind.
var maxCreatedOf = [createdKinds]int{
	createdFolder:     MaxCreated,
	createdAttendance: MaxCreatedAttendances,
	createdPush:       MaxCreated,
}

// ringChunk is how many entries a ring allocates at a time.
const ringChunk = 1024

// ring is a queue in creation order that grows up to a bound and then
// overwrites its oldest entry. It is kept in chunks allocated as it grows,
// so that growing never copies it and a full ring has no spare room.
type ring[T any] struct {
	chunks [][]T
	head   int // position of the oldest entry once the ring is full
	count  int
}

// at is the entry at position p.
func (r *ring[T]) at(p int) *T { return &r.chunks[p/ringChunk][p%ringChunk] }

// full says whether the ring holds bound entries: then push overwrites
// the oldest, at position head.
func (r *ring[T]) full(bound int) bool { return r.count >= bound }

// push adds v and returns its position; when the ring holds bound entries,
// v takes the place of the oldest (full says when it will).
func (r *ring[T]) push(v T, bound int) int {
	if !r.full(bound) {
		if r.count == len(r.chunks)*ringChunk {
			r.chunks = append(r.chunks, make([]T, ringChunk))
		}
		p := r.count
		*r.at(p) = v
		r.count++
		return p
	}
	p := r.head
	*r.at(p) = v
	r.head = (r.head + 1) % r.count
	return p
}

// each calls f with each entry, oldest first.
func (r *ring[T]) each(f func(p int, v *T)) {
	for i := range r.count {
		p := (r.head + i) % r.count
		f(p, r.at(p))
	}
}

// oddIDs keys the ids that are not keys (parseID), which a state file may
// hold: each under a key of its own whose first eight bytes are all 0xff.
// A parsed key of that form is taken as odd too, so the two kinds of key
// never meet.
type oddIDs struct {
	ids map[idKey]string
	n   uint64
}

// oddPrefix is the first eight bytes of the key of an odd id.
const oddPrefix = ^uint64(0)

func isOdd(k idKey) bool { return binary.BigEndian.Uint64(k[:8]) == oddPrefix }

// key returns the key of id.
func (o *oddIDs) key(id string) idKey {
	if k, ok := parseID(id); ok && !isOdd(k) {
		return k
	}
	if o.ids == nil {
		o.ids = map[idKey]string{}
	}
	o.n++
	var k idKey
	binary.BigEndian.PutUint64(k[:8], oddPrefix)
	binary.BigEndian.PutUint64(k[8:], o.n)
	o.ids[k] = id
	return k
}

// id returns the id of k.
func (o *oddIDs) id(k idKey) string {
	if isOdd(k) {
		return o.ids[k]
	}
	return k.String()
}

// forget lets the key k go.
func (o *oddIDs) forget(k idKey) {
	if isOdd(k) {
		delete(o.ids, k)
	}
}

// fifo is the ids of one kind of record in creation order, as keys: no
// pointer for the garbage collector to follow.
type fifo struct {
	ring[idKey]
	oddIDs
}

// push adds id and returns the id it evicts, if the queue was full.
func (q *fifo) push(id string, bound int) (string, bool) {
	var old string
	full := q.full(bound)
	if full {
		k := *q.at(q.head)
		old = q.id(k)
		q.forget(k)
	}
	q.ring.push(q.key(id), bound)
	return old, full
}

// inOrder returns the queue's ids, oldest first (nil when it is empty, as
// a state file has always said).
func (q *fifo) inOrder() []string {
	if q.count == 0 {
		return nil
	}
	out := make([]string, 0, q.count)
	q.each(func(_ int, k *idKey) { out = append(out, q.id(*k)) })
	return out
}

// created is the creation log of a world's run-time records: the ids of
// bank folder copies and push transactions, and the default attendances
// themselves.
type created struct {
	queues      [createdKinds]fifo // but createdAttendance
	attendances attendanceLog
}

// inOrder returns the ids of kind, oldest first.
func (c *created) inOrder(kind createdKind) []string {
	if kind == createdAttendance {
		return c.attendances.inOrder()
	}
	return c.queues[kind].inOrder()
}

// remember notes a record of kind created at run time and evicts the
// oldest of its kind beyond the bound, removing it with forget. It returns
// how many records it evicted (0 or 1). Callers hold mu.
func (s *Store) remember(kind createdKind, id string, forget func(string)) int {
	old, full := s.w.created.queues[kind].push(id, s.bound(kind))
	if !full {
		return 0
	}
	forget(old)
	s.evicted.Add(1)
	return 1
}

// bound is how many records of kind the world keeps. Callers hold mu.
func (s *Store) bound(kind createdKind) int {
	if s.maxCreated > 0 {
		return s.maxCreated
	}
	return maxCreatedOf[kind]
}

// Evicted returns how many run-time records the store has evicted since it
// was made.
func (s *Store) Evicted() int64 { return s.evicted.Load() }

// SetMaxCreated sets the bound of run-time records of every kind (0: the
// kind's own, MaxCreated or MaxCreatedAttendances); tests use a small one.
func (s *Store) SetMaxCreated(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxCreated = n
}
