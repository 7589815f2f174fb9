// Package steps holds the conformance suite's step definitions and runs the
// suite against one implementation. Steps talk to the target only through a
// base URL and an *http.Client; each scenario's state travels in its
// context, so scenarios may run concurrently.
package steps

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
)

var errSkip = godog.ErrSkip

// ErrNoScenarios is returned when the tag expression and options leave no
// scenario to run: a run of nothing must never look like a success.
var ErrNoScenarios = errors.New("no scenario matches the tag expression and options")

// Run runs the suite and returns its report, finalized. An error means the
// run could not happen (bad options, no scenario selected), not that the
// implementation failed.
func Run(ctx context.Context, cfg Config) (*reports.Report, error) {
	cfg.defaults()
	f, err := normalized(cfg.Fixture)
	if err != nil {
		return nil, err
	}
	cfg.Fixture = f
	cat, err := features.Load()
	if err != nil {
		return nil, err
	}
	tags, err := godogTags(cfg.Tags)
	if err != nil {
		return nil, err
	}
	if err := knownTags(cat, tags); err != nil {
		return nil, err
	}
	v, err := openapi.NewValidator()
	if err != nil {
		return nil, fmt.Errorf("openapi document: %w", err)
	}
	client := *cfg.Client
	client.Timeout = 0 // each exchange has its own deadline
	client.Transport = boundedTransport(client.Transport, cfg.MaxResponseHeader)
	if cfg.ReadOnly {
		client.Transport = newReadOnlyGuard(client.Transport, cfg.BaseURL, cfg.Fixture)
	}
	client.CheckRedirect = wire.NoRedirects(client.CheckRedirect)
	e := &env{
		cfg:       cfg,
		cat:       cat,
		fixture:   gjson.ParseBytes(cfg.Fixture.JSON()),
		validator: v,
		secrets:   redact.Secrets(cfg.Fixture),
		client:    &client,
	}
	maps.Copy(e.secrets, cfg.Secrets)
	e.redactor = redact.With(e.secrets)
	e.bodies.New = func() any { b := make([]byte, 64<<10); return &b }
	started := time.Now()
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Budget)
		defer cancel()
	}
	// the run's own context also ends when the target stops answering;
	// ctx still says whether the budget ran out or a signal came
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	e.watch = newWatchdog(started, stop)
	e.pace = pace.New(pace.Config{Rate: cfg.Rate, MaxInFlight: 2 * cfg.Concurrency})
	if err := e.preflight(runCtx); err != nil {
		return nil, err
	}
	if cfg.Ready != nil {
		cfg.Ready()
	}
	suite := godog.TestSuite{
		Name:                "campusconf",
		ScenarioInitializer: e.initializeScenario,
		Options: &godog.Options{
			Format:         "progress",
			Output:         io.Discard,
			FS:             features.FS,
			Paths:          []string{"."},
			Tags:           tags,
			Strict:         true,
			NoColors:       true,
			DefaultContext: runCtx,
		},
	}
	if err := e.planSuite(suite); err != nil {
		return nil, err
	}
	// godog starts every scenario at once; the schedule lets each run in
	// its turn, at most cfg.Concurrency at a time
	suite.Options.Concurrency = max(len(e.schedule.order), 1)
	e.schedule.limit = e.pace.Limit
	e.schedule.start(cfg.Concurrency)
	if status := suite.Run(); status == 2 {
		return nil, fmt.Errorf("the suite could not start (godog option error)")
	}
	if cfg.After != nil {
		more, err := cfg.After(runCtx, Target{BaseURL: cfg.BaseURL, Client: e.client, Fixture: cfg.Fixture, Redactor: e.redactor,
			RequestTimeout: cfg.RequestTimeout, ReadOnly: cfg.ReadOnly, Progress: cfg.Progress,
			MaxResponseBody: cfg.MaxResponseBody, Watch: e.watch, Pace: e.pace})
		if err != nil {
			return nil, err
		}
		e.results = append(e.results, more...)
	}
	if len(e.results) == 0 {
		return nil, ErrNoScenarios
	}
	r := &reports.Report{
		Schema:    reports.SchemaVersion,
		Started:   started,
		Duration:  reports.Duration(time.Since(started)),
		Scenarios: e.results,
		// the budget ran out or the caller cancelled (a signal)
		Interrupted: ctx.Err() != nil,
		Stopped:     e.watch.Stopped(),
		// what made the scenarios of the other profiles unsupported, and
		// who was tested
		Implements:     slices.Clone(cfg.Fixture.Implements),
		Implementation: Implementation(cfg.Fixture),
		// the setup mistakes the run's answers show, read when it ends
		Setup: e.setupSymptoms(e.results),
	}
	if st := e.pace.Stats(); st.Limited > 0 || cfg.Rate > 0 {
		r.RateLimits = &reports.RateLimits{Answers: st.Limited, Requests: st.Requests, Waited: reports.Duration(st.Waited)}
		if cfg.Rate > 0 {
			r.RateLimits.Rate = pace.FormatRate(cfg.Rate)
		}
	}
	reports.AddCatalogue(r, cat, cfg.Generated)
	dropped, where := 0, 0
	for _, sc := range r.Scenarios {
		if sc.ExchangesDropped > 0 {
			dropped += sc.ExchangesDropped
			where++
		}
	}
	if dropped > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d exchanges of %d scenarios not kept: a scenario keeps at most %d, the last one made in the last place", dropped, where, reports.MaxExchanges))
	}
	if e.kept.Load() > reports.MaxKept {
		r.Notes = append(r.Notes, fmt.Sprintf("the run kept %d MiB of bodies and headers: past that, each body keeps %d bytes and each response %d header names", reports.MaxKept>>20, reports.LeanBody, reports.LeanHeaders))
	}
	r.Redact(e.redactor)
	reports.Finalize(r)
	return r, nil
}

