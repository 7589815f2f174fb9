package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/generate"
	"github.com/campusconf/campusconf/harness/appcheck"
	"github.com/campusconf/campusconf/harness/container"
	"github.com/campusconf/campusconf/harness/simrun"
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/version"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
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
	// by generateSeed (generate)
	generate     int
	generateSeed int64
	// image is the container image the target runs in, for the report
	image string
	// bounds of the runner: a longer answer or list is not judged
	maxBody, maxHeader byteSize
	maxPages           int
	// noCredentialsCheck leaves out the checks before the suite
	// (--no-preflight, alias --no-credentials-check)
	noCredentialsCheck bool
	// strictJUnit keeps junit.xml's and ctrf.json's older mapping
	strictJUnit bool
	// implements lists the profiles claimed (comma-separated), and
	// implementation says who is tested (KEY=VALUE each): both win over
	// the fixture's
	implements     string
	implementation stringList
	// rate caps the requests per second (pace.ParseRate), wait is how
	// long to wait for the target to answer at all before the run, and
	// pollWindow how long a pending push is polled
	rate       string
	wait       time.Duration
	pollWindow time.Duration
	// appTraffic are the traffic reports of apps to check against the
	// target (harness/appcheck), read by the preflight into apps;
	// appGate makes an app at risk fail the run
	appTraffic stringList
	apps       []*appcheck.Traffic
	appGate    bool
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fs := newFlags("run", "Usage: campusconf run [flags]\n\nRuns the conformance suite and writes report.json, junit.xml, report.html, summary.md, ctrf.json,\nconformance-report.yaml (to submit; campusconf report verify checks it) and badge.svg.\nExit codes (the verdict's, docs/reports.md): 0 conformant, conformant with warnings (SHOULD failures; with --baseline, known failures) or partial, 1 not conformant (with --strict: also when a scenario judged nothing; with --app-gate: also when an app of --app-traffic is at risk), or inconclusive because the run was cut short or judged nothing, 2 inconclusive (setup: the fixture does not fit the target) or a usage error, 3 inconclusive because the target was unreachable, stopped answering, or its --image did not start.\n\nFlags:", stderr)
	fs.StringVar(&o.target, "target", "", "`URL` of the implementation under test (default: the embedded simulator)")
	fs.StringVar(&o.fixtureFile, "fixtures", "", "fixture `FILE` describing the target (required with --target; see fixtures/schema.json)")
	fs.StringVar(&o.tags, "tags", "", "run only scenarios matching a tag `EXPR`ession, e.g. '@E7 and not @destructive'")
	fs.IntVar(&o.concurrency, "concurrency", steps.DefaultConcurrency, "`N` scenarios run at once (a scenario changing a record group runs alone on it, in the run's order: the outcomes are those of --concurrency 1)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of each HTTP exchange")
	fs.DurationVar(&o.budget, "budget", 30*time.Minute, "time budget of the whole run, from the start of --image and the reachability probe on: requests not made by then fail, and the report is written, marked interrupted")
	fs.BoolVar(&o.readOnly, "read-only", false, "send no request to an operation that changes state or has an effect outside the service (creates, updates, deletes, verifies a one-time code, sends a push): the scenarios that would are skipped, and the report lists the requirements left unchecked")
	fs.BoolVar(&o.strict, "strict", false, "for CI gates: a scenario that judged nothing (skipped for any cause but an optional field left out, not configured, or errored) fails the run (exit 1)")
	o.maxBody, o.maxHeader = byteSize(wire.MaxResponseBodyBytes), byteSize(wire.MaxResponseHeaderBytes)
	fs.Var(&o.maxBody, "max-body", "`SIZE` of the longest answer body the runner reads (scenarios and generated requests); a longer answer is not judged (skipped)")
	fs.Var(&o.maxHeader, "max-header", "`SIZE` of the longest answer header the runner reads; a longer one is not judged (skipped)")
	fs.IntVar(&o.maxPages, "max-pages", steps.DefaultMaxPages, "`N` pages at most in a walk through a list; a longer list is not walked (skipped)")
	fs.BoolVar(&o.noCredentialsCheck, "no-preflight", false, "leave out the checks of the fixture against the target before the suite (credentials per user, placed operations, records; a problem stops the run with exit 2)")
	fs.BoolVar(&o.noCredentialsCheck, "no-credentials-check", false, "alias of --no-preflight")
	fs.BoolVar(&o.strictJUnit, "strict-junit", false, "junit.xml and ctrf.json count every failed scenario as a failure and every errored one as an error, whether the gate fails on it or not (the mapping before suite 3.1)")
	fs.StringVar(&o.reportDir, "report-dir", "conformance-report", "`DIR`ectory the reports are written to")
	fs.StringVar(&o.baseline, "baseline", "", "`FILE` of known failing requirements (campusconf baseline); exit 0 when every MUST failure has an entry that has not expired")
	fs.Int64Var(&o.seed, "seed", 1, "`N`, the seed of the embedded simulator's world")
	fs.Var(&o.defects, "defect", "switch on the simulator defect `NAME` in the embedded simulator (repeatable; see campusconf defects)")
	fs.BoolVar(&o.insecure, "insecure", false, "accept a self-signed TLS certificate from the target")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the verdict line")
	fs.IntVar(&o.generate, "generate", 0, "after the scenarios, send N generated requests per operation and check properties of every answer (0: none; see docs/generated.md)")
	fs.Int64Var(&o.generateSeed, "generate-seed", generate.DefaultSeed, "seed of the generated requests: the same seed sends the same requests again")
	fs.StringVar(&o.implements, "implements", "", "the profiles the implementation claims, comma-separated (campusconf profiles lists them; default: the fixture's implements, else all): the scenarios of the others are unsupported")
	fs.Var(&o.appTraffic, "app-traffic", "check an app against the target besides the suite: the traffic report `FILE` (report.json) that campusconf serve --report-dir wrote while the app ran against the simulator; each choice of the simulator the app relied on is probed (repeatable, one per app; see docs/simulator.md)")
	fs.BoolVar(&o.appGate, "app-gate", false, "with --app-traffic: an app at risk fails the run (exit 1); the conformance verdict stays the suite's")
	fs.Var(&o.implementation, "implementation", "who is tested, for conformance-report.yaml: `KEY=VALUE` with KEY organization, project, version, url or contact (repeatable; contact adds an entry; wins over the fixture's implementation)")
	fs.StringVar(&o.rate, "rate", "", "cap the requests at `N/s` (or N/min) from the start; whatever it is, answers 429, and 503 with Retry-After, are waited out as Retry-After says and the run backs off while the target limits it")
	fs.DurationVar(&o.wait, "wait", 0, "poll the target for up to `DURATION` until it answers anything at all, before the checks of the run (for a CI job that starts the implementation and the suite together; 0: probe once)")
	fs.DurationVar(&o.pollWindow, "poll-window", steps.DefaultPollWindow, "how long a push whose outcome is pending is polled, backing off, before its scenario is skipped as unobservable")
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
	if o.maxPages < 1 {
		fmt.Fprintln(stderr, "campusconf run: --max-pages must be at least 1")
		return exitUsage
	}
	if _, err := pace.ParseRate(o.rate); err != nil {
		fmt.Fprintf(stderr, "campusconf run: --rate: %v\n", err)
		return exitUsage
	}
	if o.wait < 0 || o.pollWindow <= 0 {
		fmt.Fprintln(stderr, "campusconf run: --wait must be 0 or more and --poll-window more than 0")
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
	if o.appGate && len(o.appTraffic) == 0 {
		fmt.Fprintln(stderr, "campusconf run: --app-gate needs --app-traffic FILE")
		return exitUsage
	}
	for _, file := range o.appTraffic {
		tr, err := appcheck.Read(file)
		if err != nil {
			fmt.Fprintf(stderr, "campusconf run: --app-traffic: %v\n", err)
			return exitUsage
		}
		o.apps = append(o.apps, tr)
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
		Tags:               o.tags,
		ReadOnly:           o.readOnly,
		Concurrency:        o.concurrency,
		RequestTimeout:     o.timeout,
		Budget:             o.budget,
		MaxResponseBody:    int64(o.maxBody),
		MaxResponseHeader:  int64(o.maxHeader),
		MaxPages:           o.maxPages,
		NoCredentialsCheck: o.noCredentialsCheck,
		PollWindow:         o.pollWindow,
	}
	cfg.Rate, _ = pace.ParseRate(o.rate) // checked with the flags
	target := reports.Target{}
	var red *redact.Redactor // of the target's fixture, for what is printed
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
			fmt.Fprintf(stderr, "campusconf run: --target %q: want an http:// or https:// URL\n", redact.NewWith(nil, redact.TargetSecrets(o.target)).String(o.target))
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
		red = redact.NewWith(f, cfg.Secrets)
		target = reports.Target{URL: cfg.BaseURL, Fixtures: filepath.Base(o.fixtureFile), Image: o.image}
		probe := suiterun.Probe
		if o.wait > 0 {
			if !o.quiet {
				fmt.Fprintf(stdout, "waiting up to %s (--wait) for %s to answer\n", o.wait, consoleText(red.String(cfg.BaseURL)))
			}
			probe = func(ctx context.Context, cfg steps.Config) error { return suiterun.WaitForTarget(ctx, cfg, o.wait) }
		}
		if err := probe(ctx, cfg); err != nil {
			if c := context.Cause(ctx); c != nil {
				err = fmt.Errorf("%w (%v)", err, c)
			}
			return writeNotRun(o, target, f, red, "target unreachable: "+err.Error(), stdout, stderr)
		}
		declared := false
		if !o.readOnly {
			// a target that declares a reset starts every run from its
			// seeded records, so those the destructive scenarios consume
			// are there again
			var err error
			if declared, err = suiterun.Reset(ctx, cfg); err != nil {
				fmt.Fprintf(stderr, "campusconf run: warning: the fixture's reset failed (%s); running on the records as they are\n", consoleText(red.String(err.Error())))
			}
		}
		if !o.readOnly && !declared {
			// said once the checks before the suite passed, so that a run
			// they stop does not warn of changes it never makes
			cfg.Ready = func() { warnChanges(stderr, o.tags, f) }
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
		if o.rate != "" || o.wait > 0 || o.pollWindow != steps.DefaultPollWindow {
			fmt.Fprintf(stdout, "options: rate=%s wait=%s poll-window=%s\n", pace.FormatRate(cfg.Rate), o.wait, o.pollWindow)
		}
		cfg.Progress = stdout
	}
	r, err := suiterun.Run(ctx, cfg, suiterun.Generation{N: o.generate, Seed: o.generateSeed})
	var setup *steps.SetupError
	if errors.As(err, &setup) {
		return writeSetup(o, target, cfg.Fixture, red, setup.Problems, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "\ncampusconf run: %s\n", consoleText(red.String(err.Error())))
		return exitUsage
	}
	describe(r, o, target, cfg.Fixture)
	if ctx.Err() == nil {
		checkApps(ctx, o, cfg, r, red, stdout)
	}
	r.Interrupted = r.Interrupted || ctx.Err() != nil
	r.Strict = o.strict
	r.StrictJUnit = o.strictJUnit
	reports.Finalize(r)
	g, err := gateOf(o.baseline, r)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return exitUsage
	}
	var gate string
	if g != nil {
		gate = g.String()
	}
	// WriteAll finalizes the report again, now with the gate: the verdict
	// written is the one the console prints and the exit code gives
	html, ok := writeReport(o, r, red, stdout, stderr)
	if !ok {
		return exitUsage
	}
	if ctx.Err() != nil {
		why := "by a signal"
		if errors.Is(context.Cause(ctx), errBudget) {
			why = "by the --budget"
		}
		fmt.Fprintf(stderr, "campusconf run: interrupted %s: the report covers the scenarios run before; those not finished are skipped, not judged\n", why)
	}
	if st := r.Stopped; st != nil {
		fmt.Fprintf(stderr, "campusconf run: the target stopped answering (%s): last answer at %s, errors since %s; %d scenarios errored, %d not finished\n",
			st.Why, st.LastAnswer.UTC().Format(time.TimeOnly), st.Since.UTC().Format(time.TimeOnly), r.Counts.Errored, r.Counts.SkippedBy.CutShort)
	}
	if gate != "" {
		fmt.Fprintln(stdout, gate)
	}
	if l := r.RateLimits; l != nil && !o.quiet {
		fmt.Fprintf(stdout, "rate limits: %s (never a verdict: each request was sent again)\n", l)
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "report: %s\n", html)
	}
	warnUnverifiable(stderr, filepath.Join(o.reportDir, reports.ConformanceFile))
	code := r.ExitCode()
	if risky := reports.AppsAtRisk(r); o.appGate && len(risky) > 0 && code == exitOK {
		fmt.Fprintf(stderr, "campusconf run: --app-gate: at risk on this implementation: %s\n", consoleText(strings.Join(risky, ", ")))
		code = exitFailed
	}
	return code
}

