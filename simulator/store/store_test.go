package store

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v7"
)

const (
	mod   = "11111111-1111-4111-8111-111111111111"
	itemA = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
	itemB = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"
)

func tiny() *World {
	return &World{
		Clock: time.Date(2025, 4, 6, 8, 0, 0, 0, time.UTC),
		Records: Records{
			Modules: map[string]*Module{mod: {ID: mod, GradeItems: []string{itemA, itemB}}},
			Gradebooks: map[string]Gradebook{mod: {ResourceID: mod,
				IDWeightage:   []Weightage{{Key: itemA, Value: 40}, {Key: itemB, Value: 30}},
				GradingSchema: []Grade{{LetterGrade: "A", MaxMark: 100}}}},
			Questions:   map[string]Question{},
			Evaluations: map[string]Evaluation{},
		},
		Runtime: gofakeit.New(1),
	}
}

// savedState is what s saves: the bytes, and the State they read back as.
func savedState(t *testing.T, s *Store) ([]byte, State) {
	t.Helper()
	data, err := s.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return data, st
}

func TestUpdateGradebook(t *testing.T) {
	tests := []struct {
		name    string
		set     []Weightage
		policy  Policy
		wantErr error
		want    [2]float64
	}{
		{"merge keeps the other item", []Weightage{{Key: itemA, Value: 70}}, Policy{}, nil, [2]float64{70, 30}},
		{"one past 100 after the merge", []Weightage{{Key: itemA, Value: 70.01}}, Policy{}, ErrInvalid, [2]float64{40, 30}},
		{"both items", []Weightage{{Key: itemA, Value: 50}, {Key: itemB, Value: 50}}, Policy{}, nil, [2]float64{50, 50}},
		{"duplicate", []Weightage{{Key: itemA, Value: 1}, {Key: itemA, Value: 2}}, Policy{}, ErrInvalid, [2]float64{40, 30}},
		{"foreign item", []Weightage{{Key: mod, Value: 1}}, Policy{}, ErrInvalid, [2]float64{40, 30}},
		{"the total of the request only", []Weightage{{Key: itemA, Value: 90}}, Policy{GradebookTotalOfRequest: true}, nil, [2]float64{90, 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tiny(), tiny, tt.policy)
			_, err := s.UpdateGradebook(mod, tt.set, []Grade{})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			}
			g, _ := s.Gradebook(mod)
			if got := [2]float64{g.IDWeightage[0].Value, g.IDWeightage[1].Value}; got != tt.want {
				t.Errorf("weights = %v, want %v", got, tt.want)
			}
			if tt.wantErr != nil && len(g.GradingSchema) != 1 {
				t.Errorf("a rejected update replaced the grading schema: %v", g.GradingSchema)
			}
		})
	}
	s := New(tiny(), tiny, Policy{})
	if _, err := s.UpdateGradebook(itemA, nil, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown module: error = %v, want ErrNotFound", err)
	}
}

func TestCopiesOut(t *testing.T) {
	s := New(tiny(), tiny, Policy{})
	g, _ := s.Gradebook(mod)
	g.IDWeightage[0].Value = 99
	if again, _ := s.Gradebook(mod); again.IDWeightage[0].Value != 40 {
		t.Error("changing a returned gradebook changed the store")
	}
	m, _ := s.Module(mod)
	m.GradeItems[0] = "x"
	if again, _ := s.Module(mod); again.GradeItems[0] != itemA {
		t.Error("changing a returned module changed the store")
	}
	if _, err := s.UpdateGradebook(mod, []Weightage{{Key: itemA, Value: 10}}, nil); err != nil {
		t.Fatal(err)
	}
	s.Reset()
	if again, _ := s.Gradebook(mod); again.IDWeightage[0].Value != 40 {
		t.Error("Reset did not restore the gradebook")
	}
}

// TestRestoreManyDraws: a state with more run-time draws than Restore
// replays gets a reseeded faker at once, still drawing fresh ids.
func TestRestoreManyDraws(t *testing.T) {
	s := New(tiny(), tiny, Policy{})
	_, st := savedState(t, s)
	before := tiny().Runtime.UUID()
	st.RuntimeDraws = 1 << 40
	s.Restore(&st, tiny())
	if got := s.NextRequestID(); got == before || got == "" {
		t.Errorf("after a restore of 2^40 draws the next id is %q, want a fresh one unlike the seed's first %q", got, before)
	}
}
