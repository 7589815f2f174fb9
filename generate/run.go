// Package generate sends generated requests to an implementation and
// checks properties of every answer: the property-based half of a
// conformance run (`campusconf run --generate N`).
//
// Requests are drawn from what the project knows of the interface: the
// OpenAPI document (parameters, body members, types, formats, enums,
// ranges, required members), the requirement catalogue (where each
// operation lives) and the fixture (record ids). Drawing uses
// pgregory.net/rapid's generators, seeded per operation and request, so a
// seed replays a run exactly. A failing request is shrunk member by member
// (see shrink.go for why not by rapid.Check) and every failure of one
// property on one operation is reported as one finding.
package generate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
)

// DefaultSeed is the seed of `--generate-seed` when none is given.
const DefaultSeed = 1

// Config configures one generated run.
type Config struct {
	// BaseURL of the implementation, without a trailing slash.
	BaseURL string
	Client  *http.Client
	Fixture *fixtures.File
	// N is the number of generated requests drawn per operation, after
	// the operation's edge requests (edges.go), which every run with N > 0
	// sends.
	N int
	// Seed makes the run repeatable: the same seed, fixture and N send the
	// same requests.
	Seed int64
	// ReadOnly keeps only the operations that read (GET). Operations of a
	// profile the fixture does not claim (fixtures.File.Supports) get no
	// request.
	ReadOnly bool
	// RequestTimeout bounds each exchange (default 10 s).
	RequestTimeout time.Duration
	// MaxShrink bounds the requests spent shrinking one finding (default 60).
	MaxShrink int
	// Redactor replaces credentials in the exchanges kept for the report;
	// nil keeps them as sent (tests only).
	Redactor *redact.Redactor
	// Operations, when set, limits the run to these operation ids.
	Operations []string
	// MaxBody bounds the bytes read of one answer (default
	// wire.MaxResponseBodyBytes, the scenarios' bound): a longer answer is
	// not judged, and the operation's requests past it are reported
	// skipped, cause runner-limit.
	MaxBody int64
	// Watch, when set, is told of every answer and every transport error,
	// so that the run stops when the target stops answering.
	Watch Watch
	// Pace waits out the target's rate limits (a 429 is no finding) and
	// paces the requests; nil is a pace of its own, with no --rate.
	Pace *pace.Pacer
}

// Watch is told of each exchange with the target (steps.Watch, which the
// run passes on).
type Watch interface {
	Answered()
	NoAnswer()
}

// Stats are figures of a generated run.
type Stats struct {
	// Requests is every request sent, shrinking and repeated reads included.
	Requests int
	Took     time.Duration
	// FirstFinding is the time from the start to the first failure found,
	// and FirstFindingAfter the requests sent by then (both 0: none found).
	FirstFinding      time.Duration
	FirstFindingAfter int
}

// ErrNoClient is returned when Config has no client or fixture.
var ErrNoClient = errors.New("generate: a client and a fixture are needed")

// Run sends cfg.N generated requests per operation and returns one
// scenario per property and operation that failed, and one passed
// scenario per property that held everywhere it was checked. The context
// bounds the run: when it ends, the findings so far are returned.
func Run(ctx context.Context, cfg Config) ([]reports.Scenario, Stats, error) {
	if cfg.Client == nil || cfg.Fixture == nil {
		return nil, Stats{}, ErrNoClient
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 10 * time.Second
	}
	if cfg.MaxShrink <= 0 {
		cfg.MaxShrink = 60
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = wire.MaxResponseBodyBytes
	}
	if cfg.Pace == nil {
		cfg.Pace = pace.New(pace.Config{}) // the policy, without a cap
	}
	cat, v, specs, err := loadSpecs(cfg.Fixture)
	if err != nil {
		return nil, Stats{}, err
	}
	ru := &runner{cfg: cfg, cat: cat, validator: v, ids: idSources(cfg.Fixture), specs: map[registry.OpID]*opSpec{}, start: time.Now()}
	for _, s := range specs {
		ru.specs[s.id] = s
	}
	for _, s := range specs {
		if cfg.ReadOnly && s.writes {
			continue
		}
		if !cfg.Fixture.Supports(string(s.id)) {
			continue // a profile the implementation does not claim
		}
		if len(cfg.Operations) > 0 && !slices.Contains(cfg.Operations, string(s.id)) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		ru.operation(ctx, s)
	}
	st := ru.stats
	st.Requests, st.Took = ru.sent, time.Since(ru.start)
	out := ru.scenarios()
	if err := ctx.Err(); err != nil {
		// say so: a run cut short must not read as a full one
		out = append(out, reports.Scenario{ID: Feature + ": budget", Feature: Feature, Name: "generated requests cut short",
			Operation: features.AllOperations, Kind: reports.KindGenerated, Requirements: []string{}, Strictness: reports.Should, Outcome: reports.Skipped, SkipCause: reports.CauseCutShort,
			SkipReason: fmt.Sprintf("the run's budget ran out or the run was interrupted (%v) after %d generated requests", err, ru.sent)})
	}
	return out, st, nil
}