// checkApps probes the target on what each app of --app-traffic relied
// on, after the suite, and adds the apps to r; it prints a line per app.
func checkApps(ctx context.Context, o runOptions, cfg steps.Config, r *reports.Report, red *redact.Redactor, stdout io.Writer) {
	line := func(s string) string { return reports.LineText(red.String(s)) }
	t := appcheck.Target{BaseURL: cfg.BaseURL, Client: cfg.Client, Fixture: cfg.Fixture, ReadOnly: o.readOnly,
		Timeout: o.timeout, MaxBody: int64(o.maxBody)}
	for i, tr := range o.apps {
		app := appcheck.Check(ctx, t, o.appTraffic[i], tr)
		r.Apps = append(r.Apps, app)
		if o.quiet {
			continue
		}
		fmt.Fprintf(stdout, "app %s: %s (%s)\n", line(app.Name), app.Verdict, line(app.VerdictReason))
		for _, rel := range app.Relies {
			if rel.Result == reports.Differs {
				fmt.Fprintf(stdout, "  %s: %s — the simulator: %s; this implementation: %s\n", line(rel.ID), line(rel.Request), line(rel.Simulator), line(rel.Target))
			}
		}
		for _, op := range app.Operations {
			if op.Result == reports.Differs {
				fmt.Fprintf(stdout, "  %s: %s — the simulator %s; this implementation %s\n", line(op.Op), line(op.Request), line(op.Simulator), line(op.Target))
			}
		}
	}
}

