package steps

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/campusconf/campusconf/internal/registry"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"
)

// stepDef is one step pattern and its function. The table below is the
// only list of steps; each pattern means one thing.
type stepDef struct {
	re *regexp.Regexp
	fn any
}

const opRe = `([A-Z]+[0-9]*)`

var stepDefs = []stepDef{
	// who calls
	{re(`^I am "([^"]*)"$`), iAm},
	{re(`^the subscription key is left out$`), noKey},
	{re(`^the subscription key is one that was never issued$`), unissuedKey},

	// calls
	{re(`^I call ` + opRe + `(?: for "([^"]*)")?$`), callPlain},
	{re(`^I call ` + opRe + `(?: for "([^"]*)")? with:$`), callWithParams},
	{re(`^I call ` + opRe + `(?: for "([^"]*)")? with body:$`), callWithBody},
	{re(`^I call ` + opRe + `(?: for "([^"]*)")? with a body of type "([^"]*)":$`), callWithTypedBody},
	{re(`^I make a typical call to ` + opRe + `$`), typicalPlain},
	{re(`^I make a typical call to ` + opRe + ` with a body of type "([^"]*)"$`), typicalTyped},
	{re(`^I poll the push transaction "([^"]*)"$`), pollPush},
	{re(`^I save the field "([^"]*)" as "([^"]*)"$`), saveField},
	{re(`^I save the (earliest|latest) "([^"]*)" of the list as "([^"]*)"$`), saveExtreme},

	// statuses
	{re(`^the status is (\d{3})$`), statusIs},
	{re(`^the status is (\d{3}) or (\d{3})$`), statusIsEither},
	{re(`^the call is refused for want of a subscription key$`), refusedForKey},
	{re(`^the body is not refused for its media type$`), notRefusedForMediaType},
	{re(`^every user the fixture forbids an operation is refused it with 403$`), forbiddenRefused},

	// values
	{re(`^the field "([^"]*)" is (not )?((?:true|false|null|-?[0-9][0-9.eE+-]*|"[^"]*"|\{[^}]*\}))( where present)?$`), fieldIs},
	{re(`^the field "([^"]*)" is an? (array|object|string|boolean|number|integer|non-empty string|non-empty array)( where present)?$`), fieldHasType},
	{re(`^the body is (not )?((?:true|false|null|-?[0-9][0-9.eE+-]*|"[^"]*"|\{[^}]*\}))$`), bodyIs},
	{re(`^the body is an? (array|object|integer)$`), bodyHasType},

	// lists
	{re(`^the list has at most (\d+) entr(?:y|ies)$`), listAtMost},
	{re(`^the list is not empty$`), listNotEmpty},
	{re(`^the list is empty$`), listEmpty},
	{re(`^the list equals entries (\d+) to (\d+) of the list saved as "([^"]*)"$`), listEqualsSlice},
	{re(`^the list is shorter than the list saved as "([^"]*)"$`), listShorterThan},
	{re(`^every entry has "([^"]*)" equal to (.+?)( where present)?$`), everyEquals},
	{re(`^every entry has "([^"]*)" or "([^"]*)" containing "([^"]*)"$`), everyContains},
	{re(`^every entry has "([^"]*)" at or (after|before) "([^"]*)"$`), everyTime},
	{re(`^every entry has a non-empty "([^"]*)"$`), everyNonEmpty},
	{re(`^the entries are sorted by "([^"]*)" (ascending|descending)$`), sortedBy},
	{re(`^the fixture declares the sortby convention "([^"]*)"$`), requireSortConvention},
	{re(`^the field "([^"]*)" is false or absent$`), fieldFalseOrAbsent},

	// precision: open limits, right records, effects, headers
	{re(`^I page through ` + opRe + ` for "([^"]*)"$`), pageThroughPlain},
	{re(`^I page through ` + opRe + ` for "([^"]*)" with:$`), pageThroughWith},
	{re(`^the pages held at least one entry$`), pagesHeldEntries},
	{re(`^I make a typical call to ` + opRe + ` with a body and no Content-Type$`), typicalNoContentType},
	{re(`^a body in the answer is declared as JSON$`), answerDeclaredJSON},
	{re(`^the one-time password is not confirmed$`), otpNotConfirmed},
	{re(`^I update the evaluation session with a question whose "([^"]*)" is (\S+)$`), updateQuestionLimit},
	{re(`^the weightages returned are those set, where present$`), weightsEchoed},
	{re(`^the creator of the copy is filled in$`), creatorFilled},

	// gradebook
	{re(`^I set the weightages of every grade item of the module to total (\S+)$`), setWeightsTotal},
	{re(`^I raise the weightage of grade item (\d+) alone by (\S+)$`), raiseWeight},
	{re(`^the update is refused with 400, or the weightages it returns total at most 100$`), refusedOrWithin},
	{re(`^the earlier refusal changed nothing: the status is (\d{3})(?: or (\d{3}))?$`), unchangedStatus},
}

