package steps

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// Every spelling a stated format allows (issue 37): uuids in upper case,
// RFC 3339 date-times with a numeric offset, fractional seconds or a
// lower-case t and z, compared by meaning with the usual spelling; and the
// refusals of a call without the user's identity, judged by their form.

// uuidText matches a uuid inside a text.
var uuidText = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// upperPathSame judges ALL.uuid-case on a read: op's typical call, sent
// again with the uuids of its path in upper case, answers 200 as before
// with the same record, or the same entries (sameBody, sameEntries). A
// typical call not answered 200 leaves nothing to compare: its own
// scenarios judge it.
func upperPathSame(ctx context.Context, name string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	restore, err := s.asTypicalUser(op)
	if err != nil {
		return err
	}
	defer restore()
	if err := s.do(ctx, typicalCall(op)); err != nil {
		return err
	}
	if s.status != 200 {
		return unobservable("the typical call to %s answered %s, not 200: nothing to compare the same call in upper case with", op, s.gotStatus())
	}
	if err := saveField(ctx, "@this", "lower"); err != nil {
		return err
	}
	c := typicalCall(op)
	for p := range registry.Must(op).Typical.Params {
		v, err := s.interpolate(c.params[p])
		if err != nil {
			return err
		}
		c.params[p] = strings.ToUpper(v)
	}
	if err := s.do(ctx, c); err != nil {
		return err
	}
	if s.status != 200 {
		return s.fail(nil, "status 200, as the same call with the uuids of its path in lower case", s.gotStatus())
	}
	o := registry.Must(op)
	if !o.List {
		return sameBody(ctx, "lower")
	}
	if len(s.saved["lower"].Array()) == 0 && len(s.json().Array()) == 0 && !slices.Contains(o.Statuses, 404) {
		// an operation that answers an unknown record with an empty list
		// shows nothing by two empty ones
		return unobservable("the typical call to %s answered an empty list in either case: nothing shows the record was found", op)
	}
	return sameEntries(ctx, "lower")
}

func callUpperBody(ctx context.Context, name string, doc *godog.DocString) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	body, err := s.interpolate(doc.Content)
	if err != nil {
		return err
	}
	c := newCall(op, "")
	c.body, c.hasBody, c.rawBody = uuidText.ReplaceAllStringFunc(body, strings.ToUpper), true, true
	return s.do(ctx, c)
}

// callRespelled calls op with the query parameter name at an instant,
// written in another spelling RFC 3339 allows.
func callRespelled(ctx context.Context, opName, id, name, at, how string) error {
	op, err := opNamed(opName)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	v, err := s.interpolate(at)
	if err != nil {
		return err
	}
	if v, err = respell(v, how); err != nil {
		return err
	}
	c := newCall(op, id)
	c.params[name] = v
	c.order = append(c.order, name)
	return s.do(ctx, c)
}

// respell writes the instant v, read by the one RFC 3339 reader
// (rules.ParseDateTime), in another spelling RFC 3339 allows.
func respell(v, how string) (string, error) {
	t, err := rules.ParseDateTime(v)
	if err != nil {
		return "", fmt.Errorf("%q is not an RFC 3339 date-time: %w", v, err)
	}
	switch how {
	case "with a numeric offset":
		return t.In(time.FixedZone("", 5*3600+30*60)).Format("2006-01-02T15:04:05.999999999-07:00"), nil
	case "with fractional seconds":
		return t.UTC().Format("2006-01-02T15:04:05.000000000Z07:00"), nil
	case "in lower case":
		return strings.ToLower(t.UTC().Format(time.RFC3339Nano)), nil
	}
	return "", fmt.Errorf("no spelling %q", how)
}

// sameEntries compares the list with a saved one as multisets: the same
// query in another spelling lists the same entries (uuids in either case).
// A page of a list may differ from one read to the next where its order is
// not repeatable: where they differ, the read that made the saved list is
// sent again, and only a list that reads the same again charges the
// difference to the query compared; one that does not leaves it
// unobservable.
func sameEntries(ctx context.Context, name string) error {
	s := stateFrom(ctx)
	differs := s.sameEntries(name)
	l, again := s.savedSent[name]
	var f *Failure
	if differs == nil || !again || !errors.As(differs, &f) || len(f.Requirements) > 0 {
		return differs
	}
	if err := s.again(ctx, l, ""); err != nil {
		return err
	}
	if s.sameEntries(name) != nil {
		return unobservable("%s, sent again as it was, answered other entries than the list saved as %q: a page that is not repeatable, which nothing can be compared with", l.op, name)
	}
	return differs
}

func (s *state) sameEntries(name string) error {
	items, err := s.list()
	if err != nil {
		return err
	}
	saved, err := s.savedAs(name)
	if err != nil {
		return err
	}
	want := saved.Array()
	record := registry.Must(s.lastOp).Record
	key := func(e gjson.Result) string {
		if k, ok := rules.Identity(record, e); ok {
			return k
		}
		return rules.Canonical(e)
	}
	left := make([]string, len(want))
	for i, w := range want {
		left[i] = key(w)
	}
	for _, it := range items {
		k := key(it)
		i := slices.Index(left, k)
		if i < 0 {
			return s.fail(nil, fmt.Sprintf("the %d entries of the list saved as %q, the same query in its usual spelling", len(want), name), fmt.Sprintf("%d entries, among them %s, not in it", len(items), s.clip(it.Raw)))
		}
		left = slices.Delete(left, i, i+1)
	}
	if len(left) > 0 {
		return s.fail(nil, fmt.Sprintf("the %d entries of the list saved as %q, the same query in its usual spelling", len(want), name), fmt.Sprintf("%d entries, without the one identified by %s", len(items), s.clip(strings.ReplaceAll(left[0], "\x1f", ", "))))
	}
	return nil
}

// sameBody compares the answer with a saved one: the same record (uuids
// in either case).
func sameBody(ctx context.Context, name string) error {
	s := stateFrom(ctx)
	saved, err := s.savedAs(name)
	if err != nil {
		return err
	}
	record := registry.Must(s.lastOp).Record
	_, okSaved := rules.Identity(record, saved)
	if _, ok := rules.Identity(record, s.json()); !ok || !okSaved {
		return unobservable("the answers leave out what identifies a %s (%s), an optional field this check needs", record, strings.Join(registry.Identity(record), ", "))
	}
	if !rules.SameRecord(record, saved, s.json()) {
		return s.fail(nil, "the record saved as "+name+": "+s.clip(saved.Raw), s.gotStatus())
	}
	return nil
}

// refusedInForm judges a call whose refusal the specification leaves
// open: a refusal must carry the stated error form; a call served gave
// nothing to judge.
func refusedInForm(ctx context.Context) error {
	s := stateFrom(ctx)
	if s.status >= 400 && s.status < 500 {
		return s.errorBodyIsString()
	}
	if s.status >= 200 && s.status < 300 {
		return unobservable("the call was served (%d): how the user's identity is conveyed is not shown, so there was no refusal to judge", s.status)
	}
	return s.fail(nil, "a refusal (4xx) in the stated error form, or a success", s.gotStatus())
}
