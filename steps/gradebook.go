package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
)

// gradingSchema is a valid grading schema sent with every weightage update.
var gradingSchema = []map[string]any{
	{"letterGrade": "A", "maxMark": 100},
	{"letterGrade": "B", "maxMark": 79},
	{"letterGrade": "C", "maxMark": 64},
	{"letterGrade": "F", "maxMark": 49},
}

// setWeightsTotal gives every grade item of the fixture's module a weight,
// the first taking what makes the total exactly the given value: with n
// items, each other item gets floor(100/n) and the first the rest, so 100
// sums exactly in binary floating point. With upper, the keys are the
// grade items' uuids in upper case: the same grade items (ALL.uuid-case),
// whose refusal breaks that rule rather than the total's.
func setWeightsTotal(ctx context.Context, total, upper string) error {
	s := stateFrom(ctx)
	want, items, err := s.gradeItemsAnd("total", total)
	if err != nil {
		return err
	}
	each := math.Floor(rules.MaxWeightageTotal / float64(len(items)))
	s.weights, s.weightsUpper = map[string]float64{}, upper != ""
	var entries []map[string]any
	for i, id := range items {
		w := each
		if i == 0 {
			w = math.Round((want-each*float64(len(items)-1))*100) / 100
		}
		s.weights[id] = w
		key := id
		if upper != "" {
			key = strings.ToUpper(id)
		}
		entries = append(entries, map[string]any{"key": key, "value": w})
	}
	if err := s.sendWeights(ctx, entries, gradingSchema); err != nil {
		return err
	}
	if want <= rules.MaxWeightageTotal && upper == "" && s.known(rules.ReqWeightageAtLimit) {
		// A module total within the limit refused breaks the rule that
		// such a total is accepted, whichever scenario sets it up.
		s.refusal = refusal{exchange: len(s.exchanges) - 1, reqs: []string{rules.ReqWeightageAtLimit}}
	}
	return nil
}

// raiseWeight sends an update naming one grade item only (1-based), at its
// last accepted weight plus delta; with badSchema, beside a grading schema
// entry without maxMark, which the update must be refused for
// (GB.400.schema).
func raiseWeight(ctx context.Context, n, delta, badSchema string) error {
	s := stateFrom(ctx)
	i, _ := strconv.Atoi(n)
	d, items, err := s.gradeItemsAnd("delta", delta)
	if err != nil {
		return err
	}
	if i < 1 || i > len(items) {
		return fixtureShort("the fixture's module has %d grade items, this check needs item %d", len(items), i)
	}
	if s.weights == nil {
		return fmt.Errorf("set the weightages of every grade item before raising one")
	}
	id := items[i-1]
	schema := gradingSchema
	if badSchema != "" {
		schema = []map[string]any{{"letterGrade": "A"}}
	}
	s.raised = &weightage{id: id, value: s.weights[id] + d}
	return s.sendWeights(ctx, []map[string]any{{"key": id, "value": s.raised.value}}, schema)
}

// weightage is one grade item's weightage as an update sent it.
type weightage struct {
	id    string
	value float64
}

// refusedOrStands judges the answer to an update that should be refused
// for a part of its body other than the total (GB.400.schema's scenario
// judges that refusal): refused with a client error, it is the refusal
// whose effects the steps after it judge; accepted, its weightage stands
// and is what they expect.
func refusedOrStands(ctx context.Context) error {
	s := stateFrom(ctx)
	switch {
	case s.raised == nil:
		return fmt.Errorf("raise the weightage of a grade item before judging the update")
	case rules.ClientError(s.status):
		return s.errorBodyIsString()
	case s.status >= 200 && s.status < 300:
		s.weights[s.raised.id] = s.raised.value
		return nil
	}
	return s.fail(nil, "a refusal (4xx), or a success", s.gotStatus())
}

// weightKept checks that the settings answered give grade item n
// (1-based) the weightage last accepted for it: an update refused since
// stored nothing. 0 passes too, as the weight of an item an update taking
// iD_Weightage as the whole weighting did not name. Settings that leave
// out iD_Weightage, or the item, show nothing of it: unobservable, as the
// scenario's other refusal is then no proof that this one changed nothing.
func weightKept(ctx context.Context, n string) error {
	s := stateFrom(ctx)
	i, _ := strconv.Atoi(n)
	items, err := s.gradeItems()
	if err != nil {
		return err
	}
	if i < 1 || i > len(items) || s.weights == nil {
		return fmt.Errorf("grade item %s: set the weightages of every grade item first, and name one of the module's %d", n, len(items))
	}
	id, want := items[i-1], s.weights[items[i-1]]
	got := s.json().Get("iD_Weightage")
	if absent(got) {
		return unobservable("the settings answered leave out \"iD_Weightage\", an optional field this check needs, and nothing else shows the weightages")
	}
	for _, e := range got.Array() {
		if !strings.EqualFold(e.Get("key").String(), id) {
			continue
		}
		if v := e.Get("value"); v.Type == gjson.Number && (math.Abs(v.Float()-want) <= 1e-6 || v.Float() == 0) {
			return nil
		}
		return s.fail(s.refusalRules(), fmt.Sprintf("grade item %s at %g, its weightage before the refused update (or 0, where the update is the whole weighting)", id, want), e.Get("value").Raw)
	}
	return unobservable("the settings answered do not name grade item %s: whether the refused update stored its weightage is not shown", id)
}

