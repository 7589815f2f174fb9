// Package uuid reads the one textual form of a UUID the specification's
// "uuid" format means: 36 characters, hexadecimal digits in groups of
// 8-4-4-4-12 separated by hyphens. Upper- and lower-case digits are both
// accepted (RFC 9562 reads them case-insensitively); the version and variant
// digits are not checked, and braces, a "urn:uuid:" prefix and the 32-digit
// form without hyphens are refused.
//
// The simulator, the steps and the OpenAPI validation all read uuids
// through this package, so they agree on what one is. It imports nothing of
// the project, so any package may use it.
package uuid

import (
	"errors"
	"strings"
)

// ErrSyntax is the error of a string that is not a uuid.
var ErrSyntax = errors.New("not 8-4-4-4-12 hexadecimal digits")

// Valid reports whether s is a uuid in the 8-4-4-4-12 form, in either case.
func Valid(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Parse returns s in lower case, the canonical form two spellings of one
// uuid share, or ErrSyntax when s is not a uuid (see Valid).
func Parse(s string) (string, error) {
	if !Valid(s) {
		return "", ErrSyntax
	}
	return strings.ToLower(s), nil
}
