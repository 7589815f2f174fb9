package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// DefaultMaxPages bounds a walk through a list (Config.MaxPages, `run
// --max-pages`): a list longer than this many default pages is not walked
// to its end, and the check is skipped (cause runner-limit) rather than
// judged on a guess.
const DefaultMaxPages = 50

// allPages is the name the walk saves the whole list under.
const allPages = "all"

func pageThroughPlain(ctx context.Context, name, id string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	return stateFrom(ctx).pageThrough(ctx, op, id, nil)
}

func pageThroughWith(ctx context.Context, name, id string, t *godog.Table) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	var rows [][2]string
	for _, row := range t.Rows {
		if len(row.Cells) != 2 {
			return fmt.Errorf("the parameter table wants two columns, name and value")
		}
		rows = append(rows, [2]string{row.Cells[0].Value, row.Cells[1].Value})
	}
	return stateFrom(ctx).pageThrough(ctx, op, id, rows)
}

// pageThrough reads a list the way a client pages through it without
// assuming a page size: the first page without offset or limit, then each
// next page at the offset of the entries read so far, until a page is
// empty. It saves the entries read as "all". The specification states no
// default or maximum for offset and limit, so the walk sends no limit and
// only offsets the list itself has shown to exist. A page at a positive
// offset that repeats the first page shows offset ignored.
func (s *state) pageThrough(ctx context.Context, op registry.OpID, id string, params [][2]string) error {
	var all []gjson.Result
	var first, prev []string
	offset := 0
	record := registry.Must(op).Record
	for page := 0; page < s.env.cfg.MaxPages; page++ {
		c := newCall(op, id)
		for _, p := range params {
			c.params[p[0]] = p[1]
			c.order = append(c.order, p[0])
		}
		if offset > 0 {
			c.params["offset"] = strconv.Itoa(offset)
			c.order = append(c.order, "offset")
		}
		if err := s.do(ctx, c); err != nil {
			return err
		}
		if page > 0 && s.status == 400 {
			// A cap on offset below the list's length is the
			// implementation's to choose: the end cannot be reached.
			return unobservable("offset=%d, within the %d entries read so far, is refused with 400: the implementation caps offset below the list's length, so its end cannot be reached", offset, offset)
		}
		if err := s.statusIs(200); err != nil {
			return err
		}
		items, err := s.list()
		if err != nil {
			return err
		}
		if page == 0 {
			s.firstPage = len(items)
		}
		if len(items) == 0 {
			s.saved[allPages] = gjson.Parse(rawArray(all))
			return nil
		}
		values := identities(record, items)
		if page == 0 {
			first = values
		} else if distinguishable(values) && (slices.Equal(first, values) || slices.Equal(prev, values)) {
			var reqs []string
			if id := op.Requirement(".offset"); s.known(id) {
				reqs = []string{id}
			}
			return s.fail(reqs, fmt.Sprintf("offset=%d to skip the %d entries read so far", offset, offset),
				"the entries of an earlier page again: offset does not skip")
		}
		prev = values
		all = append(all, items...)
		offset += len(items)
	}
	return runnerLimit("the list holds more than %d pages (%d entries read), more than the runner walks: --max-pages raises the bound", s.env.cfg.MaxPages, offset)
}

// distinguishable reports whether a page holds entries of two different
// records (by rules.Identity; an entry with no identity tells nothing):
// only then can a repeated page be told from a next page of look-alike
// entries.
func distinguishable(values []string) bool {
	for _, v := range values {
		if v == "" {
			return false
		}
	}
	for _, v := range values[1:] {
		if v != values[0] {
			return true
		}
	}
	return false
}

// equalValues compares two decoded JSON values deeply (maps, slices,
// numbers, strings, booleans, null). It is reflect.DeepEqual, which for
// these values judges as cmp.Equal does, but in time linear in their size
// and stopping at the first difference: cmp.Equal computes a full edit
// script between two slices, which made comparing pages of a large list
// the better part of a suite run (issue 30).
func equalValues(a, b any) bool {
	return reflect.DeepEqual(a, b)
}

func rawArray(items []gjson.Result) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(it.Raw)
	}
	b.WriteByte(']')
	return b.String()
}

// pagesHeldEntries fails a walk that found no entry at all: the fixture's
// record promises entries, and an empty list shows nothing about paging.
func pagesHeldEntries(ctx context.Context) error {
	s := stateFrom(ctx)
	if n := len(s.saved[allPages].Array()); n == 0 {
		return s.fail(nil, "at least one entry over the pages: the fixture's record promises entries", "[]")
	}
	return nil
}

// noContentType marks a call whose body goes without a Content-Type header.
const noContentType = "\x00none"

func typicalNoContentType(ctx context.Context, name string) error {
	return typicalTyped(ctx, name, noContentType)
}

// answerDeclaredJSON checks that a body in the answer carries a JSON media
// type: application/json, or an application/*+json type.
func answerDeclaredJSON(ctx context.Context) error {
	s := stateFrom(ctx)
	if s.status == 0 {
		return s.fail(nil, "a response", s.gotStatus())
	}
	if len(strings.TrimSpace(string(s.body))) == 0 {
		return unobservable("the answer (%d) has no body whose media type could be checked", s.status)
	}
	if b := rules.ResponseMediaType(s.status, s.header.Get("Content-Type")); b != nil {
		return s.fail(nil, b.Expected, b.Got)
	}
	return nil
}

