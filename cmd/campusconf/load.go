package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/harness/loadgen"
	"github.com/campusconf/campusconf/internal/didyoumean"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator"
)

// loadOptions are the flags of `campusconf load`.
type loadOptions struct {
	target      string
	fixtureFile string
	op          string
	duration    time.Duration
	concurrency int
	timeout     time.Duration
	allowRemote bool
	scale       int
	rate        string
	reportDir   string
	targetsFile string
}

func loadCmd(args []string, stdout, stderr io.Writer) int {
	var o loadOptions
	fs := newFlags("load", loadUsage, stderr)
	fs.StringVar(&o.target, "target", "", "`URL` to load (default: the simulator, served in process on a loopback port)")
	fs.StringVar(&o.fixtureFile, "fixtures", "", "fixture `FILE` of the target (required with --target)")
	fs.StringVar(&o.op, "op", string(registry.E10), "`OP`eration to call: "+strings.Join(loadgen.OperationIDs(), ", "))
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "how long to send requests (at most "+loadgen.MaxDuration.String()+")")
	fs.IntVar(&o.concurrency, "concurrency", 8, fmt.Sprintf("`N` requests in flight (1..%d)", loadgen.MaxConcurrency))
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of each request")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow a target that is not a loopback address")
	fs.IntVar(&o.scale, "scale", 1, "`K`, the scale of the in-process simulator's world (without --target)")
	fs.StringVar(&o.rate, "rate", "", "send at `N/s` (or N/min, as run --rate) whatever the latency (the open model); --concurrency then bounds the requests in flight (default: the closed model, --concurrency in flight)")
	fs.StringVar(&o.reportDir, "report-dir", "", "write vegeta's results (results.bin), its metrics (metrics.json) and a latency plot (plot.html) to `DIR`")
	fs.StringVar(&o.targetsFile, "targets", "", "write the request as vegeta's JSON targets to `FILE` (mode 0600: it holds the credentials) and send nothing")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if err := o.check(fs.Args()); err != nil {
		fmt.Fprintln(stderr, "campusconf load:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runLoad(ctx, o, stdout, stderr)
}

// loadUsage is the help of `campusconf load`.
const loadUsage = `Usage: campusconf load [flags]

Sends one operation, as the fixture's owner, for --duration on vegeta
(github.com/tsenart/vegeta): at --rate N/s whatever the latency (the open
model: latencies free of coordinated omission), or with --concurrency
requests in flight (the closed model). Prints requests/s, latency
percentiles and errors; --report-dir keeps the results in vegeta's format
and a latency plot. --targets FILE writes the request as vegeta's targets
instead, to run the same load with vegeta on other machines and merge the
results (docs/simulator.md, "Load"). Loopback targets only unless
--allow-remote. Exit codes: 0 every request answered 2xx, 1 some were not,
2 usage error, 3 target unreachable.

Flags:`

// check validates the options before anything is sent.
func (o loadOptions) check(rest []string) error {
	switch {
	case len(rest) > 0:
		return fmt.Errorf("unexpected argument %q", rest[0])
	case badRate(o.rate):
		_, err := pace.ParseRate(o.rate)
		return fmt.Errorf("--rate: %w", err)
	case o.duration <= 0 || o.duration > loadgen.MaxDuration:
		return fmt.Errorf("--duration: expected more than 0 and at most %s, got %s", loadgen.MaxDuration, o.duration)
	case o.concurrency < 1 || o.concurrency > loadgen.MaxConcurrency:
		return fmt.Errorf("--concurrency: expected 1 to %d, got %d", loadgen.MaxConcurrency, o.concurrency)
	case o.timeout <= 0:
		return fmt.Errorf("--timeout: expected a positive duration, got %s", o.timeout)
	case o.scale < 1:
		return fmt.Errorf("--scale: expected a positive integer, got %d", o.scale)
	case !slices.Contains(loadgen.OperationIDs(), registry.ID(o.op)):
		return fmt.Errorf("--op: expected one of %s, got %q%s", strings.Join(loadgen.OperationIDs(), ", "), o.op, didyoumean.Hint(o.op, loadgen.OperationIDs()))
	case o.targetsFile != "" && o.target == "":
		return errors.New("--targets needs --target and --fixtures (the in-process simulator's address lasts only as long as the command)")
	case o.target == "" && o.fixtureFile != "":
		return errors.New("--fixtures needs --target (the in-process simulator makes its own)")
	case o.target == "":
		return nil
	case o.fixtureFile == "":
		return errors.New("--target needs --fixtures FILE")
	}
	u, err := url.Parse(o.target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--target %q: want an http:// or https:// URL", o.target)
	}
	if !o.allowRemote && o.targetsFile == "" && !loadgen.IsLoopback(u.Hostname()) {
		return fmt.Errorf("--target %q is not a loopback address: load only your own machine, or pass --allow-remote for a service you are allowed to load", o.target)
	}
	return nil
}

func runLoad(ctx context.Context, o loadOptions, stdout, stderr io.Writer) int {
	var f *fixtures.File
	base := strings.TrimRight(o.target, "/")
	if o.target == "" {
		sim, err := simulator.New(simulator.Options{Scale: o.scale})
		if err != nil {
			fmt.Fprintln(stderr, "campusconf load:", err)
			return exitUsage
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(stderr, "campusconf load:", err)
			return exitFailed
		}
		srv := &http.Server{Handler: sim, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }() // ends with ErrServerClosed at Close
		defer func() { _ = srv.Close() }()
		f, base = sim.Fixtures(), "http://"+ln.Addr().String()
	} else {
		var err error
		if f, err = fixtures.Load(o.fixtureFile); err != nil {
			fmt.Fprintln(stderr, "campusconf load:", err)
			return exitUsage
		}
	}
	req, err := loadgen.NewRequest(o.op, base, f)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf load:", err)
		return exitUsage
	}
	if o.targetsFile != "" {
		return writeTargets(o.targetsFile, req, stdout, stderr)
	}
	red := redact.New(f)
	if _, err := loadgen.Probe(ctx, req, o.timeout); err != nil {
		fmt.Fprintf(stderr, "campusconf load: target %s is unreachable: %v\n", base, err)
		return exitUnreachable
	}
	run := loadgen.Options{Request: req, Concurrency: o.concurrency, Duration: o.duration, Timeout: o.timeout}
	model := fmt.Sprintf("closed model, %d in flight", o.concurrency)
	if perSecond, _ := pace.ParseRate(o.rate); perSecond > 0 { // checked with the flags
		run.Rate = loadgen.Rate(perSecond)
		model = fmt.Sprintf("open model at %s, at most %d in flight", pace.FormatRate(perSecond), o.concurrency)
	}
	var files []*os.File
	if o.reportDir != "" {
		if err := os.MkdirAll(o.reportDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "campusconf load:", err)
			return exitUsage
		}
		defer func() {
			for _, f := range files {
				if err := f.Close(); err != nil {
					fmt.Fprintln(stderr, "campusconf load:", err)
				}
			}
		}()
		for _, name := range []string{"results.bin", "plot.html"} {
			f, err := os.Create(filepath.Join(o.reportDir, name))
			if err != nil {
				fmt.Fprintln(stderr, "campusconf load:", err)
				return exitUsage
			}
			files = append(files, f)
		}
		run.Results, run.Plot = files[0], files[1]
	}

	fmt.Fprintf(stdout, "campusconf load: %s %s for %s, %s\n", req.Method, red.String(req.URL), o.duration, model)
	r, err := loadgen.Run(ctx, run)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf load:", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "requests: %d in %s, %.0f requests/s\n", r.Requests, r.Duration.Round(time.Millisecond), r.Rate)
	l := r.Latencies
	fmt.Fprintf(stdout, "latency: p50 %s, p90 %s, p99 %s, max %s\n", l.P50.Round(time.Microsecond), l.P90.Round(time.Microsecond),
		l.P99.Round(time.Microsecond), l.Max.Round(time.Microsecond))
	fmt.Fprintf(stdout, "errors: %d (%s)\n", r.Errors(), red.String(strings.Join(r.Breakdown(), ", ")))
	if !r.Sustained() {
		fmt.Fprintf(stdout, "rate: %.0f requests/s sent of the %s asked: the target did not answer fast enough for --concurrency %d\n", r.Rate, strings.TrimSpace(o.rate), o.concurrency)
	}
	if o.reportDir != "" {
		for _, f := range files {
			if err := f.Close(); err != nil {
				fmt.Fprintln(stderr, "campusconf load:", err)
				return exitUsage
			}
		}
		if data, err := json.MarshalIndent(r.Metrics, "", "  "); err == nil {
			err = os.WriteFile(filepath.Join(o.reportDir, "metrics.json"), data, 0o644)
			if err != nil {
				fmt.Fprintln(stderr, "campusconf load:", err)
				return exitUsage
			}
		}
		fmt.Fprintf(stdout, "results: %s (vegeta's format: vegeta report %s), plot: %s\n", filepath.Join(o.reportDir, "results.bin"),
			filepath.Join(o.reportDir, "results.bin"), filepath.Join(o.reportDir, "plot.html"))
	}
	if r.Errors() > 0 {
		return exitFailed
	}
	return exitOK
}

// writeTargets writes req as vegeta's JSON targets to path, readable by
// its owner only: the targets hold the fixture's credentials.
func writeTargets(path string, req loadgen.Request, stdout, stderr io.Writer) int {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf load:", err)
		return exitUsage
	}
	if err := errors.Join(loadgen.WriteTargets(f, req), f.Close()); err != nil {
		fmt.Fprintln(stderr, "campusconf load:", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s: vegeta's JSON targets (they hold the fixture's credentials: keep the file private)\n", path)
	fmt.Fprintf(stdout, "run them: vegeta attack -format=json -targets=%s -rate=50/s -duration=30s > results-$(hostname).bin; then vegeta report results-*.bin\n", path)
	return exitOK
}

// badRate reports whether a --rate value does not parse.
func badRate(s string) bool {
	_, err := pace.ParseRate(s)
	return err != nil
}