// warnUnverifiable says on w when the run's conformance-report.yaml (at
// file) would not pass `campusconf report verify`, and what to add: the
// --implementation keys it lacks, or each problem verify would name.
func warnUnverifiable(w io.Writer, file string) {
	c, err := reports.ReadConformance(file)
	if err != nil {
		return // the writer said why already
	}
	probs := c.Verify()
	if len(probs) == 0 {
		return
	}
	var keys []string
	if strings.TrimSpace(c.Implementation.Organization) == "" {
		keys = append(keys, "--implementation organization=NAME")
	}
	if strings.TrimSpace(c.Implementation.Project) == "" {
		keys = append(keys, "--implementation project=NAME")
	}
	fmt.Fprintf(w, "campusconf run: %s would not verify (campusconf report verify): %s\n", reports.ConformanceFile, consoleText(strings.Join(probs, "; ")))
	if len(keys) > 0 {
		fmt.Fprintf(w, "campusconf run: to submit it, run again with %s (or the fixture's implementation: {organization: ..., project: ...})\n", strings.Join(keys, " "))
	}
}

// warnChanges says on w, before the suite starts, what the destructive
// scenarios a run selects will use up on a target whose fixture declares
// no reset, and how to have the records back (steps.ChangesWarning).
func warnChanges(w io.Writer, tags string, f *fixtures.File) {
	if text := steps.ChangesWarning(tags, f); text != "" {
		fmt.Fprintln(w, "campusconf run: "+strings.ReplaceAll(text, "a read-only run changes nothing", "--read-only changes nothing"))
	}
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
	if o.generate > 0 {
		r.Mode.GenerateSeed = o.generateSeed
	}
	if f != nil {
		r.Implements = slices.Clone(f.Implements)
		r.Implementation = steps.Implementation(f)
	}
	r.Options = map[string]string{
		"tags": o.tags, "concurrency": fmt.Sprint(o.concurrency), "timeout": o.timeout.String(), "budget": o.budget.String(),
		"readOnly": fmt.Sprint(o.readOnly), "reportDir": o.reportDir, "baseline": o.baseline,
		"generate": fmt.Sprint(o.generate), "generateSeed": fmt.Sprint(o.generateSeed),
		"strict": fmt.Sprint(o.strict), "maxBody": o.maxBody.String(), "maxHeader": o.maxHeader.String(),
		"maxPages": fmt.Sprint(o.maxPages), "credentialsCheck": fmt.Sprint(!o.noCredentialsCheck), "strictJUnit": fmt.Sprint(o.strictJUnit),
		"rate": o.rate, "wait": o.wait.String(), "pollWindow": o.pollWindow.String(),
	}
	if len(o.appTraffic) > 0 {
		r.Options["appTraffic"], r.Options["appGate"] = strings.Join(o.appTraffic, ", "), fmt.Sprint(o.appGate)
	}
}

