package container

import "testing"

func TestLogTail(t *testing.T) {
	tests := []struct {
		log  string
		n    int
		want string
	}{
		{"", 3, ""},
		{"\n\n", 3, ""},
		{"a\nb\n", 3, "a\nb\n"},
		{"a\nb\nc\nd", 2, "c\nd\n"},
		{"a\nb\nc\nd\n", 2, "c\nd\n"},
	}
	for _, tt := range tests {
		if got := logTail([]byte(tt.log), tt.n); got != tt.want {
			t.Errorf("logTail(%q, %d): expected %q, got %q", tt.log, tt.n, tt.want, got)
		}
	}
}
