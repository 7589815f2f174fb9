package registry

import "testing"

// TestEveryWriteSaysWhereItIsShown: an operation that changes state
// declares the reads that show its effect, or why none does; never
// neither (a producer would then silently judge nothing), never both.
func TestEveryWriteSaysWhereItIsShown(t *testing.T) {
	for _, o := range All() {
		switch {
		case o.ChangesState && len(o.ShownBy) == 0 && o.NotShown == "":
			t.Errorf("%s changes state but declares neither ShownBy (the reads that show its effect) nor NotShown (why none does): add one to its row in registry.go", o.ID)
		case len(o.ShownBy) > 0 && o.NotShown != "":
			t.Errorf("%s declares both ShownBy and NotShown %q: keep one", o.ID, o.NotShown)
		case !o.ChangesState && (len(o.ShownBy) > 0 || o.NotShown != ""):
			t.Errorf("%s changes nothing but declares where its effect is shown", o.ID)
		}
		for _, rb := range o.ShownBy {
			r, ok := Lookup(string(rb.Op))
			switch {
			case !ok:
				t.Errorf("%s: ShownBy names %q, no operation", o.ID, rb.Op)
			case r.ChangesState:
				t.Errorf("%s: ShownBy names %s, which changes state: a read is expected", o.ID, rb.Op)
			}
			if _, ok := o.IDs[rb.Each]; rb.Each != "" && !ok {
				t.Errorf("%s: ShownBy %s reads each id of %q, which is not one of its IDs %v", o.ID, rb.Op, rb.Each, o.IDs)
			}
		}
	}
}

// TestFixtureBodyIsUnplaced: only an operation the fixture places (an
// unplaced one, with an operations entry) can take its body from the
// fixture.
func TestFixtureBodyIsUnplaced(t *testing.T) {
	for _, o := range All() {
		if o.FixtureBody() && o.Placed {
			t.Errorf("%s: expected an unplaced operation to take its body from the fixture (operations.%s.body), got a placed one", o.ID, o.ID)
		}
	}
}

// TestPermissionOnNamesAnInput: the record a permission is checked on is
// one of the operation's inputs that name records.
func TestPermissionOnNamesAnInput(t *testing.T) {
	for _, o := range All() {
		if _, ok := o.IDs[o.PermissionOn]; o.PermissionOn != "" && !ok {
			t.Errorf("%s: PermissionOn %q is not one of its IDs %v", o.ID, o.PermissionOn, o.IDs)
		}
	}
}
