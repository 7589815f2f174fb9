// Package loadgen sends one operation of the interface as fast as a
// bounded number of goroutines allows for a bounded time, and measures
// what came back: the generator behind `campusconf load`. Its bounds make
// every run stop by itself; which targets it may be pointed at (loopback
// only, unless allowed) is decided with IsLoopback.
package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
)

// pathParam is a parameter of a path template.
var pathParam = regexp.MustCompile(`\{[^{}]+\}`)

// Bounds of a load run: it always stops by itself.
const (
	// MaxDuration is the longest a run may send requests.
	MaxDuration = 10 * time.Minute
	// MaxConcurrency is the most requests a run may keep in flight.
	MaxConcurrency = 256
)

// FixtureError is returned by NewRequest when the fixture lacks a record
// or an operation entry that Op needs.
type FixtureError struct{ Op string }

// Error names the operation and where the fixture should give it.
func (e *FixtureError) Error() string {
	return fmt.Sprintf("the fixture does not give what %s needs (records or operations.%s)", e.Op, e.Op)
}

// OperationIDs returns, sorted, the ids of the operations the generator
// can send: those the registry marks for load (reads, and the one
// idempotent write, the notification read status).
func OperationIDs() []string {
	out := registry.Strings(registry.Select(func(o registry.Operation) bool { return o.Load }))
	sort.Strings(out)
	return out
}

// fill replaces the placeholders of text with the fixture's values (doc is
// the fixture as JSON); ok is false when one is missing.
func fill(text string, doc []byte) (string, bool) {
	out, err := registry.Fill(text, func(key string) (string, error) {
		v := gjson.GetBytes(doc, key)
		if !v.Exists() || v.String() == "" {
			return "", errMissing
		}
		if v.Type == gjson.String {
			return v.String(), nil
		}
		return v.Raw, nil
	})
	return out, err == nil
}

var errMissing = errors.New("missing in the fixture")

// IsLoopback reports whether host is localhost or a loopback IP literal;
// names are not resolved, so nothing leaves the machine to decide.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Request is the one request a run sends over and over, as the fixture's
// owner.
type Request struct {
	Method string
	URL    string
	Body   string // empty: none
	Header http.Header
}

// NewRequest builds the request of operation op (one of OperationIDs, or
// its alias) against base from fixture f, sent as f's owner with the
// subscription key. It fails with a *FixtureError when f lacks what op needs.
func NewRequest(op, base string, f *fixtures.File) (Request, error) {
	o, known := registry.Lookup(op)
	if !known || !o.Load {
		return Request{}, fmt.Errorf("unknown operation %q: expected one of %s", op, strings.Join(OperationIDs(), ", "))
	}
	op = string(o.ID)
	doc, err := json.Marshal(f)
	if err != nil {
		return Request{}, err
	}
	method, tmpl := o.Method, o.Path
	if !o.Placed {
		method, tmpl = f.Operations[op].Method, f.Operations[op].Path
	}
	complete := method != "" && tmpl != ""
	path := pathParam.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := m[1 : len(m)-1]
		for k, v := range o.Typical.Params {
			if strings.EqualFold(k, name) {
				val, ok := fill(v, doc)
				complete = complete && ok
				return url.PathEscape(val)
			}
		}
		complete = false
		return ""
	})
	query := url.Values{}
	for k, v := range o.Typical.Query {
		val, ok := fill(v, doc)
		complete = complete && ok
		query.Set(k, val)
	}
	parts := []string{query.Encode()}
	if o.LoadQuery != "" {
		more, ok := fill(o.LoadQuery, doc)
		complete = complete && ok
		parts = append(parts, more)
	}
	if q := strings.Trim(strings.Join(parts, "&"), "&"); q != "" {
		path += "?" + q
	}
	body, ok := fill(o.LoadBody, doc)
	if !complete || !ok {
		return Request{}, &FixtureError{Op: op}
	}
	user := f.Users["owner"]
	key := f.SubscriptionKey
	if user.SubscriptionKey != "" {
		key = user.SubscriptionKey
	}
	h := http.Header{}
	if key != "" {
		h.Set(wire.KeyHeader, key)
	}
	for k, v := range user.Headers {
		h.Set(k, v)
	}
	if body != "" {
		h.Set("Content-Type", "application/json")
	}
	return Request{Method: method, URL: strings.TrimRight(base, "/") + path, Body: body, Header: h}, nil
}