// runner is the state of one generated run.
type runner struct {
	cfg       Config
	cat       *features.Catalogue
	validator *openapi.Validator
	ids       map[string][]string
	specs     map[registry.OpID]*opSpec
	start     time.Time
	stats     Stats
	sent      int
	// checked counts requests checked per property (for passed findings).
	checked map[Property]int
	groups  []*group
	byKey   map[string]*group
	// unjudged are the requests of each operation that got no HTTP answer
	// or an answer past the runner's bound, by operation id.
	unjudged map[registry.OpID]*unjudged
}

// unjudged is what of an operation's generated requests was not judged:
// those that got no HTTP answer and those whose answer was too long, with
// the first exchange of each.
type unjudged struct {
	op                  registry.OpID
	noAnswer, tooLong   int
	firstErr, firstLong *reports.Exchange
}

// answer says what came back for one request.
type answer int

const (
	answered answer = iota
	// noAnswerKind: a transport error, no HTTP answer
	noAnswerKind
	// tooLong: an answer past Config.MaxBody, not read to its end
	tooLong
	// ended: the run's context ended
	ended
)

// group is every failure of one property on one operation.
type group struct {
	spec  *opSpec
	op    registry.OpID
	prop  Property
	count int
	// of is the number of requests of the operation the property applied to.
	of int
	// first is the first failing request and its answer; min is it shrunk.
	first, min outcome
	fail       failure
	shrinkSent int
}

// outcome is a request and the answer it got.
type outcome struct {
	req  Request
	kind answer
	ex   reports.Exchange
	raw  []byte
	// second is the repeated read, for the repeatable-read property.
	second    *reports.Exchange
	secondRaw []byte
	// extra are further exchanges a finding shows (the reads before and
	// after a refused write).
	extra []reports.Exchange
}

// seedFor gives each request of each operation its own rapid seed, so a
// change to one operation's parameters leaves the others' requests alone.
func seedFor(seed int64, op registry.OpID, i int) int {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", seed, op, i)
	return int(h.Sum64() >> 1)
}

