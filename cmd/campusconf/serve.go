package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/campusconf/campusconf/internal/didyoumean"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator"
	simdefects "github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/statefile"
	simvariants "github.com/campusconf/campusconf/simulator/variants"
)

// serveConfig is the parsed serve command line.
type serveConfig struct {
	addr string
	log  string
	// docs asks for Swagger UI at /docs; it is served on a loopback
	// address only (loopbackOnly).
	docs bool
	// state is the state file (--state), written every stateEvery;
	// stateMax bounds the file read at start.
	state      string
	stateEvery time.Duration
	stateMax   int64
	// anyHost is set when --allowed-hosts switched the host check off.
	anyHost bool
	// reportDir is where the traffic report goes (--report-dir): on exit,
	// and on POST /_sim/TOKEN/report.
	reportDir string
	// grace is how long shutdown waits for the requests in flight before
	// it cuts them (shutdownGrace; a test shortens it).
	grace time.Duration
	// terminal is set when stdout is a terminal: the banner then shows
	// the credentials (showCredentials).
	terminal bool
	opts     simulator.Options
}

// shutdownGrace is how long serve's shutdown waits for the requests in
// flight (a client trickling a body, an operation under --latency) before
// it cuts them and saves.
const shutdownGrace = 10 * time.Second

// cutWait bounds the wait for the handlers of the requests cut at
// shutdown to return (each sees its connection closed) before the state
// is saved.
const cutWait = 5 * time.Second

