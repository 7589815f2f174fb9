package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/container"
	"github.com/campusconf/campusconf/internal/generate"
	"github.com/campusconf/campusconf/internal/redact"
	"github.com/campusconf/campusconf/internal/simrun"
	"github.com/campusconf/campusconf/internal/suiterun"
	"github.com/campusconf/campusconf/internal/version"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
)

// runOptions are the flags of `campusconf run`.
type runOptions struct {
	target      string
	fixtureFile string
	tags        string
	concurrency int
	timeout     time.Duration
	budget      time.Duration
	readOnly    bool
	strict      bool
	reportDir   string
	baseline    string
	seed        int64
	defects     stringList
	insecure    bool
	quiet       bool
	// generate is the number of generated requests per operation, seeded
	// by generateSeed (internal/generate)
	generate     int
	generateSeed int64
	// image is the container image the target runs in, for the report
	image string
	// implements lists the profiles claimed (comma-separated), and
	// implementation says who is tested (KEY=VALUE each): both win over
	// the fixture's
	implements     string
	implementation stringList
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fs := newFlags("run", "Usage: campusconf run [flags]\n\nRuns the conformance suite and writes report.json, junit.xml, report.html, summary.md, ctrf.json,\nconformance-report.yaml (to submit; campusconf report verify checks it) and badge.svg.\nExit codes: 0 conformant (with --baseline: every MUST failure has an entry that has not expired), 1 not conformant, 2 usage or configuration error, 3 target unreachable (or its --image did not start).\n\nFlags:", stderr)
	fs.StringVar(&o.target, "target", "", "`URL` of the implementation under test (default: the embedded simulator)")
	fs.StringVar(&o.fixtureFile, "fixtures", "", "fixture `FILE` describing the target (required with --target; see fixtures/schema.json)")
	fs.StringVar(&o.tags, "tags", "", "run only scenarios matching a tag `EXPR`ession, e.g. '@E7 and not @destructive'")
	fs.IntVar(&o.concurrency, "concurrency", steps.DefaultConcurrency, "`N` scenarios run at once (a scenario changing a record group runs alone on it, in file order: the outcomes are those of --concurrency 1)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of each HTTP exchange")
	fs.DurationVar(&o.budget, "budget", 30*time.Minute, "time budget of the whole run, from the start of --image and the reachability probe on: requests not made by then fail, and the report is written, marked interrupted")
	fs.BoolVar(&o.readOnly, "read-only", false, "skip scenarios that change or delete data (@destructive)")
	fs.BoolVar(&o.strict, "strict", false, "for CI gates: a skipped or not-configured scenario fails the run (exit 1)")
	fs.StringVar(&o.reportDir, "report-dir", "conformance-report", "`DIR`ectory the reports are written to")
	fs.StringVar(&o.baseline, "baseline", "", "`FILE` of known failing requirements (campusconf baseline); exit 0 when every MUST failure has an entry that has not expired")
	fs.Int64Var(&o.seed, "seed", 1, "`N`, the seed of the embedded simulator's world")
	fs.Var(&o.defects, "defect", "switch on the simulator defect `NAME` in the embedded simulator (repeatable; see campusconf defects)")
	fs.BoolVar(&o.insecure, "insecure", false, "accept a self-signed TLS certificate from the target")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the verdict line")
	fs.IntVar(&o.generate, "generate", 0, "after the scenarios, send N generated requests per operation and check properties of every answer (0: none; see docs/generated.md)")
	fs.Int64Var(&o.generateSeed, "generate-seed", generate.DefaultSeed, "seed of the generated requests: the same seed sends the same requests again")
	fs.StringVar(&o.implements, "implements", "", "the profiles the implementation claims, comma-separated (campusconf profiles lists them; default: the fixture's implements, else all): the scenarios of the others are unsupported")
	fs.Var(&o.implementation, "implementation", "who is tested, for conformance-report.yaml: `KEY=VALUE` with KEY organization, project, version, url or contact (repeatable; contact adds an entry; wins over the fixture's implementation)")
	var img container.Options
	var imgEnv stringList
	fs.StringVar(&img.Image, "image", "", "container `IMAGE` of the implementation: start it, run the suite against it, remove it (must exist locally; needs --fixtures; see docs/containers.md)")
	fs.StringVar(&img.Port, "port", container.DefaultPort, "with --image: container `PORT` the implementation listens on")
	fs.Var(&imgEnv, "env", "with --image: environment variable `NAME=VALUE` of the container (repeatable)")
	fs.StringVar(&img.WaitPath, "wait-path", container.DefaultWaitPath, "with --image: `PATH` polled until the container answers (any HTTP status means up)")
	fs.DurationVar(&img.StartupTimeout, "startup-timeout", container.DefaultStartupTimeout, "with --image: how long the container gets to answer")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if o.generate < 0 {
		fmt.Fprintln(stderr, "campusconf run: --generate must be 0 (none) or more")
		return exitUsage
	}
	if o.concurrency < 1 {
		fmt.Fprintln(stderr, "campusconf run: --concurrency must be at least 1")
		return exitUsage
	}
	if img.Image == "" {
		for _, name := range []string{"port", "env", "wait-path", "startup-timeout"} {
			if isFlagSet(fs, name) {
				fmt.Fprintf(stderr, "campusconf run: --%s needs --image\n", name)
				return exitUsage
			}
		}
	} else {
		img.Env = make(map[string]string, len(imgEnv))
		for _, kv := range imgEnv {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				fmt.Fprintf(stderr, "campusconf run: --env: expected NAME=VALUE, got %q\n", kv)
				return exitUsage
			}
			img.Env[k] = v
		}
	}
	if err := o.preflight(img.Image != ""); err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.budget > 0 {
		// the budget covers everything from here: the container's start,
		// the probe, the suite; report writing comes after it, bounded by
		// the report size caps
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, o.budget, errBudget)
		defer cancel()
	}
	if img.Image != "" {
		return runWithImage(ctx, o, img, stdout, stderr)
	}
	return runSuite(ctx, o, stdout, stderr)
}

