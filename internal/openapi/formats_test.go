package openapi

import (
	"testing"

	"github.com/campusconf/campusconf/internal/uuid"
)

// TestCheckUUID: the validator handed to kin-openapi is internal/uuid's
// (whose tests hold the cases), with its error.
func TestCheckUUID(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"3F2504E0-4f89-11d3-9a0c-0305e82c3301", nil},
		{"{3f2504e0-4f89-11d3-9a0c-0305e82c3301}", uuid.ErrSyntax},
	}
	for _, tt := range tests {
		if got := checkUUID(tt.in); got != tt.want {
			t.Errorf("checkUUID(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCheckDateTime(t *testing.T) {
	tcs := []struct {
		in string
		ok bool
	}{
		{"2025-03-01T09:30:00Z", true},
		{"2025-03-01T09:30:00.123456789Z", true},
		{"2025-03-01T09:30:00+08:00", true},
		{"2025-03-01T09:30:00-00:00", true},
		{"2025-03-01t09:30:00z", true},       // RFC 3339 allows lower case
		{"2016-12-31T23:59:60Z", true},       // leap second
		{"2024-02-29T00:00:00Z", true},       // leap year
		{"2025-02-29T00:00:00Z", false},      // not a leap year
		{"2025-02-30T00:00:00Z", false},      // no 30 February
		{"2025-04-31T00:00:00Z", false},      // April has 30 days
		{"2025-13-01T00:00:00Z", false},      // month 13
		{"2025-00-01T00:00:00Z", false},      // month 0
		{"2025-03-00T00:00:00Z", false},      // day 0
		{"2025-03-01T24:00:00Z", false},      // hour 24
		{"2025-03-01T23:60:00Z", false},      // minute 60
		{"2025-03-01T23:59:61Z", false},      // second 61
		{"2025-03-01T09:30:00+24:00", false}, // offset hour 24
		{"2025-03-01T09:30:00+08:60", false}, // offset minute 60
		{"2025-03-01T09:30:00", false},       // no offset
		{"2025-03-01 09:30:00Z", false},      // space for T
		{"2025-03-01T09:30Z", false},         // no seconds
		{"2025-03-01T09:30:00.Z", false},     // empty fraction
		{"2025-03-01T09:30:00,5Z", false},    // comma fraction
		{"2025-03-01T09:30:00+0800", false},  // offset without colon
		{"2025-03-01", false},                // a date
		{"25-03-01T09:30:00Z", false},        // two-digit year
		{"2025-3-1T9:30:00Z", false},         // unpadded
		{"2025-03-01T09:30:00Z ", false},     // trailing space
		{"\u0662025-03-01T09:30:00Z", false}, // non-ASCII digit
	}
	for _, tc := range tcs {
		if got := checkDateTime(tc.in) == nil; got != tc.ok {
			t.Errorf("checkDateTime(%q) ok = %v, want %v (%v)", tc.in, got, tc.ok, checkDateTime(tc.in))
		}
	}
}

func TestCheckIntegerText(t *testing.T) {
	tcs := []struct {
		format, in string
		ok         bool
	}{
		{"int32", "2147483647", true},
		{"int32", "2147483648", false},
		{"int32", "-2147483648", true},
		{"int32", "-2147483649", false},
		{"int64", "9223372036854775807", true},
		{"int64", "9223372036854775808", false},
		{"int64", "-9223372036854775808", true},
		{"int64", "-9223372036854775809", false},
		{"int64", "1e2", true},
		{"int64", "1e19", false},
		{"int64", "1.5", true}, // not an integer: left to the type rule
		{"", "1e400", true},    // no format: nothing to check
	}
	for _, tc := range tcs {
		if got := checkIntegerText(tc.format, tc.in) == ""; got != tc.ok {
			t.Errorf("checkIntegerText(%s, %s) ok = %v, want %v", tc.format, tc.in, got, tc.ok)
		}
	}
}
