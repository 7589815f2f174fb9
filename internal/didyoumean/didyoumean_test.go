package didyoumean

import "testing"

func TestSuggest(t *testing.T) {
	known := []string{"bankFolder", "folder", "file", "subscriptionKey", "E1", "E10", "E21"}
	tests := []struct {
		got    string
		want   string
		wantOK bool
	}{
		{"bankFoldr", "bankFolder", true},
		{"subscriptionkey", "subscriptionKey", true},
		{"SUBSCRIPTIONKEY", "subscriptionKey", true},
		{"fodler", "folder", true},
		{"e10", "E10", true},
		{"E99", "", false},
		{"E211", "E21", true},
		{"weblinks", "", false},
		{"x", "", false},
		{"completelyUnrelated", "", false},
	}
	for _, tt := range tests {
		got, ok := Suggest(tt.got, known)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Suggest(%q) = %q, %v; want %q, %v", tt.got, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"bankFoldr", "bankFolder", 1}, {"é", "e", 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
