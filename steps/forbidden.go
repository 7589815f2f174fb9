package steps

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/reports"
)

// forbiddenRefused makes the refusal probe of every operation the
// fixture lists under forbidden (registry Operation.Probe: real records,
// the entry's own where it names one), as the user it names, and expects
// 403 from each. A probe that needs a record the run makes (an attendance
// just added) makes it first, as the default caller. It checks every entry
// and reports every one that was not refused; an entry it could not probe
// (an unplaced operation, a missing record, a setup refused) is passed
// over, and a run that could probe none is skipped.
//
// The probes of different record groups run at the same time (up to
// --concurrency of them), those of one group one after another in the
// fixture's order (forbiddenLanes): each probe then sees what it would
// see were the probes made one at a time, and the check takes the time
// of its longest lane, not of all its probes. What it reports reads as
// if they had been: exchanges, failures and the first error in the
// fixture's order.
func forbiddenRefused(ctx context.Context) error {
	s := stateFrom(ctx)
	entries := s.env.cfg.Fixture.Forbidden
	if len(entries) == 0 {
		return missing("forbidden")
	}
	probes := make([]*probe, len(entries))
	// entries of profiles the fixture does not claim are not probed (not
	// even their setup is sent); when they are all there is, the scenario
	// is unsupported
	var unsupported error
	unsupportedOnly := 0
	// in a read-only run, the entries of operations that change state
	var readOnly error
	readOnlyLeft := 0
	for i, f := range entries {
		o, ok := registry.Lookup(f.Operation)
		if !ok {
			return fmt.Errorf("forbidden: unknown operation %q (want one of %s)", f.Operation, registry.Span(""))
		}
		op := o.ID
		p := &probe{op: op, user: f.User, call: forbiddenCall(op, f.Record), record: f.Record}
		probes[i] = p
		switch {
		case !s.env.cfg.Fixture.Supports(string(op)):
			if unsupported == nil {
				unsupported = unsupportedSkip(op, s.env.cfg.Fixture)
			}
			unsupportedOnly++
			p.unprobed = fmt.Sprintf("%s as %q: profile not claimed", op, f.User)
		case s.env.cfg.ReadOnly && probeChangesState(op):
			// a read-only run sends no call that changes state, nor the
			// setup of one
			if readOnly == nil {
				readOnly = readOnlySkip(op)
			}
			readOnlyLeft++
			p.unprobed = fmt.Sprintf("%s as %q: read-only run", op, f.User)
		}
	}
	s.probeLanes(ctx, probes)

	var wrong, badBody, unprobed []string
	first, firstBad := -1, -1
	checked := 0
	for _, p := range probes {
		at := s.merge(p.state)
		p.at = at
		if p.err != nil {
			var f *Failure
			if errors.As(p.err, &f) {
				f.Exchange += at
			}
			return p.err
		}
		if p.unprobed != "" {
			unprobed = append(unprobed, p.unprobed)
			continue
		}
		checked++
		switch {
		case p.status != 403:
			wrong = append(wrong, fmt.Sprintf("%s as %q: %s", p.op, p.user, p.got))
			if first < 0 {
				first = len(s.exchanges) - 1
			}
		case !p.stringBody:
			// Refused as declared, in the wrong error form: that is the
			// error-body rule's to report, not the permission's.
			badBody = append(badBody, fmt.Sprintf("%s as %q: %s", p.op, p.user, p.got))
			if firstBad < 0 {
				firstBad = len(s.exchanges) - 1
			}
		}
	}
	if checked == 0 {
		// nothing was observed: not a pass
		if unsupported != nil && unsupportedOnly == len(entries) {
			return unsupported
		}
		if readOnly != nil && readOnlyLeft+unsupportedOnly == len(entries) {
			return readOnly
		}
		return &skip{reason: "no forbidden entry of the fixture could be probed: " + strings.Join(unprobed, "; "), cause: reports.CauseFixture}
	}
	if len(wrong) > 0 {
		f := s.fail(nil, "403 for every forbidden entry of the fixture", fmt.Sprintf("%d of %d not refused", len(wrong), len(entries)), strings.Join(wrong, "\n"))
		f.Exchange = first
		return f
	}
	for _, p := range probes {
		if p.changed != nil {
			// refused as declared, and carried out all the same
			p.changed.Exchange += p.at
			p.changed.Expected = fmt.Sprintf("%s as %q refused with 403 and nothing changed: %s", p.op, p.user, p.changed.Expected)
			return p.changed
		}
	}
	if len(badBody) > 0 {
		s.exercise("ALL.error-body")
		f := s.fail([]string{"ALL.error-body"}, "a JSON string body with every 403", fmt.Sprintf("%d of %d refusals in another form", len(badBody), len(entries)), strings.Join(badBody, "\n"))
		f.Exchange = firstBad
		return f
	}
	return nil
}

