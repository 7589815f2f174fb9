package rules

import (
	"errors"
	"testing"
	"time"
)

func TestParseDateTime(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		in   string
		want time.Time
		err  string // "" when it reads
	}{
		{"2025-03-01T10:00:00Z", utc("2025-03-01T10:00:00Z"), ""},
		{"2025-03-01t10:00:00z", utc("2025-03-01T10:00:00Z"), ""},
		{"2025-03-01T12:00:00+02:00", utc("2025-03-01T10:00:00Z"), ""},
		{"2025-03-01T10:00:00.5Z", utc("2025-03-01T10:00:00.5Z"), ""},
		{"2025-03-01T10:00:00.123456789012z", utc("2025-03-01T10:00:00.123456789Z"), ""},
		{"2016-12-31T23:59:60Z", utc("2017-01-01T00:00:00Z"), ""},
		{"2025-02-30T00:00:00Z", time.Time{}, "not a real date and time: day out of range"},
		{"2025-03-01T24:00:00Z", time.Time{}, "not a real date and time: hour out of range"},
		{"2025-03-01T10:00:00+24:00", time.Time{}, "offset +24:00 is out of range"},
		{"2025-03-01 10:00:00Z", time.Time{}, ErrDateTimeForm.Error()},
		{"2025-03-01T10:00:00", time.Time{}, ErrDateTimeForm.Error()},
		{"2025-03-01T10:00:00.Z", time.Time{}, ErrDateTimeForm.Error()},
		{"", time.Time{}, ErrDateTimeForm.Error()},
	} {
		got, err := ParseDateTime(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseDateTime(%q): expected %s, got error %v", tc.in, tc.want, err)
		case tc.err == "" && !got.Equal(tc.want):
			t.Errorf("ParseDateTime(%q): expected %s, got %s", tc.in, tc.want, got)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseDateTime(%q): expected error %q, got %v", tc.in, tc.err, err)
		}
	}
	if _, err := ParseDateTime("x"); !errors.Is(err, ErrDateTimeForm) {
		t.Errorf("ParseDateTime(x): expected ErrDateTimeForm, got %v", err)
	}
}

func TestSameInstant(t *testing.T) {
	for _, tc := range []struct {
		a, b     string
		same, ok bool
	}{
		{"2025-03-01T10:00:00Z", "2025-03-01t10:00:00.000z", true, true},
		{"2025-03-01T10:00:00Z", "2025-03-01T11:00:00+01:00", true, true},
		{"2025-03-01T10:00:00Z", "2025-03-01T10:00:01Z", false, true},
		{"2025-03-01T10:00:00Z", "yesterday", false, false},
	} {
		same, ok := SameInstant(tc.a, tc.b)
		if same != tc.same || ok != tc.ok {
			t.Errorf("SameInstant(%q, %q): expected (%v, %v), got (%v, %v)", tc.a, tc.b, tc.same, tc.ok, same, ok)
		}
	}
	if c, ok := CompareInstants("2025-03-01t10:00:00z", "2025-03-01T10:30:00+01:00"); !ok || c != 1 {
		t.Errorf("CompareInstants: expected (1, true), got (%d, %v)", c, ok)
	}
}
