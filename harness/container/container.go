// Package container starts an implementation's container image for
// `campusconf run --image`: it checks the image is present locally (nothing
// is ever pulled), starts it with testcontainers-go, waits until it answers
// HTTP or exits, and stops and removes it again on every path, because
// without the reaper container (which cannot be pulled here) nothing else
// would.
//
// Its error messages name the flags of `campusconf run` (--image, --port,
// --wait-path, --startup-timeout, --env) that set each option.
package container

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/containerd/errdefs"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/wait"
)

// Options describe the container image to run the suite against.
type Options struct {
	Image          string            // image reference; must exist locally
	Port           string            // container port the service listens on (default "8080")
	Env            map[string]string // environment of the container
	WaitPath       string            // path polled until any HTTP answer arrives (default "/")
	StartupTimeout time.Duration     // bound on creating, starting and waiting (default 60s)
	LogDir         string            // where container.log is written when the container stops or fails to start; empty: nowhere
}

// Defaults of Options, and the name of the container's log file.
const (
	// DefaultPort is the container port polled and published when
	// Options.Port is empty.
	DefaultPort = "8080"
	// DefaultWaitPath is the path polled when Options.WaitPath is empty.
	DefaultWaitPath = "/"
	// DefaultStartupTimeout bounds the start when Options.StartupTimeout
	// is zero.
	DefaultStartupTimeout = 60 * time.Second
	// LogFile is the name of the container's log in Options.LogDir.
	LogFile = "container.log"
)

// Bounds of the runner.
const (
	logTailLines     = 40
	exitPollInterval = 250 * time.Millisecond
	httpPollInterval = 200 * time.Millisecond
	// stopGrace is what a container gets between SIGTERM and SIGKILL. The
	// suite is over by then; a short grace keeps a run that ends on a
	// process that ignores SIGTERM (PID 1 without a handler) from waiting.
	stopGrace          = 3 * time.Second
	emptyLogRetries    = 5
	emptyLogRetryDelay = 200 * time.Millisecond
	// dockerCallTimeout bounds Docker calls made on a context the user
	// cannot cancel (creation and removal), see Start and stop.
	dockerCallTimeout = 30 * time.Second
	// labelRole marks containers started by `campusconf run --image`, so
	// any left by a killed process can be found:
	// docker ps -a --filter label=org.campusconf.role=target
	labelRole = "org.campusconf.role"
)

// Errors of Start; compare with errors.Is.
var (
	// ErrNoDocker means no Docker engine could be reached.
	ErrNoDocker = errors.New("no Docker engine answers")
	// ErrImageNotFound means the image is not in the local engine (it
	// is never pulled).
	ErrImageNotFound = errors.New("not found locally")
	// ErrExited means the container stopped before it answered HTTP.
	ErrExited = errors.New("container exited")
	// ErrNotReady means no HTTP answer came within the startup timeout.
	ErrNotReady = errors.New("container did not answer HTTP in time")
	// ErrInterrupted means the caller's context ended during the start.
	ErrInterrupted = errors.New("interrupted while starting the container")
)

// WithDefaults returns o with its defaults filled in, or an error naming
// the flag of an option that cannot work.
func (o Options) WithDefaults() (Options, error) {
	if strings.TrimSpace(o.Image) == "" {
		return o, errors.New("--image: expected an image reference, got nothing")
	}
	if o.Port == "" {
		o.Port = DefaultPort
	}
	o.Port = strings.TrimSuffix(o.Port, "/tcp")
	if n, err := strconv.Atoi(o.Port); err != nil || n < 1 || n > 65535 {
		return o, fmt.Errorf("--port: expected a TCP port number 1-65535, got %q", o.Port)
	}
	if o.WaitPath == "" {
		o.WaitPath = DefaultWaitPath
	}
	if !strings.HasPrefix(o.WaitPath, "/") {
		return o, fmt.Errorf("--wait-path: expected a path starting with /, got %q", o.WaitPath)
	}
	if o.StartupTimeout == 0 {
		o.StartupTimeout = DefaultStartupTimeout
	}
	if o.StartupTimeout < 0 {
		return o, fmt.Errorf("--startup-timeout: expected a positive duration, got %s", o.StartupTimeout)
	}
	for k := range o.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return o, fmt.Errorf("--env: expected NAME=VALUE, got name %q", k)
		}
	}
	return o, nil
}

