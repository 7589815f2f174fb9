package rules

import "testing"

func TestOpenAccepts(t *testing.T) {
	documented := []int{200, 400, 403, 404, 500}
	tests := []struct {
		status int
		want   bool
	}{
		{200, true}, {400, true}, {404, true},
		{201, false}, // a 2xx the operation does not list
		{422, false}, // a 4xx it does not list
		{500, false}, // listed, but a server error is never a reading of an open point
		{302, false},
	}
	for _, tt := range tests {
		if got := OpenPaging.Accepts(tt.status, documented); got != tt.want {
			t.Errorf("Accepts(%d, %v): expected %v, got %v", tt.status, documented, tt.want, got)
		}
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"mark 10000", Mark.Contains(10000), true},
		{"mark 10000.5", Mark.Contains(10000.5), false},
		{"mark -1", Mark.Contains(-1), false},
		{"difficultyLevel 4", DifficultyLevel.Contains(4), false},
		{"read 10", NotificationRead.Contains(ReadUnread), true},
		{"read 12", NotificationRead.Contains(12), false},
		{"total 100", WeightageOver(100, RoundingTolerance), false},
		{"total 100.001, to rounding", WeightageOver(100.001, RoundingTolerance), true},
		{"total 100.001, to a hundredth", WeightageOver(100.001, HundredthTolerance), false},
		{"total 100.01, to a hundredth", WeightageOver(100.01, HundredthTolerance), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: expected %v, got %v", tt.name, tt.want, tt.got)
		}
	}
	if got := VideoTimeStamp.String(); got != "0..2147483647" {
		t.Errorf("VideoTimeStamp: expected 0..2147483647, got %s", got)
	}
}

func TestKinds(t *testing.T) {
	k := Kinds()
	if len(k) != len(RuleKinds)+1 || k[len(k)-1] != KindGenerated {
		t.Errorf("Kinds: expected the rule kinds then generated, got %v", k)
	}
	k[0] = "changed"
	if RuleKinds[0] != KindStatus {
		t.Error("Kinds: expected a copy, got RuleKinds itself")
	}
	for _, l := range []Level{Must, Should} {
		if !l.Valid() {
			t.Errorf("%s: expected valid", l)
		}
	}
	if Level("must").Valid() {
		t.Error(`"must": expected invalid (levels are upper case)`)
	}
}
