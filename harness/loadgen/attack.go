package loadgen

import (
	"context"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"
)

// Target is r as a vegeta target: what `campusconf load --targets` writes
// and what a run attacks.
func (r Request) Target() vegeta.Target {
	return vegeta.Target{Method: r.Method, URL: r.URL, Body: []byte(r.Body), Header: r.Header.Clone()}
}

// WriteTargets writes reqs as vegeta's JSON targets, one a line, for
// `vegeta attack -format=json -targets=FILE` on any machine. They hold the
// credentials the requests are sent with.
func WriteTargets(w io.Writer, reqs ...Request) error {
	enc := vegeta.NewJSONTargetEncoder(w)
	for _, r := range reqs {
		t := r.Target()
		if err := enc.Encode(&t); err != nil {
			return err
		}
	}
	return nil
}

// Rate is perSecond (as pace.ParseRate reads `--rate`, run's syntax) as
// vegeta's pacer: one request every 1/perSecond; 0 is the zero Rate (the
// closed model).
func Rate(perSecond float64) vegeta.Rate {
	if perSecond <= 0 {
		return vegeta.Rate{}
	}
	return vegeta.Rate{Freq: 1, Per: max(time.Duration(float64(time.Second)/perSecond), time.Nanosecond)}
}

// Options of a run.
type Options struct {
	Request Request
	// Rate is the open model's request rate: requests leave at this rate
	// whatever the latency, so a slow answer delays no later request and
	// the latencies are free of coordinated omission. The zero Rate is
	// the closed model: Concurrency requests in flight, each sent when
	// the one before it came back.
	Rate vegeta.Rate
	// Concurrency bounds the requests in flight (vegeta's workers): the
	// closed model's number, the open model's ceiling (a rate the target
	// cannot answer within it is not reached, and Summary says so).
	Concurrency int
	Duration    time.Duration
	Timeout     time.Duration
	// Results, when set, receives every result in vegeta's own binary
	// format (`vegeta report`, `vegeta plot` read it, and merge the files
	// of several machines); response bodies and headers are left out.
	Results io.Writer
	// Plot, when set, receives an HTML page plotting each request's
	// latency over the run (vegeta's plot).
	Plot io.Writer
}

// Summary is what a run measured.
type Summary struct {
	vegeta.Metrics
	// Asked is the rate asked for (zero for the closed model).
	Asked vegeta.Rate
}

// Run attacks o.Request as o says until o.Duration has passed or ctx ends,
// and returns the metrics; writing Results or Plot is its only error.
func Run(ctx context.Context, o Options) (Summary, error) {
	c := uint64(max(o.Concurrency, 1))
	workers := c
	if o.Rate.Freq > 0 {
		workers = min(c, 8) // more are started when the rate needs them
	}
	atk := vegeta.NewAttacker(vegeta.Timeout(o.Timeout), vegeta.Workers(workers), vegeta.MaxWorkers(c),
		vegeta.Connections(int(c)), vegeta.MaxConnections(int(c)), vegeta.Redirects(vegeta.NoFollow), vegeta.MaxBody(0), vegeta.KeepAlive(true))
	stop := context.AfterFunc(ctx, func() { atk.Stop() })
	defer stop()
	var enc vegeta.Encoder
	if o.Results != nil {
		enc = vegeta.NewEncoder(o.Results)
	}
	var p *plot.Plot
	if o.Plot != nil {
		p = plot.New(plot.Title("campusconf load: " + o.Request.Method + " " + o.Request.URL))
	}
	s := Summary{Asked: o.Rate}
	var werr error
	for res := range atk.Attack(vegeta.NewStaticTargeter(o.Request.Target()), o.Rate, o.Duration, "campusconf load") {
		res.Body, res.Headers = nil, nil // the answers' content is not the load's business
		s.Add(res)
		if enc != nil && werr == nil {
			werr = enc.Encode(res)
		}
		if p != nil && werr == nil {
			werr = p.Add(res)
		}
	}
	s.Close()
	if p != nil && werr == nil {
		p.Close()
		_, werr = p.WriteTo(o.Plot)
	}
	return s, werr
}

// Errors is the number of requests not answered 2xx (status 0: no answer).
func (s Summary) Errors() int {
	n := 0
	for code, k := range s.StatusCodes {
		if !strings.HasPrefix(code, "2") || len(code) != 3 {
			n += k
		}
	}
	return n
}

// Breakdown lists the statuses and their counts, in order ("200: 91",
// "0: 3" for requests without an answer), then the distinct transport
// errors.
func (s Summary) Breakdown() []string {
	var out []string
	for _, code := range slices.Sorted(maps.Keys(s.StatusCodes)) {
		out = append(out, code+": "+strconv.Itoa(s.StatusCodes[code]))
	}
	for _, e := range s.Metrics.Errors {
		// vegeta also lists a status as an error ("500 Internal Server
		// Error"): the codes above count those
		if code, _, _ := strings.Cut(e, " "); len(code) == 3 && s.StatusCodes[code] > 0 {
			continue
		}
		out = append(out, e)
	}
	return out
}

// Sustained reports whether an open-model run sent at the rate it was
// asked for (within 10%); true for the closed model.
func (s Summary) Sustained() bool {
	if s.Asked.Freq == 0 || s.Duration <= 0 {
		return true
	}
	want := float64(s.Asked.Freq) / s.Asked.Per.Seconds()
	return s.Rate >= 0.9*want
}

// Probe sends r once and returns the status, so a run does not start
// against a target that does not answer.
func Probe(ctx context.Context, r Request, timeout time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, strings.NewReader(r.Body))
	if err != nil {
		return 0, err
	}
	req.Header = r.Header.Clone()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, nil
}
