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
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/suiterun"
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
	// ReadOnly leaves out the scenarios that change or delete data.
	ReadOnly bool
	// Concurrency is the number of scenarios run at once (default 1).
	Concurrency int
	// Timeout bounds each HTTP exchange (default 10 s).
	Timeout time.Duration
	// ReportDir, when set, receives the report files of the run (reports.ReportFiles).
	ReportDir string
	// Strict fails the test when a scenario is skipped or not configured
	// (an unsupported one, of a profile the fixture does not claim, is
	// skipped all the same).
	Strict bool
}

// Run runs the suite and reports each scenario as a subtest of t: a
// failed scenario fails its subtest with the requirement ids and the
// expected/got message, a skipped or not-configured one is skipped with
// its reason (failed with Strict). It returns the report. An error that
// keeps the suite from running (a bad fixture file, a tag expression that
// selects nothing) fails t at once.
func Run(t *testing.T, opts Options) *reports.Report {
	t.Helper()
	r, err := Report(t, opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	for _, sc := range r.Scenarios {
		t.Run(sc.Feature+"/"+sc.Name, func(t *testing.T) {
			switch sc.Outcome {
			case reports.Failed:
				t.Error(Describe(sc))
			case reports.Unsupported:
				// a profile the fixture does not claim: never a failure
				t.Skipf("%s: %s", sc.Outcome, sc.SkipReason)
			case reports.Skipped, reports.NotConfigured:
				if opts.Strict {
					t.Errorf("%s: %s", sc.Outcome, sc.SkipReason)
					return
				}
				t.Skipf("%s: %s", sc.Outcome, sc.SkipReason)
			}
		})
	}
	return r
}

// Report runs the suite and returns its report without reporting it to t
// (t only provides the context; it may be nil).
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
	cfg := steps.Config{
		Fixture:        f,
		Tags:           opts.Tags,
		ReadOnly:       opts.ReadOnly,
		Concurrency:    opts.Concurrency,
		RequestTimeout: opts.Timeout,
	}
	switch {
	case opts.Handler != nil:
		base := opts.BaseURL
		if base == "" {
			base = HandlerBaseURL
		}
		cfg = suiterun.InProcess(cfg, opts.Handler, base)
	case opts.BaseURL == "":
		return nil, fmt.Errorf("no target: set Options.Handler or Options.BaseURL")
	default:
		cfg = suiterun.OverHTTP(cfg, opts.BaseURL, false)
	}
	ctx := contextOf(t)
	r, err := suiterun.Run(ctx, cfg, suiterun.Generation{})
	if err != nil {
		return nil, err
	}
	r.Tool = reports.NewTool("campusconf conformance package")
	r.Target = reports.Target{URL: cfg.BaseURL, Fixtures: opts.FixturesFile}
	r.Mode = reports.Mode{ReadOnly: opts.ReadOnly, Tags: opts.Tags}
	if opts.ReportDir != "" {
		if _, err := reports.WriteAll(opts.ReportDir, r); err != nil {
			return r, err
		}
	}
	return r, nil
}

// Describe is the message of a failed scenario: the requirements it broke,
// what was expected, what came back, and the curl line to reproduce it.
func Describe(sc reports.Scenario) string {
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
		fmt.Fprintf(&b, "\n  reproduce: %s", f.Curl)
	}
	return b.String()
}
