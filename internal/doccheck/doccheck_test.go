package doccheck

import (
	"regexp"
	"slices"
	"testing"
)

func TestStale(t *testing.T) {
	text := "# Title\n\nThe suite runs its 305\nscenarios. Thirteen of those\ndefects are odd.\n"
	scenarios := regexp.MustCompile(`its\s+(\d+)\s+scenarios`)
	odd := regexp.MustCompile(`(\w+)\s+of\s+those\s+defects`)
	tests := []struct {
		name    string
		figures []Figure
		want    []string
	}{
		{"current, across a line break and spelled out", []Figure{{"scenarios", scenarios, 305}, {"odd defects", odd, 13}}, nil},
		{"a stale number names its line", []Figure{{"scenarios", scenarios, 306}},
			[]string{`README.md:3: stale: states 305 scenarios, expected 306: "its 305\nscenarios"`}},
		{"a stale word names its line", []Figure{{"odd defects", odd, 14}},
			[]string{`README.md:4: stale: states Thirteen odd defects, expected 14: "Thirteen of those\ndefects"`}},
		{"a figure no longer stated", []Figure{{"variants", regexp.MustCompile(`(\d+) in all`), 26}},
			[]string{`README.md: expected a place stating the variants (26), got none matching (\d+) in all`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stale("README.md", text, tt.figures); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFirstDifference(t *testing.T) {
	tests := []struct{ got, want, diff string }{
		{"a\nb\n", "a\nc\n", `line 2: expected "c", got "b"`},
		{"a\n", "a\nb\n", `line 2: expected "b", got ""`},
	}
	for _, tt := range tests {
		if got := firstDifference(tt.got, tt.want); got != tt.diff {
			t.Errorf("firstDifference(%q, %q): got %q, want %q", tt.got, tt.want, got, tt.diff)
		}
	}
}
