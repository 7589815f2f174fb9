package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/harness/loadgen"
	"github.com/campusconf/campusconf/internal/didyoumean"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
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
	// rate caps the requests per second: run's syntax (pace.ParseRate)
	rate string
}

func loadCmd(args []string, stdout, stderr io.Writer) int {
	var o loadOptions
	fs := newFlags("load", "Usage: campusconf load [flags]\n\nSends one operation as fast as --concurrency allows for --duration, as the\nfixture's owner, then prints requests/s, latency percentiles and errors.\nLoopback targets only unless --allow-remote.\n\nFlags:", stderr)
	fs.StringVar(&o.target, "target", "", "`URL` to load (default: the simulator, served in process on a loopback port)")
	fs.StringVar(&o.fixtureFile, "fixtures", "", "fixture `FILE` of the target (required with --target)")
	fs.StringVar(&o.op, "op", string(registry.E10), "`OP`eration to call: "+strings.Join(loadgen.OperationIDs(), ", "))
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "how long to send requests (at most "+loadgen.MaxDuration.String()+")")
	fs.IntVar(&o.concurrency, "concurrency", 8, fmt.Sprintf("`N` requests in flight (1..%d)", loadgen.MaxConcurrency))
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of each request")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow a target that is not a loopback address")
	fs.StringVar(&o.rate, "rate", "", "cap the requests at `N/s` (or N/min), as run --rate does (default: as fast as --concurrency allows)")
	fs.IntVar(&o.scale, "scale", 1, "`K`, the scale of the in-process simulator's world (without --target)")
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

// check validates the options before anything is sent.
func (o loadOptions) check(rest []string) error {
	switch {
	case len(rest) > 0:
		return fmt.Errorf("unexpected argument %q", rest[0])
	case o.duration <= 0 || o.duration > loadgen.MaxDuration:
		return fmt.Errorf("--duration: expected more than 0 and at most %s, got %s", loadgen.MaxDuration, o.duration)
	case o.concurrency < 1 || o.concurrency > loadgen.MaxConcurrency:
		return fmt.Errorf("--concurrency: expected 1 to %d, got %d", loadgen.MaxConcurrency, o.concurrency)
	case o.timeout <= 0:
		return fmt.Errorf("--timeout: expected a positive duration, got %s", o.timeout)
	case o.scale < 1:
		return fmt.Errorf("--scale: expected a positive integer, got %d", o.scale)
	case badRate(o.rate):
		_, err := pace.ParseRate(o.rate)
		return fmt.Errorf("--rate: %w", err)
	case !slices.Contains(loadgen.OperationIDs(), registry.ID(o.op)):
		return fmt.Errorf("--op: expected one of %s, got %q%s", strings.Join(loadgen.OperationIDs(), ", "), o.op, didyoumean.Hint(o.op, loadgen.OperationIDs()))
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
	if !o.allowRemote && !loadgen.IsLoopback(u.Hostname()) {
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
	g := loadgen.New(req, o.concurrency, o.timeout)
	rate, _ := pace.ParseRate(o.rate) // checked with the flags
	g.SetRate(rate)
	defer g.Close()
	if _, err := g.Send(ctx); err != nil {
		fmt.Fprintf(stderr, "campusconf load: target %s is unreachable: %v\n", base, err)
		return exitUnreachable
	}

	fmt.Fprintf(stdout, "campusconf load: %s %s for %s with %d in flight\n", req.Method, req.URL, o.duration, o.concurrency)
	r := g.Run(ctx, o.duration)
	fmt.Fprintf(stdout, "requests: %d in %s, %.0f requests/s\n", r.Requests, r.Elapsed.Round(time.Millisecond), r.Rate())
	fmt.Fprintf(stdout, "latency: p50 %s, p99 %s, max %s\n", r.Percentile(0.50).Round(time.Microsecond),
		r.Percentile(0.99).Round(time.Microsecond), r.Percentile(1).Round(time.Microsecond))
	fmt.Fprintf(stdout, "errors: %d (%s)\n", r.Errors(), strings.Join(r.Breakdown(), ", "))
	if r.Errors() > 0 {
		return exitFailed
	}
	return exitOK
}

// badRate reports whether a --rate value does not parse.
func badRate(s string) bool {
	_, err := pace.ParseRate(s)
	return err != nil
}
