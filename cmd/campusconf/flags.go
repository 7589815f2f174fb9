package main

import "strings"

// stringList is a string flag that may be given more than once, each value
// kept in order: --defect A --defect B gives [A B]. It is the one
// repeatable flag type of the commands.
type stringList []string

// String joins the values with commas, for flag's defaults and messages.
func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set appends one value.
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
