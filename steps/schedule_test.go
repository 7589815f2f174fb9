package steps

import (
	"slices"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
)

// scheduleFixture forbids one write and one read, so the plan of
// ALL.forbidden depends on the fixture.
var scheduleFixture = &fixtures.File{Version: fixtures.Version, Forbidden: []fixtures.Forbidden{
	{Operation: "E14", User: "student"}, {Operation: "NG", User: "student"},
}}

// planned returns the env planned for the whole suite and the scenarios
// in run order, by name.
func plannedSuite(t *testing.T, f *fixtures.File) (*env, []*godog.Scenario) {
	t.Helper()
	suite := godog.TestSuite{Name: "plan", Options: &godog.Options{FS: features.FS, Paths: []string{"."}, Strict: true}}
	e := &env{cfg: Config{Fixture: f}}
	if err := e.planSuite(suite); err != nil {
		t.Fatalf("planning the suite: %v", err)
	}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		t.Fatal(err)
	}
	var out []*godog.Scenario
	for _, ft := range feats {
		out = append(out, ft.Pickles...)
	}
	return e, out
}

// TestPlanCoversEveryStep holds every scenario to the plan and every step
// to a step definition: a step the plan cannot read would leave its calls
// unscheduled.
func TestPlanCoversEveryStep(t *testing.T) {
	e, scs := plannedSuite(t, scheduleFixture)
	for _, sc := range scs {
		if e.schedule.turns[sc.Id] == nil {
			t.Errorf("%s: expected a turn in the plan, got none", sc.Name)
		}
		for _, st := range sc.Steps {
			if !slices.ContainsFunc(stepDefs, func(d stepDef) bool { return d.re.MatchString(st.Text) }) {
				t.Errorf("%s: step %q matches no step definition", sc.Name, st.Text)
			}
		}
	}
}

// TestPlanGroups checks the record groups derived for a few scenarios: a
// change holds its group ("!"), a read shares it, common scenarios count
// like any other, and the fixture decides what ALL.forbidden touches.
func TestPlanGroups(t *testing.T) {
	e, scs := plannedSuite(t, scheduleFixture)
	tests := []struct {
		name string
		want []string
	}{
		{"Marking an unread notification read returns it read, and read it stays", []string{"notification!"}},
		{"Reading a notification by its group", []string{"notification"}},
		{"NR refuses a call without a subscription key", []string{"notification!"}},
		{"NG refuses a call without a subscription key", []string{"notification"}},
		{"E10 returns at most limit entries", nil},
		{"A deleted media is gone", []string{"media!"}},
		{"A push the user approves polls as success", []string{"second-factor!"}},
		{"Every refusal the implementation declares is honoured", []string{"media!", "notification"}},
		{"Updating the settings of a malformed module id is refused", []string{"gradebook!"}},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(scs, func(sc *godog.Scenario) bool { return sc.Name == tt.name })
		if i < 0 {
			t.Errorf("%s: no such scenario", tt.name)
			continue
		}
		got := e.schedule.turns[scs[i].Id].groups()
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: expected groups %v, got %v", tt.name, tt.want, got)
		}
	}
}

// TestPlanOrder checks that a scenario waits for every earlier scenario it
// conflicts with, and only for earlier ones: two changes of a group, or a
// change and a read, run in the run's order; two reads do not wait.
func TestPlanOrder(t *testing.T) {
	e, scs := plannedSuite(t, scheduleFixture)
	index := map[*turn]int{}
	for i, sc := range scs {
		index[e.schedule.turns[sc.Id]] = i
	}
	reaches := func(from, to *turn) bool { // from waits for to, directly or not
		seen := map[*turn]bool{}
		var walk func(*turn) bool
		walk = func(t *turn) bool {
			if t == to {
				return true
			}
			if seen[t] {
				return false
			}
			seen[t] = true
			return slices.ContainsFunc(t.after, walk)
		}
		return slices.ContainsFunc(from.after, walk)
	}
	for i, a := range scs {
		ta := e.schedule.turns[a.Id]
		for _, w := range ta.after {
			if index[w] >= i {
				t.Fatalf("%s waits for a later scenario", a.Name)
			}
		}
		for j := i + 1; j < len(scs); j++ {
			tb := e.schedule.turns[scs[j].Id]
			if conflict(ta, tb) && !reaches(tb, ta) {
				t.Errorf("%s conflicts with the earlier %s (%s / %s) but does not wait for it", scs[j].Name, a.Name, tb, ta)
			}
		}
	}
}

func conflict(a, b *turn) bool {
	for _, x := range a.accesses {
		for _, y := range b.accesses {
			if x.group == y.group && (x.write || y.write) {
				return true
			}
		}
	}
	return false
}

// TestPlanChanged counts the scenarios whose record groups differ from
// those of the earlier scheduler, which locked only @destructive scenarios,
// by their operation's group: the figure issue 31 asks for, logged.
func TestPlanChanged(t *testing.T) {
	e, scs := plannedSuite(t, scheduleFixture)
	changed, common := 0, 0
	for _, sc := range scs {
		var old []string
		destructive := false
		for _, tg := range sc.Tags {
			destructive = destructive || tg.Name == "@destructive"
		}
		if destructive {
			for _, tg := range sc.Tags {
				if o, ok := registry.Lookup(strings.TrimPrefix(tg.Name, "@")); ok {
					old = append(old, o.Group+"!")
				}
			}
		}
		var now []string
		for _, a := range e.schedule.turns[sc.Id].accesses {
			now = append(now, a.group+map[bool]string{true: "!"}[a.write])
		}
		slices.Sort(old)
		slices.Sort(now)
		if !slices.Equal(old, now) {
			changed++
			if len(old) == 0 {
				common++
			}
		}
	}
	if changed == 0 {
		t.Fatal("expected scenarios whose groups the plan derives differently from the @destructive tag, got none")
	}
	t.Logf("%d of %d scenarios have other record groups than under the @destructive-only lock (%d of them had none)", changed, len(scs), common)
}

// TestMayCall refuses a call the plan did not foresee.
func TestMayCall(t *testing.T) {
	tn := &turn{calls: map[string]bool{"NR": true}}
	if err := tn.mayCall("NR"); err != nil {
		t.Errorf("NR: expected no error, got %v", err)
	}
	if err := tn.mayCall("NG"); err == nil {
		t.Error("NG: expected an error for a call the plan does not know, got none")
	}
	var none *turn
	if err := none.mayCall("NG"); err != nil {
		t.Errorf("no turn: expected no error, got %v", err)
	}
}
