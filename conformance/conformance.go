// Package conformance runs the campusconf conformance suite from a Go
// test, as the Gateway API conformance suite does: one subtest per
// scenario, named by feature and scenario, whose failure names the
// requirement broken with what was expected and what came back. It runs
// against a URL or against an http.Handler in the same process, so a Go
// service can gate every `go test ./...` on conformance without a binary
// or a port:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, conformance.Options{
//			Handler:      myservice.NewHandler(),
//			FixturesFile: "testdata/fixtures.json",
//		})
//	}
//
// The package links neither the campusconf simulator nor its seeded world:
// a test that wants the simulator as its target asks for it through
// package conformance/embedded.
package conformance

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/steps"
)

// HandlerBaseURL is the base URL of the requests Run sends to a Handler
// when Options.BaseURL is empty: a made-up host, which a handler checking
// Host (the simulator does) must be told to answer.
const HandlerBaseURL = "http://campusconf.test"

// Options are the options of the CLI's run command that make sense in a
// test.
type Options struct {
	// Handler serves the implementation in process; when nil, BaseURL is
	// called over HTTP.
	Handler http.Handler
	// BaseURL of the implementation, without a trailing slash. With a
	// Handler it only fills in request URLs (default HandlerBaseURL).
	BaseURL string
	// Fixtures describes the implementation; when nil, FixturesFile is
	// read (the format of `campusconf fixtures`, docs/fixtures.md).
	Fixtures     *fixtures.File
	FixturesFile string
	// Tags selects scenarios, as `campusconf run --tags` does.
	Tags string
	// ReadOnly sends no request to an operation that changes state, as
	// `campusconf run --read-only` does: the scenarios that would are
	// skipped. A read-only run also leaves out the fixture's reset.
	ReadOnly bool
	// Concurrency is the number of scenarios run at once (default 1).
	Concurrency int
	// Timeout bounds each HTTP exchange (default 10 s).
	Timeout time.Duration
	// ReportDir, when set, receives the report files of the run (reports.ReportFiles).
	ReportDir string
	// Strict fails the test when a scenario judged nothing for a cause
	// `--strict` counts: skipped (but for an optional field left out), not
	// configured, or errored (an unsupported one, of a profile the fixture
	// does not claim, is skipped all the same).
	Strict bool
	// Baseline is a baseline file (`campusconf baseline`): a failure it
	// excuses skips its subtest, naming the entry, instead of failing it,
	// and the report's verdict is the gate's, as with `run --baseline`.
	Baseline string
	// NoCredentialsCheck leaves out the credentials check before the
	// suite (one read per fixture user; a 401 fails the test at once).
	NoCredentialsCheck bool
	// Rate caps the requests per second, as `run --rate` does (0: no
	// cap); a target's rate limits are waited out either way.
	Rate float64
	// PollWindow is how long a pending push is polled, as `run
	// --poll-window` says (default 2 minutes).
	PollWindow time.Duration
}

// Run runs the suite and reports each scenario as a subtest of t, as
// `campusconf run` would judge it: before the suite it probes a target
// over HTTP (an unreachable one fails one subtest naming it, and nothing
// else runs), restores its records through the fixture's reset unless the
// run is read-only, and checks every fixture user's credentials. A failed
// scenario fails its subtest with the requirement ids, the expected/got
// message and a curl line; a failure the Baseline excuses is skipped; a
// skipped, not-configured or errored one (no HTTP answer) is skipped with
// its reason, and failed with Strict where --strict counts it. A target
// that stops answering mid-run fails one subtest saying since when. It
// returns the report. An error that keeps the suite from running (a bad
// fixture file, a tag expression that selects nothing, credentials
// refused) fails t at once.
func Run(t *testing.T, opts Options) *reports.Report {
	t.Helper()
	r, err := Report(t, opts)
	var unreachable *UnreachableError
	if errors.As(err, &unreachable) {
		// one subtest names the target, instead of one per scenario
		t.Run("target reachable", func(t *testing.T) { t.Error(err) })
		r, _ := reports.NotRun(err.Error())
		return r
	}
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	if st := r.Stopped; st != nil {
		t.Run("target answering", func(t *testing.T) {
			t.Errorf("%s: %s", r.Target.URL, r.VerdictReason)
		})
	}
	known := map[string]bool{}
	if r.Gate != nil {
		for _, id := range r.Gate.Known {
			known[id] = true
		}
	}
	inProcess := opts.Handler != nil
	for _, sc := range r.Scenarios {
		t.Run(sc.Feature+"/"+sc.Name, func(t *testing.T) {
			switch sc.Outcome {
			case reports.Failed:
				if excused(sc, known) {
					t.Skipf("known failure (baseline %s): %s", opts.Baseline, describe(sc, inProcess))
				}
				t.Error(describe(sc, inProcess))
			case reports.Unsupported:
				// a profile the fixture does not claim: never a failure
				t.Skipf("%s: %s", sc.Outcome, sc.SkipReason)
			case reports.Skipped, reports.NotConfigured, reports.Error:
				why := sc.SkipReason
				if sc.Outcome == reports.Error && sc.Failure != nil {
					why = sc.Failure.Message
				}
				if sc.SkipCause != "" {
					why = string(sc.SkipCause) + ": " + why
				}
				if opts.Strict && (sc.Outcome != reports.Skipped || sc.SkipCause.StrictCounts()) {
					t.Errorf("%s (strict): %s", sc.Outcome, why)
					return
				}
				t.Skipf("%s: %s", sc.Outcome, why)
			case reports.Passed:
				if sc.Flaky {
					t.Logf("flaky: passed only after %d read(s) sent again", sc.Retries)
				}
			}
		})
	}
	return r
}