func (ru *runner) operation(ctx context.Context, s *opSpec) {
	gen := requests(s, ru.ids)
	applied := map[Property]int{}
	defer func() {
		if ru.checked == nil {
			ru.checked = map[Property]int{}
		}
		for p, n := range applied {
			ru.checked[p] += n
			if g := ru.byKey[string(s.id)+"\x00"+string(p)]; g != nil {
				g.of = n
			}
		}
	}()
	// the edge requests first (edges.go), then N drawn ones
	edge := edges(s, ru.ids)
	for k := range len(edge) + ru.cfg.N {
		if ctx.Err() != nil {
			return
		}
		i := k - len(edge)
		var req Request
		if i < 0 {
			req = edge[k]
		} else {
			req = gen.Example(seedFor(ru.cfg.Seed, s.id, i))
		}
		// a drawn read is repeated one time in four: the same GET twice
		// must give the same answer
		repeat := !s.writes && req.Bad == nil && i >= 0 && i%4 == 0
		var before snapshot
		reads := ru.snapshotReads(s)
		observed := req.Bad != nil && len(reads) > 0
		if observed {
			if before, observed = ru.snapshot(ctx, reads); !observed && ctx.Err() != nil {
				return
			}
		}
		out, ok := ru.send(ctx, s, req, repeat)
		if !ok {
			return
		}
		if out.kind != answered {
			ru.notJudged(s.id, out)
			continue
		}
		for _, p := range ru.applies(req, out) {
			applied[p]++
		}
		for _, f := range ru.check(s, out) {
			ru.record(ctx, s, out, f)
		}
		if observed && out.ex.Status >= 400 && out.ex.Status < 500 {
			applied[InvalidUnchanged]++
			after, ok := ru.snapshot(ctx, reads)
			if !ok {
				continue
			}
			if was, now, k, diff := changed(s, before, after); diff {
				out.extra = []reports.Exchange{before.exchanges[k], after.exchanges[k]}
				ru.record(ctx, s, out, failure{InvalidUnchanged,
					fmt.Sprintf("a refused request changes nothing: %s as before it", was), now})
			}
		}
	}
}

// send makes one request (twice when repeat) and records the exchange.
// ok is false only when the run's context ended. A request that got no
// HTTP answer (the connection dropped, the request timed out), or an
// answer past the runner's bound, is an outcome of that kind, which no
// property judges: the run lists it apart.
func (ru *runner) send(ctx context.Context, s *opSpec, req Request, repeat bool) (outcome, bool) {
	ex, raw, kind := ru.exchange(ctx, s, req)
	out := outcome{req: req, kind: kind, ex: ex, raw: raw}
	if kind == ended {
		return out, false
	}
	if repeat && kind == answered {
		second, raw2, kind2 := ru.exchange(ctx, s, req)
		if kind2 == answered {
			out.second, out.secondRaw = &second, raw2
		}
	}
	return out, true
}

// notJudged counts a request of op that got no HTTP answer or too long a
// one.
func (ru *runner) notJudged(op registry.OpID, out outcome) {
	if ru.unjudged == nil {
		ru.unjudged = map[registry.OpID]*unjudged{}
	}
	u := ru.unjudged[op]
	if u == nil {
		u = &unjudged{op: op}
		ru.unjudged[op] = u
	}
	ex := out.ex
	switch out.kind {
	case noAnswerKind:
		u.noAnswer++
		if u.firstErr == nil {
			u.firstErr = &ex
		}
	case tooLong:
		u.tooLong++
		if u.firstLong == nil {
			u.firstLong = &ex
		}
	}
}

func (ru *runner) exchange(ctx context.Context, s *opSpec, req Request) (reports.Exchange, []byte, answer) {
	var ex reports.Exchange
	var data []byte
	var kind answer
	err := ru.cfg.Pace.Do(ctx, s.writes, slices.Contains(s.statuses, http.StatusServiceUnavailable), func() (int, http.Header, error) {
		var h http.Header
		ex, data, kind, h = ru.exchangeOnce(ctx, s, req)
		if kind != answered && kind != tooLong {
			return 0, nil, errNotAnswered
		}
		return ex.Status, h, nil
	})
	switch {
	case errors.Is(err, pace.ErrWaitsRanOut):
		// a rate limit is no finding: the request is not judged
		ex.Error = err.Error()
		return ex, nil, noAnswerKind
	case err != nil && kind == answered && ctx.Err() != nil:
		return ex, nil, ended
	}
	return ex, data, kind
}

// errNotAnswered tells the pace an exchange got no answer to judge.
var errNotAnswered = errors.New("no answer")

