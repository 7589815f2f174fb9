package simulator

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"
)

// BenchmarkRequestPath is the simulator's own work on the five requests of
// bench/loopback.sh, as `campusconf serve` is configured (docs on, log
// off), without httptest's request parsing and growing recorder: a copy
// of one parsed request is served again and again into a writer that,
// like net/http's, starts each answer with a fresh header map and keeps
// no body (the copy and the map are counted in every figure). What it reports is the request path (the layers, routing,
// authentication, query parsing) and the handler, per request.
func BenchmarkRequestPath(b *testing.B) {
	e := newBenchEnv(b, Options{Docs: true})
	rec := e.fx.Records
	for _, tt := range []struct {
		name, method, target, body string
		want                       int
	}{
		{"E20", "GET", "/resource/" + rec.Resource + "/students?offset=0&limit=20", "", http.StatusOK},
		{"E10", "GET", "/files/" + rec.Folder + "/downloaded?offset=10&limit=20", "", http.StatusOK},
		{"E19", "GET", "/poll/Response/" + rec.PollResponse, "", http.StatusOK},
		{"E7", "POST", "/Attendance/Default", `{"resourceID":"` + rec.Resource + `"}`, http.StatusCreated},
		{"NR", "PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":11}`, rec.Notification.ID), http.StatusOK},
	} {
		b.Run(tt.name, func(b *testing.B) {
			r := benchRequest(b, e, tt.method, tt.target, tt.body)()
			body := &rewindBody{}
			w := &discardWriter{}
			b.ReportAllocs()
			for b.Loop() {
				// a fresh request value each time, as a server makes: the
				// router writes its pattern and path values into it
				rr := *r
				if tt.body != "" {
					body.Reset(tt.body)
					rr.Body = body
				}
				w.reset()
				e.sim.ServeHTTP(w, &rr)
				if w.status != tt.want {
					b.Fatalf("status: expected %d, got %d", tt.want, w.status)
				}
			}
		})
	}
}

// rewindBody is a request body that can be read again.
type rewindBody struct{ bytes.Reader }

func (r *rewindBody) Reset(s string) { r.Reader.Reset([]byte(s)) }
func (*rewindBody) Close() error     { return nil }

// discardWriter is a ResponseWriter that keeps the status and drops the
// body; each answer starts with a fresh header map, as net/http's.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) reset()              { w.h, w.status = make(http.Header), 0 }
func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(p), nil
}
