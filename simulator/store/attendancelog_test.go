package store

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/brianvoe/gofakeit/v7"
)

// TestAttendanceLogAgainstModel runs random adds (with eviction at a
// bound), removals and lookups on the log and on a plain map with a slice
// of ids, and compares the two after every step: the index finds exactly
// the compact records kept, and the log lists every id in creation order.
func TestAttendanceLogAgainstModel(t *testing.T) {
	for _, bound := range []int{1, 7, 3000} {
		var l attendanceLog
		live := map[string]attendanceSlot{} // the compact records kept
		var order []string                  // every id logged, oldest first
		whole := map[string]bool{}          // the ids logged whole
		f := gofakeit.New(uint64(bound))
		r := rand.New(rand.NewPCG(1, uint64(bound)))
		evictions := 0
		for step := range 12_000 {
			switch op := r.IntN(10); {
			case op < 7: // add, one in ten whole
				id := f.UUID()
				k, _ := parseID(id)
				s := attendanceSlot{key: k, created: int64(step), module: uint32(r.IntN(5)), creator: uint32(step)}
				if op == 0 {
					s = attendanceSlot{key: l.key(id), module: wholeBit}
				}
				var forgot []string
				evicted := l.add(s, bound, func(id string) { forgot = append(forgot, id) })
				if evicted != (len(order) == bound) {
					t.Fatalf("bound %d step %d: evicted = %v with %d logged, want %v", bound, step, evicted, len(order), !evicted)
				}
				if evicted {
					evictions++
					old := order[0]
					order = order[1:]
					if want := []string{old}; whole[old] && (len(forgot) != 1 || forgot[0] != old) {
						t.Fatalf("bound %d step %d: whole ids forgotten %v, want %v", bound, step, forgot, want)
					} else if !whole[old] && len(forgot) != 0 {
						t.Fatalf("bound %d step %d: whole ids forgotten %v for a compact one, want none", bound, step, forgot)
					}
					delete(live, old)
					delete(whole, old)
				}
				order = append(order, id)
				if op != 0 {
					live[id] = s
				} else {
					whole[id] = true
				}
			case op < 9: // remove a record, kept or not
				if len(order) == 0 {
					continue
				}
				id := order[r.IntN(len(order))]
				l.remove(id)
				delete(live, id)
			default:
				l.remove(f.UUID()) // an id never logged
			}
			if l.n != len(live) {
				t.Fatalf("bound %d step %d: index holds %d, want %d", bound, step, l.n, len(live))
			}
		}
		for id, want := range live {
			if got, ok := l.lookup(id); !ok || got != want {
				t.Errorf("bound %d: lookup(%s) = %+v, %v; want %+v, true", bound, id, got, ok, want)
			}
		}
		n := 0
		l.compacts(func(s *attendanceSlot) {
			n++
			if _, ok := live[s.key.String()]; !ok {
				t.Errorf("bound %d: compacts gives %s, which is not kept", bound, s.key)
			}
		})
		if n != len(live) {
			t.Errorf("bound %d: compacts gives %d records, want %d", bound, n, len(live))
		}
		got, _ := json.Marshal(l.inOrder())
		want, _ := json.Marshal(order)
		if string(got) != string(want) {
			t.Errorf("bound %d: inOrder differs from the creation order (%d ids against %d)", bound, len(l.inOrder()), len(order))
		}
		if bound < 12_000*7/10 && evictions == 0 {
			t.Errorf("bound %d: no eviction; the test does not reach the bound", bound)
		}
	}
}

// TestCompactAttendancesSaveAndRestore: a world with compact, whole and
// deleted default attendances, and ids in a state file that are not keys,
// saves, restores and saves again to the same bytes; the compact records
// are compact again after the restore, and read as before.
func TestCompactAttendancesSaveAndRestore(t *testing.T) {
	inWorld := User{ID: "u1", UserID: "e1", Name: "A user", Email: "a@example.edu"}
	stranger := User{ID: "u2", UserID: "e2", Name: "Another"}
	build := func() *World {
		w := tiny()
		w.SubscriptionKey, w.Seeded = "k", w.Clock
		w.Users = []User{inWorld}
		v := reflect.ValueOf(&w.Records).Elem()
		for i := range v.NumField() {
			if f := v.Field(i); f.Kind() == reflect.Map && f.IsNil() {
				f.Set(reflect.MakeMap(f.Type()))
			}
		}
		return w
	}
	s := New(build(), build, Policy{})
	var ids []string
	for i := range 6 {
		u := inWorld
		if i == 2 {
			u = stranger
		}
		a, err := s.AddDefaultAttendance(mod, i%2 == 0, u)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	if n, err := s.DeleteAttendances(mod, ids[3:4]); n != 1 || err != nil {
		t.Fatalf("DeleteAttendances = %d, %v; want 1, nil", n, err)
	}
	// ids a state file may hold that are not keys, with their records
	s.mu.Lock()
	for _, id := range []string{"from-a-file", "ffffffff-ffff-ffff-ffff-000000000001"} {
		s.w.Attendances[id] = Attendance{ID: id, ResourceID: mod, Name: "kept whole"}
		s.w.created.attendances.add(attendanceSlot{key: s.w.created.attendances.key(id), module: wholeBit}, MaxCreatedAttendances, func(string) {})
	}
	s.mu.Unlock()
	saved, st := savedState(t, s)
	if err := st.Check(); err != nil {
		t.Fatalf("Check of the saved state = %v, want nil", err)
	}
	if got, want := len(st.Attendances), 7; got != want {
		t.Errorf("saved attendances: %d, want %d (5 created and kept, 2 from a file)", got, want)
	}
	r := New(build(), build, Policy{})
	r.Restore(&st, build())
	if again, _ := savedState(t, r); string(again) != string(saved) {
		t.Errorf("saved after restore differs:\n got %s\nwant %s", again, saved)
	}
	for i, id := range ids {
		before, okBefore := s.Attendance(id)
		after, okAfter := r.Attendance(id)
		if okBefore != okAfter || before != after {
			t.Errorf("attendance %d: restored %+v, %v; want %+v, %v", i, after, okAfter, before, okBefore)
		}
		_, compact := r.w.created.attendances.lookup(id)
		if want := okBefore && i != 2; compact != want {
			t.Errorf("attendance %d: compact after restore = %v, want %v", i, compact, want)
		}
	}
}