// Generator sends one Request from up to a bounded number of goroutines.
type Generator struct {
	req         Request
	concurrency int
	transport   *http.Transport
	client      *http.Client
	// rate caps the requests per second (SetRate); nil: none
	rate *pace.Pacer
}

// SetRate caps the requests per second (`load --rate`, pace.ParseRate);
// 0 removes the cap.
func (g *Generator) SetRate(perSecond float64) {
	g.rate = nil
	if perSecond > 0 {
		g.rate = pace.New(pace.Config{Rate: perSecond})
	}
}

// New returns a generator of req with concurrency requests in flight, each
// bounded by timeout. Close releases its connections.
func New(req Request, concurrency int, timeout time.Duration) *Generator {
	tr := &http.Transport{MaxIdleConnsPerHost: concurrency, MaxConnsPerHost: concurrency, ForceAttemptHTTP2: true,
		MaxResponseHeaderBytes: wire.MaxResponseHeaderBytes}
	return &Generator{
		req:         req,
		concurrency: concurrency,
		transport:   tr,
		// as in run: a redirect is an answer, and credentials never go to
		// another origin
		client: &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: wire.NoRedirects(nil)},
	}
}

// Close closes the generator's idle connections.
func (g *Generator) Close() { g.transport.CloseIdleConnections() }

// Send sends the request once and returns the status that came back.
func (g *Generator) Send(ctx context.Context) (int, error) {
	if err := g.rate.Take(ctx); err != nil {
		return 0, err
	}
	var rd io.Reader
	if g.req.Body != "" {
		rd = strings.NewReader(g.req.Body)
	}
	req, err := http.NewRequestWithContext(ctx, g.req.Method, g.req.URL, rd)
	if err != nil {
		return 0, err
	}
	req.Header = g.req.Header.Clone()
	resp, err := g.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, 16<<20))
	_ = resp.Body.Close()
	return resp.StatusCode, err
}

// Run sends the request until d has passed or ctx ends, and returns what
// was measured.
func (g *Generator) Run(ctx context.Context, d time.Duration) Result {
	return hammer(ctx, d, g.concurrency, g.Send)
}

// Result is what one run measured.
type Result struct {
	Requests  int
	Elapsed   time.Duration
	Latencies []time.Duration // sorted
	Statuses  map[int]int     // answers by status
	Failures  map[string]int  // transport errors by message
}

// Errors counts the answers outside 2xx and the transport errors.
func (r Result) Errors() int {
	n := 0
	for s, c := range r.Statuses {
		if s < 200 || s > 299 {
			n += c
		}
	}
	for _, c := range r.Failures {
		n += c
	}
	return n
}

// Percentile returns the latency below which the fraction p (0..1) of the
// requests finished: 0.5 the median, 1 the maximum.
func (r Result) Percentile(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(p*float64(len(r.Latencies))+0.5) - 1
	return r.Latencies[max(0, min(i, len(r.Latencies)-1))]
}

// Rate is the requests per second over the run.
func (r Result) Rate() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// Breakdown lists the answers by status and the transport errors by
// message, as "status: count" and "message: count", sorted.
func (r Result) Breakdown() []string {
	var parts []string
	for s, c := range r.Statuses {
		parts = append(parts, fmt.Sprintf("%d: %d", s, c))
	}
	for m, c := range r.Failures {
		parts = append(parts, fmt.Sprintf("%s: %d", m, c))
	}
	sort.Strings(parts)
	return parts
}

// hammer calls send from concurrency goroutines until d has passed or ctx
// ends, and collects what came back.
func hammer(ctx context.Context, d time.Duration, concurrency int, send func(context.Context) (int, error)) Result {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	res := Result{Statuses: map[int]int{}, Failures: map[string]int{}}
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
			res.Latencies = append(res.Latencies, lat...)
			for s, c := range statuses {
				res.Statuses[s] += c
			}
			for m, c := range failures {
				res.Failures[m] += c
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Requests = len(res.Latencies)
	slices.Sort(res.Latencies)
	return res
}