// isFlagSet reports whether name was given on the command line.
func isFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func runSuite(ctx context.Context, o runOptions, stdout, stderr io.Writer) int {
	cfg := steps.Config{
		Tags:           o.tags,
		ReadOnly:       o.readOnly,
		Concurrency:    o.concurrency,
		RequestTimeout: o.timeout,
		Budget:         o.budget,
	}
	target := reports.Target{}
	var red *reports.Redactor // of the target's fixture, for what is printed
	if o.target == "" {
		if o.fixtureFile != "" {
			fmt.Fprintln(stderr, "campusconf run: --fixtures needs --target (the embedded simulator makes its own)")
			return exitUsage
		}
		// requests never leave the process, but their URLs (and the curl
		// lines in reports) point where `campusconf serve --seed N` listens,
		// so a failing request can be replayed against the same world
		var err error
		if cfg, err = simrun.Simulator(cfg, simulator.Options{Seed: o.seed, Defects: o.defects}); err != nil {
			fmt.Fprintf(stderr, "campusconf run: %v\n", err)
			return exitUsage
		}
		f := *cfg.Fixture
		if f.Implementation == nil {
			// what was tested: this build's simulator
			f.Implementation = &fixtures.Implementation{Organization: "campusconf", Project: "campusconf simulator",
				Version: version.Get().Version, URL: "https://github.com/campusconf/campusconf"}
		}
		cfg.Fixture = o.claims(&f)
		seed := o.seed
		target = reports.Target{URL: fmt.Sprintf("embedded simulator (replay: campusconf serve --seed %d)", seed), Seed: &seed, Fixtures: "embedded", Defects: o.defects}
	} else {
		if len(o.defects) > 0 {
			fmt.Fprintln(stderr, "campusconf run: --defect applies to the embedded simulator only")
			return exitUsage
		}
		if !strings.HasPrefix(o.target, "http://") && !strings.HasPrefix(o.target, "https://") {
			fmt.Fprintf(stderr, "campusconf run: --target %q: want an http:// or https:// URL\n", o.target)
			return exitUsage
		}
		if o.fixtureFile == "" {
			fmt.Fprintln(stderr, "campusconf run: --target needs --fixtures FILE (credentials and record ids of the target; `campusconf fixtures` prints the simulator's)")
			return exitUsage
		}
		f, err := fixtures.Load(o.fixtureFile)
		if err != nil {
			fmt.Fprintf(stderr, "campusconf run: %v\n", err)
			return exitUsage
		}
		// the probe and the reset use this client too: no redirect is followed
		cfg = suiterun.OverHTTP(cfg, o.target, o.insecure)
		f = o.claims(f)
		cfg.Fixture = f
		red = redact.New(f)
		target = reports.Target{URL: cfg.BaseURL, Fixtures: filepath.Base(o.fixtureFile), Image: o.image}
		if err := probe(ctx, cfg.Client, cfg.BaseURL, o.timeout); err != nil {
			if c := context.Cause(ctx); c != nil {
				err = fmt.Errorf("%w (%v)", err, c)
			}
			return writeNotRun(o, target, f, red, "target unreachable: "+err.Error(), stdout, stderr)
		}
		if f.Reset != nil && !o.readOnly {
			// a target that declares a reset starts every run from its
			// seeded records, so those the destructive scenarios consume
			// are there again
			if err := resetAs(ctx, cfg.Client, cfg.BaseURL, f, o.timeout); err != nil {
				fmt.Fprintf(stderr, "campusconf run: warning: the fixture's reset failed (%s); running on the records as they are\n", consoleText(red.String(err.Error())))
			}
		} else if f.Control != "" && !o.readOnly {
			// a target that offers a reset (the simulator's control API)
			// starts every run from its seeded world, so records the
			// destructive scenarios consume are there again
			if err := reset(ctx, cfg.Client, cfg.BaseURL+f.Control+"/reset", o.timeout); err != nil {
				fmt.Fprintf(stderr, "campusconf run: warning: the fixture names a control API, but its reset failed (%s); running on the world as it is\n", consoleText(red.String(err.Error())))
			}
		}
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "campusconf %s (suite %s): running the conformance suite against %s\n", version.Get().Version, version.Suite, target.URL)
		tags := o.tags
		if tags == "" {
			tags = "(all)"
		}
		fmt.Fprintf(stdout, "options: fixtures=%s tags=%s read-only=%v concurrency=%d timeout=%s budget=%s report-dir=%s\n",
			target.Fixtures, tags, o.readOnly, o.concurrency, o.timeout, o.budget, o.reportDir)
		cfg.Progress = stdout
	}
	r, err := suiterun.Run(ctx, cfg, suiterun.Generation{N: o.generate, Seed: o.generateSeed})
	if err != nil {
		fmt.Fprintf(stderr, "\ncampusconf run: %s\n", consoleText(red.String(err.Error())))
		return exitUsage
	}
	describe(r, o, target, cfg.Fixture)
	r.Interrupted = r.Interrupted || ctx.Err() != nil
	reports.Finalize(r)
	strictFail := o.strict && r.Counts.Skipped+r.Counts.NotConfigured > 0
	if strictFail {
		r.Notes = append(r.Notes, fmt.Sprintf("--strict: %d scenario(s) skipped and %d not configured fail the run", r.Counts.Skipped, r.Counts.NotConfigured))
	}
	g, err := gateOf(o.baseline, r)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return exitUsage
	}
	red.Report(r)
	html, err := reports.WriteAll(o.reportDir, r)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: writing the report: %v\n", err)
		return exitUsage
	}
	code := exitOK
	if r.Verdict != reports.VerdictConformant {
		code = exitFailed
	}
	var gate string
	if g != nil {
		gate = g.String()
		if g.Pass {
			code = exitOK
		} else {
			code = exitFailed
		}
	}
	if strictFail || r.Interrupted {
		// a CI gate wants every scenario to have run; a run cut short
		// proves nothing either way
		code = exitFailed
	}
	printSummary(stdout, r, o.quiet)
	if ctx.Err() != nil {
		why := "by a signal"
		if errors.Is(context.Cause(ctx), errBudget) {
			why = "by the --budget"
		}
		fmt.Fprintf(stderr, "campusconf run: interrupted %s: the report covers the scenarios run before, the rest failed unsent\n", why)
	}
	if gate != "" {
		fmt.Fprintln(stdout, gate)
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "report: %s\n", html)
	}
	return code
}