// excused reports whether every requirement a failed scenario failed is
// a known failure of the baseline.
func excused(sc reports.Scenario, known map[string]bool) bool {
	failed := reports.FailedRequirements(sc)
	for _, id := range failed {
		if !known[id] {
			return false
		}
	}
	return len(failed) > 0
}

// UnreachableError is the error of Report when the target over HTTP does
// not answer the probe before the suite.
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("target unreachable: %s: %v", e.URL, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Report runs the suite as Run does and returns its report without
// reporting it to t (t only provides the context and receives the
// warnings the CLI prints; it may be nil). A target over HTTP that does
// not answer the probe is an *UnreachableError.
func Report(t *testing.T, opts Options) (*reports.Report, error) {
	f := opts.Fixtures
	if f == nil {
		if opts.FixturesFile == "" {
			return nil, fmt.Errorf("no fixtures: set Options.Fixtures or Options.FixturesFile")
		}
		var err error
		if f, err = fixtures.Load(opts.FixturesFile); err != nil {
			return nil, err
		}
	}
	var baseline *reports.Baseline
	if opts.Baseline != "" {
		b, err := reports.ReadBaseline(opts.Baseline)
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		baseline = &b
	}
	cfg := steps.Config{
		Fixture:            f,
		Tags:               opts.Tags,
		ReadOnly:           opts.ReadOnly,
		Concurrency:        opts.Concurrency,
		RequestTimeout:     opts.Timeout,
		NoCredentialsCheck: opts.NoCredentialsCheck,
		Rate:               opts.Rate,
		PollWindow:         opts.PollWindow,
	}
	ctx := contextOf(t)
	target := reports.Target{Fixtures: opts.FixturesFile}
	switch {
	case opts.Handler != nil:
		base := opts.BaseURL
		if base == "" {
			base = HandlerBaseURL
		}
		cfg = suiterun.InProcess(cfg, opts.Handler, base)
		target.URL = "handler in process (requests addressed to " + cfg.BaseURL + ")"
	case opts.BaseURL == "":
		return nil, fmt.Errorf("no target: set Options.Handler or Options.BaseURL")
	default:
		cfg = suiterun.OverHTTP(cfg, opts.BaseURL, false)
		target.URL = cfg.BaseURL
		if err := suiterun.Probe(ctx, cfg); err != nil {
			return nil, &UnreachableError{URL: cfg.BaseURL, Err: err}
		}
	}
	if !opts.ReadOnly {
		// as `campusconf run` does: a target that declares a reset starts
		// every run from its seeded records
		declared, err := suiterun.Reset(ctx, cfg)
		switch {
		case err != nil:
			logf(t, "conformance: warning: the fixture's reset failed (%v); running on the records as they are", err)
		case !declared && opts.Handler == nil:
			if text := steps.ChangesWarning(opts.Tags, f); text != "" {
				logf(t, "conformance: %s", text)
			}
		}
	}
	r, err := suiterun.Run(ctx, cfg, suiterun.Generation{})
	if err != nil {
		return nil, err
	}
	r.Tool = reports.NewTool("campusconf conformance package")
	r.Target = target
	r.Mode = reports.Mode{ReadOnly: opts.ReadOnly, Tags: opts.Tags}
	r.Strict = opts.Strict
	reports.Finalize(r)
	if baseline != nil {
		g := baseline.Gate(r, time.Now())
		g.File = opts.Baseline
		r.Gate = &g
		reports.Finalize(r)
	}
	if opts.ReportDir != "" {
		if _, err := reports.WriteAll(opts.ReportDir, r); err != nil {
			return r, err
		}
	}
	return r, nil
}

// logf logs to t, when there is one.
func logf(t *testing.T, format string, args ...any) {
	if t != nil {
		t.Helper()
		t.Logf(format, args...)
	}
}

// Describe is the message of a failed scenario: the requirements it broke,
// what was expected, what came back, and the curl line to reproduce it.
func Describe(sc reports.Scenario) string { return describe(sc, false) }

// describe is Describe; for a handler run in process, the curl line says
// that it names no running server.
func describe(sc reports.Scenario, inProcess bool) string {
	f := sc.Failure
	if f == nil {
		return string(sc.Outcome)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] ", strings.Join(reports.FailedRequirements(sc), ", "))
	if f.Expected != "" || f.Got != "" {
		fmt.Fprintf(&b, "expected %s, got %s", f.Expected, f.Got)
	} else {
		b.WriteString(f.Message)
	}
	if f.Step != "" {
		fmt.Fprintf(&b, "\n  step: %s", f.Step)
	}
	if f.Curl != "" {
		if inProcess {
			b.WriteString("\n  (the handler ran in process, at no address: point the curl line at a running server)")
		}
		fmt.Fprintf(&b, "\n  reproduce: %s", f.Curl)
	}
	return b.String()
}
