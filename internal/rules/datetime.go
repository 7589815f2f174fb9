package rules

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// dateTimeForm is RFC 3339's date-time production (section 5.6): a full
// date, "T" or "t", a full time with a fraction of any length, and "Z",
// "z" or a numeric offset.
var dateTimeForm = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$`)

// ErrDateTimeForm is ParseDateTime's error for a string not written in
// RFC 3339's date-time form at all; its other errors name what is out of
// range. None quotes the string: the caller says where it came from.
var ErrDateTimeForm = errors.New("not of the RFC 3339 form YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)")

// ParseDateTime reads s as an RFC 3339 date-time (section 5.6), the one
// reading of a date-time every producer and the shape check share: "T" or
// "t" between date and time, "Z", "z" or a numeric offset, a fraction of
// any length (digits past nanoseconds are dropped), and a leap second
// (second 60), read as the instant one second after second 59. It refuses
// a string of the right form that names no real instant (February 30, hour
// 24, an offset of 24 hours).
//
// Go's time.RFC3339 layout refuses the lower-case letters and fractions
// longer than nine digits, both of which RFC 3339 allows; every check that
// reads a date-time from an answer goes through here instead (issue 38).
func ParseDateTime(s string) (time.Time, error) {
	m := dateTimeForm.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, ErrDateTimeForm
	}
	if m[9] != "" && (m[9] > "23" || m[10] > "59") {
		return time.Time{}, fmt.Errorf("offset %s is out of range", s[len(s)-6:])
	}
	frac := m[7]
	if len(frac) > 10 { // "." and nine digits: nanoseconds
		frac = frac[:10]
	}
	leap := m[6] == "60"
	sec := m[6]
	if leap {
		sec = "59"
	}
	zone := strings.ToUpper(m[8])
	norm := m[1] + "-" + m[2] + "-" + m[3] + "T" + m[4] + ":" + m[5] + ":" + sec + frac + zone
	t, err := time.Parse(time.RFC3339Nano, norm)
	if err != nil {
		var pe *time.ParseError
		if errors.As(err, &pe) && pe.Message != "" {
			return time.Time{}, fmt.Errorf("not a real date and time: %s", strings.TrimPrefix(pe.Message, ": "))
		}
		return time.Time{}, fmt.Errorf("not a real date and time: %v", err)
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t, nil
}

// IsDateTime reports whether s is an RFC 3339 date-time ParseDateTime reads.
func IsDateTime(s string) bool {
	_, err := ParseDateTime(s)
	return err == nil
}

// SameInstant reports whether two RFC 3339 date-times name the same
// instant, whatever their spelling (case of the letters, offset, length of
// the fraction). ok is false when either is not a date-time; then the
// strings cannot be compared as instants.
func SameInstant(a, b string) (same, ok bool) {
	ta, ea := ParseDateTime(a)
	tb, eb := ParseDateTime(b)
	if ea != nil || eb != nil {
		return false, false
	}
	return ta.Equal(tb), true
}

// CompareInstants orders two RFC 3339 date-times as instants (-1, 0, +1);
// ok is false when either is not a date-time.
func CompareInstants(a, b string) (c int, ok bool) {
	ta, ea := ParseDateTime(a)
	tb, eb := ParseDateTime(b)
	if ea != nil || eb != nil {
		return 0, false
	}
	return ta.Compare(tb), true
}
