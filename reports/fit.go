package reports

import (
	"errors"
	"fmt"
)

// errTooBig stops the rendering of a report file past MaxReportFile.
var errTooBig = errors.New("report file too big")

// capWriter keeps what is written to it, failing with errTooBig past max
// bytes so that a renderer stops early.
type capWriter struct {
	buf []byte
	max int
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.max > 0 && len(w.buf)+len(p) > w.max {
		return 0, errTooBig
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// fitLevels are the cuts that bring a report under MaxReportFile, mildest
// first. Every file of a run is written from the same cut report, so the
// four files always agree.
var fitLevels = []struct {
	body      int  // bytes kept of each exchange body
	headers   bool // headers kept
	exchanges bool // exchanges other than a failure's kept
	note      string
}{
	{1 << 10, true, true, "each exchange body cut to 1 KiB"},
	{0, false, true, "exchange bodies and headers left out"},
	{0, false, false, "exchanges left out, except the one each failure is about, without bodies or headers"},
}

// fit cuts r to fitLevels[level] and says so in r.Notes.
func fit(r *Report, level int) {
	l := fitLevels[level]
	r.Notes = append(r.Notes, fmt.Sprintf("a report file would have been larger than %d MiB: %s (the curl lines still reproduce each failure)", MaxReportFile>>20, l.note))
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		if !l.exchanges {
			keep := failureExchangeIndex(*s)
			if s.Failure == nil || keep < 0 {
				s.ExchangesDropped += len(s.Exchanges)
				s.Exchanges = nil
			} else {
				s.ExchangesDropped += len(s.Exchanges) - 1
				s.Exchanges = []Exchange{s.Exchanges[keep]}
				s.Failure.Exchange = 0
			}
		}
		for j := range s.Exchanges {
			ex := &s.Exchanges[j]
			for _, b := range []*string{&ex.RequestBody, &ex.ResponseBody} {
				if len(*b) > l.body {
					*b = truncateString(*b, l.body)
					ex.Truncated = true
				}
			}
			if !l.headers {
				ex.ResponseHeadersDropped += len(ex.ResponseHeaders)
				ex.RequestHeaders, ex.ResponseHeaders = nil, nil
			}
		}
	}
}

// exchangeBytes estimates the bytes of r's exchanges, the part of a report
// a target can make large.
func exchangeBytes(r *Report) int {
	n := 0
	for _, s := range r.Scenarios {
		for _, ex := range s.Exchanges {
			n += len(ex.URL) + len(ex.RequestBody) + len(ex.ResponseBody) + len(ex.Error)
			for k, v := range ex.RequestHeaders {
				n += len(k) + len(v)
			}
			for k, v := range ex.ResponseHeaders {
				n += len(k) + len(v)
			}
		}
	}
	return n
}