// gradeItemsAnd reads a step's number (what names it) and returns it
// with the grade items of the fixture's module.
func (s *state) gradeItemsAnd(what, number string) (float64, []string, error) {
	v, err := strconv.ParseFloat(number, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %q is not a number", what, number)
	}
	items, err := s.gradeItems()
	return v, items, err
}

func (s *state) gradeItems() ([]string, error) {
	gm := s.env.cfg.Fixture.Records.GradebookModule
	if gm == nil || gm.ID == "" {
		return nil, missing("records.gradebookModule")
	}
	if len(gm.GradeItems) < 2 {
		return nil, missing("records.gradebookModule.gradeItems (at least 2)")
	}
	return gm.GradeItems, nil
}

func (s *state) sendWeights(ctx context.Context, entries, schema []map[string]any) error {
	body, err := json.Marshal(map[string]any{"iD_Weightage": entries, "gradingSchema": schema})
	if err != nil {
		return err
	}
	c := newCall(registry.GB, s.env.cfg.Fixture.Records.GradebookModule.ID)
	c.body, c.hasBody, c.rawBody = string(body), true, true
	return s.do(ctx, c)
}

// unchangedStatus checks a status that shows an earlier refusal changed
// nothing; a wrong status breaks the scenario's own requirement.
func unchangedStatus(ctx context.Context, code, alt string) error {
	s := stateFrom(ctx)
	want := []int{atoi(code)}
	if alt != "" {
		want = append(want, atoi(alt))
	}
	for _, n := range want {
		if s.status == n {
			return nil
		}
	}
	if s.mediaTypeRefused() {
		return s.fail([]string{"ALL.media-type"}, "status "+joinInts(want), s.gotStatus())
	}
	return s.fail(s.refusalRules(), fmt.Sprintf("status %s, as the earlier refusal should have changed nothing", joinInts(want)), s.gotStatus())
}

// refusalRules are the scenario's requirements saying that a refusal
// changes nothing (their ids end in "unchanged"): where a scenario judges
// a refusal beside another rule (E5.refused-unchanged before E5.gone),
// the steps judging the refusal and what it left name them alone, and a
// status checked afterwards names the others (besideRefusal). nil where
// there are none to tell apart: the failure then names the scenario's own.
func (s *state) refusalRules() []string {
	out, _ := s.splitRefusal()
	return out
}

// besideRefusal are the scenario's requirements but its refusalRules,
// where it has both kinds; nil otherwise.
func (s *state) besideRefusal() []string {
	refusal, other := s.splitRefusal()
	if len(refusal) == 0 {
		return nil
	}
	return other
}

func (s *state) splitRefusal() (refusal, other []string) {
	for _, id := range s.reqs {
		if strings.HasSuffix(id, "unchanged") {
			refusal = append(refusal, id)
		} else {
			other = append(other, id)
		}
	}
	return refusal, other
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// refusedOrWithinWant is what refusedOrWithin accepts.
var refusedOrWithinWant = fmt.Sprintf("400, or 200 with settings whose weightages total at most %d", rules.MaxWeightageTotal)

// refusedOrWithin accepts the two faithful readings of an update naming
// some grade items only: merged into the module's weights (then the module
// would exceed 100 and the update must be refused) or taken as the module's
// whole weighting (then the settings returned must total at most 100).
func refusedOrWithin(ctx context.Context) error {
	s := stateFrom(ctx)
	switch {
	case s.status == 400:
		return s.errorBodyIsString()
	case s.status == 200:
		weights := s.json().Get("iD_Weightage")
		if absent(weights) {
			return unobservable("the update was accepted and its answer leaves out \"iD_Weightage\", an optional field this check needs: nothing shows whether the module now totals over %d", rules.MaxWeightageTotal)
		}
		total := 0.0
		for _, w := range weights.Get("#.value").Array() {
			total += w.Float()
		}
		if rules.WeightageOver(total, rules.RoundingTolerance) {
			return s.fail(nil, refusedOrWithinWant, fmt.Sprintf("200 with weightages totalling %g: the module's other grade items kept their weights", total))
		}
		return nil
	}
	return s.fail(nil, refusedOrWithinWant, s.gotStatus())
}