// DisableReaper turns off testcontainers' reaper (Ryuk) unless the user
// chose otherwise: its image would have to be pulled, and no registry is
// reachable. It must run before the first testcontainers call, which reads
// the configuration once.
func DisableReaper() {
	if _, set := os.LookupEnv("TESTCONTAINERS_RYUK_DISABLED"); !set {
		_ = os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
}

// Target is a started container of the image under test; Start returns
// it, and its Stop removes it.
type Target struct {
	ctr     testcontainers.Container
	image   string
	baseURL string
	logDir  string

	stopOnce sync.Once
	stopErr  error

	mu      sync.Mutex
	stopped bool
	logs    []byte // the whole log, kept when the container stops
}

// Start starts o.Image and waits until it answers HTTP on o.WaitPath
// (any status). It fails fast when the container exits, and with
// ErrNotReady after o.StartupTimeout; its errors carry the tail of the
// container's log. The container is removed on every failure; on success
// the caller must call Stop.
func Start(ctx context.Context, o Options) (*Target, error) {
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	DisableReaper()

	// Docker calls that create a container run on a context the caller
	// cannot cancel, only bound: a Ctrl-C in the middle of a create call
	// would otherwise leave a container the engine made and we never heard
	// of. The wait for readiness watches the caller's ctx instead.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.StartupTimeout+dockerCallTimeout)
	defer cancel()

	daemon, err := checkImagePresent(dctx, o.Image)
	if err != nil {
		return nil, err
	}

	port := o.Port + "/tcp"
	waiter := &upOrExited{
		path:        o.WaitPath,
		port:        o.Port,
		timeout:     o.StartupTimeout,
		interrupt:   ctx.Done(),
		localEngine: strings.HasPrefix(daemon, "unix://"),
	}
	req := testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        o.Image,
			ExposedPorts: []string{port},
			Env:          o.Env,
			Labels:       map[string]string{labelRole: "target"},
			WaitingFor:   waiter,
		},
		Started: true,
		Logger:  tclog.NewNoopLogger(),
	}
	ctr, err := testcontainers.GenericContainer(dctx, req)
	if err != nil {
		switch {
		case waiter.failure != nil:
			// Our own words, without testcontainers' "start container:
			// started hook: wait until ready:" around them.
			err = waiter.failure
		case ctx.Err() != nil:
			err = fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
		}
		return nil, failStart(ctr, o, err)
	}
	r := &Target{ctr: ctr, image: o.Image, logDir: o.LogDir}
	mapped, err := ctr.MappedPort(dctx, port)
	if err != nil {
		return nil, failStart(ctr, o, fmt.Errorf("finding the published port of %s: %w", port, err))
	}
	r.baseURL = "http://" + net.JoinHostPort(waiter.host, mapped.Port())
	return r, nil
}

// checkImagePresent fails with ErrImageNotFound when ref is not in the
// local engine. testcontainers would otherwise try to pull it, and retry
// for minutes against a registry that cannot be reached.
// It returns the engine's address (unix:///var/run/docker.sock).
func checkImagePresent(ctx context.Context, ref string) (daemon string, err error) {
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return "", fmt.Errorf("%w (is the Docker engine running? is DOCKER_HOST right?): %w", ErrNoDocker, err)
	}
	defer func() { _ = cli.Close() }()
	if _, err := cli.ImageInspect(ctx, ref); err != nil {
		if errdefs.IsNotFound(err) {
			return "", fmt.Errorf("image %s %w: build it first (docker build -t %s .); campusconf never pulls images", ref, ErrImageNotFound, ref)
		}
		return "", fmt.Errorf("inspecting image %s: %w", ref, err)
	}
	return cli.DaemonHost(), nil
}

// failStart reads what the container logged, removes it, and returns the
// start error carrying the log tail.
func failStart(ctr testcontainers.Container, o Options, cause error) error {
	e := &StartError{Image: o.Image, Err: cause}
	if ctr == nil || isNilContainer(ctr) {
		return e
	}
	r := &Target{ctr: ctr, image: o.Image, logDir: o.LogDir}
	stopErr := r.Stop(context.Background())
	e.Tail = logTail(r.Logs(), logTailLines)
	if r.logDir != "" {
		e.LogFile = filepath.Join(r.logDir, LogFile)
	}
	if stopErr != nil {
		e.Err = errors.Join(cause, fmt.Errorf("removing the container: %w", stopErr))
	}
	return e
}

// isNilContainer reports whether c holds a nil pointer: testcontainers
// returns typed nils on some paths.
func isNilContainer(c testcontainers.Container) bool {
	d, ok := c.(*testcontainers.DockerContainer)
	return ok && d == nil
}

// StartError is a failed start, with what the container logged. Start
// returns it for every failure after the options were accepted.
type StartError struct {
	Image   string // the image that did not start
	Err     error  // why; one of the Err values of this package where one fits
	Tail    string // last lines of the container log
	LogFile string // where the whole log was written, if anywhere
}

