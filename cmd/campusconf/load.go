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
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/didyoumean"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
)

// Bounds of a load run: it always stops by itself.
const (
	maxLoadDuration    = 10 * time.Minute
	maxLoadConcurrency = 256
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
}

func loadCmd(args []string, stdout, stderr io.Writer) int {
	var o loadOptions
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.target, "target", "", "`URL` to load (default: the simulator, served in process on a loopback port)")
	fs.StringVar(&o.fixtureFile, "fixtures", "", "fixture `FILE` of the target (required with --target)")
	fs.StringVar(&o.op, "op", "E10", "`OP`eration to call: "+strings.Join(loadOps(), ", "))
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "how long to send requests (at most "+maxLoadDuration.String()+")")
	fs.IntVar(&o.concurrency, "concurrency", 8, fmt.Sprintf("`N` requests in flight (1..%d)", maxLoadConcurrency))
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of each request")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow a target that is not a loopback address")
	fs.IntVar(&o.scale, "scale", 1, "`K`, the scale of the in-process simulator's world (without --target)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: campusconf load [flags]\n\nSends one operation as fast as --concurrency allows for --duration, as the\nfixture's owner, then prints requests/s, latency percentiles and errors.\nLoopback targets only unless --allow-remote.\n\nFlags:")
		fs.PrintDefaults()
	}
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
	case o.duration <= 0 || o.duration > maxLoadDuration:
		return fmt.Errorf("--duration: expected more than 0 and at most %s, got %s", maxLoadDuration, o.duration)
	case o.concurrency < 1 || o.concurrency > maxLoadConcurrency:
		return fmt.Errorf("--concurrency: expected 1 to %d, got %d", maxLoadConcurrency, o.concurrency)
	case o.timeout <= 0:
		return fmt.Errorf("--timeout: expected a positive duration, got %s", o.timeout)
	case o.scale < 1:
		return fmt.Errorf("--scale: expected a positive integer, got %d", o.scale)
	case !slices.Contains(loadOps(), fixtures.OperationID(o.op)):
		return fmt.Errorf("--op: expected one of %s, got %q%s", strings.Join(loadOps(), ", "), o.op, didyoumean.Hint(o.op, loadOps()))
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
	if !o.allowRemote && !isLoopback(u.Hostname()) {
		return fmt.Errorf("--target %q is not a loopback address: load only your own machine, or pass --allow-remote for a service you are allowed to load", o.target)
	}
	return nil
}

// isLoopback reports whether host is localhost or a loopback IP literal;
// names are not resolved, so nothing leaves the machine to decide.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loadOp is a request the load command can send, built from a fixture.
type loadOp struct {
	method string
	path   func(f *fixtures.File) string
	body   func(f *fixtures.File) string
}

// loadTable lists the operations the load command can send: reads, and the
// one idempotent write (the notification read status).
var loadTable = map[string]loadOp{
	"E9": {"GET", func(f *fixtures.File) string {
		return "/evaluation/" + f.Records.Evaluation + "/Question/" + f.Records.EvaluationQuestion
	}, nil},
	"E10": {"GET", func(f *fixtures.File) string { return "/files/" + f.Records.Folder + "/downloaded?offset=0&limit=20" }, nil},
	"E11": {"GET", func(f *fixtures.File) string { return "/files/FileAnnotation/" + f.Records.File + "/all" }, nil},
	"E12": {"GET", func(f *fixtures.File) string { return "/module/Weblink/" + f.Records.Weblink + "/Log" }, nil},
	"E13": {"GET", func(f *fixtures.File) string { return "/multimedia/" + f.Records.Media + "/downloadlog" }, nil},
	"E15": {"GET", func(f *fixtures.File) string { return "/multimedia/statistics/channel/" + f.Records.Channel + "/users" }, nil},
	"E16": {"GET", func(f *fixtures.File) string { return "/multimedia/capture/" + f.Records.Capture + "/medias" }, nil},
	"E17": {"GET", func(f *fixtures.File) string { return "/survey/question/" + f.Records.SurveyQuestion + "/response" }, nil},
	"E18": {"GET", func(f *fixtures.File) string { return "/poll/Question/" + f.Records.PollQuestion + "/Response" }, nil},
	"E19": {"GET", func(f *fixtures.File) string { return "/poll/Response/" + f.Records.PollResponse }, nil},
	"E20": {"GET", func(f *fixtures.File) string { return "/resource/" + f.Records.Resource + "/students" }, nil},
	"NG": {"", func(f *fixtures.File) string {
		if f.Records.Notification == nil {
			return ""
		}
		return strings.ReplaceAll(f.Operations["NG"].Path, "{id}", f.Records.Notification.GroupID)
	}, nil},
	"NR": {"", func(f *fixtures.File) string { return f.Operations["NR"].Path },
		func(f *fixtures.File) string {
			if f.Records.Notification == nil {
				return ""
			}
			return fmt.Sprintf(`{"id":%d,"read":11}`, f.Records.Notification.ID)
		}},
}

