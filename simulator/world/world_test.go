package world

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/campusconf/campusconf/simulator/store"
)

func TestBuildIsDeterministic(t *testing.T) {
	w1, r1 := Build(5, 1)
	w2, r2 := Build(5, 1)
	if !reflect.DeepEqual(r1, r2) {
		t.Fatalf("refs differ for the same seed:\n%+v\n%+v", r1, r2)
	}
	j := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	response := func(r store.PollResponse, _ bool) store.PollResponse { return r }
	for name, pair := range map[string][2]any{
		"faculties":   {w1.Faculties, w2.Faculties},
		"users":       {w1.Users, w2.Users},
		"questions":   {w1.Questions, w2.Questions},
		"bank":        {w1.BankFolders, w2.BankFolders},
		"file logs":   {w1.Lists.FileLogs.Get()[r1.Folder].Len(), w2.Lists.FileLogs.Get()[r2.Folder].Len()},
		"poll by id":  {response(w1.Lists.Polls.Get().Response(r1.PollResponse)), response(w2.Lists.Polls.Get().Response(r2.PollResponse))},
		"ancestors":   {w1.Ancestors, w2.Ancestors},
		"sections":    {w1.QuizSections, w2.QuizSections},
		"gradebooks":  {w1.Gradebooks, w2.Gradebooks},
		"sessions":    {w1.Sessions, w2.Sessions},
		"attendances": {w1.Attendances, w2.Attendances},
	} {
		if a, b := j(pair[0]), j(pair[1]); a != b {
			t.Errorf("%s differ for the same seed", name)
		}
	}
}

func TestBuildBoundariesAndStates(t *testing.T) {
	w, r := Build(1, 1)
	var marks, levels, stamps = map[float64]bool{}, map[int32]bool{}, map[float64]bool{}
	for _, q := range w.Questions {
		marks[q.Mark], levels[q.DifficultyLevel], stamps[q.VideoTimeStamp] = true, true, true
	}
	for _, want := range []bool{marks[0], marks[10000], levels[0], levels[3], stamps[0], stamps[videoTimeStampTop]} {
		if !want {
			t.Fatalf("questions lack a boundary value: marks %v levels %v", marks, levels)
		}
	}
	states := map[int32]int{}
	for _, n := range w.Notifications {
		states[n.NotifyStatus]++
	}
	if states[10] == 0 || states[11] == 0 || len(states) != 2 {
		t.Errorf("notification states = %v, want some 10 and some 11", states)
	}
	if n := w.Notifications[r.Notification]; n.NotifyGroupID != r.NotificationGroup || len(w.Ancestors[n.TargetID]) == 0 {
		t.Errorf("fixture notification %d has group %s and %d ancestors", r.Notification, n.NotifyGroupID, len(w.Ancestors[n.TargetID]))
	}
	if _, ok := w.Lists.Polls.Get().Response(r.PollResponse); !ok {
		t.Error("fixture poll response is not among the poll responses")
	}
	if q := w.Questions[r.EvaluationQuestion]; q.ParentID != r.Evaluation {
		t.Error("fixture question is not in the fixture evaluation")
	}
}

// TestVideoTimeStampsAreFloat32 holds every seeded videoTimeStamp to what
// the interface declares: a float (32 bits) from 0 to 2147483647, held
// exactly and still within the range once a client reads it as a float32.
func TestVideoTimeStampsAreFloat32(t *testing.T) {
	w, _ := Build(1, 1)
	for id, q := range w.Questions {
		v := q.VideoTimeStamp
		f := float32(v)
		if float64(f) != v || f < 0 || float64(f) > 2147483647 {
			t.Errorf("question %s: videoTimeStamp %v, as a float32 %v: expected a value float32 holds exactly, within 0..2147483647", id, v, f)
		}
	}
}

// TestListsDroppedComeBackEqual holds the lists to being pure functions of
// the seed: a list dropped by its budget (store.ListBudget, issue 30) and
// generated again is deeply equal to the one dropped, so every answer made
// from it is the same bytes; and it is generated again, not kept.
func TestListsDroppedComeBackEqual(t *testing.T) {
	w, _ := Build(7, 2)
	l := w.Lists
	kinds := []struct {
		name string
		get  func() any
	}{
		{"file logs", func() any { return l.FileLogs.Get() }},
		{"annotations", func() any { return l.Annotations.Get() }},
		{"weblink logs", func() any { return l.WeblinkLogs.Get() }},
		{"channels", func() any { return l.Channels.Get() }},
		{"captures", func() any { return l.Captures.Get() }},
		{"survey responses", func() any { return l.SurveyResponses.Get() }},
		{"polls", func() any { return l.Polls.Get() }},
		{"students", func() any { return l.Students.Get() }},
	}
	before := make([]any, len(kinds))
	for i, k := range kinds {
		before[i] = k.get()
	}
	if got, want := l.Budget.DropAll(), len(kinds); got != want {
		t.Fatalf("DropAll dropped %d lists, want %d (one of each kind, all of them held)", got, want)
	}
	for i, k := range kinds {
		after := k.get()
		if reflect.ValueOf(after).Pointer() == reflect.ValueOf(before[i]).Pointer() {
			t.Errorf("%s: the same value came back after DropAll: it was not dropped", k.name)
		}
		if !reflect.DeepEqual(before[i], after) {
			t.Errorf("%s: generated again after DropAll, it differs from the first (seed 7, scale 2): every answer from it would change", k.name)
		}
	}
}