// Error is the image, the cause and the tail of the container's log.
func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "image %s: %v", e.Image, e.Err)
	switch {
	case e.Tail != "":
		fmt.Fprintf(&b, "\n--- container log (last %d lines) ---\n%s", logTailLines, e.Tail)
		if !strings.HasSuffix(e.Tail, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("--- end of container log ---")
	case errors.Is(e.Err, ErrImageNotFound), errors.Is(e.Err, ErrNoDocker):
	default:
		b.WriteString("\n(the container logged nothing)")
	}
	if e.LogFile != "" {
		fmt.Fprintf(&b, "\nfull container log: %s", e.LogFile)
	}
	return b.String()
}

// Unwrap returns the cause, for errors.Is.
func (e *StartError) Unwrap() error { return e.Err }

// BaseURL is where the container's port is published on the host, e.g.
// http://127.0.0.1:32771.
func (r *Target) BaseURL() string { return r.baseURL }

// Logs returns the container's stdout and stderr so far (after Stop: all
// of it).
func (r *Target) Logs() []byte {
	r.mu.Lock()
	if r.stopped {
		defer r.mu.Unlock()
		return bytes.Clone(r.logs)
	}
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), dockerCallTimeout)
	defer cancel()
	b, _ := readLogs(ctx, r.ctr)
	return b
}

// Stop stops the container, keeps its log (written to LogDir/container.log
// when LogDir is set) and removes the container. It is idempotent, and
// works on a cancelled ctx: after Ctrl-C is exactly when it must run.
func (r *Target) Stop(ctx context.Context) error {
	r.stopOnce.Do(func() { r.stopErr = r.stop(ctx) })
	return r.stopErr
}

func (r *Target) stop(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dockerCallTimeout)
	defer cancel()
	var errs []error
	grace := stopGrace
	// Stop before reading the log so that it includes the shutdown.
	if err := r.ctr.Stop(ctx, &grace); err != nil && !errdefs.IsNotFound(err) {
		errs = append(errs, fmt.Errorf("stopping container: %w", err))
	}
	logs, err := readLogs(ctx, r.ctr)
	// The engine copies a container's output to its log asynchronously:
	// right after a fast exit the log can still read empty. Give it a
	// moment before concluding the container said nothing.
	for i := 0; i < emptyLogRetries && err == nil && len(logs) == 0; i++ {
		time.Sleep(emptyLogRetryDelay)
		logs, err = readLogs(ctx, r.ctr)
	}
	if err != nil && !errdefs.IsNotFound(err) {
		errs = append(errs, fmt.Errorf("reading container log: %w", err))
	}
	r.mu.Lock()
	r.logs, r.stopped = logs, true
	r.mu.Unlock()
	if r.logDir != "" {
		if err := writeContainerLog(r.logDir, logs); err != nil {
			errs = append(errs, err)
		}
	}
	if err := r.ctr.Terminate(ctx, testcontainers.StopTimeout(0)); err != nil && !errdefs.IsNotFound(err) {
		errs = append(errs, fmt.Errorf("removing container: %w", err))
	}
	return errors.Join(errs...)
}

func readLogs(ctx context.Context, ctr testcontainers.Container) ([]byte, error) {
	rc, err := ctr.Logs(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rc.Close() }()
	b, err := io.ReadAll(rc)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	return b, err
}

func writeContainerLog(dir string, logs []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing container log: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, LogFile), logs, 0o644); err != nil {
		return fmt.Errorf("writing container log: %w", err)
	}
	return nil
}

