// Package proxy is a reverse proxy that checks live traffic against the
// interface's rules, each by its requirement id: the request's validity
// (which decides whether a refusal is due), the status, the success body's
// shape, the error body's form, the subscription key, the roles the
// fixture states, and the rules that need memory of earlier exchanges on
// the same record. It forwards every exchange unchanged and keeps only a
// bounded prefix of each body for the checks.
package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
)

// DefaultMaxCapture is the number of bytes of each body the proxy keeps
// for its checks; the rest streams through unread by them.
const DefaultMaxCapture = 1 << 20

// Options configure a Proxy.
type Options struct {
	// Target is the base URL every request is forwarded to.
	Target *url.URL
	// Fixture describes the target: where the unplaced operations live,
	// its credentials (to tell users apart and to redact), its refusals.
	Fixture *fixtures.File
	// Console receives one line per violating exchange; nil: quiet.
	Console io.Writer
	// MaxCapture bounds the bytes of each body kept for the checks
	// (default DefaultMaxCapture). A body cut there is not judged on what
	// was cut.
	MaxCapture int
	// MaxExchanges, when positive, closes Done after that many exchanges.
	MaxExchanges int
	// Transport forwards the requests (default http.DefaultTransport).
	Transport http.RoundTripper
	// CORS makes the proxy answer CORS preflights itself, as the
	// simulator does, and add Access-Control-Allow-Origin: * to answers
	// that carry none, for a target that does not serve browsers. Off,
	// preflights and CORS headers pass through unchanged.
	CORS bool
	// CORSOrigins restricts the origins CORS serves, as the simulator's
	// (wire.ParseCORSOrigins); empty allows any. It implies CORS.
	CORSOrigins []string
	// Checkers is the number of checker queues (default DefaultCheckers).
	// The exchanges of one world go to one queue, checked in the order
	// their answers were forwarded.
	Checkers int
	// QueueLen bounds the exchanges waiting in one checker queue (default
	// DefaultQueueLen); QueueBytes bounds the bytes the proxy holds for its
	// checks (default DefaultQueueBytes): the bodies it captures and the
	// header blocks it copies, from the capture (a client still sending
	// its body included) until the check. An exchange that finds no room
	// is forwarded all the same, as it comes, and counted unchecked.
	QueueLen   int
	QueueBytes int64
	// StateBytes bounds the memory of earlier exchanges the stateful rules
	// keep (default DefaultStateBytes); past it the least recently used
	// entry is dropped first.
	StateBytes int64
	// MaxHeader bounds the header block of a request or an answer the
	// proxy checks, names and values (default
	// wire.MaxResponseHeaderBytes, the runner's --max-header): a larger
	// one is checked no further, counted too large, and forwarded
	// unchanged.
	MaxHeader int
	// AllowedHosts are the Host values the proxy answers besides
	// localhost, names under .localhost and IP addresses
	// (wire.HostPolicy, as campusconf serve): a request sent to another
	// name gets 421 and is not forwarded, so a web page cannot read the
	// target through the proxy by DNS rebinding. wire.AnyHost switches
	// the check off.
	AllowedHosts []string
	// ReadTimeout bounds the time a client may take to send a request,
	// its body included (default DefaultReadTimeout), in the server
	// Server returns.
	ReadTimeout time.Duration
}

// The bounds of the proxy's server (Server), those of campusconf serve: a
// client that stalls its request, its body or its reading of the answer
// is cut off instead of holding a connection and what it sent.
const (
	DefaultReadTimeout       = time.Minute
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultWriteTimeout      = 5 * time.Minute
	DefaultIdleTimeout       = 120 * time.Second
	// MaxRequestHeaderBytes is what the server reads of a request's line
	// and headers; a header block past MaxHeader but within it is
	// forwarded unchecked.
	MaxRequestHeaderBytes = 1 << 20
)

// The defaults of the checker queues: forwarding never waits for a check,
// so the queues bound what waits.
const (
	DefaultCheckers   = 2
	DefaultQueueLen   = 4096
	DefaultQueueBytes = 32 << 20
)

