package store

import (
	"reflect"
	"testing"
)

// TestStateCoversWorld holds State and World to each other: every World
// field is saved in a state file (a State field of the same name and
// type) or listed in notSaved with the reason, and notSaved names only
// World fields. A field added to World and forgotten here fails, named.
func TestStateCoversWorld(t *testing.T) {
	saved := map[string]bool{}
	st := reflect.TypeFor[State]()
	for _, p := range stateFields {
		saved[st.Field(p[0]).Name] = true
	}
	wt := reflect.TypeFor[World]()
	for i := range wt.NumField() {
		name := wt.Field(i).Name
		_, skipped := notSaved[name]
		switch {
		case saved[name] && skipped:
			t.Errorf("World.%s is both saved in State and listed in notSaved: expected one", name)
		case !saved[name] && !skipped:
			t.Errorf("World.%s is neither saved in State nor listed in notSaved: expected a State field %s %s, or a notSaved entry saying why it need not be kept",
				name, name, wt.Field(i).Type)
		}
	}
	for name := range notSaved {
		if _, ok := wt.FieldByName(name); !ok {
			t.Errorf("notSaved lists %s, which World does not have", name)
		}
	}
	if got, want := len(stateFields), st.NumField()-1; got != want {
		t.Errorf("stateFields pairs %d State fields, want %d (all but Created)", got, want)
	}
}

// TestCheckNamesMissingMap: a state without one of the world's maps is
// refused with the map's name.
func TestCheckNamesMissingMap(t *testing.T) {
	s := New(tiny(), nil, Policy{})
	s.w.SubscriptionKey, s.w.Seeded = "k", s.w.Clock
	s.w.Users = []User{{Fixture: "admin"}}
	v := reflect.ValueOf(s.w).Elem()
	for _, sf := range reflect.VisibleFields(v.Type()) {
		if f := v.FieldByIndex(sf.Index); f.Kind() == reflect.Map && f.IsNil() && f.CanSet() {
			f.Set(reflect.MakeMap(f.Type()))
		}
	}
	st := s.state()
	if err := st.Check(); err != nil {
		t.Fatalf("a complete state: Check = %v, want nil", err)
	}
	st.Pushes = nil
	if err := st.Check(); err == nil || err.Error() != "expected Pushes (an object)" {
		t.Errorf("state without Pushes: Check = %v, want \"expected Pushes (an object)\"", err)
	}
}
