package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// What a write did (issue 37): its round trip at the edges the
// specification states, a refused write that changes nothing, and the
// neighbours a write leaves alone. The facts (what each write sets, where
// it is read back, its neighbour) are the registry's (writes.go).

// writeObs is what the steps of one such check saw, for the step that
// judges it.
type writeObs struct {
	// compared counts the members compared with what was sent.
	compared int
	// findings are the members that did not come back as sent, and the
	// edges not accepted that had to be, each with its exchange.
	findings []finding
	// refused are the edges refused in the stated error form (faithful).
	refused []string
	// the refused write's answer and its exchange
	refStatus int
	refBody   []byte
	refAt     int
	// the record's read before and after
	before, after kept
}

type finding struct {
	text string
	at   int
}

// kept is a status and body kept for a later comparison.
type kept struct {
	status int
	body   []byte
	at     int
}

func (s *state) keep() kept {
	return kept{status: s.status, body: append([]byte(nil), s.body...), at: len(s.exchanges) - 1}
}

// writeFacts returns the registry's facts of the write op.
func writeFacts(op registry.OpID) (registry.Write, error) {
	w, ok := registry.WriteOf(op)
	if !ok {
		return w, fmt.Errorf("the registry declares nothing %s sets (internal/registry/writes.go)", op)
	}
	return w, nil
}

// writeNamed returns the write a step's text names and the registry's
// facts of it (opNamed, writeFacts).
func writeNamed(name string) (registry.OpID, registry.Write, error) {
	op, err := opNamed(name)
	if err != nil {
		return op, registry.Write{}, err
	}
	w, err := writeFacts(op)
	return op, w, err
}

// edgeCalls declares the round trip's requests: each edge, and the read
// after it where the write has one showing a member it sets.
func edgeCalls(_ *env, m []string) declared {
	op, w, ok := stepWrite(m)
	if !ok {
		return declared{}
	}
	var ops []registry.OpID
	for range w.Edges {
		ops = append(ops, op)
		if readsBack(w) {
			ops = append(ops, w.Read.Op)
		}
	}
	return declared{ops: ops}
}

// readsBack reports whether w's read shows a member it sets.
func readsBack(w registry.Write) bool {
	return w.Read != nil && slices.ContainsFunc(w.Sets, func(m registry.Member) bool { return m.Read != "" })
}

// stepWrite is the write a step's first group names and the registry's
// facts of it (none where it declares none), for what the step declares;
// ok is false where the group names no operation (the step refuses it).
func stepWrite(m []string) (op registry.OpID, w registry.Write, ok bool) {
	op, err := opNamed(m[1])
	if err != nil {
		return "", w, false
	}
	w, _ = registry.WriteOf(op)
	return op, w, true
}

// readChangeRead declares a read of the record, the write, and the read
// again.
func readChangeRead(_ *env, m []string) declared {
	return readAround(m, recordRead)
}

// neighbourChangeNeighbour declares a read of the neighbour, the write,
// and the read of the neighbour again.
func neighbourChangeNeighbour(_ *env, m []string) declared {
	return readAround(m, neighbourRead)
}

// recordRead and neighbourRead pick a read of a write's facts: that of
// the record it changes, that of a neighbour it must leave alone.
func recordRead(w registry.Write) *registry.Read    { return w.Read }
func neighbourRead(w registry.Write) *registry.Read { return w.Neighbour }

// readAround declares the read that read picks from the write's facts,
// the write, and the read again; the write alone where it has no such
// read.
func readAround(m []string, read func(registry.Write) *registry.Read) declared {
	op, w, ok := stepWrite(m)
	if !ok {
		return declared{}
	}
	if r := read(w); r != nil {
		return declared{ops: []registry.OpID{r.Op, op, r.Op}}
	}
	return declared{ops: []registry.OpID{op}}
}

