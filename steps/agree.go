package steps

import (
	"context"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// entryAgrees judges the record the last answer holds against the same
// record as a list operation lists it: it reads the member of the answer
// that names the list's parent (member), pages through the list for it,
// finds the entry that is the same record (rules.SameRecord) and holds
// every member of the record (openapi.Declares) both carry to the same
// value (rules.SameValue), but the members a populate entity of either
// operation fills, which an answer carries only on request; members the
// interface does not define are the implementation's own. A record of one kind is the same whichever
// operation answers it.
func entryAgrees(ctx context.Context, name, member string) error {
	list, err := opNamed(name)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	one, read := s.json(), s.lastOp
	record := registry.Must(list).Record
	parent := one.Get(member)
	if absent(parent) || parent.Type != gjson.String {
		return unobservable("the answer of %s leaves out %s, an optional field this check needs", read, member)
	}
	if _, ok := rules.Identity(record, one); !ok {
		return unobservable("the answer of %s leaves out what identifies a %s (%s), an optional field this check needs", read, record, strings.Join(registry.Identity(record), ", "))
	}
	if err := s.pageThrough(ctx, list, parent.Str, nil); err != nil {
		return err
	}
	skip := registry.FilledBy(read, list)
	for _, e := range s.saved[allPages].Array() {
		if !rules.SameRecord(record, one, e) {
			continue
		}
		differ, compared := rules.AgreeAnswer(record, one, e, func(m string) bool { return openapi.Declares(record, m) && !skip[m] })
		if len(differ) > 0 {
			return s.fail(nil, fmt.Sprintf("the %s %s answered as %s lists it", record, read, list), strings.Join(differ, "; "))
		}
		if compared == 0 {
			return unobservable("the %s %s answered and its entry in %s carry no member in common but what identifies it: nothing to compare", record, read, list)
		}
		return nil
	}
	return s.fail(nil, fmt.Sprintf("the %s %s answered among the %d entries %s lists for its %s %s", record, read, len(s.saved[allPages].Array()), list, member, parent.Str), "none of them")
}

// noEntryNames judges that no entry of the array at list carries member
// with the value of the answer's field (rules.SameValue): the ancestors
// of a notification's target do not include the target. A field or array
// left out, an empty array, or entries none of which carries member leave
// nothing to judge: the check is then unobservable, never passed.
func noEntryNames(ctx context.Context, list, member, field string) error {
	s := stateFrom(ctx)
	b := s.json()
	want, entries := b.Get(field), b.Get(list)
	switch {
	case absent(want):
		return unobservable("the answer of %s leaves out %s, an optional field this check needs", s.lastOp, field)
	case !entries.IsArray() || len(entries.Array()) == 0:
		return unobservable("the answer of %s holds no entry in %s: nothing to compare with %s", s.lastOp, list, field)
	}
	carried := 0
	for i, e := range entries.Array() {
		v := e.Get(member)
		if absent(v) {
			continue
		}
		carried++
		if rules.SameValue(v, want) {
			return s.fail(nil, fmt.Sprintf("no entry of %s with %s %s (the answer's %s)", list, member, s.clip(want.Raw), field),
				fmt.Sprintf("entry %d of %s: %s", i, list, s.clip(e.Raw)))
		}
	}
	if carried == 0 {
		return unobservable("no entry of %s in the answer of %s carries %s, an optional field this check needs", list, s.lastOp, member)
	}
	return nil
}

// keepAnswer saves the last answer's body as name, whatever it holds (an
// empty body too), for a later step to compare: unlike saving a field, it
// never leaves the scenario unobservable.
func keepAnswer(ctx context.Context, name string) error {
	s := stateFrom(ctx)
	s.saved[name] = s.json()
	return nil
}

// savedAgrees compares the notification a read update answered (saved
// as name) with the same notification as the last answer, a read, shows
// it afterwards: every member both carry but those the update sets
// (rules.ReadUpdateSets, which the proxy reads too) holds the same value
// (rules.AgreeAnswer), so that the update answers the record it changed,
// not one made from its request. Nothing in common to compare fails
// nothing: the step stands beside its scenario's own observation, the
// status read back.
func savedAgrees(ctx context.Context, name string) error {
	s := stateFrom(ctx)
	saved, err := s.savedAs(name)
	if err != nil {
		return err
	}
	record := registry.Must(s.lastOp).Record
	differ, _ := rules.AgreeAnswer(record, saved, s.json(), func(m string) bool { return openapi.Declares(record, m) && !rules.ReadUpdateSets(m) })
	if len(differ) > 0 {
		return s.fail(nil, fmt.Sprintf("the %s saved as %q agreeing with %s's answer afterwards in every member the update does not set (saved value first, then %s's)", record, name, s.lastOp, s.lastOp), strings.Join(differ, "; "))
	}
	return nil
}