// otpNotConfirmed accepts the two faithful answers to a wrong one-time
// password: a refusal (4xx with a JSON string), or 200 whose status, where
// present, is not "0000". A server error is no answer to a wrong code.
func otpNotConfirmed(ctx context.Context) error {
	s := stateFrom(ctx)
	if b := rules.WrongCodeAnswer(s.status, s.json()); b != nil {
		return s.fail(nil, b.Expected, s.gotStatus())
	}
	if s.status == 200 && absent(s.json().Get("status")) {
		return unobservable("E1 answered 200 without \"status\", an optional field this check needs: only it says whether the code was confirmed")
	}
	if s.status != 200 {
		return s.errorBodyIsString()
	}
	return nil
}

// updateQuestionLimit sends the evaluation session update with one
// question whose field has the given value. The specification states the
// limits of a question but not the body of the update: the fixture's
// operations.ES.questionTemplate is the body, with the
// JSON string "{question}" where a question goes; the question is the
// fixture's operations.ES.question (default: the
// fixture's question id and a text) with the field set.
func updateQuestionLimit(ctx context.Context, field, value string) error {
	s := stateFrom(ctx)
	tmpl := s.env.fixture.Get("operations.ES.questionTemplate")
	if !tmpl.Exists() {
		return missing("operations.ES.questionTemplate")
	}
	if !strings.Contains(tmpl.Raw, `"{question}"`) {
		return fmt.Errorf("fixture operations.ES.questionTemplate has no \"{question}\" string to put the question in")
	}
	if !gjson.Valid(value) {
		return fmt.Errorf("value %s is not a JSON value", value)
	}
	q := map[string]any{}
	if base := s.env.fixture.Get("operations.ES.question"); base.IsObject() {
		if err := json.Unmarshal([]byte(base.Raw), &q); err != nil {
			return fmt.Errorf("fixture operations.ES.question: %w", err)
		}
	} else {
		q["id"] = "{records.evaluationQuestion}"
		q["text"] = "Question checked by campusconf"
	}
	q[field] = json.RawMessage(value)
	qb, err := json.Marshal(q)
	if err != nil {
		return err
	}
	c := newCall(registry.ES, "{records.evaluation}")
	c.body, c.hasBody = strings.Replace(tmpl.Raw, `"{question}"`, string(qb), 1), true
	return s.do(ctx, c)
}

// weightsEchoed checks that the gradebook settings an update answers hold
// the weightages just set: where iD_Weightage is present, each grade item
// set appears in it with its new value.
func weightsEchoed(ctx context.Context) error {
	s := stateFrom(ctx)
	got := s.json().Get("iD_Weightage")
	if absent(got) {
		return unobservable("the settings answered leave out \"iD_Weightage\", an optional field this check needs, and nothing else shows the weightages")
	}
	values := map[string]float64{}
	for _, e := range got.Array() {
		values[strings.ToLower(e.Get("key").String())] = e.Get("value").Float()
	}
	var wrong []string
	for id, w := range s.weights {
		v, ok := values[strings.ToLower(id)]
		switch {
		case !ok:
			wrong = append(wrong, fmt.Sprintf("%s: missing, set to %g", id, w))
		case math.Abs(v-w) > 1e-6:
			wrong = append(wrong, fmt.Sprintf("%s: %g, set to %g", id, v, w))
		}
	}
	if len(wrong) > 0 {
		// the echo of an update naming its grade items as the fixture
		// writes them is GB.echo's, in whichever scenario; after one naming
		// them in upper case, the scenario's own (ALL.uuid-case): the
		// update may have missed the grade items it named
		var reqs []string
		if !s.weightsUpper && s.known("GB.echo") {
			reqs = []string{"GB.echo"}
		}
		return s.fail(reqs, "the settings after the update: each grade item's weightage as just set", fmt.Sprintf("%d of %d grade items otherwise", len(wrong), len(s.weights)), strings.Join(wrong, "\n"))
	}
	return nil
}

// creatorFilled checks that an answer read with populate=Creator describes
// its creator: the copy (E6), or every entry of the list (E17). A record
// describes it by one of the members the operation's Creator fills
// (registry.Populates: E6's userID, userName, email; E17's userId,
// userName, userMatrixNo) holding a non-empty string, or by a populated
// creator object. Each of those members is optional and any one of them
// describes the creator, so one left out fails nothing; a record leaving
// out all of them fails, as populate=Creator asked for them. An empty list
// describes nobody: unobservable (the operation's success scenario judges
// an empty list).
func creatorFilled(ctx context.Context, of string) error {
	s := stateFrom(ctx)
	_, p, err := populateNamed(string(s.lastOp), "Creator", " filling members", func(p registry.Populate) bool { return len(p.Filled()) > 0 })
	if err != nil {
		return err
	}
	members := p.Filled()
	describes := func(r gjson.Result) bool {
		for _, f := range members {
			if v := r.Get(f); v.Type == gjson.String && v.Str != "" {
				return true
			}
		}
		for _, f := range []string{"creator", "Creator"} {
			if v := r.Get(f); v.IsObject() && len(v.Map()) > 0 {
				return true
			}
		}
		return false
	}
	want := fmt.Sprintf("with populate=Creator, the creator described: %s or %s, or a creator object", strings.Join(members[:len(members)-1], ", "), members[len(members)-1])
	if of == "the copy" {
		if b := s.json(); !describes(b) {
			return s.fail(nil, want, clip(b.Raw))
		}
		return nil
	}
	items, err := s.list()
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return unobservable("the list is empty: no entry whose creator could be read")
	}
	for i, it := range items {
		if !describes(it) {
			return s.fail(nil, "every entry "+want, fmt.Sprintf("entry %d: %s", i, s.clip(it.Raw)))
		}
	}
	return nil
}
