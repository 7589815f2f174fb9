package steps

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/tidwall/gjson"
)

// state is one scenario's state. It travels in the context under stateKey;
// nothing of it is shared between scenarios.
type state struct {
	env *env
	// id is the scenario's id in reports (reports.Scenario.ID).
	id   string
	name string
	// reqs are the scenario's own requirement ids (from its tags).
	reqs []string
	// op is the scenario's operation: its operation tag, else the first
	// operation it calls.
	op registry.OpID

	user string // fixture user name of the caller
	// unshaped leaves the shape of the answers unjudged: reads made only
	// to compare a record before and after a refused call, in a scenario
	// whose requirement is the refusal (the record's shape is its own
	// scenarios' to judge).
	unshaped bool
	noKey    bool   // leave out the subscription key
	fakeKey  string // send this key, never issued, instead of the fixture's
	// identity says how the user's headers are sent (spellings.go)
	identity identity
	saved    map[string]gjson.Result
	// savedSent is the read that made each answer saved whole ("@this"),
	// so a check may send it again
	savedSent map[string]sent
	// firstPage is the length of the first page of the last walk
	// (pageThrough): the page size the implementation chose, if the list
	// is longer.
	firstPage int
	started   time.Time

	// last response
	status int
	// answers are the answers of the scenario, for the setup symptoms
	answers []heard
	header  http.Header
	body    []byte
	lastOp  registry.OpID
	lastReq *http.Request
	// lastSent is the last request as sent, so a check may send it again.
	lastSent sent

	// red is the scenario's own redactor once it made a one-time password
	// (see redactor); nil until then.
	red *redact.Redactor

	exchanges []reports.Exchange
	// retries counts the reads sent again after a transport error.
	retries int
	// dropped counts exchanges past reports.MaxExchanges not kept.
	dropped int
	skipped *skip
	// writes is what a check of a write's effect saw (writes.go)
	writes *writeObs
	// lastWrite is the operation whose write it judges
	lastWrite registry.OpID
	// weights are the last weightages set per grade item
	weights map[string]float64
	// weightsUpper says the last weightage update named the grade items
	// by their uuids in upper case.
	weightsUpper bool
	// raised is the grade item and weightage the last update naming one
	// item sent (raiseWeight), until its answer is judged.
	raised *weightage
	// exercised are requirements checked beyond the scenario's tags
	// (record shapes, the error body form).
	exercised map[string]bool
	// refusal names the requirements a refusal of one exchange breaks, as
	// the step that sent it declared.
	refusal refusal
	// turn is the scenario's place in the schedule (schedule.go); step
	// the operations the step being run declares (stepDef.calls), the
	// only ones it may call.
	turn *turn
	step []registry.OpID
}

// identity is how a call sends the fixture user's headers.
type identity int

const (
	identityAsGiven  identity = iota
	identityLeftOut           // none of the user's headers
	identityUnissued          // each header with a value never issued
)

// sent is a request as send received it.
type sent struct {
	op          registry.OpID
	method, url string
	body        []byte
	hasBody     bool
}

// is reports whether l is the request op, method, u and body.
func (l sent) is(op registry.OpID, method, u string, body []byte) bool {
	return l.op == op && l.method == method && l.url == u && bytes.Equal(l.body, body)
}

// refusal is what a refusal of the exchange at index exchange breaks.
type refusal struct {
	exchange int
	reqs     []string
}

type stateKey struct{}

func stateFrom(ctx context.Context) *state {
	return ctx.Value(stateKey{}).(*state)
}

// ScenarioOf names the scenario a request of a run was made for, as its
// report names it (reports.Scenario.ID), from the request's context: ""
// for a request made outside a scenario (the checks before the suite, the
// generated requests). A transport that attributes traffic to scenarios
// reads it, as the proxy's agreement test does.
func ScenarioOf(ctx context.Context) string {
	if s, ok := ctx.Value(stateKey{}).(*state); ok {
		return s.id
	}
	return ""
}

// json returns the last response body as a gjson result.
func (s *state) json() gjson.Result { return gjson.ParseBytes(s.body) }
