package steps

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"
)

// stepDef is one step pattern and its function. The table below is the
// only list of steps; each pattern means one thing.
type stepDef struct {
	re *regexp.Regexp
	fn any
	// calls declares what the step may send, from its match (m[1] is the
	// first group): the operations it may call and the requests it makes
	// one after another (see declared). nil for a step that sends
	// nothing; a step that sends its scenario's last request again
	// declares nothing new (see send).
	calls func(e *env, m []string) declared
}

// declared is what one step may send: the operations it may call, from
// which the schedule derives the record groups it reads or changes
// (schedule.go), and how many requests it makes one after another, from
// which it estimates the step's time (0: one per operation listed).
type declared struct {
	ops      []registry.OpID
	requests int
	// alongside counts the requests the step makes at the same time as
	// those it counts in requests (the refusal check's probes of other
	// record groups): a report's count of the scenario's requests, less
	// these, is its chain.
	alongside int
}

// cost is the number of requests the step makes one after another.
func (d declared) cost() int {
	if d.requests > 0 {
		return d.requests
	}
	return len(d.ops)
}

// op1 is the calls of a step naming its operation in its first group.
func op1(_ *env, m []string) declared { return declared{ops: opsNamed(m[1])} }

// walk is the calls of a step walking the pages of the list its first
// group names: at least two requests, the first page and the empty one
// past the end, and one more for a list longer than a page.
func walk(_ *env, m []string) declared { return declared{ops: opsNamed(m[1]), requests: 3} }

// filtered is the calls of a filter's check: the filtered answer, and of
// a paged list the list and the filtered answer at limit 1.
func filtered(_ *env, m []string) declared { return declared{ops: opsNamed(m[1]), requests: 3} }

// fixed is the calls of a step that always calls ops, one after another.
func fixed(ops ...registry.OpID) func(*env, []string) declared {
	return func(*env, []string) declared { return declared{ops: ops} }
}

const opRe = `([A-Z]+[0-9]*)`

// opNamed is the operation a step's text names (an opRe group). godog
// hands a step its groups as plain strings: it converts an argument by
// its kind, and a string is not assignable to a named string type. So a
// step naming an operation takes a string and converts it here, once;
// below the step, the operation is a registry.OpID. A name that is no
// operation's is an error naming it.
func opNamed(name string) (registry.OpID, error) {
	o, ok := registry.Lookup(name)
	if !ok {
		return "", fmt.Errorf("the step names operation %q, which is not one (known: %s)", name, registry.Span(""))
	}
	return o.ID, nil
}

// opsNamed are the operations a step's text names, for what it declares
// (stepDef.calls): those that are operations; the step refuses any other
// (opNamed) and sends nothing.
func opsNamed(names ...string) []registry.OpID {
	var out []registry.OpID
	for _, name := range names {
		if op, err := opNamed(name); err == nil {
			out = append(out, op)
		}
	}
	return out
}