// writeNotRun writes the reports of a run that could not start, verdict
// "target unreachable" with reason, prints why, and returns
// exitUnreachable: a CI job still gets its junit.xml, with one errored case.
func writeNotRun(o runOptions, target reports.Target, f *fixtures.File, red *redact.Redactor, reason string, stdout, stderr io.Writer) int {
	reason = red.String(reason)
	fmt.Fprintf(stderr, "campusconf run: %s\n", consoleText(reason))
	r, err := steps.NotRun(reason)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return exitUnreachable
	}
	describe(r, o, target, o.claims(f))
	html, ok := writeReport(o, r, red, stdout, stderr)
	if !ok {
		return exitUnreachable
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "report: %s\n", html)
	}
	return exitUnreachable
}

// writeSetup writes the reports of a run the checks before the suite
// stopped, verdict inconclusive (setup) with each problem, prints each
// (one line saying what to fix), and returns reports.ExitSetup.
func writeSetup(o runOptions, target reports.Target, f *fixtures.File, red *redact.Redactor, problems []string, stdout, stderr io.Writer) int {
	for i, p := range problems {
		problems[i] = red.String(p)
		fmt.Fprintf(stderr, "campusconf run: %s\n", consoleText(problems[i]))
	}
	r, err := steps.NotRun("")
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return reports.ExitSetup
	}
	r.Setup = problems
	describe(r, o, target, o.claims(f))
	r.StrictJUnit = o.strictJUnit
	html, ok := writeReport(o, r, red, stdout, stderr)
	if !ok {
		return reports.ExitSetup
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "report: %s\n", html)
	}
	return reports.ExitSetup
}