func re(p string) *regexp.Regexp { return regexp.MustCompile(p) }

func iAm(ctx context.Context, name string) error {
	s := stateFrom(ctx)
	name, err := s.interpolate(name)
	if err != nil {
		return err
	}
	if _, ok := s.env.cfg.Fixture.Users[name]; !ok {
		return missing("users." + name)
	}
	s.user = name
	return nil
}

func noKey(ctx context.Context) error {
	stateFrom(ctx).noKey = true
	return nil
}

func unissuedKey(ctx context.Context) error {
	s := stateFrom(ctx)
	s.fakeKey = "campusconf-unissued-" + s.absentID()[:8]
	return nil
}

func newCall(op, id string) call {
	c := call{op: op, params: map[string]string{}}
	if id != "" {
		c.params["id"] = id
		c.order = append(c.order, "id")
	}
	return c
}

func callPlain(ctx context.Context, op, id string) error {
	return stateFrom(ctx).do(ctx, newCall(op, id))
}

func callWithParams(ctx context.Context, op, id string, t *godog.Table) error {
	c := newCall(op, id)
	for _, row := range t.Rows {
		if len(row.Cells) != 2 {
			return fmt.Errorf("the parameter table wants two columns, name and value")
		}
		name, val := row.Cells[0].Value, row.Cells[1].Value
		c.params[name] = val
		c.order = append(c.order, name)
	}
	return stateFrom(ctx).do(ctx, c)
}

func callWithBody(ctx context.Context, op, id string, doc *godog.DocString) error {
	c := newCall(op, id)
	c.body, c.hasBody = doc.Content, true
	return stateFrom(ctx).do(ctx, c)
}

func callWithTypedBody(ctx context.Context, op, id, contentType string, doc *godog.DocString) error {
	c := newCall(op, id)
	c.body, c.hasBody, c.contentType = doc.Content, true, contentType
	return stateFrom(ctx).do(ctx, c)
}

func typicalPlain(ctx context.Context, op string) error {
	return typicalTyped(ctx, op, "")
}

func typicalTyped(ctx context.Context, op, contentType string) error {
	s := stateFrom(ctx)
	c, ok := typicalCall(op)
	if !ok {
		return fmt.Errorf("no typical call is defined for %s", op)
	}
	if contentType != "" {
		if !c.hasBody {
			return fmt.Errorf("%s takes no body", op)
		}
		c.contentType = contentType
	}
	if u, ok := typicalUser(op); ok && s.user == "" {
		if _, has := s.env.cfg.Fixture.Users[u]; !has {
			return missing("users." + u)
		}
		s.user = u
		defer func() { s.user = "" }()
	}
	return s.do(ctx, c)
}

