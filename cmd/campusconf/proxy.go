package main

import (
	"context"
	"errors"
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
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/proxy"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/steps"
)

// proxyConfig is the parsed proxy command line.
type proxyConfig struct {
	target       *url.URL
	fixtureFile  string
	fixture      *fixtures.File
	addr         string
	reportDir    string
	quiet        bool
	maxExchanges int
	duration     time.Duration
	cors         bool
	corsOrigins  []string
	baseline     string
	stateBytes   int64
	maxHeader    byteSize
	// allowedHosts are the Host values answered besides localhost and
	// IP addresses (--allowed-hosts, and the --addr host)
	allowedHosts []string
}

// parseProxy reads the proxy flags; a usage error is reported on stderr.
func parseProxy(args []string, stderr io.Writer) (proxyConfig, error) {
	var c proxyConfig
	var target string
	fs := newFlags("proxy", "Usage: campusconf proxy --target URL --fixtures FILE [flags]\n\nForwards every request and answer as they came and checks each exchange,\nbeside the forwarding, against the interface's rules, by requirement id. On exit (SIGINT, SIGTERM,\n--max-exchanges, --duration) writes report.json, junit.xml, report.html,\nsummary.md, ctrf.json, conformance-report.yaml and badge.svg (mode traffic:\nat best partial). Traffic to a profile the fixture does not claim is not judged. Exit code: 0 no MUST violation (with --baseline:\nnone outside the baseline), 1 violations, 2 usage, 3 target unreachable.\n\nFlags:", stderr)
	fs.StringVar(&target, "target", "", "base `URL` of the implementation every request is forwarded to (required)")
	fs.StringVar(&c.fixtureFile, "fixtures", "", "fixture `FILE` of the target: where its unplaced operations live, its users, its refusals (required)")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8081", "`ADDR`ess to listen on, host:port")
	fs.StringVar(&c.reportDir, "report-dir", "proxy-report", "`DIR`ectory the reports are written to on exit")
	fs.BoolVar(&c.quiet, "quiet", false, "print no line per violating exchange, only the summary on exit")
	fs.IntVar(&c.maxExchanges, "max-exchanges", 0, "stop after `N` exchanges (0: no limit)")
	fs.DurationVar(&c.duration, "duration", 0, "stop after `D` (0: run until SIGINT or SIGTERM)")
	var corsOrigins string
	fs.StringVar(&corsOrigins, "cors-origins", "", "answer CORS preflights in the proxy from these `ORIGINS`, as serve --cors-origins does (* for any, or http://localhost:5173,...), and add Access-Control-Allow-Origin where the target sends none (default: both pass through unchanged)")
	fs.BoolVar(&c.cors, "cors", false, "the old name of --cors-origins '*'")
	fs.Int64Var(&c.stateBytes, "state-bytes", proxy.DefaultStateBytes, "bound in `BYTES` of what the stateful rules remember of earlier exchanges; past it the least recently used entry is dropped first")
	fs.StringVar(&c.baseline, "baseline", "", "`FILE` of known failing requirements (campusconf baseline); exit 0 when every MUST violation has an entry that has not expired")
	c.maxHeader = byteSize(wire.MaxResponseHeaderBytes)
	fs.Var(&c.maxHeader, "max-header", "`SIZE` of the largest header block (of a request or an answer) checked; a larger one is forwarded unchanged and not judged")
	var allowedHosts string
	fs.StringVar(&allowedHosts, "allowed-hosts", os.Getenv("CAMPUSCONF_ALLOWED_HOSTS"), "host names besides localhost, IP addresses and the --addr host that requests may be sent to, comma-separated (`HOSTS`: campus-api,.dev.example.edu; * allows any, which DNS rebinding can abuse; default $CAMPUSCONF_ALLOWED_HOSTS); other requests get 421 and are not forwarded")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if corsOrigins != "" {
		p, err := wire.ParseCORSOrigins(corsOrigins)
		if err != nil {
			return c, fmt.Errorf("--cors-origins: %w", err)
		}
		c.cors = true
		if !p.Any() {
			c.corsOrigins = strings.Split(p.String(), ",")
		}
	}
	if target == "" {
		return c, errors.New("--target: expected a base URL such as http://127.0.0.1:8080, got nothing")
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("--target: expected an http or https URL with a host, got %q", redact.NewWith(nil, redact.TargetSecrets(target)).String(target))
	}
	c.target = u
	if c.fixtureFile == "" {
		return c, errors.New("--fixtures: expected the target's fixture file, got nothing")
	}
	if c.fixture, err = fixtures.Load(c.fixtureFile); err != nil {
		return c, fmt.Errorf("--fixtures: %w", err)
	}
	if c.maxExchanges < 0 {
		return c, fmt.Errorf("--max-exchanges: expected a non-negative integer, got %d", c.maxExchanges)
	}
	if c.stateBytes <= 0 {
		return c, fmt.Errorf("--state-bytes: expected a positive number of bytes, got %d", c.stateBytes)
	}
	if c.duration < 0 {
		return c, fmt.Errorf("--duration: expected a non-negative duration, got %s", c.duration)
	}
	if c.allowedHosts, err = parseAllowedHosts(allowedHosts, c.addr); err != nil {
		return c, err
	}
	if c.baseline != "" {
		// read before listening, so a broken file costs no session
		if _, err := reports.ReadBaseline(c.baseline); err != nil {
			return c, fmt.Errorf("--baseline: %w", err)
		}
	}
	return c, nil
}

