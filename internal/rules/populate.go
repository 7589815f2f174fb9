package rules

import (
	"regexp"
	"strings"
)

// acceptedValues finds the accepted values in a parameter's description:
// "Accepted values are A, B and C." or "The accepted value is A."
var acceptedValues = regexp.MustCompile(`(?i)accepted values? (?:are|is) ([^.]+)\.`)

// AcceptedValues returns the values a parameter's description accepts
// (the populate entities of an operation: the document states them in
// prose, as the specification does), nil when it names none. It is the
// one reader of that sentence: the request checks and the generated
// requests both read the list through it.
func AcceptedValues(description string) []string {
	m := acceptedValues.FindStringSubmatch(description)
	if m == nil {
		return nil
	}
	var out []string
	for _, f := range strings.Split(strings.ReplaceAll(m[1], " and ", ","), ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Entities splits a populate value into the entities it names:
// comma-separated, blanks around each trimmed, empty ones dropped.
func Entities(populate string) []string {
	var out []string
	for _, e := range strings.Split(populate, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// HasEntity reports whether a populate value names entity, whatever its
// case.
func HasEntity(populate, entity string) bool {
	for _, e := range Entities(populate) {
		if strings.EqualFold(e, entity) {
			return true
		}
	}
	return false
}