// parseServe reads the serve flags; a usage error is reported on stderr.
func parseServe(args []string, stderr io.Writer) (serveConfig, error) {
	c := serveConfig{grace: shutdownGrace}
	var latency, faultOp, clock, allowedHosts string
	var stateMaxMB int64
	var fault2FA, faultRate float64
	var defects, variants stringList
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "`ADDR`ess to listen on, host:port")
	fs.Int64Var(&c.opts.Seed, "seed", 1, "`N`, the seed of the world (same seed, same records)")
	fs.IntVar(&c.opts.Scale, "scale", 1, "multiply the volume of every list by `K`")
	fs.BoolVar(&c.opts.Control, "control", false, "serve the control API under /_sim/TOKEN/ (the token is printed at start-up)")
	fs.StringVar(&c.opts.ControlToken, "control-token", os.Getenv("CAMPUSCONF_CONTROL_TOKEN"), "the control API's `TOKEN` (at least 16 letters, digits, - or _; default $CAMPUSCONF_CONTROL_TOKEN, else random)")
	fs.StringVar(&latency, "latency", "", "delay every operation by `D`: a duration (50ms) or a range (20ms..200ms)")
	fs.Float64Var(&fault2FA, "fault-2fa-rate", 0, "`RATE` (0..1) of 503 answers on the second-factor operations E1-E3")
	fs.StringVar(&faultOp, "fault-op", "", "`OP`eration ("+registry.Span("")+") answering 500 at --fault-rate")
	fs.Float64Var(&faultRate, "fault-rate", 0, "`RATE` (0..1) of 500 answers on --fault-op")
	fs.Var(&defects, "defect", "make the deliberate mistake `NAME` (repeatable; see campusconf defects)")
	fs.Var(&variants, "variant", "make the faithful choice `NAME` where the specification is open (repeatable; see campusconf variants; campusconf fixtures --variant prints the matching fixture)")
	fs.StringVar(&c.log, "log", "text", "request log `FORMAT`: text, json or off")
	fs.StringVar(&c.reportDir, "report-dir", "", "write the traffic report (the operations the app used, the request rules it broke, the simulator's choices it relied on) into `DIR` on exit and on POST /_sim/TOKEN/report: report.json, summary.md, report.html")
	selfReset := fs.Bool("self-reset", true, "serve POST /_campusconf/reset, which restores the seeded world for the Super Admin (the fixture's \"reset\"), when listening on loopback")
	fs.BoolVar(&c.docs, "docs", true, "serve interactive API docs (Swagger UI) at /docs with the key and a user's token filled in; only when listening on a loopback address")
	fs.StringVar(&c.state, "state", "", "state `FILE`: every world is loaded from it at start if it exists, and written back atomically on shutdown and every --state-every; its directory must exist, and one server at a time holds it (FILE.lock)")
	fs.DurationVar(&c.stateEvery, "state-every", 30*time.Second, "how often --state is written while serving (0: on shutdown only)")
	fs.Int64Var(&stateMaxMB, "state-max-mb", statefile.DefaultMaxBytes>>20, "the largest --state file read at start, in `MB` (2^20 bytes); a larger one is refused with its size")
	fs.StringVar(&allowedHosts, "allowed-hosts", os.Getenv("CAMPUSCONF_ALLOWED_HOSTS"), "host names besides localhost, IP addresses and the --addr host that requests may be sent to, comma-separated (`HOSTS`: campus-api,.dev.example.edu; * allows any, which DNS rebinding can abuse; default $CAMPUSCONF_ALLOWED_HOSTS)")
	var corsOrigins, clockMode string
	fs.StringVar(&clockMode, "clock-mode", "real", "how the world's time moves: real (with real time, from --clock or the time saved in --state) or step (one second per write only, reproducible: as the embedded target of campusconf run)")
	fs.StringVar(&corsOrigins, "cors-origins", "*", "the `ORIGINS` a browser page may call the interface from, comma-separated (http://localhost:5173,https://app.example.edu), or * for any; a preflight gets the headers it asks for, one refused is logged with its reason")
	fs.StringVar(&clock, "clock", "", "the world's time at start, RFC 3339 (2024-03-01T09:00:00Z): created records are dated from it, seeded history is relative to it (default 2025-04-06T08:00:00Z)")
	fs.IntVar(&c.opts.MaxWorlds, "max-worlds", simulator.DefaultMaxWorlds, "named worlds kept at once (header "+simulator.WorldHeader+" or path /_w/NAME/); beyond it the least recently used is dropped")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: campusconf serve [flags]\n\nServes the simulator of the Campus Learning Platform interface. Credentials\nand record ids of the world: campusconf fixtures --seed N.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.opts.Scale < 1 {
		return c, fmt.Errorf("--scale: expected a positive integer, got %d", c.opts.Scale)
	}
	if clock != "" {
		t, err := time.Parse(time.RFC3339, clock)
		if err != nil {
			return c, fmt.Errorf("--clock: expected an RFC 3339 date-time such as 2024-03-01T09:00:00Z, got %q", clock)
		}
		if err := simulator.CheckClock(t); err != nil {
			return c, fmt.Errorf("--%w", err)
		}
		c.opts.Clock = t
	}
	switch clockMode {
	case "real":
		c.opts.RealTime = true
	case "step":
	default:
		return c, fmt.Errorf("--clock-mode: expected real or step, got %q", clockMode)
	}
	if c.stateEvery < 0 {
		return c, fmt.Errorf("--state-every: expected a non-negative duration, got %s", c.stateEvery)
	}
	if stateMaxMB < 1 || stateMaxMB > 1<<20 {
		return c, fmt.Errorf("--state-max-mb: expected a size in MB from 1 to %d, got %d", 1<<20, stateMaxMB)
	}
	c.stateMax = stateMaxMB << 20
	hosts, err := parseAllowedHosts(allowedHosts, c.addr)
	if err != nil {
		return c, err
	}
	c.opts.AllowedHosts = hosts
	cors, err := wire.ParseCORSOrigins(corsOrigins)
	if err != nil {
		return c, fmt.Errorf("--cors-origins: %w", err)
	}
	if !cors.Any() {
		c.opts.CORSOrigins = strings.Split(cors.String(), ",")
	}
	c.anyHost = slices.Contains(hosts, simulator.AnyHost)
	if c.opts.MaxWorlds < 1 {
		return c, fmt.Errorf("--max-worlds: expected a positive integer, got %d", c.opts.MaxWorlds)
	}
	if latency != "" {
		l, err := simulator.ParseLatency(latency)
		if err != nil {
			return c, fmt.Errorf("--%w", err)
		}
		c.opts.Latency = l
	}
	if (faultOp == "") != (faultRate == 0) {
		return c, errors.New("--fault-op and --fault-rate go together")
	}
	// checked a flag at a time, so the message names the flag at fault
	f := simulator.Faults{TwoFactorRate: fault2FA}
	if err := f.Check(); err != nil {
		return c, fmt.Errorf("--fault-2fa-rate: %w", err)
	}
	f.Operation = faultOp
	if err := f.Check(); err != nil {
		return c, fmt.Errorf("--fault-op: %w%s", err, didyoumean.Hint(faultOp, simulator.OperationIDs()))
	}
	f.OperationRate = faultRate
	if err := f.Check(); err != nil {
		return c, fmt.Errorf("--fault-rate: %w", err)
	}
	c.opts.Faults = f
	c.opts.SelfReset = *selfReset && isLoopbackAddr(c.addr)
	if c.opts.ControlToken != "" && !c.opts.Control {
		c.opts.ControlToken = "" // only --control serves it
	}
	if c.opts.ControlToken != "" {
		if err := simulator.CheckControlToken(c.opts.ControlToken); err != nil {
			return c, fmt.Errorf("--%w", err)
		}
	}
	// checked here, before the port is opened, a flag at a time
	for _, d := range defects {
		if _, ok := simdefects.Lookup(strings.TrimSpace(d)); !ok {
			return c, fmt.Errorf("--defect: unknown defect %q%s (campusconf defects lists them)", d, didyoumean.Hint(strings.TrimSpace(d), simdefects.Names()))
		}
	}
	for _, v := range variants {
		if _, ok := simvariants.Lookup(strings.TrimSpace(v)); !ok {
			return c, fmt.Errorf("--variant: unknown variant %q%s (campusconf variants lists them)", v, didyoumean.Hint(strings.TrimSpace(v), simvariants.Names()))
		}
	}
	if _, err := simvariants.New(variants); err != nil {
		return c, fmt.Errorf("--variant: %w", err)
	}
	c.opts.Defects = defects
	c.opts.Variants = variants
	switch c.log {
	case "text", "json", "off":
	default:
		return c, fmt.Errorf("--log: expected text, json or off, got %q", c.log)
	}
	return c, nil
}

