package store

import "encoding/binary"

// attendanceLog is the default attendances created at run time (E7), in
// creation order, in a ring of slots of 32 bytes with no pointer, so the
// garbage collector does not scan it however many it holds. A slot holds
// the record itself, compactly (the id's 16 bytes, the module and creator
// as indexes, the date in nanoseconds), or, for a record kept whole in
// World.Attendances, its id's key alone. The compact records are found
// by id through index, an open-addressing table of positions (linear
// probing, 4 bytes a place, at most three quarters full). A Go map of the
// same keys and positions, tried in its place, took 74 MB of heap and 113
// MB from the system for a million records against 39 and 61 MB
// (BenchmarkCreatesBounded): over issue 30's 128 MB once the binary is
// counted.
type attendanceLog struct {
	ring[attendanceSlot]
	oddIDs
	// index holds p+1 for the compact record at position p, 0 for an
	// empty place; shift is 64 less the log2 of its length.
	index []uint32
	shift uint
	n     int // compact records in index
}

// attendanceSlot is one default attendance created at run time: its name,
// description and flag are those of every default attendance.
type attendanceSlot struct {
	key idKey
	// created is the date in nanoseconds since 1970 (UTC).
	created int64
	// module is the index of the module in World.attendanceModules, with
	// the flags publishBit and wholeBit.
	module uint32
	// creator is the index of the creator in World.Users.
	creator uint32
}

const (
	// publishBit is the publish flag of the record.
	publishBit = 1 << 31
	// wholeBit says the record is kept whole in World.Attendances: the
	// slot holds its id's key alone.
	wholeBit = 1 << 30
	// moduleMask takes the flags off attendanceSlot.module.
	moduleMask = wholeBit - 1
)

// indexMin is the smallest length of the index.
const indexMin = 1024

// place is where the search for k starts in the index.
func (l *attendanceLog) place(k idKey) int {
	h := binary.LittleEndian.Uint64(k[:8]) ^ binary.LittleEndian.Uint64(k[8:])
	return int((h * 0x9e3779b97f4a7c15) >> l.shift)
}

// find returns the position of the compact record of key k and its place
// in the index.
func (l *attendanceLog) find(k idKey) (pos, at int, ok bool) {
	if l.n == 0 {
		return 0, 0, false
	}
	mask := len(l.index) - 1
	for i := l.place(k); ; i = (i + 1) & mask {
		e := l.index[i]
		if e == 0 {
			return 0, 0, false
		}
		if l.at(int(e-1)).key == k {
			return int(e - 1), i, true
		}
	}
}

// insert indexes the compact record at position p, in place of any
// record of the same key.
func (l *attendanceLog) insert(p int) {
	k := l.at(p).key
	if _, at, ok := l.find(k); ok {
		l.index[at] = uint32(p + 1)
		return
	}
	if (l.n+1)*4 > len(l.index)*3 {
		l.grow()
	}
	mask := len(l.index) - 1
	i := l.place(k)
	for l.index[i] != 0 {
		i = (i + 1) & mask
	}
	l.index[i] = uint32(p + 1)
	l.n++
}

// grow doubles the index (or makes the first) and places every entry anew.
func (l *attendanceLog) grow() {
	old := l.index
	size := max(indexMin, 2*len(old))
	l.index = make([]uint32, size)
	l.shift = 64
	for s := size; s > 1; s >>= 1 {
		l.shift--
	}
	mask := size - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := l.place(l.at(int(e - 1)).key)
		for l.index[i] != 0 {
			i = (i + 1) & mask
		}
		l.index[i] = e
	}
}

// removeAt empties place i of the index, moving back the entries after it
// that would no longer be found (linear probing's deletion, without
// markers).
func (l *attendanceLog) removeAt(i int) {
	mask := len(l.index) - 1
	l.index[i] = 0
	l.n--
	for j := (i + 1) & mask; l.index[j] != 0; j = (j + 1) & mask {
		home := l.place(l.at(int(l.index[j] - 1)).key)
		// the entry at j stays if its home lies cyclically in (i, j]
		if (i < j && i < home && home <= j) || (j < i && (i < home || home <= j)) {
			continue
		}
		l.index[i], l.index[j] = l.index[j], 0
		i = j
	}
}

// add appends s, compact or whole, and when the log already holds bound
// records lets the oldest go: a compact one leaves the index, and the id
// of a whole one is passed to forgetWhole. It says whether one went.
func (l *attendanceLog) add(s attendanceSlot, bound int, forgetWhole func(id string)) bool {
	evicted := l.full(bound)
	if evicted {
		old := *l.at(l.head)
		if old.module&wholeBit != 0 {
			forgetWhole(l.id(old.key))
			l.forget(old.key)
		} else if p, at, ok := l.find(old.key); ok && p == l.head {
			l.removeAt(at)
		}
	}
	p := l.push(s, bound)
	if s.module&wholeBit == 0 {
		l.insert(p)
	}
	return evicted
}

// lookup returns the compact record of the attendance id.
func (l *attendanceLog) lookup(id string) (attendanceSlot, bool) {
	if l.n == 0 {
		return attendanceSlot{}, false
	}
	k, ok := parseID(id)
	if !ok {
		return attendanceSlot{}, false
	}
	p, _, ok := l.find(k)
	if !ok {
		return attendanceSlot{}, false
	}
	return *l.at(p), true
}

// remove takes the compact record of the attendance id out of the index,
// if there is one.
func (l *attendanceLog) remove(id string) {
	if k, ok := parseID(id); ok {
		if _, at, ok := l.find(k); ok {
			l.removeAt(at)
		}
	}
}

// compacts calls f with each compact record.
func (l *attendanceLog) compacts(f func(s *attendanceSlot)) {
	if l.n == 0 {
		return
	}
	for _, e := range l.index {
		if e != 0 {
			f(l.at(int(e - 1)))
		}
	}
}

// inOrder returns the ids of the log, oldest first (nil when it is empty,
// as a state file has always said).
func (l *attendanceLog) inOrder() []string {
	if l.count == 0 {
		return nil
	}
	out := make([]string, 0, l.count)
	l.each(func(_ int, s *attendanceSlot) { out = append(out, l.id(s.key)) })
	return out
}