func proxyCmd(args []string, stdout, stderr io.Writer) int {
	c, err := parseProxy(args, stderr)
	if err != nil {
		return parseFailed("proxy", err, stderr)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		if s, ok := <-sig; ok {
			cancel(signalStop{s})
		}
	}()
	return runProxy(ctx, c, nil, stdout, stderr)
}

// signalStop is the cause of a proxy's context ended by a signal.
type signalStop struct{ sig os.Signal }

func (s signalStop) Error() string { return "a signal (" + s.sig.String() + ")" }

// stopCause says how the proxy stopped when its context ended: the
// signal that ended it, or "its context" (a test, an embedding program).
func stopCause(ctx context.Context) string {
	var s signalStop
	if errors.As(context.Cause(ctx), &s) {
		return s.Error()
	}
	return "its context ending"
}

// runProxy proxies until ctx ends, --max-exchanges or --duration, then
// writes the reports. ln, when given, is listened on instead of c.addr.
func runProxy(ctx context.Context, c proxyConfig, ln net.Listener, stdout, stderr io.Writer) int {
	if err := suiterun.Probe(ctx, steps.Config{BaseURL: strings.TrimRight(c.target.String(), "/"), Client: &http.Client{}, RequestTimeout: 10 * time.Second}); err != nil {
		red := redact.NewWith(c.fixture, redact.TargetSecrets(c.target.String()))
		fmt.Fprintf(stderr, "campusconf proxy: target unreachable: %v\n", consoleText(red.String(err.Error())))
		if ln != nil {
			_ = ln.Close() // the run ends here either way
		}
		return exitUnreachable
	}
	var console io.Writer = stdout
	if c.quiet {
		console = nil
	}
	p, err := proxy.New(proxy.Options{Target: c.target, Fixture: c.fixture, Console: console, MaxExchanges: c.maxExchanges, CORS: c.cors, CORSOrigins: c.corsOrigins, StateBytes: c.stateBytes,
		MaxHeader: int(c.maxHeader), AllowedHosts: c.allowedHosts})
	if err != nil {
		fmt.Fprintln(stderr, "campusconf proxy:", err)
		return exitUsage
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", c.addr); err != nil {
			fmt.Fprintln(stderr, "campusconf proxy:", err)
			return exitUsage
		}
	}
	if slices.Contains(c.allowedHosts, wire.AnyHost) {
		fmt.Fprintln(stderr, "campusconf proxy: warning: --allowed-hosts * switches the host check off: a web page the developer opens can read the target through this proxy by DNS rebinding; name the hosts instead")
	}
	srv := p.Server()
	// printed before serving: afterwards only the proxy writes stdout
	// until it has shut down
	fmt.Fprintf(stdout, "campusconf proxy listening on http://%s, forwarding to %s; reports to %s on exit\n", ln.Addr(), p.TargetString(), c.reportDir)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	var timer <-chan time.Time
	if c.duration > 0 {
		t := time.NewTimer(c.duration)
		defer t.Stop()
		timer = t.C
	}
	var stoppedBy string
	select {
	case err := <-errc:
		fmt.Fprintln(stderr, "campusconf proxy:", err)
		return exitFailed
	case <-ctx.Done():
		stoppedBy = stopCause(ctx)
	case <-p.Done():
		stoppedBy = fmt.Sprintf("--max-exchanges %d", c.maxExchanges)
	case <-timer:
		stoppedBy = "--duration " + c.duration.String()
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	p.Close()
	r := p.Report(stoppedBy)
	g, err := gateOf(c.baseline, r)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf proxy:", err)
		return exitUsage
	}
	if _, err := reports.WriteAll(c.reportDir, r); err != nil {
		fmt.Fprintln(stderr, "campusconf proxy: reports:", err)
		return exitFailed
	}
	all, must := p.Violations()
	fmt.Fprintf(stdout, "campusconf proxy stopped by %s after %d exchange(s), %d of them unchecked (checker queues full)\n", stoppedBy, p.Seen(), p.Unchecked())
	fmt.Fprintf(stdout, "%s: %d requirement(s) broken on live traffic (%d MUST); reports in %s\n", reports.Word(r.Verdict, r.VerdictCause), all, must, c.reportDir)
	if g != nil {
		fmt.Fprintln(stdout, g.String())
	}
	// the verdict's exit code (docs/reports.md, "The verdict")
	return r.ExitCode()
}