func serveCmd(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runServe(ctx, args, stdout, stderr)
}

// runServe is serve until ctx ends: its flags checked, its state file
// checked and locked, the listener opened, the worlds loaded.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseServe(args, stderr)
	if err != nil {
		return parseFailed("serve", err, stderr)
	}
	c.terminal = isTerminal(stdout)
	switch c.log {
	case "text":
		c.opts.Logger = slog.New(slog.NewTextHandler(stdout, nil))
	case "json":
		c.opts.Logger = slog.New(slog.NewJSONHandler(stdout, nil))
	}
	var lock *statefile.Lock
	// Every check comes before the port is opened: a mistake in a flag
	// or in the state file exits 2 naming it, whether or not the port is
	// free, and the port is taken only by a server that will serve.
	if c.state != "" {
		// a state file that cannot be written would fail at every save,
		// after the worlds were changed
		if err := statefile.CheckDir(c.state); err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --state:", err)
			return exitUsage
		}
		// the holder's line names the address, so a second server says
		// which one to stop
		var err error
		lock, err = statefile.Acquire(c.state, holderLine(c.addr))
		if err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --state:", err)
			return exitUsage
		}
		defer func() {
			if err := lock.Release(); err != nil {
				fmt.Fprintln(stderr, "campusconf serve: --state: releasing the lock:", err)
			}
		}()
	}
	if c.state != "" && c.opts.Control && c.opts.ControlToken == "" {
		// the control token stays the same across restarts: kept
		// beside the state file, owner-only (--control-token and
		// $CAMPUSCONF_CONTROL_TOKEN still choose one)
		tok, err := keptControlToken(c.state)
		if err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --state:", err)
			return exitUsage
		}
		c.opts.ControlToken = tok
	}
	// the docs page holds credentials: only on a loopback address
	// (checked again on the listener below)
	c.opts.Docs = c.docs && isLoopbackAddr(c.addr)
	var sim *simulator.Simulator
	var ln net.Listener
	if c.reportDir != "" {
		c.opts.TrafficReport = func(t wire.Traffic) (string, error) {
			return writeTrafficReport(c, sim, ln.Addr(), t)
		}
	}
	sim, err = simulator.New(c.opts)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf serve:", err)
		return exitUsage
	}
	if c.state != "" {
		loaded, err := sim.LoadState(c.state, c.stateMax)
		if err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --state:", err)
			return exitUsage
		}
		if loaded {
			fmt.Fprintf(stdout, "campusconf simulator: worlds loaded from %s\n", c.state)
			if t := sim.Traffic(); c.reportDir != "" && t.Restarts > 0 {
				fmt.Fprintf(stdout, "campusconf simulator: the traffic report goes on: %d request(s) since %s, restart %d (DELETE /_sim/TOKEN/traffic starts it over)\n",
					t.Requests, t.Since.Format(time.RFC3339), t.Restarts)
			}
		}
	}
	ln, err = net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf serve: --addr %s: %v\n", c.addr, err)
		if errors.Is(err, syscall.EADDRINUSE) {
			fmt.Fprintf(stderr, "campusconf serve: the port is taken (another campusconf serve?); choose another with --addr, e.g. --addr %s, or --addr %s for any free port (the banner prints the one chosen)\n", otherPort(c.addr), withPort(c.addr, "0"))
		}
		return exitUsage
	}
	if lock != nil {
		// the holder's line names the address listened on (a port
		// --addr :0 chose)
		if err := lock.SetHolder(holderLine(ln.Addr().String())); err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --state:", err)
		}
	}
	if c.docs && !loopbackOnly(ln.Addr()) {
		if c.opts.Docs {
			// a name that resolved to more than loopback: the docs
			// hold credentials, so the server is not started
			_ = ln.Close() // nothing was accepted
			fmt.Fprintf(stderr, "campusconf serve: --addr %s listens on %s, not only on loopback, and the docs page holds credentials: give a loopback address or --docs=false\n", c.addr, ln.Addr())
			return exitUsage
		}
		fmt.Fprintf(stderr, "campusconf serve: docs not served: %s is not a loopback address, and the docs page holds credentials\n", ln.Addr())
	}
	if c.anyHost {
		fmt.Fprintln(stderr, "campusconf serve: warning: --allowed-hosts * switches the host check off: a web page the developer opens can reach this simulator through DNS rebinding (read the docs page and its credentials, reset the world); name the hosts instead")
	}
	return serve(ctx, ln, sim, c, stdout, stderr)
}