// writeEdges sends each edge of op's round trip and compares every member
// it sets, in the answer and in the read after it.
func writeEdges(ctx context.Context, name string) error {
	op, w, err := writeNamed(name)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	if len(w.Edges) == 0 {
		return fmt.Errorf("the registry declares no round trip of %s", op)
	}
	obs := &writeObs{}
	s.writes = obs
	for _, e := range w.Edges {
		body, err := s.edgeBody(e)
		if err != nil {
			return err
		}
		c := call{op: op, params: maps.Clone(w.Params), body: body, hasBody: true, rawBody: true}
		if c.params == nil {
			c.params = map[string]string{}
		}
		if err := s.do(ctx, c); err != nil {
			return err
		}
		sent := gjson.Parse(body)
		switch {
		case s.status >= 200 && s.status < 300:
			if err := s.compareMembers(obs, w, e, sent, s.json(), func(m registry.Member) string { return m.Answer }, "the answer"); err != nil {
				return err
			}
			if readsBack(w) {
				if err := s.do(ctx, call{op: w.Read.Op, params: maps.Clone(w.Read.Call.Params)}); err != nil {
					return err
				}
				if s.status != 200 {
					obs.findings = append(obs.findings, finding{fmt.Sprintf("%s: the read after it answered %s", e.What, s.gotStatus()), len(s.exchanges) - 1})
					continue
				}
				if err := s.compareMembers(obs, w, e, sent, s.json(), func(m registry.Member) string { return m.Read }, "the read after it"); err != nil {
					return err
				}
			}
		case e.MayRefuse && s.status >= 400 && s.status < 500:
			if err := s.errorBodyIsString(); err != nil {
				return err
			}
			obs.refused = append(obs.refused, e.What)
		case s.mediaTypeRefused():
			return s.fail([]string{"ALL.media-type"}, "the body accepted as "+jsonPatch, s.gotStatus())
		default:
			obs.findings = append(obs.findings, finding{fmt.Sprintf("%s: expected a success (every value is within what the specification states), got %s", e.What, s.gotStatus()), len(s.exchanges) - 1})
		}
	}
	return nil
}

// edgeBody fills an edge's placeholders and completes its list (Rest).
func (s *state) edgeBody(e registry.Edge) (string, error) {
	body, err := s.interpolate(e.Body)
	if err != nil {
		return "", err
	}
	if e.Rest == nil {
		return body, nil
	}
	ids, err := s.interpolate("{" + e.Rest.Of + "}")
	if err != nil {
		return "", err
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		return "", fmt.Errorf("edge %q: %w", e.What, err)
	}
	list, _ := doc[e.Rest.List].([]any)
	named := map[string]bool{}
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			if k, ok := m[e.Rest.Key].(string); ok {
				named[strings.ToLower(k)] = true
			}
		}
	}
	for _, id := range gjson.Parse(ids).Array() {
		if named[strings.ToLower(id.Str)] {
			continue
		}
		var item any
		if err := json.Unmarshal([]byte(strings.ReplaceAll(e.Rest.Item, "{item}", id.Str)), &item); err != nil {
			return "", fmt.Errorf("edge %q: %w", e.What, err)
		}
		list = append(list, item)
	}
	doc[e.Rest.List] = list
	out, err := json.Marshal(doc)
	return string(out), err
}

// compareMembers compares each member of w that sent carries with got, at
// the path where reads it; a member the answer leaves out is judged only
// when it is required (or the list item it belongs to is missing).
func (s *state) compareMembers(obs *writeObs, w registry.Write, e registry.Edge, sent, got gjson.Result, where func(registry.Member) string, in string) error {
	for _, m := range w.Sets {
		path := where(m)
		if path == "" {
			continue
		}
		sentPath, err := s.interpolate(m.Sent)
		if err != nil {
			return err
		}
		want := sent.Get(sentPath)
		if !want.Exists() {
			continue
		}
		if path, err = s.interpolate(path); err != nil {
			return err
		}
		v := got.Get(path)
		if absent(v) {
			if container, item, ok := listItem(path); ok {
				switch {
				case absent(got.Get(container)):
					continue // the answer leaves the list out: optional
				case !got.Get(item).Exists():
					obs.findings = append(obs.findings, finding{fmt.Sprintf("%s: %s holds no item %s", e.What, in, item), len(s.exchanges) - 1})
					continue
				}
			}
			if m.Required {
				obs.findings = append(obs.findings, finding{fmt.Sprintf("%s: %s leaves out %s, sent as %s (a required member)", e.What, in, describePath(path), s.clip(want.Raw)), len(s.exchanges) - 1})
			}
			continue
		}
		obs.compared++
		if !sameMember(m.Kind, want, v) {
			obs.findings = append(obs.findings, finding{fmt.Sprintf("%s: %s has %s %s, sent as %s (%s)", e.What, in, describePath(path), s.clip(v.Raw), s.clip(want.Raw), m.Kind), len(s.exchanges) - 1})
		}
	}
	return nil
}

// listItem splits a path through a list item query
// (`a.#(k=="v").member`) into the list and the item.
func listItem(path string) (container, item string, ok bool) {
	i := strings.Index(path, ".#(")
	j := strings.LastIndex(path, ")")
	if i < 0 || j < i {
		return "", "", false
	}
	return path[:i], path[:j+1], true
}

// sameMember compares a member that came back with the value sent, as its
// kind says.
func sameMember(k registry.Kind, sent, got gjson.Result) bool {
	switch k {
	case registry.KindText:
		return got.Type == gjson.String && got.Str == sent.Str
	case registry.KindBool:
		return got.IsBool() && got.Bool() == sent.Bool()
	case registry.KindInt:
		return got.Type == gjson.Number && isInteger(got.Raw) && got.Int() == sent.Int()
	case registry.KindFloat:
		return got.Type == gjson.Number && rules.SameAtFloatPrecision(sent.Num, got.Num)
	case registry.KindUUID:
		return got.Type == gjson.String && strings.EqualFold(got.Str, sent.Str)
	}
	return sameJSON(sent, got)
}