// pollPush polls E2 while the push is neither approved (0000) nor denied
// (7002): the specification leaves other statuses open, and a real user
// takes a moment to answer.
func pollPush(ctx context.Context, tx string) error {
	s := stateFrom(ctx)
	body := `{"transactionId": "` + tx + `"}`
	for i := 0; i < s.env.cfg.PollAttempts; i++ {
		if err := s.do(ctx, call{op: string(registry.E2), body: body, hasBody: true}); err != nil {
			return err
		}
		st := s.json().Get("status")
		if s.status != 200 || absent(st) || st.String() == "0000" || st.String() == "7002" {
			return nil // decided, refused, or silent on it (status is optional)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.env.cfg.PollInterval):
		}
	}
	return nil
}

func saveField(ctx context.Context, path, name string) error {
	s := stateFrom(ctx)
	v := s.field(path)
	if absent(v) {
		return &skip{reason: fmt.Sprintf("the response leaves out %s, an optional field this check needs", describePath(path))}
	}
	s.saved[name] = gjson.Parse(v.Raw)
	if v.Type == gjson.String {
		s.saved[name] = v
	}
	return nil
}

func saveExtreme(ctx context.Context, which, path, name string) error {
	return stateFrom(ctx).saveExtreme(which, path, name)
}

func statusIs(ctx context.Context, code string) error {
	n, _ := strconv.Atoi(code)
	return stateFrom(ctx).statusIs(n)
}

func statusIsEither(ctx context.Context, a, b string) error {
	n, _ := strconv.Atoi(a)
	m, _ := strconv.Atoi(b)
	return stateFrom(ctx).statusIs(n, m)
}

func refusedForKey(ctx context.Context) error { return stateFrom(ctx).refusedForKey() }

func notRefusedForMediaType(ctx context.Context) error {
	return stateFrom(ctx).notRefusedForMediaType(ctx)
}

// forbiddenRefused makes the typical call of every operation the fixture
// lists under forbidden, as the user it names, and expects 403 from each.
// It checks every entry and reports every one that was not refused.
func forbiddenRefused(ctx context.Context) error {
	s := stateFrom(ctx)
	entries := s.env.cfg.Fixture.Forbidden
	if len(entries) == 0 {
		return missing("forbidden")
	}
	var wrong, badBody []string
	first, firstBad := -1, -1
	checked := 0
	var skipped error // the first entry that could not be checked
	for _, f := range entries {
		op := s.opByFixtureName(f.Operation)
		c, ok := forbiddenCall(op)
		if !ok {
			return fmt.Errorf("forbidden: unknown operation %q (want one of %s)", f.Operation, registry.Span(""))
		}
		s.user = f.User
		if err := s.do(ctx, c); err != nil {
			if _, isSkip := asSkip(err); isSkip {
				// an unplaced operation, a missing record, a profile not
				// claimed: nothing to check
				if skipped == nil {
					skipped = err
				}
				continue
			}
			return err
		}
		checked++
		switch {
		case s.status != 403:
			wrong = append(wrong, fmt.Sprintf("%s as %q: %s", op, f.User, s.gotStatus()))
			if first < 0 {
				first = len(s.exchanges) - 1
			}
		case !gjson.ValidBytes(s.body) || s.json().Type != gjson.String:
			// Refused as declared, in the wrong error form: that is the
			// error-body rule's to report, not the permission's.
			badBody = append(badBody, fmt.Sprintf("%s as %q: %s", op, f.User, s.gotStatus()))
			if firstBad < 0 {
				firstBad = len(s.exchanges) - 1
			}
		}
	}
	s.user = ""
	if checked == 0 {
		// nothing was observed: not a pass
		return skipped
	}
	if len(wrong) > 0 {
		f := s.fail(nil, "403 for every forbidden entry of the fixture", fmt.Sprintf("%d of %d not refused", len(wrong), len(entries)), strings.Join(wrong, "\n"))
		f.Exchange = first
		return f
	}
	if len(badBody) > 0 {
		s.exercise("ALL.error-body")
		f := s.fail([]string{"ALL.error-body"}, "a JSON string body with every 403", fmt.Sprintf("%d of %d refusals in another form", len(badBody), len(entries)), strings.Join(badBody, "\n"))
		f.Exchange = firstBad
		return f
	}
	return nil
}