// readBack returns the write a forbidden entry's probe is read around,
// where the registry declares the read of the record op changes and a
// call changing it (internal/registry/writes.go), and the entry names no
// record of its own (one that does is probed as it names it, for a
// permission per record): the record is read by the default caller
// before and after the refused write, and must read as it was.
func readBack(op registry.OpID, record string) (registry.Write, bool) {
	w, ok := registry.WriteOf(op)
	if !ok || !w.ReadsBack() || record != "" {
		return registry.Write{}, false
	}
	return w, true
}

// probe is one forbidden entry's probe: what to send, and what came of it
// in a state of its own (merged into the scenario's in the fixture's
// order).
type probe struct {
	op     registry.OpID
	user   string
	call   call
	record string
	state  *state
	// unprobed says why the entry was not probed ("" when it was); err is
	// an error that ends the check (a transport error, a suite fault).
	unprobed string
	err      error
	// status and got are the probe's answer; stringBody says its body is
	// a JSON string.
	status     int
	got        string
	stringBody bool
	// changed, when set, is the failure of a refused write read back
	// changed (readBack); at is the index of the probe's first exchange
	// in the scenario's.
	changed *Failure
	at      int
}

// probeLanes makes the probes not already passed over, in the lanes of
// forbiddenLanes: up to --concurrency lanes at a time, each lane's probes
// in order.
func (s *state) probeLanes(ctx context.Context, probes []*probe) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(s.env.cfg.Concurrency, 1))
	for _, lane := range forbiddenLanes(s.env.cfg.Fixture) {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			for _, i := range lane {
				if p := probes[i]; p.unprobed == "" {
					s.probeOne(ctx, p)
				}
			}
		})
	}
	wg.Wait()
}

// probeOne makes one probe, its setup first where it needs one, in a
// state of its own.
func (s *state) probeOne(ctx context.Context, p *probe) {
	ps := &state{env: s.env, name: s.name, reqs: s.reqs, op: s.op, saved: maps.Clone(s.saved), started: s.started,
		turn: s.turn, step: s.step, lastSent: s.lastSent}
	p.state = ps
	if reason, err := ps.probeSetup(ctx, p.op); err != nil {
		p.err = err
		return
	} else if reason != "" {
		p.unprobed = reason
		return
	}
	c := p.call
	w, around := readBack(p.op, p.record)
	var obs *writeObs
	if around {
		// the record as the default caller reads it, and a value of it
		// the refused write would change; the reads around the refusal
		// judge no shape (unshaped)
		ps.unshaped = true
		err := ps.do(ctx, call{op: w.Read.Op, params: maps.Clone(w.Read.Call.Params)})
		ps.unshaped = false
		if err != nil {
			p.err = err
			return
		}
		if ps.status != 200 {
			around = false // the record does not read: the refusal alone is probed
		} else {
			obs = &writeObs{before: ps.keep()}
			if err := ps.flip(w); err != nil {
				p.err = err
				return
			}
			c = changeCall(p.op, w)
		}
	}
	ps.user = p.user
	if err := ps.do(ctx, c); err != nil {
		if sk, isSkip := asSkip(err); isSkip {
			// an unplaced operation or a missing record: nothing to check
			p.unprobed = fmt.Sprintf("%s as %q: %s", p.op, p.user, sk.reason)
			return
		}
		p.err = err
		return
	}
	p.status, p.got = ps.status, ps.gotStatus()
	p.stringBody = rules.IsErrorBody(ps.body)
	if !around || p.status != 403 {
		return
	}
	ps.user, ps.unshaped = "", true
	err := ps.readAfter(ctx, obs, w.Read)
	ps.unshaped = false
	if err != nil {
		p.err = err
		return
	}
	var f *Failure
	if err := ps.sameAnswer(w, w.Read, obs.before, obs.after, "the record as read before the refused write"); errors.As(err, &f) {
		p.changed = f
	}
}