// Implementation is who a fixture says is tested, as a report names it
// (nil when it does not say). The two types have the same fields, so one
// converts to the other.
func Implementation(f *fixtures.File) *reports.Implementation {
	if f == nil || f.Implementation == nil {
		return nil
	}
	i := reports.Implementation(*f.Implementation)
	i.Contact = slices.Clone(i.Contact)
	return &i
}

// boundedTransport returns rt, or a copy of it, that reads at most max
// bytes of response headers. A RoundTripper that is not an
// *http.Transport (the in-process simulator) is returned as it is.
func boundedTransport(rt http.RoundTripper, max int64) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	tr, ok := rt.(*http.Transport)
	if !ok || tr.MaxResponseHeaderBytes == max {
		return rt
	}
	tr = tr.Clone()
	tr.MaxResponseHeaderBytes = max
	return tr
}

// CutShort is the skip reason of a scenario the run did not finish because
// its --budget ran out or it was interrupted.
const CutShort = "not finished: the run was cut short (its --budget ran out or it was interrupted)"

// StoppedShort is the skip reason of a scenario the run did not finish
// because the target stopped answering.
const StoppedShort = "not finished: the run stopped, the target had stopped answering"

// before starts a scenario's state.
func (e *env) before(ctx context.Context, sc *godog.Scenario) (context.Context, error) {
	s := &state{env: e, id: scenarioID(sc), name: sc.Name, saved: map[string]gjson.Result{}, started: time.Now()}
	for _, t := range sc.Tags {
		id := strings.TrimPrefix(t.Name, "@")
		if _, ok := e.cat.Requirement(id); ok {
			s.reqs = append(s.reqs, id)
		} else if op, ok := e.opOf(id); ok {
			s.op = op
		}
	}
	ctx = context.WithValue(ctx, stateKey{}, s)
	ctx = context.WithValue(ctx, stepFailureKey{}, &stepFailure{})
	if op := e.scenarioOp(sc, s.op); !e.cfg.Fixture.Supports(string(op)) {
		// the implementation does not claim this operation's profile: no
		// step runs, no request is sent, and the run does not wait for the
		// operation's record group
		e.schedule.release(sc) // nobody waits for a scenario that does not run
		return ctx, unsupportedSkip(op, e.cfg.Fixture)
	}
	s.turn = e.schedule.enter(ctx, sc)
	s.started = time.Now() // the wait for its turn is not the scenario's time
	return ctx, nil
}

type stepFailureKey struct{}

// stepFailure remembers the first failing step of a scenario.
type stepFailure struct {
	step string
	err  error
}

// beforeStep lets the step call the operations its definition declares,
// and no other (see turn.mayCall).
func (e *env) beforeStep(ctx context.Context, st *godog.Step) (context.Context, error) {
	if s := stateFrom(ctx); s.turn != nil {
		s.step = s.turn.steps[st.Id]
	}
	return ctx, nil
}

