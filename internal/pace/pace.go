// Package pace is the runner's transport policy toward a target that
// limits its rate, shared by every producer that sends requests of its own
// (the scenarios in steps, the generated requests in generate) and read by
// the traffic proxy (which sends none of its own, and so only tells a
// limited answer from a finding):
//
//   - a 429, or a 503 that carries Retry-After, is waited out as
//     Retry-After says (delay-seconds or an HTTP date; DefaultWait without
//     one) and the request sent again: reads on both, and once on a 503
//     without Retry-After where the operation does not document 503 (a
//     second such answer stands);
//     writes only on 429 and on 503 with Retry-After (a 503 without it
//     may be the operation's own answer, and a write that may have taken
//     effect is never repeated);
//   - while the target limits, the run paces itself: every request waits
//     until the latest Retry-After has passed, and fewer requests are in
//     flight at once (halved on each limited answer, grown back by one per
//     window of answers that are not);
//   - a rate (`--rate N/s`) caps the requests per second from the start.
//
// A request whose waits run out (MaxWait for one answer, MaxWaits answers
// of one request) ends with an error wrapping ErrWaitsRanOut: the
// scenario is an error, never a failure. The specification states no rate
// limit ("Rate limits and quotas: not shown"), so an answer waited out is
// never a verdict.
package pace

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The bounds of the policy (docs/decisions.md, "Rate limits").
const (
	// DefaultWait is the wait after a limited answer without Retry-After.
	DefaultWait = time.Second
	// MaxWait is the longest Retry-After the runner waits out: an answer
	// asking for more ends the request with ErrWaitsRanOut.
	MaxWait = time.Minute
	// MaxWaits is the number of limited answers one request may get
	// before it ends with ErrWaitsRanOut.
	MaxWaits = 20
)

// ErrWaitsRanOut is wrapped by the error of a request whose waits ran out.
var ErrWaitsRanOut = errors.New("the target's rate limit outlasted the runner's waits")

// RetryAfter reads a Retry-After header (RFC 9110 section 10.2.3): a
// number of seconds or an HTTP date, the wait from now. ok is false when
// the header is absent or unreadable.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > int64(24*time.Hour/time.Second) {
			n = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// Limited reports whether an answer is a limit to wait out, and how long:
// a 429 or a 503 with Retry-After for every request; a 503 without it for
// a read of an operation that does not document 503 (documents503 false).
// write says the request may change state.
func Limited(status int, h http.Header, write, documents503 bool, now time.Time) (wait time.Duration, limited bool) {
	ra, has := RetryAfter(h, now)
	switch {
	case status == http.StatusTooManyRequests:
	case status == http.StatusServiceUnavailable && has:
	case status == http.StatusServiceUnavailable && !write && !documents503:
	default:
		return 0, false
	}
	if !has {
		ra = DefaultWait
	}
	return ra, true
}

// Stats are a run's figures of rate limiting.
type Stats struct {
	// Limited is the number of answers waited out.
	Limited int
	// Waited is the time the run was held by the target's limits (wall
	// time during which requests waited for a Retry-After to pass).
	Waited time.Duration
	// Requests is the number of requests the pace let through.
	Requests int
}

// Config configures a Pacer.
type Config struct {
	// Rate caps the requests per second (0: no cap).
	Rate float64
	// MaxInFlight is the most requests let through at once (0: no bound
	// until the target limits, then 16 halved on each limited answer).
	MaxInFlight int
}

// Pacer paces the requests of one run. Its zero value is not usable: use
// New. A nil *Pacer lets every request through at once and waits nothing
// out (Do then calls try once).
type Pacer struct {
	cfg Config

	mu       sync.Mutex
	wake     chan struct{} // closed and replaced when a slot frees
	next     time.Time     // the rate's next free slot
	hold     time.Time     // no request before this (the latest Retry-After)
	inFlight int
	// limit is the in-flight bound: 0 while the target has not limited.
	limit float64
	stats Stats
}

// New returns a pacer of cfg.
func New(cfg Config) *Pacer {
	return &Pacer{cfg: cfg, wake: make(chan struct{})}
}

