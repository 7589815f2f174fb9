package store

import (
	"runtime"
	"testing"
	"time"
)

// TestRunTimeRecordsAreBounded creates more attendances, copies and pushes
// than the bound allows: the oldest of each kind go, the newest and the
// seeded records stay, and every eviction is counted.
func TestRunTimeRecordsAreBounded(t *testing.T) {
	const bound = 3
	w := tiny()
	w.Attendances = map[string]Attendance{"seeded-attendance": {ID: "seeded-attendance", ResourceID: mod}}
	w.BankFolders = map[string]BankFolder{"seeded-folder": {ID: "seeded-folder"}}
	w.Pushes = map[string]Push{}
	s := New(w, tiny, Policy{})
	s.SetMaxCreated(bound)
	u := User{ID: "u"}
	var atts, copies, pushes []string
	evicted := 0
	for range 5 {
		a, n, err := s.AddDefaultAttendanceCounted(mod, true, u)
		if err != nil {
			t.Fatalf("add attendance: %v", err)
		}
		atts, evicted = append(atts, a.ID), evicted+n
		f, n, err := s.CopyFolderCounted("seeded-folder", u)
		if err != nil {
			t.Fatalf("copy folder: %v", err)
		}
		copies, evicted = append(copies, f.ID), evicted+n
		p, n := s.OpenPushCounted(u)
		pushes, evicted = append(pushes, p.ID), evicted+n
	}
	if want := 3 * (5 - bound); evicted != want || s.Evicted() != int64(want) {
		t.Errorf("evicted: counted %d, store says %d, want %d", evicted, s.Evicted(), want)
	}
	for i, id := range atts {
		if _, ok := s.Attendance(id); ok != (i >= 5-bound) {
			t.Errorf("attendance %d of 5 kept = %v, want %v (the %d newest stay)", i+1, ok, i >= 5-bound, bound)
		}
	}
	for i, id := range copies {
		if _, ok := s.BankFolder(id); ok != (i >= 5-bound) {
			t.Errorf("copy %d of 5 kept = %v, want %v", i+1, ok, i >= 5-bound)
		}
	}
	for i, id := range pushes {
		if _, err := s.Poll(id, u); (err == nil) != (i >= 5-bound) {
			t.Errorf("push %d of 5 kept = %v, want %v", i+1, err == nil, i >= 5-bound)
		}
	}
	if _, ok := s.Attendance("seeded-attendance"); !ok {
		t.Error("the seeded attendance was evicted; the seeded world must stay")
	}
	if _, ok := s.BankFolder("seeded-folder"); !ok {
		t.Error("the seeded bank folder was evicted; the seeded world must stay")
	}
}

// BenchmarkCreatesBounded creates default attendances under their bound
// (MaxCreatedAttendances, a million) and reports the live heap after them
// (and all the runtime took from the system) and how many were evicted:
// with -benchtime 1000000x every one is kept
// (method and figures in BENCHMARKS.md, (e)).
func BenchmarkCreatesBounded(b *testing.B) {
	w := tiny()
	w.Attendances = map[string]Attendance{}
	s := New(w, tiny, Policy{})
	u := User{ID: "u", Name: "A user", Email: "a@example.edu"}
	w.Users = []User{u} // as served: the creator is a user of the world
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.AddDefaultAttendanceCounted(mod, true, u); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "heap-MB")
	// what the runtime holds from the system: the resident memory of a
	// server doing the same is about this, plus its binary
	b.ReportMetric(float64(m.Sys)/(1<<20), "sys-MB")
	b.ReportMetric(float64(s.Evicted()), "evicted")
	runtime.KeepAlive(s)
}

// TestCompactAttendances: a default attendance created by a user of the
// world is stored compactly, and reads, saves and deletes as the full
// record it stands for; one created by a user the world does not hold is
// kept whole, and reads the same way.
func TestCompactAttendances(t *testing.T) {
	inWorld := User{ID: "u1", UserID: "e1", Name: "A user", Email: "a@example.edu", MatricNo: "A1", PhotoURL: "https://p/1.jpg"}
	stranger := User{ID: "u2", UserID: "e2", Name: "Another", Email: "b@example.edu"}
	for _, tt := range []struct {
		name    string
		creator User
		zone    *time.Location
		compact bool
	}{{"world user", inWorld, time.UTC, true}, {"stranger", stranger, time.UTC, false},
		{"clock not in UTC", inWorld, time.FixedZone("UTC+2", 7200), false}} {
		t.Run(tt.name, func(t *testing.T) {
			w := tiny()
			w.Attendances = map[string]Attendance{}
			w.Users = []User{inWorld}
			w.Clock = w.Clock.In(tt.zone)
			s := New(w, tiny, Policy{})
			a, _, err := s.AddDefaultAttendanceCounted(mod, false, tt.creator)
			if err != nil {
				t.Fatal(err)
			}
			want := Attendance{ID: a.ID, Name: DefaultAttendanceName, ResourceID: mod, Publish: false, CreatedDate: a.CreatedDate,
				CreatorID: tt.creator.ID, PhotoURL: tt.creator.PhotoURL, UserName: tt.creator.Name, UserID: tt.creator.UserID,
				UserMatricNo: tt.creator.MatricNo, Email: tt.creator.Email, IsDefault: true}
			if a != want || a.CreatedDate.IsZero() || a.CreatedDate.Location() != tt.zone {
				t.Errorf("created:\n got %+v\nwant %+v", a, want)
			}
			if got, ok := s.Attendance(a.ID); !ok || got != want {
				t.Errorf("Attendance(%s) = %+v, %v; want %+v, true", a.ID, got, ok, want)
			}
			if _, compact := s.w.created.attendances.lookup(a.ID); compact != tt.compact {
				t.Errorf("stored compactly: %v, want %v", compact, tt.compact)
			}
			if got := s.state().Attendances[a.ID]; got != want {
				t.Errorf("state's attendance:\n got %+v\nwant %+v", got, want)
			}
			if n, err := s.DeleteAttendances(mod, []string{a.ID}); n != 1 || err != nil {
				t.Errorf("DeleteAttendances = %d, %v; want 1, nil", n, err)
			}
			if _, ok := s.Attendance(a.ID); ok {
				t.Error("the attendance is still there after DeleteAttendances")
			}
		})
	}
}
