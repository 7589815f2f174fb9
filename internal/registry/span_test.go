package registry

import "testing"

func TestSpan(t *testing.T) {
	tests := []struct {
		prefix           string
		placed, unplaced []OpID
		want             string
	}{
		{"", []OpID{E1, E2, E21}, []OpID{GB, QS}, "E1..E21, GB, QS"},
		{"@", []OpID{E1, E21}, []OpID{GB}, "@E1..@E21, @GB"},
		{"", nil, []OpID{NR}, "NR"},
	}
	for _, tt := range tests {
		if got := span(tt.prefix, tt.placed, tt.unplaced); got != tt.want {
			t.Errorf("span(%q, %v, %v): expected %q, got %q", tt.prefix, tt.placed, tt.unplaced, tt.want, got)
		}
	}
	if got := Span("@"); got[:4] != "@E1." {
		t.Errorf("Span(\"@\"): expected the placed operations first, from @E1, got %q", got)
	}
}
