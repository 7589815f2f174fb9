package steps

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/tidwall/gjson"
)

// env is what every scenario of one run shares, read-only after setup.
type env struct {
	// answers are every scenario's answers (under mu), read by the setup
	// symptoms when the run ends
	answers   []heard
	cfg       Config
	cat       *features.Catalogue
	fixture   gjson.Result
	validator *openapi.Validator
	redactor  *redact.Redactor
	// secrets are the fixture's credentials and their placeholders, from
	// which redactor is made.
	secrets map[string]string
	client  *http.Client

	// kept counts the body and header bytes kept in exchanges, for
	// reports.MaxKept.
	kept atomic.Int64
	// bodies are the buffers response bodies are read into (*[]byte).
	bodies sync.Pool

	// schedule keeps a scenario changing a record group apart from every
	// other scenario touching it, in the run's order (schedule.go).
	schedule *scheduler
	// watch stops the run when the target stops answering.
	watch *watchdog
	// pace waits out the target's rate limits and paces the run
	// (internal/pace).
	pace *pace.Pacer
	// gone are the fixture records found gone before the suite, by fixture
	// key, each with why (see checkRecords).
	gone map[string]string

	mu      sync.Mutex
	results []reports.Scenario
	// progress
	done int
}

// DefaultConcurrency is the number of scenarios campusconf run runs at
// once unless told otherwise. The schedule (schedule.go) makes the
// outcomes at every concurrency those at 1, and grants fewer slots while
// the target limits the run (pace.Pacer.Limit). 24 rather than 12: at
// 12, the suite's 552 requests need 46 round trips, more than its longest
// chain (41), so a target 100 ms away took 5.1 s; at 24 the chain decides
// and it takes 4.7 s (BENCHMARKS.md, "A distant target").
const DefaultConcurrency = 24

// Config configures one run of the suite.
type Config struct {
	// BaseURL of the implementation under test, without a trailing slash.
	BaseURL string
	// Client sends the requests; nil means a default client. Its Timeout
	// is ignored in favour of RequestTimeout.
	Client *http.Client
	// Fixture describes the implementation.
	Fixture *fixtures.File
	// Tags is a tag expression in Cucumber form (`@a and not @b`,
	// `@a or @b`, parentheses) or godog's own (`@a && ~@b`, `@a,@b`).
	Tags string
	// ReadOnly sends no request to an operation that changes state
	// (registry.Operation.ChangesState): a scenario that would is skipped,
	// cause read-only, and the run's client refuses such a request
	// whatever sends it.
	ReadOnly bool
	// Concurrency is the number of scenarios run at once (default 1;
	// campusconf run's default is DefaultConcurrency).
	Concurrency int
	// Budget bounds the whole run (0: none). When it runs out, every
	// request not yet made fails at once, so the run ends and its report
	// is written whatever the target does.
	Budget time.Duration
	// RequestTimeout bounds each HTTP exchange (default 10 s).
	RequestTimeout time.Duration
	// MaxResponseBody caps the bytes read of one response (default
	// wire.MaxResponseBodyBytes); a longer answer is not judged (skipped, cause
	// runner-limit, naming `--max-body`). The generated requests share it.
	MaxResponseBody int64
	// MaxResponseHeader caps the response header bytes read of one
	// response (default wire.MaxResponseHeaderBytes); past it, as for the
	// body, naming `--max-header`.
	MaxResponseHeader int64
	// MaxPages bounds a walk through a list (default DefaultMaxPages);
	// past it, as for the body, naming `--max-pages`.
	MaxPages int
	// Ready, when set, is called once the checks before the suite have
	// passed, before the first scenario.
	Ready func()
	// NoCredentialsCheck leaves out the credentials check before the
	// suite (see checkCredentials).
	NoCredentialsCheck bool
	// Secrets are more secrets to redact than the fixture's, each with its
	// placeholder: the userinfo and query of the target URL.
	Secrets map[string]string
	// PollWindow bounds the polling of a push whose outcome is pending
	// (`run --poll-window`, default DefaultPollWindow): polls back off
	// from PollInterval, and a window that runs out makes the scenario
	// unobservable, never failed.
	PollWindow time.Duration
	// PollInterval is the first wait between two polls (default 200 ms).
	PollInterval time.Duration
	// Rate caps the requests per second from the start (`run --rate`,
	// pace.ParseRate; 0: no cap). Whatever it is, the run waits out a
	// target's rate limits (internal/pace).
	Rate float64
	// After, when set, runs once the scenarios are done, within the run's
	// budget, and what it returns joins their results: harness/suiterun
	// sends the generated requests so, a producer this package does not
	// import. It gets what the scenarios talked to (Target).
	After func(ctx context.Context, t Target) ([]reports.Scenario, error)
	// Generated says After checks the properties of generated requests
	// (kind generated): their requirements join the run's catalogue.
	Generated bool
	// Progress receives one character per scenario (., F, s, n, u) and
	// nothing else; nil means silent.
	Progress io.Writer
}

// Target is what a run's scenarios talked to, as Config.After gets it.
type Target struct {
	BaseURL string
	// Client bounds response headers and follows no redirect.
	Client *http.Client
	// Fixture is the run's, its unplaced operations' old names read as
	// their ids.
	Fixture        *fixtures.File
	Redactor       *redact.Redactor
	RequestTimeout time.Duration
	ReadOnly       bool
	// MaxResponseBody is Config.MaxResponseBody: the generated requests
	// read no more of an answer either.
	MaxResponseBody int64
	// Watch tells the run of every answer and transport error, so that
	// the run stops when the target stops answering.
	Watch Watch
	// Pace is the run's transport policy toward a target that limits its
	// rate: the generated requests go through it as the scenarios do.
	Pace *pace.Pacer
	// Progress is Config.Progress.
	Progress io.Writer
}

func (c *Config) defaults() {
	if c.Concurrency < 1 {
		c.Concurrency = 1
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = 10 * time.Second
	}
	if c.MaxResponseBody <= 0 {
		c.MaxResponseBody = wire.MaxResponseBodyBytes
	}
	if c.MaxResponseHeader <= 0 {
		c.MaxResponseHeader = wire.MaxResponseHeaderBytes
	}
	if c.MaxPages <= 0 {
		c.MaxPages = DefaultMaxPages
	}
	if c.PollWindow <= 0 {
		c.PollWindow = DefaultPollWindow
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 200 * time.Millisecond
	}
	if c.Client == nil {
		c.Client = &http.Client{}
	}
	if c.Fixture == nil {
		c.Fixture = &fixtures.File{Version: fixtures.Version}
	}
}