// gateOf judges a finalized report against the baseline file, when there
// is one (the preflight has read it once already), today, and records the
// result in the report so summary.md, ctrf.json and a later diff say it
// too. It returns nil without a baseline.
func gateOf(file string, r *reports.Report) (*reports.GateResult, error) {
	if file == "" {
		return nil, nil
	}
	b, err := reports.ReadBaseline(file)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	g := b.Gate(r, time.Now())
	g.File = file
	r.Gate = &g
	return &g, nil
}

// errBudget is the cause of the run's context ending with the --budget.
var errBudget = errors.New("the --budget ran out")

// describe fills in what the command knows of the run: tool, target, the
// effective options, its mode, and from the target's fixture f (nil when
// it was not read), the profiles claimed and who was tested.
func describe(r *reports.Report, o runOptions, target reports.Target, f *fixtures.File) {
	r.Tool = reports.NewTool("campusconf")
	r.Target = target
	r.Mode = reports.Mode{ReadOnly: o.readOnly, Tags: o.tags, Generated: o.generate}
	if f != nil {
		r.Implements = slices.Clone(f.Implements)
		r.Implementation = steps.Implementation(f)
	}
	r.Options = map[string]string{
		"tags": o.tags, "concurrency": fmt.Sprint(o.concurrency), "timeout": o.timeout.String(), "budget": o.budget.String(),
		"readOnly": fmt.Sprint(o.readOnly), "reportDir": o.reportDir, "baseline": o.baseline,
		"generate": fmt.Sprint(o.generate), "generateSeed": fmt.Sprint(o.generateSeed),
	}
}