var stepDefs = []stepDef{
	// who calls
	{re(`^I am "([^"]*)"$`), iAm, nil},
	{re(`^the (subscription key|user's identity) is (left out|one that was never issued)$`), credentialIs, nil},

	// calls
	{re(`^I call ` + opRe + `(?: for "([^"]*)")?$`), callPlain, op1},
	{re(`^I call ` + opRe + `(?: for "([^"]*)")? with:$`), callWithParams, op1},
	{re(`^I call ` + opRe + `(?: for "([^"]*)")? with body:$`), callWithBody, op1},
	{re(`^where that was refused, I call ` + opRe + ` with body:$`), callAfterRefusal, op1},
	{re(`^I call ` + opRe + `(?: for "([^"]*)")? with a body of type "([^"]*)":$`), callWithTypedBody, op1},
	{re(`^I make a typical call to ` + opRe + `$`), typicalPlain, op1},
	{re(`^I make a typical call to ` + opRe + ` with a body of type "([^"]*)"$`), typicalTyped, op1},
	{re(`^I make a typical call to ` + opRe + ` naming a record that does not exist$`), typicalUnknown, op1},
	{re(`^I poll the push transaction "([^"]*)"$`), pollPush, fixed(registry.E2)},
	{re(`^I save the field "([^"]*)" as "([^"]*)"$`), saveField, nil},
	{re(`^I save the moment between the earliest and the latest "([^"]*)" of the list as "([^"]*)"$`), saveBetween, nil},

	// statuses
	{re(`^the status is (\d{3})$`), statusIs, nil},
	{re(`^the status is (\d{3}) or (\d{3})$`), statusIsEither, nil},
	{re(`^the call is refused for want of a subscription key$`), refusedForKey, nil},
	{re(`^the body is not refused for its media type$`), notRefusedForMediaType, nil},
	{re(`^the call is refused with a client error(?:, or the body is (-?\d+))?$`), refusedOrBody, nil},
	{re(`^every user the fixture forbids an operation is refused it with 403$`), forbiddenRefused, forbiddenCalls},

	// values
	{re(`^the field "([^"]*)" is (not )?((?:true|false|null|-?[0-9][0-9.eE+-]*|"[^"]*"|\{[^}]*\}))( where present)?$`), fieldIs, nil},
	{re(`^the field "([^"]*)" is an? (array|object|string|boolean|number|integer|non-empty string|non-empty array)( where present)?$`), fieldHasType, nil},
	{re(`^the body is (not )?((?:true|false|null|-?[0-9][0-9.eE+-]*|"[^"]*"|\{[^}]*\}))$`), bodyIs, nil},
	{re(`^the body is an? (array|object|integer)$`), bodyHasType, nil},

	// lists
	{re(`^the list has at most (\d+) entr(?:y|ies)$`), listAtMost, nil},
	{re(`^the list is not empty$`), listNotEmpty, nil},
	{re(`^the list is empty$`), listEmpty, nil},
	{re(`^the list equals entries (\d+) to (\d+) of the list saved as "([^"]*)"$`), listEqualsSlice, nil},
	{re(`^the list is shorter than the list saved as "([^"]*)"$`), listShorterThan, nil},
	{re(`^every entry has "([^"]*)" equal to (.+?)( where present)?$`), everyEquals, nil},
	{re(`^every entry has "([^"]*)" or "([^"]*)" containing "([^"]*)"$`), everyContains, nil},
	{re(`^every entry has "([^"]*)" at or (after|before) "([^"]*)"$`), everyTime, nil},
	{re(`^every entry has a non-empty "([^"]*)"$`), everyNonEmpty, nil},
	{re(`^no two entries have the same "([^"]*)"$`), noTwoSame, nil},
	{re(`^no entry of "([^"]*)" has "([^"]*)" equal to the field "([^"]*)"$`), noEntryNames, nil},
	{re(`^the entries are sorted by "([^"]*)" (ascending|descending)$`), sortedBy, nil},

	// precision: open limits, right records, effects, headers
	{re(`^I page through ` + opRe + ` for "([^"]*)"$`), pageThroughPlain, walk},
	{re(`^I page through ` + opRe + ` for "([^"]*)" with:$`), pageThroughWith, walk},
	{re(`^the pages held at least one entry$`), pagesHeldEntries, nil},
	{re(`^I make a typical call to ` + opRe + ` with a body and no Content-Type$`), typicalNoContentType, op1},
	{re(`^a body in the answer is declared as JSON$`), answerDeclaredJSON, nil},
	{re(`^the one-time password is not confirmed$`), otpNotConfirmed, nil},
	{re(`^I update the evaluation session with a question whose "([^"]*)" is (\S+)$`), updateQuestionLimit, fixed(registry.ES)},
	{re(`^the weightages returned are those set$`), weightsEchoed, nil},
	{re(`^the creator of (the copy|every entry) is filled in$`), creatorFilled, nil},

	// relations between list answers, references to the right record
	// (relations.go)
	{re(`^I read the whole list of ` + opRe + `$`), readWhole, walk},
	{re(`^the answer of ` + opRe + ` filtered by (\S+) holds exactly the entries of the whole list that match it$`), filteredExactly, filtered},
	{re(`^the answer of ` + opRe + ` filtered by all its filters together holds exactly the entries that match them all$`), filteredTogether, filtered},
	{re(`^the whole list of ` + opRe + ` sorted by its first sort key holds the same entries$`), sortedSame, walk},
	{re(`^the answer of ` + opRe + ` with limit 1 is an array of one entry$`), limitOne, op1},
	{re(`^the pages of ` + opRe + ` at a fixed limit hold each entry of the whole list once$`), pagesOnce,
		func(_ *env, m []string) declared { return declared{ops: opsNamed(m[1]), requests: pagesRequests} }},
	{re(`^the answer of ` + opRe + ` with populate (\S+) changes no entry and no member but the one it fills$`), populateOnly,
		func(_ *env, m []string) declared { return declared{ops: opsNamed(m[1], m[1])} }},
	{re(`^the answer of ` + opRe + ` with populate (\S+) fills it$`), populateFilled, op1},
	{re(`^the answer names the records the request names$`), answerNamesRecords, nil},
	{re(`^a 200 answer is the array of the ids sent in "([^"]*)" that name a record$`), deletedIDsNamed, nil},
	{re(`^no record is made up for the id that names none$`), noRecordMadeUp, nil},
	{re(`^the same record as ` + opRe + ` lists it for the answer's "([^"]*)" agrees in every member both carry$`), entryAgrees,
		func(_ *env, m []string) declared { return declared{ops: opsNamed(m[1]), requests: pagesRequests} }},

	// notifications
	{re(`^I make the notification (read|unread)$`), makeNotification, fixed(registry.NR, registry.NG)},
	{re(`^I read the notification back$`), readNotificationBack, fixed(registry.NG)},

	// gradebook
	{re(`^I set the weightages of every grade item of the module to total (\S+)(, naming the grade items by their uuids in upper case)?$`), setWeightsTotal, fixed(registry.GB)},
	{re(`^I raise the weightage of grade item (\d+) alone by (\S+)(, in an update whose grading schema has an entry without maxMark)?$`), raiseWeight, fixed(registry.GB)},
	{re(`^grade item (\d+) keeps its earlier weightage$`), weightKept, nil},
	{re(`^the update is refused, or else its weightage stands$`), refusedOrStands, nil},
	{re(`^the update is refused with 400, or the weightages it returns total at most 100$`), refusedOrWithin, nil},
	{re(`^the earlier refusal changed nothing: the status is (\d{3})(?: or (\d{3}))?$`), unchangedStatus, nil},

	// what a write did (writes.go)
	{re(`^I write the edge values of ` + opRe + `$`), writeEdges, edgeCalls},
	{re(`^every member written comes back as sent$`), membersCameBack, nil},
	{re(`^I try to change the record of ` + opRe + ` (without a subscription key|with a subscription key never issued)$`), changeWithoutKey, readChangeRead},
	{re(`^the write was refused for want of a subscription key, and the record reads as it was$`), refusedAndUnchanged, nil},
	{re(`^I change the record of ` + opRe + `, reading another of its kind before and after$`), changeBesideNeighbour, neighbourChangeNeighbour},
	{re(`^the other record reads as it was$`), neighbourAsItWas, nil},

	// spellings and identities (spellings.go)
	{re(`^the typical call to ` + opRe + ` answers the same with the uuids of its path in upper case$`), upperPathSame, op1},
	{re(`^I call ` + opRe + ` with body, its uuids in upper case:$`), callUpperBody, op1},
	{re(`^I call ` + opRe + ` for "([^"]*)" with "([^"]*)" at "([^"]*)" written (with a numeric offset|with fractional seconds|in lower case)$`), callRespelled, op1},
	{re(`^the list holds the same entries as the list saved as "([^"]*)"$`), sameEntries, nil},
	{re(`^I keep the answer as "([^"]*)"$`), keepAnswer, nil},
	{re(`^the notification saved as "([^"]*)" agrees with this one in every member both carry that a read update does not set$`), savedAgrees, nil},
	{re(`^the body is the record saved as "([^"]*)"$`), sameBody, nil},
	{re(`^a refusal, if any, is in the stated error form$`), refusedInForm, nil},
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

// credentialIs leaves out the scenario's subscription key or the user's
// identity headers, or sends in their place values never issued.
func credentialIs(ctx context.Context, which, how string) error {
	s := stateFrom(ctx)
	switch {
	case which == "subscription key" && how == "left out":
		s.noKey = true
	case which == "subscription key":
		s.fakeKey = "campusconf-unissued-" + s.absentID()[:8]
	case how == "left out":
		s.identity = identityLeftOut
	default:
		s.identity = identityUnissued
	}
	return nil
}

func newCall(op registry.OpID, id string) call {
	c := call{op: op, params: map[string]string{}}
	if id != "" {
		c.params["id"] = id
		c.order = append(c.order, "id")
	}
	return c
}

func callPlain(ctx context.Context, name, id string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	return stateFrom(ctx).do(ctx, newCall(op, id))
}

func callWithParams(ctx context.Context, name, id string, t *godog.Table) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
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

func callWithBody(ctx context.Context, name, id string, doc *godog.DocString) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	c := newCall(op, id)
	c.body, c.hasBody = doc.Content, true
	return stateFrom(ctx).do(ctx, c)
}

