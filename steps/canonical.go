package steps

import (
	"maps"
	"slices"

	"github.com/campusconf/campusconf/internal/registry"
)

// The typical call of an operation (registry.Operation.Typical) is a
// request that a conforming implementation answers without refusing it for
// its content: the scenarios that vary one thing (no subscription key, a
// forbidden user, the body's media type) start from it. Deleting operations
// name an absent id, so a typical call never removes a fixture record; the
// answers they get (404, a count of 0) are still told apart from a refusal.
// Scenarios run concurrently, so a typical call must not disturb another
// feature's records: the notification update sets "unread", the only state
// a scenario reads back across calls.
//
// A refusal is checked with the operation's probe (registry
// Operation.Probe): it names real records, never an id that names
// nothing, since an implementation may look a record up before it checks
// who asks (and answer 404 where 403 is meant), or check permissions per
// record (and have nothing to refuse for a record that does not exist). A
// fixture's forbidden entry may name the record its refusal holds for. A
// conforming implementation refuses the probe without changing anything.

// forbiddenCall returns the call that checks a refusal of op for record
// (a records.* key path; "" for the operation's own subject).
func forbiddenCall(op registry.OpID, record string) call {
	return callOf(op, registry.Must(op).Probe(record))
}

// typicalCall returns the typical call of op.
func typicalCall(op registry.OpID) call {
	return callOf(op, registry.Must(op).Typical)
}

// typicalUser returns the caller of op's typical calls where the default
// caller would be refused.
func typicalUser(op registry.OpID) (string, bool) {
	o := registry.Must(op)
	if o.TypicalUser == "" {
		return "", false
	}
	return o.TypicalUser, true
}

// callOf turns a registry call of op into a call to send: its path
// parameters, then its query parameters, each in name order.
func callOf(op registry.OpID, c registry.Call) call {
	params := maps.Clone(c.Params)
	if params == nil {
		params = map[string]string{}
	}
	maps.Copy(params, c.Query)
	return call{
		op:      op,
		params:  params,
		order:   append(slices.Sorted(maps.Keys(c.Params)), slices.Sorted(maps.Keys(c.Query))...),
		body:    c.Body,
		hasBody: c.HasBody,
	}
}
