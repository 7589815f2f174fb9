package store

// MaxCreated is how many records of each kind created at run time (bank
// folder copies, default attendances, push transactions) a world keeps:
// creating one more evicts the oldest of its kind. The seeded world is never
// evicted. It bounds the memory of a simulator left running under a write
// load (docs/simulator.md).
const MaxCreated = 100_000

// createdKind names a kind of record created at run time.
type createdKind int

const (
	createdFolder createdKind = iota
	createdAttendance
	createdPush
	createdKinds
)

// fifo is a queue of ids in creation order, kept in a ring that grows up
// to its bound.
type fifo struct {
	ids   []string
	head  int // index of the oldest id once the ring is full
	count int
}

// push adds id and returns the id it evicts, if the queue was full.
func (q *fifo) push(id string, bound int) (string, bool) {
	if q.count < bound {
		q.ids = append(q.ids, id)
		q.count++
		return "", false
	}
	old := q.ids[q.head]
	q.ids[q.head] = id
	q.head = (q.head + 1) % bound
	return old, true
}

// created is the creation log of a world's run-time records.
type created struct {
	queues [createdKinds]fifo
}

// remember notes a record of kind created at run time and evicts the
// oldest of its kind beyond the bound, removing it with forget. It returns
// how many records it evicted (0 or 1). Callers hold mu.
func (s *Store) remember(kind createdKind, id string, forget func(string)) int {
	bound := s.maxCreated
	if bound <= 0 {
		bound = MaxCreated
	}
	old, full := s.w.created.queues[kind].push(id, bound)
	if !full {
		return 0
	}
	forget(old)
	s.evicted.Add(1)
	return 1
}

// Evicted returns how many run-time records the store has evicted since it
// was made.
func (s *Store) Evicted() int64 { return s.evicted.Load() }

// SetMaxCreated sets the bound of run-time records per kind (0: MaxCreated);
// tests use a small one.
func (s *Store) SetMaxCreated(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxCreated = n
}