// writeReport redacts r, writes its files to the report directory and
// prints its summary; it returns the path of report.html, or false after
// saying why the files could not be written.
func writeReport(o runOptions, r *reports.Report, red *redact.Redactor, stdout, stderr io.Writer) (html string, ok bool) {
	r.Redact(red)
	html, err := reports.WriteAll(o.reportDir, r)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: writing the report: %v\n", err)
		return "", false
	}
	printSummary(stdout, r, o.quiet)
	return html, true
}

// fixSnippets are what to add to a fixture that lacks a convention the
// scenarios need, in the simulator's syntax (docs/fixtures.md).
var fixSnippets = map[string]string{
	"conventions.sortby": `"conventions": {"sortby": {"ascending": "{field} asc", "descending": "{field} desc", "separator": ","}}`,
}

func printSummary(w io.Writer, r *reports.Report, quiet bool) {
	c := r.Counts
	if !quiet {
		fmt.Fprintln(w)
	}
	// the verdict line: the headline every report file gives, then counts
	if r.Reason != "" && r.VerdictCause == reports.InconclusiveUnreachable {
		fmt.Fprintln(w, consoleText(reports.Headline(r)))
		return
	}
	unsupported := ""
	if c.Unsupported > 0 {
		unsupported = fmt.Sprintf(", %d unsupported", c.Unsupported)
	}
	fmt.Fprintf(w, "%s — %d scenarios: %d passed, %d failed (%d MUST, %d SHOULD), %d errored, %d skipped, %d not configured%s, %d flaky in %s\n",
		consoleText(reports.Headline(r)), c.Scenarios, c.Passed, c.Failed, c.FailedMust, c.FailedShould, c.Errored, c.Skipped, c.NotConfigured,
		unsupported, c.Flaky, time.Duration(r.Duration).Round(time.Millisecond))
	if quiet {
		return
	}
	conf := reports.ConformanceOf(r)
	fmt.Fprintf(w, "profiles claimed: %s\n", strings.Join(conf.Implements, ", "))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", consoleText(n))
	}
	if n := c.SkippedBy.ReadOnly; n > 0 {
		fmt.Fprintf(w, "read-only: %d scenarios not run, as each would change state; %d requirements left unchecked\n", n, len(r.ReadOnlyUnchecked))
	}
	for _, s := range r.Scenarios {
		switch {
		case s.Outcome == reports.Error && s.Failure != nil:
			fmt.Fprintf(w, "error: %s %s: %s\n", s.Operation, consoleText(s.Name), consoleText(s.Failure.Message))
		case s.Flaky:
			fmt.Fprintf(w, "flaky: %s %s: passed only after %d read(s) sent again\n", s.Operation, consoleText(s.Name), s.Retries)
		}
	}
	for _, g := range reports.SkipsOf(r, reports.CauseRunnerLimit) {
		fmt.Fprintf(w, "not judged, a limit of the runner: %s (%d scenarios)\n", consoleText(g.Key), g.Scenarios)
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
			if s, ok := fixSnippets[g.Key]; ok {
				fmt.Fprintf(w, "    add to the fixture, in the syntax the implementation takes (the simulator's shown): %s\n", s)
			}
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