// callAfterRefusal makes its call only where the last one was refused
// (4xx): a delete naming a record beside one that does not exist, refused
// whole (as not found, or as a bad request: a reading the specification
// leaves open), is sent again naming the record alone. A 404 to that
// leaves the scenario unobservable: whether the refusal deleted the
// record is not shown.
func callAfterRefusal(ctx context.Context, name string, doc *godog.DocString) error {
	s := stateFrom(ctx)
	first := s.status
	if !rules.ClientError(first) {
		return nil
	}
	if err := s.errorBodyIsString(); err != nil {
		return err
	}
	if err := callWithBody(ctx, name, "", doc); err != nil {
		return err
	}
	if s.status == 404 {
		return unobservable("the call naming a record beside one that does not exist was refused (%d), and the record alone then answered 404: whether the refusal deleted it is not shown", first)
	}
	return nil
}

func callWithTypedBody(ctx context.Context, name, id, contentType string, doc *godog.DocString) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	c := newCall(op, id)
	c.body, c.hasBody, c.contentType = doc.Content, true, contentType
	return stateFrom(ctx).do(ctx, c)
}

func typicalPlain(ctx context.Context, name string) error {
	return typicalTyped(ctx, name, "")
}

func typicalTyped(ctx context.Context, name, contentType string) error {
	op, err := opNamed(name)
	if err != nil {
		return err
	}
	s := stateFrom(ctx)
	c := typicalCall(op)
	if contentType != "" {
		if !c.hasBody {
			return fmt.Errorf("%s takes no body", op)
		}
		c.contentType = contentType
	}
	restore, err := s.asTypicalUser(op)
	if err != nil {
		return err
	}
	defer restore()
	return s.do(ctx, c)
}

