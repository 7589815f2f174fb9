package rules

import (
	"os"
	"strings"
	"testing"
	"time"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestDateRange(t *testing.T) {
	r := DateRange{Start: at("2025-01-01T00:00:00Z"), End: at("2025-01-31T00:00:00Z")}
	tests := []struct {
		name            string
		r               DateRange
		t               string
		inside, outside bool
	}{
		{"strictly inside", r, "2025-01-15T00:00:00Z", true, false},
		{"at the start: either reading", r, "2025-01-01T00:00:00Z", false, false},
		{"at the end: either reading", r, "2025-01-31T00:00:00Z", false, false},
		{"before the start", r, "2024-12-31T23:59:59Z", false, true},
		{"after the end", r, "2025-01-31T00:00:00.001Z", false, true},
		{"start alone, after it", DateRange{Start: r.Start}, "2030-01-01T00:00:00Z", true, false},
		{"end alone, before it", DateRange{End: r.End}, "2000-01-01T00:00:00Z", true, false},
		{"the same instant in another offset", r, "2025-01-01T08:00:00+08:00", false, false},
	}
	for _, tt := range tests {
		if got := tt.r.SurelyInside(at(tt.t)); got != tt.inside {
			t.Errorf("%s: SurelyInside(%s): expected %v, got %v", tt.name, tt.t, tt.inside, got)
		}
		if got := tt.r.SurelyOutside(at(tt.t)); got != tt.outside {
			t.Errorf("%s: SurelyOutside(%s): expected %v, got %v", tt.name, tt.t, tt.outside, got)
		}
	}
}

func TestBetween(t *testing.T) {
	tests := []struct {
		a, b, want string
	}{
		{"2025-01-01T00:00:00Z", "2025-01-01T00:00:10Z", "2025-01-01T00:00:05Z"},
		{"2025-01-01T00:00:00Z", "2025-01-01T00:00:03Z", "2025-01-01T00:00:01Z"}, // 1.5 s, to the second
		{"2025-01-01T00:00:00Z", "2025-01-01T00:00:01Z", "2025-01-01T00:00:00.5Z"},
		{"2025-01-01T00:00:00.9Z", "2025-01-01T00:00:03Z", "2025-01-01T00:00:01Z"},
	}
	for _, tt := range tests {
		got := Between(at(tt.a), at(tt.b))
		if !got.Equal(at(tt.want)) {
			t.Errorf("Between(%s, %s): expected %s, got %s", tt.a, tt.b, tt.want, got.Format(time.RFC3339Nano))
		}
		if !got.After(at(tt.a)) || !got.Before(at(tt.b)) {
			t.Errorf("Between(%s, %s) = %s: expected strictly between", tt.a, tt.b, got.Format(time.RFC3339Nano))
		}
	}
	if got := Between(at(tt0), at(tt0)); !got.IsZero() {
		t.Errorf("Between of one instant: expected the zero time, got %s", got)
	}
}

const tt0 = "2025-01-01T00:00:00Z"

// TestReadingsDocumented holds docs/decisions.md to the open readings:
// each is recorded there, by its id, with the simulator's choice.
func TestReadingsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range Readings {
		if seen[r.ID] {
			t.Errorf("reading %s: listed twice", r.ID)
		}
		seen[r.ID] = true
		if len(r.Readings) < 2 || r.Holds == "" || r.Section == "" {
			t.Errorf("reading %s: expected at least two readings, what holds and a section", r.ID)
		}
		if !strings.Contains(string(doc), "`"+r.ID+"`") {
			t.Errorf("reading %s: expected docs/decisions.md to record it (as `%s`), got no mention", r.ID, r.ID)
		}
	}
}
