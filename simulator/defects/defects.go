// Package defects names the deliberate mistakes the simulator can make, one
// rule of the specification each, so the project can prove that the
// conformance suite catches every one. A Set is consulted at each decision
// point; the zero Set has no defect and the simulator behaves as specified.
package defects

import (
	"fmt"
	"slices"
	"strings"
)

// Defect is one switchable mistake.
type Defect struct {
	// Name is the switch, as given to `campusconf serve --defect NAME`.
	Name string
	// Description says in one line what the simulator then does wrong.
	Description string
}

// The defect names. Each constant is the only spelling the simulator
// checks, so a typo is a compile error rather than a silent no-op.
const (
	E7PublishDefaultFalse    = "e7-publish-default-false"
	E6Status200              = "e6-status-200"
	NotifyReadIgnored        = "notify-read-ignored"
	PollAlways7002           = "poll-always-7002"
	GradebookTotalPerRequest = "gradebook-total-per-request"
	ErrorBodyObject          = "error-body-object"
	MissingKeyAccepted       = "missing-key-accepted"
)

// catalogue lists every defect, sorted by name.
var catalogue = []Defect{
	{E6Status200, "E6 copy bank folder answers 200 instead of 201"},
	{E7PublishDefaultFalse, "E7 add default attendance defaults publish to false instead of true"},
	{ErrorBodyObject, "error bodies are a JSON object {\"message\": ...} instead of a JSON string"},
	{GradebookTotalPerRequest, "gradebook update checks the 100 percent total over the weightages in the request only, not over the module after the update"},
	{MissingKeyAccepted, "calls without the Ocp-Apim-Subscription-Key header are accepted"},
	{NotifyReadIgnored, "notification read update returns the record but leaves notifyStatus unchanged"},
	{PollAlways7002, "E2 poll answers 7002 (denied) for every transaction, approved or not"},
}

// All returns every defect the simulator knows, sorted by name.
func All() []Defect { return slices.Clone(catalogue) }

// Set is a set of enabled defects. The zero value has none.
type Set struct {
	on map[string]bool
}

// New returns the set of the named defects, or an error naming the first
// unknown name and the known ones.
func New(names []string) (Set, error) {
	s := Set{on: map[string]bool{}}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !known(n) {
			return Set{}, fmt.Errorf("unknown defect %q (known: %s)", n, strings.Join(Names(), ", "))
		}
		s.on[n] = true
	}
	return s, nil
}

// Has reports whether the named defect is enabled.
func (s Set) Has(name string) bool { return s.on[name] }

// Enabled returns the enabled defect names, sorted.
func (s Set) Enabled() []string {
	out := make([]string, 0, len(s.on))
	for n := range s.on {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Names returns the name of every known defect, sorted.
func Names() []string {
	out := make([]string, len(catalogue))
	for i, d := range catalogue {
		out[i] = d.Name
	}
	return out
}

func known(name string) bool {
	for _, d := range catalogue {
		if d.Name == name {
			return true
		}
	}
	return false
}