// asTypicalUser makes the caller the user op's typical calls need, where
// the default caller would be refused and the scenario names none;
// restore puts the scenario's caller back.
func (s *state) asTypicalUser(op registry.OpID) (restore func(), err error) {
	u, ok := typicalUser(op)
	if !ok || s.user != "" {
		return func() {}, nil
	}
	if _, has := s.env.cfg.Fixture.Users[u]; !has {
		return nil, missing("users." + u)
	}
	s.user = u
	return func() { s.user = "" }, nil
}

// DefaultPollWindow is how long a push whose outcome is pending is polled
// unless `run --poll-window` says otherwise: long enough for a person to
// take the phone out, read the prompt and approve (docs/decisions.md,
// "Outcomes that arrive later").
const DefaultPollWindow = 2 * time.Minute

// maxPollInterval caps the backoff between two polls.
const maxPollInterval = 5 * time.Second

// pollPush polls E2 while the push is neither approved (0000) nor denied
// (7002): the specification leaves other statuses open, and a real user
// takes a moment to answer. The polls back off (from Config.PollInterval,
// half as long again each time, at most maxPollInterval) for the poll
// window (Config.PollWindow); a push still pending when it runs out makes
// the scenario unobservable, never a failure.
func pollPush(ctx context.Context, tx string) error {
	s := stateFrom(ctx)
	body := `{"transactionId": "` + tx + `"}`
	start := time.Now()
	wait := s.env.cfg.PollInterval
	for polls := 1; ; polls++ {
		if err := s.do(ctx, call{op: registry.E2, body: body, hasBody: true}); err != nil {
			return err
		}
		st := s.json().Get("status")
		if s.status != 200 || absent(st) || rules.PushDecided(st) {
			return nil // decided, refused, or silent on it (status is optional)
		}
		left := s.env.cfg.PollWindow - time.Since(start)
		if left <= 0 {
			return unobservable("the push stayed undecided (status %s) through %d polls in the poll window of %s (--poll-window): its outcome could not be observed", s.clip(st.Raw), polls, s.env.cfg.PollWindow)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(wait, left)):
		}
		wait = min(wait+wait/2, maxPollInterval)
	}
}