// afterStep remembers the first failing step and any skip.
func (e *env) afterStep(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
	s := stateFrom(ctx)
	if sk, ok := asSkip(err); ok && s.skipped == nil {
		s.skipped = sk
		return ctx, err
	}
	if err != nil {
		if f := ctx.Value(stepFailureKey{}).(*stepFailure); f.err == nil {
			f.step, f.err = st.Text, err
		}
	}
	return ctx, err
}

// scenarioID is a scenario's id in reports: its feature, then its name.
func scenarioID(sc *godog.Scenario) string { return featureName(sc.Uri) + ": " + sc.Name }

// after turns the scenario's state into its result.
func (e *env) after(ctx context.Context, sc *godog.Scenario, err error) (context.Context, error) {
	s := stateFrom(ctx)
	e.schedule.finish(s.turn)
	f := ctx.Value(stepFailureKey{}).(*stepFailure)
	s.op = e.scenarioOp(sc, s.op)
	res := reports.Scenario{
		ID:               s.id,
		Feature:          featureName(sc.Uri),
		Name:             sc.Name,
		Operation:        string(s.op),
		Requirements:     s.allRequirements(),
		Strictness:       e.strictness(s.reqs),
		Kind:             e.kind(s.reqs),
		Duration:         reports.Duration(time.Since(s.started)),
		Exchanges:        s.exchanges,
		ExchangesDropped: s.dropped,
	}
	for _, t := range sc.Tags {
		res.Tags = append(res.Tags, t.Name)
	}
	res.Retries = s.retries
	var na *noAnswer
	var wo *waitedOut
	var ud *undeclared
	var end *ended
	switch {
	case f.err != nil && (errors.As(f.err, &na) || errors.As(f.err, &wo) || errors.As(f.err, &ud)):
		// no HTTP answer, a rate limit that outlasted the runner's waits,
		// or a call the suite did not declare: nothing was judged, and the
		// implementation failed no requirement
		res.Outcome = reports.Error
		res.Failure = e.failure(s, f)
		res.Failure.Requirements = []string{}
	case f.err != nil && (errors.As(f.err, &end) || ctx.Err() != nil && errors.Is(f.err, ctx.Err())):
		// Cut short by the budget, a signal or a dead target: the run did
		// not finish this scenario, which says nothing of the
		// implementation.
		res.Outcome = reports.Skipped
		res.SkipCause = reports.CauseCutShort
		res.SkipReason = CutShort
		if errors.Is(context.Cause(ctx), ErrTargetStopped) {
			res.SkipReason = StoppedShort
		}
	case s.skipped != nil && f.err == nil:
		res.Outcome = reports.Skipped
		switch {
		case s.skipped.notConfigured:
			res.Outcome = reports.NotConfigured
		case s.skipped.unsupported:
			res.Outcome = reports.Unsupported
			// a scenario that names no operation is of the one it needed
			res.Operation = cmp.Or(res.Operation, string(s.skipped.op))
		}
		res.SkipReason = s.skipped.reason
		res.SkipCause = s.skipped.cause
	case f.err != nil || (err != nil && !errors.Is(err, errSkip)):
		if f.err == nil {
			f.err = err
		}
		res.Outcome = reports.Failed
		res.Failure = e.failure(s, f)
	default:
		res.Outcome = reports.Passed
		// it passed on the strength of a read sent again
		res.Flaky = s.retries > 0
	}
	e.mu.Lock()
	for _, a := range s.answers {
		a.requirements = res.Requirements
		e.answers = append(e.answers, a)
	}
	e.results = append(e.results, res)
	e.done++
	if p := e.cfg.Progress; p != nil {
		mark := progressMarks[res.Outcome]
		if e.done%80 == 0 {
			mark += "\n"
		}
		_, _ = io.WriteString(p, mark)
	}
	e.mu.Unlock()
	return ctx, nil
}

// progressMarks are the characters Config.Progress gets per outcome.
var progressMarks = map[reports.Outcome]string{reports.Passed: ".", reports.Failed: "F", reports.Skipped: "s", reports.NotConfigured: "n", reports.Unsupported: "u", reports.Error: "E"}