// Proxy is an http.Handler forwarding to Options.Target and checking each
// exchange. It is safe for concurrent use.
type Proxy struct {
	// consoleMu keeps the console's lines whole
	consoleMu sync.Mutex

	opts    Options
	rp      *httputil.ReverseProxy
	check   *checker
	red     *redact.Redactor
	started time.Time

	seen    atomic.Int64
	done    chan struct{}
	doneSet sync.Once

	// the checker queues, one goroutine each; see enqueue
	queues    []chan *Exchange
	held      atomic.Int64 // bytes captured or copied for the checks, not yet checked
	unchecked atomic.Int64 // exchanges forwarded but never checked (no room)
	limited   atomic.Int64 // rate-limited answers forwarded, not judged (internal/pace)
	tooLarge  atomic.Int64 // exchanges with a body past MaxCapture
	// exchanges with a header block past MaxHeader, not checked
	headersTooLarge atomic.Int64
	misdirected     atomic.Int64 // requests refused for their Host
	hosts           wire.HostPolicy
	cors            wire.CORSPolicy // the origins of CORS (Options.CORSOrigins)
	enqueued        atomic.Int64
	checkedMu       sync.Mutex
	checkedCond     *sync.Cond
	checkedN        int64
	closeOnce       sync.Once
	stopped         atomic.Bool
	stop            chan struct{}
	// beforeCheck, when set (tests), runs before each check on the
	// checker's goroutine
	beforeCheck func()
	// afterCheck, when set (tests), is told of each exchange checked: the
	// operation it matched, what was judged on it and what it breaks
	afterCheck func(ex *Exchange, op registry.OpID, findings []Finding)

	mu      sync.Mutex
	results map[key]*result
	order   []key
	matched int
	kept    int64 // body bytes kept in results, for reports.MaxKept
}

type key struct {
	op  registry.OpID
	req string
}

// result is what one (operation, requirement) pair has seen.
type result struct {
	exchanges int // exchanges judged on it
	violating int
	first     Finding
	kept      []reports.Exchange
	dropped   int
}

// New returns a Proxy for opts.
func New(opts Options) (*Proxy, error) {
	if opts.Target == nil || opts.Target.Scheme == "" || opts.Target.Host == "" {
		return nil, errors.New("proxy: a target URL with scheme and host is required")
	}
	if opts.Fixture == nil {
		return nil, errors.New("proxy: a fixture is required")
	}
	if opts.MaxCapture <= 0 {
		opts.MaxCapture = DefaultMaxCapture
	}
	if opts.Checkers <= 0 {
		opts.Checkers = DefaultCheckers
	}
	if opts.QueueLen <= 0 {
		opts.QueueLen = DefaultQueueLen
	}
	if opts.QueueBytes <= 0 {
		opts.QueueBytes = DefaultQueueBytes
	}
	if opts.StateBytes <= 0 {
		opts.StateBytes = DefaultStateBytes
	}
	if opts.MaxHeader <= 0 {
		opts.MaxHeader = wire.MaxResponseHeaderBytes
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultReadTimeout
	}
	cors, err := wire.ParseCORSOrigins(strings.Join(opts.CORSOrigins, ","))
	if err != nil {
		return nil, fmt.Errorf("proxy: cors origins: %w", err)
	}
	opts.CORS = opts.CORS || len(opts.CORSOrigins) > 0
	hosts, err := wire.NewHostPolicy(opts.AllowedHosts)
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	if opts.Transport == nil {
		// the default keeps 2 idle connections per host: a browser's
		// parallel requests would open and close connections to the
		// target all the time
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 256
		// no Accept-Encoding the client did not send, and an answer
		// passed on as it came, compressed or not
		t.DisableCompression = true
		opts.Transport = t
	}
	check, err := loadChecker(opts.Fixture, opts.StateBytes)
	if err != nil {
		return nil, err
	}
	p := &Proxy{
		hosts:   hosts,
		cors:    cors,
		opts:    opts,
		check:   check,
		red:     redact.NewWith(opts.Fixture, redact.TargetSecrets(opts.Target.String())),
		started: time.Now(),
		done:    make(chan struct{}),
		results: map[key]*result{},
	}
	p.check.limited = func(*Exchange) { p.limited.Add(1) }
	p.checkedCond = sync.NewCond(&p.checkedMu)
	p.stop = make(chan struct{})
	for range opts.Checkers {
		q := make(chan *Exchange, opts.QueueLen)
		p.queues = append(p.queues, q)
		go p.checkLoop(q)
	}
	target := opts.Target
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			// SetURL joins the query of target and request; keep the
			// request's own as sent when the target has none
			if target.RawQuery == "" {
				pr.Out.URL.RawQuery = pr.In.URL.RawQuery
			}
			forwarded(pr)
		},
		Transport: opts.Transport,
		ModifyResponse: func(resp *http.Response) error {
			if opts.CORS && resp.Header.Get("Access-Control-Allow-Origin") == "" {
				origin := resp.Request.Header.Get("Origin")
				if v, ok := cors.AllowOrigin(origin); ok {
					resp.Header.Set("Access-Control-Allow-Origin", v)
					if origin != "" && resp.Header.Get("Access-Control-Expose-Headers") == "" {
						resp.Header.Set("Access-Control-Expose-Headers", wire.CORSExposeHeaders)
					}
				}
				if !cors.Any() {
					resp.Header.Add("Vary", "Origin")
				}
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprintf(w, "%q\n", "campusconf proxy: target unreachable")
		},
	}
	return p, nil
}