// membersCameBack judges a round trip.
func membersCameBack(ctx context.Context) error {
	s := stateFrom(ctx)
	obs := s.writes
	if obs == nil {
		return fmt.Errorf("no write was made before judging its round trip")
	}
	if len(obs.findings) > 0 {
		var lines []string
		for _, f := range obs.findings {
			lines = append(lines, f.text)
		}
		f := s.fail(nil, "every member a write sets to come back as sent, in its answer and in a later read", fmt.Sprintf("%d not", len(obs.findings)), lines...)
		f.Exchange = obs.findings[0].at
		return f
	}
	if obs.compared == 0 {
		return unobservable("the answers left out every member the writes set, each an optional field this check needs (refused as faithful: %s)", strings.Join(obs.refused, "; "))
	}
	return nil
}

// flip saves as "flip" a value of w.Flip the record just read does not
// hold.
func (s *state) flip(w registry.Write) error {
	if w.Flip == nil {
		return nil
	}
	cur := s.json().Get(w.Flip.Read)
	for _, v := range w.Flip.Values {
		if !sameJSON(gjson.Parse(v), cur) {
			s.saved["flip"] = gjson.Parse(v)
			return nil
		}
	}
	return fmt.Errorf("every value of %s is the one the record holds", w.Flip.Read)
}

// readRecord reads r, which must succeed.
func (s *state) readRecord(ctx context.Context, r *registry.Read) error {
	if err := s.do(ctx, call{op: r.Op, params: maps.Clone(r.Call.Params)}); err != nil {
		return err
	}
	if s.status != 200 {
		return s.fail([]string{s.successReq(r.Op)}, "status 200 for the read of the record", s.gotStatus())
	}
	return nil
}

// changeWithoutKey reads the record op changes, sends a write changing it
// without a valid subscription key, and reads the record again.
func changeWithoutKey(ctx context.Context, name, how string) error {
	op, w, read, err := changeNamed(name, recordRead, "read")
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	obs, err := s.beginChange(ctx, op, w, read)
	if err != nil {
		return err
	}
	if how == "without a subscription key" {
		s.noKey = true
	} else {
		s.fakeKey = "campusconf-unissued-" + s.absentID()[:8]
	}
	err = s.do(ctx, changeCall(op, w))
	s.noKey, s.fakeKey = false, ""
	if err != nil {
		return err
	}
	obs.refStatus, obs.refBody, obs.refAt = s.status, append([]byte(nil), s.body...), len(s.exchanges)-1
	// read again, whatever it answers: a record gone is what the
	// judging step names
	return s.readAfter(ctx, obs, read)
}

// changeNamed is the write a step's text names, the registry's facts of
// it and the read that pick makes of them; it is an error where the
// registry declares no such read (what), or no change of the record.
func changeNamed(name string, pick func(registry.Write) *registry.Read, what string) (registry.OpID, registry.Write, *registry.Read, error) {
	op, w, err := writeNamed(name)
	if err != nil {
		return op, w, nil, err
	}
	r := pick(w)
	if r == nil || w.Change == nil {
		return op, w, nil, fmt.Errorf("the registry declares no %s of the record %s changes", what, op)
	}
	return op, w, r, nil
}

// beginChange starts the observation of a change of op (w): it reads r,
// the record it changes or its neighbour, keeps the answer, and picks the
// value the change writes (flip).
func (s *state) beginChange(ctx context.Context, op registry.OpID, w registry.Write, r *registry.Read) (*writeObs, error) {
	obs := &writeObs{}
	s.writes, s.lastWrite = obs, op
	if err := s.readRecord(ctx, r); err != nil {
		return nil, err
	}
	obs.before = s.keep()
	return obs, s.flip(w)
}

// changeCall is the call of op that changes the record (w.Change).
func changeCall(op registry.OpID, w registry.Write) call {
	return call{op: op, params: maps.Clone(w.Change.Params), body: w.Change.Body, hasBody: w.Change.HasBody}
}

// readAfter reads r after the change, whatever it answers, and keeps the
// answer.
func (s *state) readAfter(ctx context.Context, obs *writeObs, r *registry.Read) error {
	if err := s.do(ctx, call{op: r.Op, params: maps.Clone(r.Call.Params)}); err != nil {
		return err
	}
	obs.after = s.keep()
	return nil
}

// judgedWrite is the observation of the scenario's change and the
// registry's facts of its write, for the step judging it; notMade is the
// error when the change was not observed first (a bug of the feature).
func (s *state) judgedWrite(notMade string) (*writeObs, registry.Write, error) {
	obs := s.writes
	if obs == nil || obs.before.body == nil {
		return nil, registry.Write{}, errors.New(notMade)
	}
	w, err := writeFacts(s.lastWrite)
	return obs, w, err
}

