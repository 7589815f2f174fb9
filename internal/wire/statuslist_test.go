package wire

import "testing"

func TestStatusList(t *testing.T) {
	tests := []struct {
		name     string
		statuses map[string]int
		want     string
	}{
		{"none", nil, ""},
		{"one", map[string]int{"200": 3}, "200 ×3"},
		{"in status order", map[string]int{"404": 1, "200": 3, "400": 2}, "200 ×3, 400 ×2, 404 ×1"},
		{"a key that is not a code is left out", map[string]int{"2xx": 5, "204": 1}, "204 ×1"},
	}
	for _, tt := range tests {
		if got := StatusList(tt.statuses); got != tt.want {
			t.Errorf("%s: StatusList(%v): expected %q, got %q", tt.name, tt.statuses, tt.want, got)
		}
	}
}