// Done is closed once MaxExchanges exchanges have been seen.
func (p *Proxy) Done() <-chan struct{} { return p.done }

// Server returns the HTTP server to serve p with: the timeouts and the
// header bound of campusconf serve (ReadTimeout from Options), so that a
// client stalling its request, its body or its reading of the answer is
// cut off.
func (p *Proxy) Server() *http.Server {
	return &http.Server{
		Handler:           p,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		ReadTimeout:       p.opts.ReadTimeout,
		WriteTimeout:      DefaultWriteTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    MaxRequestHeaderBytes,
	}
}

// ServeHTTP forwards r and checks the exchange.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.hosts.Allows(r.Host) {
		p.misdirectedAnswer(w, r)
		return
	}
	if p.opts.CORS && r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		p.preflight(w, r)
		return
	}
	ex := &Exchange{Method: r.Method, URL: r.URL, Started: time.Now()}
	if r.Body != nil && r.Body != http.NoBody {
		buf, room, err := p.readAtMost(ex, r.Body, r.ContentLength, p.opts.MaxCapture+1)
		if err != nil {
			p.give(ex.held)
			http.Error(w, `"campusconf proxy: request body unreadable"`, http.StatusBadRequest)
			return
		}
		ex.RequestBody = buf
		ex.noRoom = !room
		if !room || len(buf) > p.opts.MaxCapture {
			ex.RequestCut = len(buf) > p.opts.MaxCapture
			ex.RequestBody = buf[:min(len(buf), p.opts.MaxCapture)]
			// what was read goes first, the rest streams from the client
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(buf), r.Body), r.Body}
		} else {
			r.Body = io.NopCloser(bytes.NewReader(buf))
		}
	}
	cw := &captureWriter{ResponseWriter: w, max: p.opts.MaxCapture, buf: bufPool.Get().(*bytes.Buffer), p: p, ex: ex, noRoom: ex.noRoom}
	var transportErr error
	rp := *p.rp
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		transportErr = err
		p.rp.ErrorHandler(w, r, err)
	}
	rp.ServeHTTP(cw, r)
	// no flush here: the checks run on the checker queues, and the
	// server sends the answer when the handler returns, as it does for a
	// bare ReverseProxy (which flushes streamed answers itself)
	ex.Duration = time.Since(ex.Started)
	ex.Status = cw.status
	if ex.Status == 0 {
		ex.Status = http.StatusOK
	}
	ex.ResponseBody = cw.buf.Bytes()
	ex.pooled = cw.buf
	ex.ResponseCut = cw.cut
	ex.noRoom = cw.noRoom
	ex.Err = transportErr
	p.handOn(ex, r.Header, w.Header())
	if n := p.seen.Add(1); p.opts.MaxExchanges > 0 && n >= int64(p.opts.MaxExchanges) {
		p.doneSet.Do(func() { close(p.done) })
	}
}