// exchangeOnce makes one request and returns its exchange, body, kind and
// the answer's header.
func (ru *runner) exchangeOnce(ctx context.Context, s *opSpec, req Request) (reports.Exchange, []byte, answer, http.Header) {
	u := req.url(ru.cfg.BaseURL, s)
	body := req.bodyBytes()
	ex := reports.Exchange{Method: s.method, URL: ru.redact(u)}
	runCtx := ctx
	ctx, cancel := context.WithTimeout(ctx, ru.cfg.RequestTimeout)
	defer cancel()
	var rd io.Reader
	if req.HasBody {
		rd = bytes.NewReader(body)
	}
	hr, err := http.NewRequestWithContext(ctx, s.method, u, rd)
	if err != nil {
		ex.Error = ru.redact(err.Error())
		return ex, nil, ended, nil
	}
	ru.authenticate(hr)
	hr.Header.Set("Accept", "application/json")
	if req.HasBody {
		hr.Header.Set("Content-Type", rules.MediaJSONPatch)
	}
	if ru.cfg.Redactor != nil {
		ex.RequestHeaders = ru.cfg.Redactor.Headers(hr.Header)
	}
	ex.RequestBody, ex.Truncated = reports.TruncateBody([]byte(ru.redact(string(body))))
	start := time.Now()
	ru.sent++
	resp, err := ru.cfg.Client.Do(hr)
	if err != nil {
		ex.Error = ru.redact(err.Error())
		ex.Duration = reports.Duration(time.Since(start))
		return ex, nil, ru.noAnswer(runCtx), nil
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, ru.cfg.MaxBody+1))
	ex.Duration = reports.Duration(time.Since(start))
	ex.Status = resp.StatusCode
	if ru.cfg.Redactor != nil {
		ex.ResponseHeaders = ru.cfg.Redactor.Headers(resp.Header)
	}
	// the whole body is redacted before it is cut for the report
	var cut bool
	ex.ResponseBody, cut = reports.TruncateBody([]byte(ru.redact(string(data))))
	ex.Truncated = ex.Truncated || cut
	if err != nil {
		ex.Error = ru.redact("the body broke off: " + err.Error())
		return ex, nil, ru.noAnswer(runCtx), nil
	}
	if ru.cfg.Watch != nil {
		ru.cfg.Watch.Answered()
	}
	if int64(len(data)) > ru.cfg.MaxBody {
		return ex, nil, tooLong, resp.Header
	}
	return ex, data, answered, resp.Header
}

// noAnswer is the kind of an exchange that got no HTTP answer: ended when
// the run's context ended, else noAnswerKind, of which the watch is told.
func (ru *runner) noAnswer(ctx context.Context) answer {
	if ctx.Err() != nil {
		return ended
	}
	if ru.cfg.Watch != nil {
		ru.cfg.Watch.NoAnswer()
	}
	return noAnswerKind
}

func (ru *runner) redact(s string) string {
	if ru.cfg.Redactor == nil {
		return s
	}
	return ru.cfg.Redactor.String(s)
}

// authenticate sends the fixture's subscription key and the default
// caller's ("owner") headers, as the scenarios do.
func (ru *runner) authenticate(req *http.Request) {
	f := ru.cfg.Fixture
	key := f.SubscriptionKey
	u := f.Users["owner"]
	if u.SubscriptionKey != "" {
		key = u.SubscriptionKey
	}
	for k, v := range u.Headers {
		req.Header.Set(k, v)
	}
	if key != "" {
		req.Header.Set(wire.KeyHeader, key)
	}
}

// record adds a failure to its group; the first failure of a group is
// shrunk.
func (ru *runner) record(ctx context.Context, s *opSpec, out outcome, f failure) {
	if ru.byKey == nil {
		ru.byKey = map[string]*group{}
	}
	key := string(s.id) + "\x00" + string(f.prop)
	g := ru.byKey[key]
	if ru.stats.FirstFindingAfter == 0 {
		ru.stats.FirstFinding, ru.stats.FirstFindingAfter = time.Since(ru.start), ru.sent
	}
	if g == nil {
		g = &group{spec: s, op: s.id, prop: f.prop, first: out, min: out, fail: f}
		ru.byKey[key] = g
		ru.groups = append(ru.groups, g)
		if f.prop != InvalidUnchanged {
			// shrinking re-sends the request alone, without the reads
			// around it: a changed state is shown as found
			ru.shrink(ctx, s, g)
		}
	}
	g.count++
}