// refusedAndUnchanged judges changeWithoutKey: the write refused for its
// key in the stated error form, and the record as it was.
func refusedAndUnchanged(ctx context.Context) error {
	s := stateFrom(ctx)
	obs, w, err := s.judgedWrite("no refused write was made before judging it")
	if err != nil {
		return err
	}
	if b := rules.KeyRefusal(obs.refStatus, obs.refBody); b != nil {
		f := s.fail(nil, b.Expected, fmt.Sprintf("%d with body %s", obs.refStatus, s.clip(string(obs.refBody))))
		f.Exchange = obs.refAt
		return f
	}
	s.exercise("ALL.error-body")
	if !rules.IsErrorBody(obs.refBody) {
		f := s.fail([]string{"ALL.error-body"}, "an error body that is a JSON string", fmt.Sprintf("%d with body %s", obs.refStatus, s.clip(string(obs.refBody))))
		f.Exchange = obs.refAt
		return f
	}
	return s.sameAnswer(w, w.Read, obs.before, obs.after, "the record as read before the refused write")
}

// sameRead reports whether two reads of a record of kind record show the
// same record with the same values of what w sets.
func sameRead(record string, w registry.Write, before, after kept) bool {
	b, a := gjson.ParseBytes(before.body), gjson.ParseBytes(after.body)
	kb, okb := rules.Identity(record, b)
	ka, oka := rules.Identity(record, a)
	if okb != oka || ka != kb {
		return false
	}
	for _, m := range w.Sets {
		if m.Read != "" && !rules.SameValue(b.Get(m.Read), a.Get(m.Read)) {
			return false
		}
	}
	return true
}

// sameAnswer compares a read of read's record after a write of w with
// the read before it: the same status, the same record (rules.Identity,
// where it carries one) and the same value of each member w sets; no other
// member is stated stable from one answer to the next.
func (s *state) sameAnswer(w registry.Write, read *registry.Read, before, after kept, what string) error {
	if before.status == after.status && sameRead(registry.Must(read.Op).Record, w, before, after) {
		return nil
	}
	f := s.fail(nil, fmt.Sprintf("%s: %d with body %s", what, before.status, s.clip(string(before.body))), fmt.Sprintf("%d with body %s", after.status, s.clip(string(after.body))))
	f.Exchange = after.at
	return f
}

// changeBesideNeighbour reads op's neighbour record, changes the record
// op addresses to a value the neighbour does not hold, and reads the
// neighbour again.
func changeBesideNeighbour(ctx context.Context, name string) error {
	op, w, neighbour, err := changeNamed(name, neighbourRead, "neighbour")
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	key := "records." + w.NeighbourKey
	if !s.env.fixture.Get(key).Exists() {
		return missing(key)
	}
	if same, err := s.readsSameRecord(w.Read, neighbour); err != nil || same {
		if err != nil {
			return err
		}
		return fixtureShort("%s names the record %s changes, where the check needs another of its kind", key, op)
	}
	obs, err := s.beginChange(ctx, op, w, neighbour)
	if err != nil {
		return err
	}
	if err := s.do(ctx, changeCall(op, w)); err != nil {
		return err
	}
	if s.status < 200 || s.status >= 300 {
		reqs := []string{s.successReq(op)}
		if s.mediaTypeRefused() {
			reqs = []string{"ALL.media-type"}
		}
		return s.fail(reqs, "a success of the write", s.gotStatus())
	}
	return s.readAfter(ctx, obs, neighbour)
}

// readsSameRecord reports whether a and b read the same record in this run's
// fixture: the same operation, its parameters filled alike (uuids in any
// case). A fixture naming the changed record as its neighbour is a setup
// mistake, not the implementation's.
func (s *state) readsSameRecord(a, b *registry.Read) (bool, error) {
	if a == nil || b == nil || a.Op != b.Op || len(a.Call.Params) != len(b.Call.Params) {
		return false, nil
	}
	for k, v := range a.Call.Params {
		av, err := s.interpolate(v)
		if err != nil {
			return false, err
		}
		bv, err := s.interpolate(b.Call.Params[k])
		if err != nil {
			return false, err
		}
		if !strings.EqualFold(av, bv) {
			return false, nil
		}
	}
	return true, nil
}

// neighbourAsItWas judges changeBesideNeighbour.
func neighbourAsItWas(ctx context.Context) error {
	s := stateFrom(ctx)
	obs, w, err := s.judgedWrite("no neighbour was read before judging it")
	if err != nil {
		return err
	}
	return s.sameAnswer(w, w.Neighbour, obs.before, obs.after, "the neighbour as read before the write to another record")
}