// handOn hands a forwarded exchange to the checks with copies of its
// header blocks, unless a block is past MaxHeader (too large: checked no
// further) or the bytes it needs find no room (unchecked).
func (p *Proxy) handOn(ex *Exchange, reqHeader, respHeader http.Header) {
	reqBytes, respBytes := headerBytes(reqHeader), headerBytes(respHeader)
	switch {
	case reqBytes > p.opts.MaxHeader || respBytes > p.opts.MaxHeader:
		p.headersTooLarge.Add(1)
		release(p, ex)
		return
	case ex.noRoom || !p.take(ex, int64(reqBytes+respBytes)):
		p.unchecked.Add(1)
		release(p, ex)
		return
	}
	ex.RequestHeader = reqHeader.Clone()
	ex.ResponseHeader = respHeader.Clone()
	p.enqueue(ex)
}

// headerBytes is the size of a header block: names and values.
func headerBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(v) + 4 // ": " and CRLF
		}
	}
	return n
}

// take holds n more bytes for ex's checks, within QueueBytes; false when
// there is no room (nothing is held then).
func (p *Proxy) take(ex *Exchange, n int64) bool {
	if n <= 0 {
		return true
	}
	if p.held.Add(n) > p.opts.QueueBytes {
		p.held.Add(-n)
		return false
	}
	ex.held += n
	return true
}

// give returns n bytes held for the checks.
func (p *Proxy) give(n int64) {
	if n > 0 {
		p.held.Add(-n)
	}
}

// misdirectedAnswer refuses a request sent to a Host the proxy is not
// served as: 421 with a JSON string body, as campusconf serve answers,
// and nothing forwarded.
func (p *Proxy) misdirectedAnswer(w http.ResponseWriter, r *http.Request) {
	p.misdirected.Add(1)
	name := wire.HostName(r.Host)
	if len(name) > 60 {
		name = name[:57] + "..."
	}
	msg := fmt.Sprintf("campusconf proxy: host %q: this proxy is not served under that name; it answers localhost, IP addresses and the names it is told to allow (campusconf proxy --allowed-hosts %s)", name, name)
	body, _ := json.Marshal(msg)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusMisdirectedRequest)
	_, _ = w.Write(append(body, '\n'))
}

// forwarded sets X-Forwarded-For, X-Forwarded-Host and X-Forwarded-Proto
// as net/http/httputil does for a Director: the client's address appended
// to the X-Forwarded-For the request carried, and the host and scheme it
// asked for where the request carried none (an earlier proxy's stay).
func forwarded(pr *httputil.ProxyRequest) {
	host, proto := pr.In.Header["X-Forwarded-Host"], pr.In.Header["X-Forwarded-Proto"]
	pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
	pr.SetXForwarded()
	if host != nil {
		pr.Out.Header["X-Forwarded-Host"] = host
	}
	if proto != nil {
		pr.Out.Header["X-Forwarded-Proto"] = proto
	}
}

// enqueue hands ex to the checker queue of its world, never waiting: with
// no room (QueueLen exchanges waiting), ex is counted unchecked.
func (p *Proxy) enqueue(ex *Exchange) {
	if p.stopped.Load() {
		p.unchecked.Add(1)
		release(p, ex)
		return
	}
	world, _ := wire.WorldOf(ex.URL.Path, ex.RequestHeader)
	q := p.queues[shard(world, len(p.queues))]
	p.enqueued.Add(1)
	select {
	case q <- ex:
	default:
		p.unchecked.Add(1)
		release(p, ex)
		p.markChecked()
	}
}

// shard picks the queue of a world (FNV-1a).
func shard(world string, n int) int {
	h := uint32(2166136261)
	for i := 0; i < len(world); i++ {
		h ^= uint32(world[i])
		h *= 16777619
	}
	return int(h % uint32(n))
}

func (p *Proxy) checkLoop(q chan *Exchange) {
	for {
		select {
		case ex := <-q:
			p.checkOne(ex)
		case <-p.stop:
			for {
				select {
				case ex := <-q:
					p.checkOne(ex)
				default:
					return
				}
			}
		}
	}
}

func (p *Proxy) checkOne(ex *Exchange) {
	if p.beforeCheck != nil {
		p.beforeCheck()
	}
	p.observe(ex)
	release(p, ex)
	p.markChecked()
}