// Stats returns the figures so far.
func (p *Pacer) Stats() Stats {
	if p == nil {
		return Stats{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	return s
}

// Do sends one request through the policy: it waits for its turn, calls
// try (which makes and records the exchange, and returns its status and
// header, or an error when no answer came), and while the answer is a
// limit to wait out (Limited) waits and calls try again. It returns try's
// error, the context's, or an error wrapping ErrWaitsRanOut.
func (p *Pacer) Do(ctx context.Context, write, documents503 bool, try func() (int, http.Header, error)) error {
	if p == nil {
		_, _, err := try()
		return err
	}
	outage := false
	for n := 1; ; n++ {
		if err := p.acquire(ctx); err != nil {
			return err
		}
		status, h, err := try()
		if err != nil {
			p.release(false, 0)
			return err
		}
		wait, limited := Limited(status, h, write, documents503, time.Now())
		_, named := RetryAfter(h, time.Now())
		if limited && status == http.StatusServiceUnavailable && !named {
			// a 503 naming no time may be an outage, not a limit: a read
			// is sent once more, then the answer stands and is judged
			if outage {
				limited = false
			}
			outage = true
		}
		p.release(limited, wait)
		if !limited {
			return nil
		}
		switch {
		case wait > MaxWait:
			return fmt.Errorf("%w: the answer %d asks to wait %s, more than the runner waits (%s)", ErrWaitsRanOut, status, wait.Round(time.Second), MaxWait)
		case n >= MaxWaits:
			return fmt.Errorf("%w: %d answers in a row were %d, the most the runner waits out for one request", ErrWaitsRanOut, n, status)
		}
	}
}

// acquire waits until a request may go: past the hold, within the
// in-flight bound, at the rate's next slot.
func (p *Pacer) acquire(ctx context.Context) error {
	for {
		p.mu.Lock()
		now := time.Now()
		var wait time.Duration
		var wake chan struct{}
		switch {
		case now.Before(p.hold):
			wait = p.hold.Sub(now)
		case p.limit > 0 && float64(p.inFlight) >= max(1, p.limit):
			wake = p.wake
		default:
			if p.cfg.Rate > 0 {
				slot := p.next
				if slot.Before(now) {
					slot = now
				}
				p.next = slot.Add(time.Duration(float64(time.Second) / p.cfg.Rate))
				wait = slot.Sub(now)
			}
			p.inFlight++
			p.stats.Requests++
			p.mu.Unlock()
			if wait > 0 {
				if err := sleep(ctx, wait); err != nil {
					p.release(false, 0)
					return err
				}
			}
			return nil
		}
		p.mu.Unlock()
		if wake != nil {
			select {
			case <-wake:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			continue
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// release frees a request's slot and takes in what its answer says.
func (p *Pacer) release(limited bool, wait time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inFlight--
	close(p.wake)
	p.wake = make(chan struct{})
	now := time.Now()
	if !limited {
		if p.limit > 0 {
			// additive increase: one more per window of answers
			p.limit += 1 / max(1, p.limit)
			if p.cfg.MaxInFlight > 0 && p.limit > float64(p.cfg.MaxInFlight) {
				p.limit = float64(p.cfg.MaxInFlight)
			}
		}
		return
	}
	p.stats.Limited++
	if p.limit == 0 {
		p.limit = float64(p.cfg.MaxInFlight)
		if p.limit == 0 {
			p.limit = 16
		}
	}
	p.limit = max(1, p.limit/2)
	until := now.Add(min(wait, MaxWait))
	if until.After(p.hold) {
		from := now
		if p.hold.After(now) {
			from = p.hold
		}
		p.stats.Waited += until.Sub(from)
		p.hold = until
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d): // collected unfired once unreferenced (Go 1.23)
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Limit is the number of requests the pace lets through at once while the
// target limits the run (0: no bound, the target has not limited it): the
// schedule may start no more scenarios than this.
func (p *Pacer) Limit() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return int(p.limit)
}

// Take waits for the rate's next slot (Config.Rate) and nothing else: for
// a load generator, which measures what the target answers, limits
// included, and waits nothing out.
func (p *Pacer) Take(ctx context.Context) error {
	if p == nil || p.cfg.Rate <= 0 {
		return nil
	}
	p.mu.Lock()
	now := time.Now()
	slot := p.next
	if slot.Before(now) {
		slot = now
	}
	p.next = slot.Add(time.Duration(float64(time.Second) / p.cfg.Rate))
	p.stats.Requests++
	p.mu.Unlock()
	if d := slot.Sub(now); d > 0 {
		return sleep(ctx, d)
	}
	return nil
}