// holderLine is what a server writes in the state file's lock: a second
// server shows it, so that the developer knows which one to stop.
func holderLine(addr string) string {
	return fmt.Sprintf("campusconf serve (pid %d) at http://%s", os.Getpid(), addr)
}

// keptControlToken returns the control token kept beside the state
// file, or a new one, which it keeps there.
func keptControlToken(state string) (string, error) {
	tok, err := statefile.ReadToken(state)
	if err != nil {
		return "", err
	}
	if tok != "" {
		if err := simulator.CheckControlToken(tok); err != nil {
			name, _ := statefile.TokenName(state)
			return "", fmt.Errorf("%s: %w; remove the file to get a new token", name, err)
		}
		return tok, nil
	}
	tok = simulator.NewControlToken()
	if err := statefile.WriteToken(state, tok); err != nil {
		return "", err
	}
	return tok, nil
}

// withPort is addr with its port replaced by port.
func withPort(addr, port string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return net.JoinHostPort(host, port)
}

// otherPort is addr with the port after its own (8081 for 8080), the
// suggestion of a port taken.
func otherPort(addr string) string {
	_, p, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(p)
	if err != nil || perr != nil || n <= 0 || n >= 65535 {
		return withPort(addr, "8081")
	}
	return withPort(addr, strconv.Itoa(n+1))
}