func (p *Proxy) markChecked() {
	p.checkedMu.Lock()
	p.checkedN++
	p.checkedCond.Broadcast()
	p.checkedMu.Unlock()
}

// Wait returns once every exchange forwarded before the call has been
// checked (or counted unchecked). Findings, Violations and Report wait.
func (p *Proxy) Wait() {
	want := p.enqueued.Load()
	p.checkedMu.Lock()
	for p.checkedN < want {
		p.checkedCond.Wait()
	}
	p.checkedMu.Unlock()
}

// Close waits for the checks under way and stops the checkers; call it
// once no request is served any more (after http.Server.Shutdown).
// An exchange forwarded after Close is counted unchecked.
func (p *Proxy) Close() {
	p.stopped.Store(true)
	p.Wait()
	p.closeOnce.Do(func() { close(p.stop) })
}

// Unchecked is the number of exchanges forwarded but not checked, the
// checker queues being full.
func (p *Proxy) Unchecked() int64 { return p.unchecked.Load() }

// Seen is the number of exchanges forwarded.
func (p *Proxy) Seen() int64 { return p.seen.Load() }

// observe checks one exchange (on a checker goroutine).
func (p *Proxy) observe(ex *Exchange) {
	decode(ex, p.opts.MaxCapture)
	if ex.RequestCut || ex.ResponseCut {
		p.tooLarge.Add(1)
	}
	op, findings := p.check.check(ex)
	p.mu.Lock()
	if op != "" {
		p.matched++
	}
	for _, req := range ex.judged {
		p.result(op, req).exchanges++
	}
	if p.afterCheck != nil {
		p.afterCheck(ex, op, findings)
	}
	for _, f := range findings {
		res := p.result(f.Operation, f.Requirement)
		res.violating++
		if res.violating == 1 {
			res.first = f
		}
		p.keep(res, ex)
	}
	p.mu.Unlock()
	if p.opts.Console != nil && len(findings) > 0 {
		// exchanges are observed concurrently: one line at a time, and
		// nothing from the target unredacted or unescaped
		p.consoleMu.Lock()
		for _, f := range findings {
			fmt.Fprintln(p.opts.Console, reports.SafeText(fmt.Sprintf("VIOLATION %s %s %s: expected %s, got %s",
				f.Operation, f.Requirement, ex.Method+" "+p.red.String(ex.URL.RequestURI()), f.Expected, p.red.String(f.Got))))
		}
		p.consoleMu.Unlock()
	}
}

func (p *Proxy) result(op registry.OpID, req string) *result {
	k := key{op, req}
	r := p.results[k]
	if r == nil {
		r = &result{}
		p.results[k] = r
		p.order = append(p.order, k)
	}
	return r
}

// keep adds a redacted copy of ex to res, within the report's bounds.
func (p *Proxy) keep(res *result, ex *Exchange) {
	body := reports.MaxBody
	if p.kept > reports.MaxKept {
		body = reports.LeanBody
	}
	u := *p.opts.Target
	u.Path = singleJoin(u.Path, ex.URL.Path)
	u.RawQuery = ex.URL.RawQuery
	re := reports.Exchange{
		Method:         ex.Method,
		URL:            p.red.String(u.String()),
		RequestHeaders: p.red.Headers(ex.RequestHeader),
		RequestBody:    p.red.Prefix(ex.RequestBody, body),
		Status:         ex.Status,
		ResponseBody:   p.red.Prefix(ex.ResponseBody, body),
		Truncated:      ex.RequestCut || ex.ResponseCut || len(ex.RequestBody) > body || len(ex.ResponseBody) > body,
		Duration:       reports.Duration(ex.Duration),
	}
	re.ResponseHeaders, re.ResponseHeadersDropped = reports.ResponseHeaders(p.red, ex.ResponseHeader, reports.MaxHeaders)
	if ex.Err != nil {
		re.Error = p.red.String(ex.Err.Error())
	}
	p.kept += int64(len(re.RequestBody) + len(re.ResponseBody))
	if len(res.kept) < reports.MaxExchanges {
		res.kept = append(res.kept, re)
		return
	}
	res.kept[len(res.kept)-1] = re
	res.dropped++
}