// logTail returns the last n lines of log.
func logTail(log []byte, n int) string {
	s := strings.TrimRight(string(log), "\n")
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// upOrExited waits until the container answers HTTP, and stops waiting as
// soon as the container is no longer running or the user interrupts: a
// broken image must fail in a second, not after the startup timeout.
//
// It also finds the host the published port is reached at. testcontainers
// guesses the default gateway when it runs inside a container, which is
// right when the engine is the host's (socket mounted in) and wrong when
// the engine runs in the same container (as on this project's machines).
// So with a local engine both the guess and 127.0.0.1 are polled, and the
// first that answers is used. TESTCONTAINERS_HOST_OVERRIDE still decides
// alone when it is set.
type upOrExited struct {
	path        string
	port        string
	timeout     time.Duration
	interrupt   <-chan struct{}
	localEngine bool // the engine listens on a unix socket of this machine

	host    string // where the answer came from; set once ready
	failure error  // why waiting failed, when it did
}

// String describes the wait, for testcontainers' messages.
func (s *upOrExited) String() string {
	return fmt.Sprintf("any HTTP answer to GET %s on container port %s within %s, unless the container exits", s.path, s.port, s.timeout)
}

// WaitUntilReady waits as upOrExited describes, and keeps why it failed.
func (s *upOrExited) WaitUntilReady(ctx context.Context, target wait.StrategyTarget) error {
	s.failure = s.wait(ctx, target)
	return s.failure
}

func (s *upOrExited) wait(ctx context.Context, target wait.StrategyTarget) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	hosts, err := s.hosts(ctx, target)
	if err != nil {
		return err
	}
	type answer struct {
		host string
		err  error
	}
	answers := make(chan answer, len(hosts))
	for _, h := range hosts {
		// One strategy per host: an HTTPStrategy is not safe to share.
		strategy := wait.ForHTTP(s.path).
			WithPort(s.port + "/tcp").
			WithStatusCodeMatcher(func(int) bool { return true }).
			WithStartupTimeout(s.timeout).
			WithPollInterval(httpPollInterval)
		go func() { answers <- answer{h, strategy.WaitUntilReady(ctx, hostTarget{target, h})} }()
	}
	pending := len(hosts)
	stopWaiting := func() {
		cancel()
		for ; pending > 0; pending-- {
			<-answers
		}
	}
	tick := time.NewTicker(exitPollInterval)
	defer tick.Stop()
	var firstErr error
	for {
		select {
		case a := <-answers:
			pending--
			if a.err == nil {
				s.host = a.host
				stopWaiting()
				return nil
			}
			if firstErr == nil {
				firstErr = a.err
			}
			if pending > 0 {
				continue
			}
			// The HTTP strategy notices an exit too, in its own words;
			// report it in ours.
			if exited := s.exited(target); exited != nil {
				return exited
			}
			if errors.Is(firstErr, context.DeadlineExceeded) {
				return fmt.Errorf("%w: no HTTP answer to GET %s on container port %s (published at %s) within %s",
					ErrNotReady, s.path, s.port, s.published(target, hosts), s.timeout)
			}
			return firstErr
		case <-tick.C:
			if exited := s.exited(target); exited != nil {
				stopWaiting()
				return exited
			}
		case <-s.interrupt:
			stopWaiting()
			return fmt.Errorf("%w: %w", ErrInterrupted, context.Canceled)
		}
	}
}

// hosts returns where the published port may be reached, best guess first.
func (s *upOrExited) hosts(ctx context.Context, target wait.StrategyTarget) ([]string, error) {
	h, err := target.Host(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the engine's host: %w", err)
	}
	if h == "localhost" || h == "127.0.0.1" {
		// "localhost" may resolve to ::1 first, which some engines
		// forward badly (moby/moby#42442); published ports are bound on
		// IPv4.
		return []string{"127.0.0.1"}, nil
	}
	if _, set := os.LookupEnv("TESTCONTAINERS_HOST_OVERRIDE"); set || !s.localEngine {
		return []string{h}, nil
	}
	return []string{h, "127.0.0.1"}, nil
}

// published describes where the port was polled, for error messages.
func (s *upOrExited) published(target wait.StrategyTarget, hosts []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := target.MappedPort(ctx, s.port+"/tcp")
	if err != nil {
		return strings.Join(hosts, " or ")
	}
	addrs := make([]string, len(hosts))
	for i, h := range hosts {
		addrs[i] = net.JoinHostPort(h, p.Port())
	}
	return strings.Join(addrs, " or ")
}

// hostTarget is target seen from another host address.
type hostTarget struct {
	wait.StrategyTarget
	host string
}

func (t hostTarget) Host(context.Context) (string, error) { return t.host, nil }

// exited returns ErrExited when the container has stopped
// running, nil while it runs (or when its state cannot be read).
func (s *upOrExited) exited(target wait.StrategyTarget) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := target.State(ctx)
	if err != nil || st == nil || st.Running || st.Status == "created" || st.Status == "restarting" {
		return nil
	}
	if st.OOMKilled {
		return fmt.Errorf("%w: killed for running out of memory (OOMKilled) before answering GET %s", ErrExited, s.path)
	}
	return fmt.Errorf("%w with code %d before answering GET %s on port %s", ErrExited, st.ExitCode, s.path, s.port)
}

// Quiet silences testcontainers' own logging (its connection banner) for
// the whole process: the command owns its stderr, and Docker errors still
// reach the user through the errors returned.
func Quiet() { tclog.SetDefault(tclog.NewNoopLogger()) }