// opByFixtureName accepts an operation id or the fixture key of an
// unplaced operation.
func (s *state) opByFixtureName(name string) string {
	return registry.ID(name)
}

func fieldIs(ctx context.Context, path, not, want, wherePresent string) error {
	s := stateFrom(ctx)
	if wherePresent != "" && absent(s.field(path)) {
		return nil // an optional field may be absent: nothing to compare
	}
	return s.fieldIs(path, want, not != "")
}

func fieldHasType(ctx context.Context, path, kind, wherePresent string) error {
	s := stateFrom(ctx)
	if wherePresent != "" && absent(s.field(path)) {
		return nil // an optional field may be absent: nothing to judge
	}
	return s.fieldHasType(path, kind)
}

func bodyIs(ctx context.Context, not, want string) error {
	return stateFrom(ctx).fieldIs("@this", want, not != "")
}

func bodyHasType(ctx context.Context, kind string) error {
	s := stateFrom(ctx)
	if err := s.fieldHasType("@this", kind); err != nil {
		if f, ok := err.(*Failure); ok {
			f.Requirements = []string{s.successReq(s.lastOp)}
		}
		return err
	}
	return nil
}

func listAtMost(ctx context.Context, n string) error {
	v, _ := strconv.Atoi(n)
	return stateFrom(ctx).listAtMost(v)
}

func listNotEmpty(ctx context.Context) error { return stateFrom(ctx).listNotEmpty() }

func listEmpty(ctx context.Context) error {
	s := stateFrom(ctx)
	items, err := s.list()
	if err != nil {
		return err
	}
	if len(items) != 0 {
		return s.fail(nil, "an empty list", fmt.Sprintf("%d entries", len(items)))
	}
	return nil
}

func listEqualsSlice(ctx context.Context, from, to, name string) error {
	a, _ := strconv.Atoi(from)
	b, _ := strconv.Atoi(to)
	return stateFrom(ctx).listEqualsSlice(a, b, name)
}

func listShorterThan(ctx context.Context, name string) error {
	return stateFrom(ctx).listShorterThan(name)
}

func everyEquals(ctx context.Context, path, want, wherePresent string) error {
	return stateFrom(ctx).everyEquals(path, want, wherePresent != "")
}

func everyContains(ctx context.Context, a, b, text string) error {
	return stateFrom(ctx).everyContains(a, b, text)
}

func everyTime(ctx context.Context, path, rel, bound string) error {
	return stateFrom(ctx).everyTime(path, rel, bound)
}

func everyNonEmpty(ctx context.Context, path string) error {
	return stateFrom(ctx).everyNonEmpty(path)
}

func sortedBy(ctx context.Context, path, dir string) error {
	return stateFrom(ctx).sortedBy(path, dir)
}

func requireSortConvention(ctx context.Context, want string) error {
	s := stateFrom(ctx)
	if got := s.env.cfg.Fixture.Conventions.Sortby; got != want {
		if got == "" {
			return missing("conventions.sortby")
		}
		return &skip{reason: fmt.Sprintf("the fixture declares sortby convention %q, this check needs %q", got, want)}
	}
	return nil
}

// initializeScenario registers the steps and hooks of one scenario.
func (e *env) initializeScenario(sc *godog.ScenarioContext) {
	for _, d := range stepDefs {
		sc.Step(d.re, d.fn)
	}
	sc.Before(e.before)
	sc.After(e.after)
	sc.StepContext().After(e.afterStep)
}

func fieldFalseOrAbsent(ctx context.Context, path string) error {
	return stateFrom(ctx).fieldFalseOrAbsent(path)
}