func singleJoin(a, b string) string {
	switch {
	case a == "" || a == "/":
		return b
	case a[len(a)-1] == '/' && len(b) > 0 && b[0] == '/':
		return a + b[1:]
	case a[len(a)-1] != '/' && (b == "" || b[0] != '/'):
		return a + "/" + b
	}
	return a + b
}

// bufPool holds the buffers answers are captured in: a buffer goes back
// once its exchange is checked (nothing the checks keep points into it:
// gjson, the findings and the reports copy what they keep).
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 256 << 10

// release gives back what ex holds: its bytes within QueueBytes, its
// answer's buffer.
func release(p *Proxy, ex *Exchange) {
	p.give(ex.held)
	ex.held = 0
	b := ex.pooled
	if b == nil {
		return
	}
	ex.pooled, ex.ResponseBody = nil, nil
	if b.Cap() <= maxPooled {
		b.Reset()
		bufPool.Put(b)
	}
}

// captureWriter passes a response through and keeps its status and the
// first max bytes of its body, each chunk held for the checks first
// (noRoom once one found no room: nothing more is kept).
type captureWriter struct {
	http.ResponseWriter
	status int
	max    int
	buf    *bytes.Buffer
	cut    bool
	p      *Proxy
	ex     *Exchange
	noRoom bool
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 && code >= 200 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if room := c.max - c.buf.Len(); room > 0 && !c.noRoom {
		n := min(room, len(b))
		if c.p.take(c.ex, int64(n)) {
			c.buf.Write(b[:n])
			if len(b) > room {
				c.cut = true
			}
		} else {
			c.noRoom = true
		}
	} else if len(b) > 0 {
		c.cut = true
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (to
// flush a streamed answer as it comes).
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// preflight answers a CORS preflight as the simulator does
// (wire.CORSPolicy): the origins allowed, the interface's methods, the
// headers asked for; a refused one gets 403 and its reason on the
// console.
func (p *Proxy) preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	origin := r.Header.Get("Origin")
	asked := strings.Join(r.Header.Values("Access-Control-Request-Headers"), ",")
	if !p.cors.Any() {
		h.Set("Vary", "Origin")
	}
	if why := p.cors.CheckPreflight(origin, r.Header.Get("Access-Control-Request-Method"), asked); why != "" {
		if p.opts.Console != nil {
			p.consoleMu.Lock()
			fmt.Fprintln(p.opts.Console, reports.SafeText("REFUSED OPTIONS "+p.red.String(r.URL.Path)+": "+why))
			p.consoleMu.Unlock()
		}
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		b, _ := json.Marshal(why)
		_, _ = w.Write(b)
		return
	}
	v, _ := p.cors.AllowOrigin(origin)
	h.Set("Access-Control-Allow-Origin", v)
	h.Set("Access-Control-Allow-Methods", wire.CORSMethods)
	h.Set("Access-Control-Allow-Headers", wire.CORSAllowHeaders(asked))
	h.Set("Access-Control-Max-Age", wire.CORSMaxAge)
	w.WriteHeader(http.StatusNoContent)
}

// captureChunk is the most a request body's capture holds ahead of what
// the client has sent.
const captureChunk = 32 << 10

// readAtMost reads up to n bytes of r, a chunk at a time (at most the
// length announced, and one more to see a body longer than announced),
// each chunk held for ex's checks before it is read: a client that stalls
// holds no more than it sent and one chunk. room is false when a chunk
// found no room: what was read is returned, the rest is left in r.
func (p *Proxy) readAtMost(ex *Exchange, r io.Reader, announced int64, n int) (buf []byte, room bool, err error) {
	for len(buf) < n {
		want := min(n-len(buf), captureChunk)
		if announced >= 0 {
			want = min(want, max(1, int(min(announced, int64(n)))+1-len(buf)))
		}
		if !p.take(ex, int64(want)) {
			return buf, false, nil
		}
		buf = slices.Grow(buf, want)
		k, err := io.ReadFull(r, buf[len(buf):len(buf)+want])
		buf = buf[:len(buf)+k]
		p.give(int64(want - k)) // held for what did not come
		ex.held -= int64(want - k)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return buf, true, nil
		}
		if err != nil {
			return buf, true, err
		}
	}
	return buf, true, nil
}