// writeNotRun writes the reports of a run that could not start, verdict
// "target unreachable" with reason, prints why, and returns
// exitUnreachable: a CI job still gets its junit.xml, with one errored case.
func writeNotRun(o runOptions, target reports.Target, f *fixtures.File, red *reports.Redactor, reason string, stdout, stderr io.Writer) int {
	reason = red.String(reason)
	fmt.Fprintf(stderr, "campusconf run: %s\n", consoleText(reason))
	r, err := steps.NotRun(reason)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return exitUnreachable
	}
	describe(r, o, target, o.claims(f))
	red.Report(r)
	html, err := reports.WriteAll(o.reportDir, r)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: writing the report: %v\n", err)
		return exitUnreachable
	}
	printSummary(stdout, r, o.quiet)
	if !o.quiet {
		fmt.Fprintf(stdout, "report: %s\n", html)
	}
	return exitUnreachable
}

// reset asks a control API to restore the target's seeded world.
func reset(ctx context.Context, c *http.Client, url string, timeout time.Duration) error {
	return call(ctx, c, http.MethodPost, url, nil, timeout)
}

// resetAs makes the fixture's reset call as its user, with the
// subscription key.
func resetAs(ctx context.Context, c *http.Client, base string, f *fixtures.File, timeout time.Duration) error {
	method := f.Reset.Method
	if method == "" {
		method = http.MethodPost
	}
	h := http.Header{}
	key := f.SubscriptionKey
	if u, ok := f.Users[f.Reset.User]; ok {
		for k, v := range u.Headers {
			h.Set(k, v)
		}
		if u.SubscriptionKey != "" {
			key = u.SubscriptionKey
		}
	}
	if key != "" {
		h.Set(wire.KeyHeader, key)
	}
	return call(ctx, c, method, base+f.Reset.Path, h, timeout)
}

// call makes one request with no body and wants a 2xx answer.
func call(ctx context.Context, c *http.Client, method, url string, h http.Header, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s answered %d", method, url, resp.StatusCode)
	}
	return nil
}

// probe checks that something answers HTTP at base.
func probe(ctx context.Context, c *http.Client, base string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/", nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return resp.Body.Close()
}

func printSummary(w io.Writer, r *reports.Report, quiet bool) {
	c := r.Counts
	if !quiet {
		fmt.Fprintln(w)
	}
	if r.Reason != "" {
		fmt.Fprintf(w, "%s: %s\n", strings.ToUpper(string(r.Verdict)), consoleText(r.Reason))
		return
	}
	interrupted := ""
	if r.Interrupted {
		interrupted = " (interrupted)"
	}
	unsupported := ""
	if c.Unsupported > 0 {
		unsupported = fmt.Sprintf(", %d unsupported", c.Unsupported)
	}
	fmt.Fprintf(w, "%s%s: %d scenarios, %d passed, %d failed (%d MUST, %d SHOULD), %d skipped, %d not configured%s in %s\n",
		strings.ToUpper(string(r.Verdict)), interrupted, c.Scenarios, c.Passed, c.Failed, c.FailedMust, c.FailedShould, c.Skipped, c.NotConfigured,
		unsupported, time.Duration(r.Duration).Round(time.Millisecond))
	if quiet {
		return
	}
	conf := reports.ConformanceOf(r)
	fmt.Fprintf(w, "conformance: %s (%s); profiles claimed: %s\n", conf.Status, consoleText(conf.Reason), strings.Join(conf.Implements, ", "))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", consoleText(n))
	}
	fmt.Fprintf(w, "requirements: %d of %d covered, %d passing\n", c.RequirementsCovered, c.Requirements, c.RequirementsPassing)
	if gaps := reports.Gaps(r); len(gaps) > 0 {
		fmt.Fprintln(w, "not run, for want of:")
		for _, g := range gaps {
			line := fmt.Sprintf("  %s: %d scenario(s)", g.Key, g.Scenarios)
			if len(g.Uncovered) > 0 {
				line += fmt.Sprintf(", %d requirement(s) uncovered: %s", len(g.Uncovered), strings.Join(g.Uncovered, ", "))
			}
			fmt.Fprintln(w, consoleText(line))
		}
	}
	var failed []string
	for _, q := range r.Requirements {
		if q.Result == reports.ResultFailed {
			failed = append(failed, fmt.Sprintf("  %-7s %-28s %s", q.Strictness, q.ID, q.Text))
		}
	}
	sort.Strings(failed)
	if len(failed) > 0 {
		fmt.Fprintln(w, "failed requirements:")
		for _, l := range failed {
			fmt.Fprintln(w, l)
		}
	}
}
