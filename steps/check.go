package steps

import "github.com/campusconf/campusconf/features"

// CheckTags returns the error Run would give for the tag expression expr
// (a malformed expression, a tag no scenario carries), so that a command
// can refuse it before it sends anything.
func CheckTags(expr string) error {
	cat, err := features.Load()
	if err != nil {
		return err
	}
	tags, err := godogTags(expr)
	if err != nil {
		return err
	}
	return knownTags(cat, tags)
}