func (e *env) failure(s *state, f *stepFailure) *reports.Failure {
	out := &reports.Failure{Step: f.step, Message: e.text(s.redactor(), f.err.Error()), Exchange: len(s.exchanges) - 1}
	var fl *Failure
	if errors.As(f.err, &fl) {
		out.Expected, out.Got, out.Exchange = e.text(s.redactor(), fl.Expected), e.text(s.redactor(), fl.Got), fl.Exchange
		for _, id := range fl.Requirements {
			if id != "" {
				out.Requirements = append(out.Requirements, id)
			}
		}
	}
	if len(out.Requirements) == 0 {
		out.Requirements = append(out.Requirements, s.reqs...)
	}
	sort.Strings(out.Requirements)
	if out.Exchange >= 0 && out.Exchange < len(s.exchanges) {
		out.Curl = reports.Curl(s.exchanges[out.Exchange])
	}
	return out
}

// maxMessage bounds each text of a failure: a message may quote a whole
// response, and the response itself is in the exchange.
const maxMessage = 4 << 10

// text returns a failure text for a report: secrets redacted first, so
// that no part of one survives the cut, then cut at maxMessage bytes.
func (e *env) text(red *redact.Redactor, s string) string {
	s = red.Prefix([]byte(s), maxMessage+4096)
	if len(s) > maxMessage {
		s = strings.ToValidUTF8(s[:maxMessage], "") + " … (cut; the exchange has the whole response)"
	}
	return s
}

func (e *env) strictness(reqs []string) reports.Strictness {
	st := reports.Should
	for _, id := range reqs {
		if r, ok := e.cat.Requirement(id); ok && r.Strictness == reports.Must {
			st = reports.Must
		}
	}
	return st
}

func (e *env) kind(reqs []string) reports.Kind {
	for _, id := range reqs {
		if r, ok := e.cat.Requirement(id); ok {
			return r.Kind
		}
	}
	return ""
}

func featureName(uri string) string {
	uri = strings.TrimPrefix(uri, "./")
	return strings.TrimSuffix(uri, ".feature")
}

// operationOf is the operation a scenario checks, as its report says
// (features.Catalogue.OperationOf, which also counts the scenario in a
// profile).
func (e *env) operationOf(sc *godog.Scenario) registry.OpID {
	tags := make([]string, len(sc.Tags))
	for i, t := range sc.Tags {
		tags[i] = t.Name
	}
	id, _ := e.cat.OperationOf(tags, sc.Name)
	return registry.OpID(id)
}

// scenarioOp is the operation of a scenario: the one its tags name (op),
// or, for the outlines over operations, which name it first.
func (e *env) scenarioOp(sc *godog.Scenario, op registry.OpID) registry.OpID {
	if op == "" {
		first, _, _ := strings.Cut(sc.Name, " ")
		if id, ok := e.opOf(first); ok {
			return id
		}
	}
	return op
}

// opOf is the operation a tag or a word of a scenario's name names, when
// it is one of the catalogue's.
func (e *env) opOf(name string) (registry.OpID, bool) {
	if _, ok := e.cat.Operation(name); !ok {
		return "", false
	}
	o, ok := registry.Lookup(name)
	return o.ID, ok
}

// allRequirements are the scenario's own requirements and those it
// exercised, sorted and unique.
func (s *state) allRequirements() []string {
	set := map[string]bool{}
	for _, id := range s.reqs {
		set[id] = true
	}
	for id := range s.exercised {
		set[id] = true
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// knownTags refuses a tag expression naming a tag no scenario can carry,
// so that a typo is an error rather than a run of nothing or of everything.
func knownTags(cat *features.Catalogue, expr string) error {
	for _, and := range strings.Split(expr, "&&") {
		for _, lit := range strings.Split(and, ",") {
			tag := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(lit), "~"), "@")
			if tag == "" || tag == "destructive" {
				continue
			}
			if _, ok := cat.Requirement(tag); ok {
				continue
			}
			if _, ok := cat.Operation(tag); ok {
				continue
			}
			return fmt.Errorf("tag @%s is unknown: tags are operation ids (%s), requirement ids (@E7.default-publish, see features/requirements.json) and @destructive", tag, registry.Span("@"))
		}
	}
	return nil
}

// NotRun returns the report of a run that could not start: see
// reports.NotRun, which it is.
func NotRun(reason string) (*reports.Report, error) { return reports.NotRun(reason) }
