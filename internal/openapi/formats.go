package openapi

import (
	"fmt"
	"math"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/uuid"
)

// The format validators below are handed to kin-openapi per validation
// (openapi3.WithStringFormatValidators and friends), not registered in its
// package-level maps (openapi3.SchemaStringFormats, DefineStringFormatValidator):
// kin-openapi consults the per-validation maps first, so this package changes
// nothing for other users of kin-openapi in the same binary and needs no
// global registration at all.

// checkUUID accepts only the canonical textual form, in either case (see
// internal/uuid); its error is uuid.ErrSyntax.
func checkUUID(s string) error {
	if !uuid.Valid(s) {
		return uuid.ErrSyntax
	}
	return nil
}

// checkDateTime accepts an RFC 3339 date-time (section 5.6) and rejects
// strings that have the right form but name no real instant, such as
// 2025-02-30 or hour 24: the one reading every producer shares
// (rules.ParseDateTime).
func checkDateTime(s string) error {
	_, err := rules.ParseDateTime(s)
	return err
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
