// Package rules is the one place the producers of verdicts (the scenarios
// in steps, the traffic proxy, the generated requests) and, later, the
// simulator's request checks read the interface's rules from: the level
// and kind of a requirement, the limits the specification states, the
// requirement id each request rule stands for, and what the specification
// leaves open (Open), so that every producer reads an open point the same
// way.
//
// It sits just above the registry (internal/registry) and imports nothing
// else of the project: no HTTP serving, no godog, no fake data. Its values
// are the specification's own statements, each with its section; a choice
// the specification leaves to the implementation is never a limit here.
package rules

// Level is how binding a requirement is: MUST is stated by the
// specification and decides the verdict; SHOULD is implied by it and only
// warns (docs/decisions.md, "MUST or SHOULD").
type Level string

// Requirement levels.
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
)

// Valid reports whether l is one of Must and Should.
func (l Level) Valid() bool { return l == Must || l == Should }

// Kind is the rule kind of a requirement and of the checks of it: what
// sort of rule of the specification it is.
type Kind string

// Rule kinds.
const (
	KindStatus     Kind = "status"
	KindShape      Kind = "shape"
	KindEnumRange  Kind = "enum-range"
	KindTransition Kind = "transition"
	KindPermission Kind = "permission"
	KindDefault    Kind = "default"
	KindAuth       Kind = "auth"
	KindErrorForm  Kind = "error-form"
	KindQuery      Kind = "query"
	// KindGenerated: a property that generated requests check
	// (generate) rather than a scenario.
	KindGenerated Kind = "generated"
)

// RuleKinds are the kinds of scenarios and requirements, in the order
// reports show them. KindGenerated is not among them: it is the kind of
// the properties only generated requests check.
var RuleKinds = []Kind{KindStatus, KindShape, KindEnumRange, KindTransition, KindPermission, KindDefault, KindAuth, KindErrorForm, KindQuery}

// Kinds returns every kind a requirement may have: RuleKinds, then
// KindGenerated.
func Kinds() []Kind { return append(append([]Kind(nil), RuleKinds...), KindGenerated) }