func saveField(ctx context.Context, path, name string) error {
	s := stateFrom(ctx)
	v := s.field(path)
	if absent(v) {
		return unobservable("the response leaves out %s, an optional field this check needs", describePath(path))
	}
	s.saved[name] = gjson.Parse(v.Raw)
	if v.Type == gjson.String {
		s.saved[name] = v
	}
	if l := s.lastSent; path == "@this" && l.op != "" && isRead(l.op, l.method) {
		if s.savedSent == nil {
			s.savedSent = map[string]sent{}
		}
		s.savedSent[name] = l
	}
	return nil
}

func saveBetween(ctx context.Context, path, name string) error {
	return stateFrom(ctx).saveBetween(path, name)
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

// refusedOrBody accepts a refusal (any 4xx, with a JSON string body) or,
// where the step names one, a 2xx whose body is that number: the answer of
// a call that ignored what it was not meant to read.
func refusedOrBody(ctx context.Context, body string) error {
	s := stateFrom(ctx)
	if rules.ClientError(s.status) {
		return s.errorBodyIsString()
	}
	want := "a refusal (4xx)"
	if body != "" {
		want += ", or 2xx with the body " + body
		if s.status >= 200 && s.status < 300 && sameJSON(s.json(), gjson.Parse(body)) {
			return nil
		}
	}
	return s.fail(s.refusalRules(), want, s.gotStatus())
}

func noTwoSame(ctx context.Context, path string) error {
	return stateFrom(ctx).noTwoSame(path)
}

func notRefusedForMediaType(ctx context.Context) error {
	return stateFrom(ctx).notRefusedForMediaType(ctx)
}

// fieldIs compares a field of the answer. "where present" marks a check
// beside the scenario's main observation: an absent field is not judged.
// Without it the check is the observation, and an optional field left out
// makes it unobservable (skipped, never passed).
func fieldIs(ctx context.Context, path, not, want, wherePresent string) error {
	return whereObservable(ctx, path, wherePresent, func(s *state) error { return s.fieldIs(path, want, not != "") })
}

// fieldHasType checks the JSON type of a field, as fieldIs compares one.
func fieldHasType(ctx context.Context, path, kind, wherePresent string) error {
	return whereObservable(ctx, path, wherePresent, func(s *state) error { return s.fieldHasType(path, kind) })
}

// whereObservable runs check on the answer unless the field at path is
// absent: with "where present" an absent field is not judged, without it
// an optional field left out makes the check unobservable.
func whereObservable(ctx context.Context, path, wherePresent string, check func(*state) error) error {
	s := stateFrom(ctx)
	if absent(s.field(path)) {
		if wherePresent != "" {
			return nil
		}
		if err := s.optionalAbsent(path); err != nil {
			return err
		}
	}
	return check(s)
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

// initializeScenario registers the steps and hooks of one scenario.
func (e *env) initializeScenario(sc *godog.ScenarioContext) {
	for _, d := range stepDefs {
		sc.Step(d.re, d.fn)
	}
	sc.Before(e.before)
	sc.After(e.after)
	sc.StepContext().Before(e.beforeStep)
	sc.StepContext().After(e.afterStep)
}
