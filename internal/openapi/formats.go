package openapi

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/campusconf/campusconf/internal/uuid"
)

// The format validators below are handed to kin-openapi per validation
// (openapi3.WithStringFormatValidators and friends), not registered in its
// package-level maps (openapi3.SchemaStringFormats, DefineStringFormatValidator):
// kin-openapi consults the per-validation maps first, so this package changes
// nothing for other users of kin-openapi in the same binary and needs no
// global registration at all.

var (
	errDateTimeForm = errors.New("not of the RFC 3339 form YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)")
)

// checkUUID accepts only the canonical textual form, in either case (see
// internal/uuid); its error is uuid.ErrSyntax.
func checkUUID(s string) error {
	if !uuid.Valid(s) {
		return uuid.ErrSyntax
	}
	return nil
}

// dateTimeShape is RFC 3339's date-time production (section 5.6): a full
// date, "T", a full time with optional fraction, and "Z" or a numeric offset.
// RFC 3339 allows the separators in lower case and a leap second (60).
var dateTimeShape = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$`)

// checkDateTime accepts an RFC 3339 date-time and rejects strings that have
// the right shape but name no real instant, such as 2025-02-30 or hour 24.
func checkDateTime(s string) error {
	m := dateTimeShape.FindStringSubmatch(s)
	if m == nil {
		return errDateTimeForm
	}
	if m[9] != "" {
		if m[9] > "23" || m[10] > "59" {
			return fmt.Errorf("offset %s is out of range", s[len(s)-6:])
		}
	}
	// time.Parse checks month, day-of-month (with leap years), hour, minute
	// and second. It has no leap seconds, so second 60 is checked as 59.
	norm := strings.ToUpper(s)
	if m[6] == "60" {
		norm = norm[:17] + "59" + norm[19:]
	}
	if _, err := time.Parse(time.RFC3339Nano, norm); err != nil {
		var pe *time.ParseError
		if errors.As(err, &pe) && pe.Message != "" {
			return fmt.Errorf("not a real date and time: %s", strings.TrimPrefix(pe.Message, ": "))
		}
		return fmt.Errorf("not a real date and time: %v", err)
	}
	return nil
}

// intRange rejects integers outside a format's range; kin-openapi has already
// rejected non-integers under the "type" rule before a format is consulted.
type intRange struct{ min, max int64 }

func (r intRange) Validate(v int64) error {
	if v < r.min || v > r.max {
		return fmt.Errorf("outside %d..%d", r.min, r.max)
	}
	return nil
}

// floatRange rejects numbers a 32-bit float cannot hold.
type floatRange struct{}

func (floatRange) Validate(v float64) error {
	if math.Abs(v) > math.MaxFloat32 {
		return fmt.Errorf("outside the range of a 32-bit float (±%g)", math.MaxFloat32)
	}
	return nil
}

// formatOptions returns the kin-openapi options that install this package's
// format validators for one validation.
func formatOptions() []openapi3.SchemaValidationOption {
	return []openapi3.SchemaValidationOption{
		openapi3.WithStringFormatValidators(map[string]openapi3.StringFormatValidator{
			"uuid":      openapi3.NewCallbackValidator(checkUUID),
			"date-time": openapi3.NewCallbackValidator(checkDateTime),
		}),
		openapi3.WithIntegerFormatValidators(map[string]openapi3.IntegerFormatValidator{
			"int32": intRange{math.MinInt32, math.MaxInt32},
			"int64": intRange{math.MinInt64, math.MaxInt64},
		}),
		openapi3.WithNumberFormatValidators(map[string]openapi3.NumberFormatValidator{
			"float": floatRange{},
		}),
	}
}