func loadOps() []string {
	out := make([]string, 0, len(loadTable))
	for k := range loadTable {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// loadResult is what one load run measured.
type loadResult struct {
	requests  int
	elapsed   time.Duration
	latencies []time.Duration // sorted
	statuses  map[int]int
	failures  map[string]int // transport errors by message
}

func (r loadResult) errors() int {
	n := 0
	for s, c := range r.statuses {
		if s < 200 || s > 299 {
			n += c
		}
	}
	for _, c := range r.failures {
		n += c
	}
	return n
}

func (r loadResult) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(p*float64(len(r.latencies))+0.5) - 1
	return r.latencies[max(0, min(i, len(r.latencies)-1))]
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
		go srv.Serve(ln)
		defer srv.Close()
		f, base = sim.Fixtures(), "http://"+ln.Addr().String()
	} else {
		var err error
		if f, err = fixtures.Load(o.fixtureFile); err != nil {
			fmt.Fprintln(stderr, "campusconf load:", err)
			return exitUsage
		}
	}
	o.op = fixtures.OperationID(o.op)
	op := loadTable[o.op]
	method, path := op.method, op.path(f)
	if method == "" {
		method = f.Operations[o.op].Method
	}
	body := ""
	if op.body != nil {
		body = op.body(f)
	}
	if method == "" || path == "" || strings.Contains(path, "//") || strings.HasSuffix(path, "/") || op.body != nil && body == "" {
		fmt.Fprintf(stderr, "campusconf load: the fixture does not give what %s needs (records or operations.%s)\n", o.op, o.op)
		return exitUsage
	}
	user := f.Users["owner"]
	key := f.SubscriptionKey
	if user.SubscriptionKey != "" {
		key = user.SubscriptionKey
	}
	tr := &http.Transport{MaxIdleConnsPerHost: o.concurrency, MaxConnsPerHost: o.concurrency, ForceAttemptHTTP2: true,
		MaxResponseHeaderBytes: steps.MaxResponseHeaderBytes}
	defer tr.CloseIdleConnections()
	// as in run: a redirect is an answer, and credentials never go to
	// another origin
	client := &http.Client{Transport: tr, Timeout: o.timeout, CheckRedirect: steps.NoRedirects(nil)}
	send := func(ctx context.Context) (int, error) {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
		if err != nil {
			return 0, err
		}
		if key != "" {
			req.Header.Set("Ocp-Apim-Subscription-Key", key)
		}
		for k, v := range user.Headers {
			req.Header.Set(k, v)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, 16<<20))
		resp.Body.Close()
		return resp.StatusCode, err
	}
	if _, err := send(ctx); err != nil {
		fmt.Fprintf(stderr, "campusconf load: target %s is unreachable: %v\n", base, err)
		return exitUnreachable
	}

	fmt.Fprintf(stdout, "campusconf load: %s %s for %s with %d in flight\n", method, base+path, o.duration, o.concurrency)
	r := hammer(ctx, o.duration, o.concurrency, send)
	fmt.Fprintf(stdout, "requests: %d in %s, %.0f requests/s\n", r.requests, r.elapsed.Round(time.Millisecond), float64(r.requests)/r.elapsed.Seconds())
	fmt.Fprintf(stdout, "latency: p50 %s, p99 %s, max %s\n", r.percentile(0.50).Round(time.Microsecond),
		r.percentile(0.99).Round(time.Microsecond), r.percentile(1).Round(time.Microsecond))
	fmt.Fprintf(stdout, "errors: %d", r.errors())
	var parts []string
	for s, c := range r.statuses {
		parts = append(parts, fmt.Sprintf("%d: %d", s, c))
	}
	for m, c := range r.failures {
		parts = append(parts, fmt.Sprintf("%s: %d", m, c))
	}
	sort.Strings(parts)
	fmt.Fprintf(stdout, " (%s)\n", strings.Join(parts, ", "))
	if r.errors() > 0 {
		return exitFailed
	}
	return exitOK
}

// hammer calls send from concurrency goroutines until d has passed or ctx
// ends, and collects what came back.
func hammer(ctx context.Context, d time.Duration, concurrency int, send func(context.Context) (int, error)) loadResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	res := loadResult{statuses: map[int]int{}, failures: map[string]int{}}
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			statuses, failures := map[int]int{}, map[string]int{}
			for ctx.Err() == nil {
				t := time.Now()
				status, err := send(ctx)
				if ctx.Err() != nil {
					break // cut off by the end of the run: not counted
				}
				lat = append(lat, time.Since(t))
				if err != nil {
					failures[err.Error()]++
					continue
				}
				statuses[status]++
			}
			mu.Lock()
			defer mu.Unlock()
			res.latencies = append(res.latencies, lat...)
			for s, c := range statuses {
				res.statuses[s] += c
			}
			for m, c := range failures {
				res.failures[m] += c
			}
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.requests = len(res.latencies)
	slices.Sort(res.latencies)
	return res
}