// merge adds what a probe's state did to the scenario's state, as if the
// scenario had made its requests, and returns the index of its first
// exchange.
func (s *state) merge(ps *state) int {
	at := len(s.exchanges)
	if ps == nil {
		return at
	}
	if s.op == "" {
		s.op = ps.op
	}
	for _, ex := range ps.exchanges {
		s.record(ex)
	}
	s.dropped += ps.dropped
	s.retries += ps.retries
	for id := range ps.exercised {
		s.exercise(id)
	}
	if ps.lastReq != nil {
		s.status, s.header, s.body, s.lastOp, s.lastReq, s.lastSent = ps.status, ps.header, ps.body, ps.lastOp, ps.lastReq, ps.lastSent
	}
	return at
}

// forbiddenLanes partitions the fixture's forbidden entries (their
// indexes) into lanes: the entries whose probes (setups included) touch a
// common record group share a lane, in the fixture's order; an entry
// touching none has a lane of its own. Lanes touch no group in common, so
// they may run at the same time.
func forbiddenLanes(f *fixtures.File) [][]int {
	var lanes [][]int
	laneOf := map[string]int{}
	for i, fb := range f.Forbidden {
		var groups []string
		for _, op := range entryOps(fb) {
			if a, ok := accessOf(op); ok {
				groups = append(groups, a.group)
			}
		}
		l := -1
		for _, g := range groups {
			if j, ok := laneOf[g]; ok {
				l = j
				break
			}
		}
		if l < 0 {
			l = len(lanes)
			lanes = append(lanes, nil)
		}
		lanes[l] = append(lanes[l], i)
		for _, g := range groups {
			laneOf[g] = l
		}
	}
	return lanes
}

// probeOps are the operations a refusal probe of the operation a
// forbidden entry names calls: its setup's, then its own. An entry naming
// no operation calls none (forbiddenRefused refuses it, naming it).
func probeOps(name string) []registry.OpID {
	o, ok := registry.Lookup(name)
	switch {
	case !ok:
		return nil
	case o.ProbeSetup != nil:
		return []registry.OpID{o.ProbeSetup.Op, o.ID}
	}
	return []registry.OpID{o.ID}
}

// entryOps are the operations the probe of a forbidden entry calls: its
// setup's and its own (probeOps), and the reads around a write it reads
// back (readBack).
func entryOps(fb fixtures.Forbidden) []registry.OpID {
	ops := probeOps(fb.Operation)
	if o, ok := registry.Lookup(fb.Operation); ok {
		if w, around := readBack(o.ID, fb.Record); around {
			ops = append(ops, w.Read.Op, w.Read.Op)
		}
	}
	return ops
}

// forbiddenCalls declares what forbiddenRefused sends: the operations of
// the fixture's forbidden entries and their probes' setups; one after
// another, the requests of its longest lane.
func forbiddenCalls(e *env, _ []string) declared {
	var d declared
	for _, lane := range forbiddenLanes(e.cfg.Fixture) {
		n := 0
		for _, i := range lane {
			ops := entryOps(e.cfg.Fixture.Forbidden[i])
			d.ops = append(d.ops, ops...)
			n += len(ops)
		}
		d.requests = max(d.requests, n)
	}
	d.alongside = len(d.ops) - d.requests
	return d
}

// probeSetup makes the record op's refusal probe names as {saved.probe},
// where its probe needs one (registry Operation.ProbeSetup), as the
// default caller. It returns why the probe cannot be made, "" when it can.
func (s *state) probeSetup(ctx context.Context, op registry.OpID) (string, error) {
	o := registry.Must(op)
	if o.ProbeSetup == nil {
		return "", nil
	}
	su := o.ProbeSetup
	s.user = ""
	c := callOf(su.Op, su.Call)
	if err := s.do(ctx, c); err != nil {
		if sk, isSkip := asSkip(err); isSkip {
			return fmt.Sprintf("%s: its probe needs a %s first: %s", op, su.Op, sk.reason), nil
		}
		return "", err
	}
	v := s.json().Get(su.Save)
	if s.status < 200 || s.status >= 300 || absent(v) {
		return fmt.Sprintf("%s: its probe needs a record made by %s, which answered %s", op, su.Op, s.gotStatus()), nil
	}
	s.saved["probe"] = v
	return "", nil
}

// probeChangesState reports whether probing op for a refusal sends a call
// that changes state: op's own, or the setup its probe needs first.
func probeChangesState(op registry.OpID) bool {
	o := registry.Must(op)
	return o.ChangesState || o.ProbeSetup != nil && changesState(o.ProbeSetup.Op)
}