// parseAllowedHosts reads --allowed-hosts (comma-separated) of serve and
// proxy and adds the host of --addr when it is a name (localhost and
// addresses are answered anyway).
func parseAllowedHosts(list, addr string) ([]string, error) {
	var hosts []string
	for h := range strings.SplitSeq(list, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	if err := wire.CheckAllowedHosts(hosts); err != nil {
		return nil, fmt.Errorf("--allowed-hosts: %w", err)
	}
	host, _, err := net.SplitHostPort(addr)
	lower := strings.ToLower(host)
	if err == nil && host != "" && net.ParseIP(host) == nil && lower != "localhost" && !strings.HasSuffix(lower, ".localhost") {
		hosts = append(hosts, host) // a name net.Listen resolved, so a host name
	}
	return hosts, nil
}

// loopbackOnly reports whether addr is a loopback address, which only this
// machine can reach.
func loopbackOnly(addr net.Addr) bool {
	a, ok := addr.(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}

// inFlight counts the requests a handler is serving, so that shutdown can
// wait for those it cut to return before it saves, and the connections
// with a request under way (its body still being read included), which
// shutdown waits for and cuts.
type inFlight struct {
	h      http.Handler
	n      atomic.Int64
	mu     sync.Mutex
	active map[net.Conn]bool
}

// connState is the server's ConnState hook.
func (f *inFlight) connState(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st == http.StateActive {
		f.active[c] = true
	} else {
		delete(f.active, c)
	}
}

// requests is the number of connections with a request under way.
func (f *inFlight) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.active)
}

func (f *inFlight) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.n.Add(1)
	defer f.n.Add(-1)
	f.h.ServeHTTP(w, r)
}

// settle waits until no handler runs, at most d; it reports whether none
// does.
func (f *inFlight) settle(d time.Duration) bool {
	for end := time.Now().Add(d); f.n.Load() > 0; {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// serve serves sim on ln until ctx ends, then shuts down: it waits up to
// c.grace for the requests in flight, cuts those still running, and then
// always writes the state file and the traffic report. The exit code says
// whether they were written: 0, or 1 when a write failed (or the server
// failed).
func serve(ctx context.Context, ln net.Listener, sim *simulator.Simulator, c serveConfig, stdout, stderr io.Writer) int {
	handler := &inFlight{h: sim, active: map[net.Conn]bool{}}
	srv := &http.Server{
		Handler:           handler,
		ConnState:         handler.connState,
		ReadHeaderTimeout: 10 * time.Second,
		// a body is at most 1 MiB: a minute is ample even for a slow client,
		// and a client that stalls cannot hold a connection for ever
		ReadTimeout: time.Minute,
		// bounded too, but generous: a whole list at a large --scale is big
		WriteTimeout: 5 * time.Minute,
		IdleTimeout:  120 * time.Second,
		// over the limit net/http answers 431 itself; JSONErrors below
		// gives that answer, like its 400s, a JSON string body
		MaxHeaderBytes: simulator.MaxHeaderBytes,
		// OPTIONS * reaches the simulator, which answers it 400 as JSON
		DisableGeneralOptionsHandler: true,
	}
	// the console's event streams end with the server, not after its
	// shutdown timeout
	srv.RegisterOnShutdown(sim.StopStreams)
	var banner strings.Builder
	fmt.Fprintf(&banner, "campusconf simulator listening on http://%s (seed %d, scale %d", ln.Addr(), c.opts.Seed, c.opts.Scale)
	if c.opts.Control {
		// the token is printed here and only here: the console of the
		// person who started the simulator
		fmt.Fprintf(&banner, ", control API at %s, console at http://%s%s/ui", sim.ControlPath(), ln.Addr(), sim.ControlPath())
	}
	if c.opts.Docs {
		fmt.Fprintf(&banner, ", docs at http://%s/docs/", ln.Addr())
	}
	mode := "moving with real time"
	if !c.opts.RealTime {
		mode = "one second per write"
	}
	// the clock as it stands: restored from --state, or --clock
	fmt.Fprintf(&banner, ", clock %s %s", sim.Clock().Format(time.RFC3339), mode)
	switch {
	case c.anyHost:
		fmt.Fprint(&banner, ", any host (host check off)")
	case len(c.opts.AllowedHosts) > 0:
		fmt.Fprintf(&banner, ", hosts localhost, IP addresses, %s", strings.Join(c.opts.AllowedHosts, ", "))
	}
	if len(c.opts.CORSOrigins) > 0 {
		fmt.Fprintf(&banner, ", CORS origins %s", strings.Join(c.opts.CORSOrigins, ","))
	}
	if len(c.opts.Defects) > 0 {
		fmt.Fprintf(&banner, ", defects %s", strings.Join(c.opts.Defects, ","))
	}
	if len(c.opts.Variants) > 0 {
		fmt.Fprintf(&banner, ", variants %s", strings.Join(c.opts.Variants, ","))
	}
	banner.WriteString(")\n")
	// one write, so that no reader of the log sees half the line
	_, _ = io.WriteString(stdout, banner.String())
	where := fmt.Sprintf("campusconf fixtures --seed %d --scale %d", c.opts.Seed, c.opts.Scale)
	for _, v := range c.opts.Variants {
		where += " --variant " + v
	}
	if c.opts.Control {
		where += " (or GET " + sim.ControlPath() + "/fixtures)"
	}
	fmt.Fprintf(stdout, "credentials (subscription key, users' tokens) and record ids: %s\n", where)
	if showCredentials(c) {
		printCredentials(stdout, sim, ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(simulator.JSONErrors(ln)) }()
	var tick <-chan time.Time
	if c.state != "" && c.stateEvery > 0 {
		t := time.NewTicker(c.stateEvery)
		defer t.Stop()
		tick = t.C
	}
	save := func() bool {
		if c.state == "" {
			return true
		}
		if err := sim.SaveState(c.state); err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --state:", err)
			return false
		}
		return true
	}
	code := exitOK
wait:
	for {
		select {
		case err := <-errc:
			// the server failed: what the worlds hold is saved all the same
			fmt.Fprintln(stderr, "campusconf serve:", err)
			code = exitFailed
			break wait
		case <-tick:
			save()
		case <-ctx.Done():
			break wait
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), c.grace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		// requests still in flight after the grace period (a client
		// trickling its body, an operation under --latency): cut, so
		// that what is saved is what the worlds hold once nothing runs
		n := handler.requests()
		_ = srv.Close()
		if !handler.settle(cutWait) {
			fmt.Fprintf(stderr, "campusconf serve: shutdown: %d request(s) still running %s after they were cut; saving what the worlds hold now\n", handler.n.Load(), cutWait)
		}
		fmt.Fprintf(stderr, "campusconf serve: shutdown: %d request(s) still in flight after %s were cut\n", n, c.grace)
	}
	if !save() {
		code = exitFailed
	} else if c.state != "" {
		fmt.Fprintf(stdout, "campusconf simulator: worlds written to %s\n", c.state)
	}
	if c.reportDir != "" {
		where, err := writeTrafficReport(c, sim, ln.Addr(), sim.Traffic())
		if err != nil {
			fmt.Fprintln(stderr, "campusconf serve: --report-dir:", err)
			code = exitFailed
		} else {
			fmt.Fprintf(stdout, "campusconf simulator: traffic report written to %s\n", where)
		}
	}
	if code != exitOK {
		fmt.Fprintln(stdout, "campusconf simulator stopped; not everything was written (see above)")
		return code
	}
	fmt.Fprintln(stdout, "campusconf simulator stopped")
	return code
}

// showCredentials reports whether the banner shows the credentials: only
// to the person at a terminal, never into a file, a pipe or a JSON log,
// which others or other tools read.
func showCredentials(c serveConfig) bool { return c.terminal && c.log != "json" }

// printCredentials prints what a developer needs to call the simulator
// at once: the subscription key, the owner's token and the console.
func printCredentials(w io.Writer, sim *simulator.Simulator, addr net.Addr) {
	fx := sim.Fixtures()
	fmt.Fprintf(w, "  subscription key  %s: %s\n", wire.KeyHeader, fx.SubscriptionKey)
	if owner, ok := fx.Users["owner"]; ok {
		fmt.Fprintf(w, "  owner's token     Authorization: %s\n", owner.Headers["Authorization"])
	}
	if p := sim.ControlPath(); p != "" {
		fmt.Fprintf(w, "  console           http://%s%s/ui\n", addr, p)
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// isLoopbackAddr reports whether a listen address is on loopback only:
// localhost or a loopback IP literal (":8080" listens everywhere).
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
