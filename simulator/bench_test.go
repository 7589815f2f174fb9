package simulator

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchRequest builds a request as the owner.
func benchRequest(b *testing.B, e *env, method, path, body string) func() *http.Request {
	b.Helper()
	key := e.fx.SubscriptionKey
	auth := e.fx.Users["owner"].Headers["Authorization"]
	return func() *http.Request {
		var r *http.Request
		if body != "" {
			r = httptest.NewRequest(method, path, strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
		} else {
			r = httptest.NewRequest(method, path, nil)
		}
		r.Header.Set("Ocp-Apim-Subscription-Key", key)
		r.Header.Set("Authorization", auth)
		return r
	}
}

func benchServe(b *testing.B, e *env, req func() *http.Request, want int) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.sim.ServeHTTP(rec, req())
		if rec.Code != want {
			b.Fatalf("status = %d, want %d: %s", rec.Code, want, rec.Body)
		}
	}
}

func newBenchEnv(b *testing.B, opts Options) *env {
	b.Helper()
	opts.AllowedHosts = append(opts.AllowedHosts, testHost) // httptest's requests
	sim, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	return &env{sim: sim, fx: sim.Fixtures()}
}

// BenchmarkFileLogPage is the hot read: one default page (100 entries) of
// E10 at scale 1.
func BenchmarkFileLogPage(b *testing.B) {
	e := newBenchEnv(b, Options{})
	benchServe(b, e, benchRequest(b, e, "GET", e.fileLog()+"?offset=10&limit=20", ""), 200)
}

// BenchmarkNotificationRead is the hot write: a notification read update.
func BenchmarkNotificationRead(b *testing.B) {
	e := newBenchEnv(b, Options{})
	n := e.fx.Records.Notification
	benchServe(b, e, benchRequest(b, e, "PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)), 200)
}

// BenchmarkFileLogPageLarge pages E10 on a folder holding a million
// entries (scale 25000): the cost must not depend on the list length.
func BenchmarkFileLogPageLarge(b *testing.B) {
	e := newBenchEnv(b, Options{Scale: 25000})
	if l, _ := e.sim.store.FileLogs(e.fx.Records.Folder); l.Len() != 1_000_000 { // generated here, before timing
		b.Fatalf("folder holds %d entries, want 1000000", l.Len())
	}
	for _, q := range []string{"offset=500000&limit=20", "offset=999980&limit=20&sortby=logDate"} {
		b.Run(q, func(b *testing.B) {
			req := benchRequest(b, e, "GET", e.fileLog()+"?"+q, "")
			// Warm the sort order cache, computed once per list and field.
			e.sim.ServeHTTP(httptest.NewRecorder(), req())
			benchServe(b, e, req, 200)
		})
	}
}

// BenchmarkCreateAttendance is the create path: E7 decodes a small body
// and adds a record. It measures what body checks (duplicate keys) cost.
func BenchmarkCreateAttendance(b *testing.B) {
	e := newBenchEnv(b, Options{})
	body := `{"resourceID":"` + e.fx.Records.AttendanceResource + `","publish":true}`
	benchServe(b, e, benchRequest(b, e, "POST", "/Attendance/Default", body), http.StatusCreated)
}

// BenchmarkStudentPage is the other list page of bench/loopback.sh: a
// page of 20 accessible students (E20).
func BenchmarkStudentPage(b *testing.B) {
	e := newBenchEnv(b, Options{})
	benchServe(b, e, benchRequest(b, e, "GET", "/resource/"+e.fx.Records.Resource+"/students?offset=0&limit=20", ""), 200)
}

// BenchmarkPollResponse is the single record read of bench/loopback.sh:
// one poll response (E19).
func BenchmarkPollResponse(b *testing.B) {
	e := newBenchEnv(b, Options{})
	benchServe(b, e, benchRequest(b, e, "GET", "/poll/Response/"+e.fx.Records.PollResponse, ""), 200)
}

// The performance budgets of BENCHMARKS.md. Timing is only ever measured
// here, in benchmarks; no unit test asserts a duration.

// BenchmarkHotList compares the simulator answering an E10 page (20
// entries) over loopback with a bare net/http handler writing the same
// bytes, through the same client, 8 requests in flight. The budget: the
// simulator's throughput is at least half the bare handler's; the target
// of issue 17 is 0.85 of it, p99 at most twice the bare p99.
func BenchmarkHotList(b *testing.B) {
	e := newBenchEnv(b, Options{})
	sideBySide(b, e, "GET", e.fileLog()+"?offset=10&limit=20", "", http.StatusOK, 0.85)
}

// BenchmarkCreateVsBare is the same comparison for a write: E7 adds a
// default attendance (201) against a bare handler answering the bytes of
// one. The target of issue 17: 0.8 of the bare handler's throughput.
func BenchmarkCreateVsBare(b *testing.B) {
	e := newBenchEnv(b, Options{})
	sideBySide(b, e, "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`, http.StatusCreated, 0.8)
}

// sideBySide runs one request against the simulator and against a bare
// handler answering the simulator's bytes, one after the other in one
// run, and logs the throughput share and both p99 latencies.
func sideBySide(b *testing.B, e *env, method, path, body string, want int, target float64) {
	req := benchRequest(b, e, method, path, body)
	rec := httptest.NewRecorder()
	e.sim.ServeHTTP(rec, req())
	if rec.Code != want {
		b.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	answer := rec.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.WriteHeader(want)
		w.Write(answer)
	})
	key, auth := e.fx.SubscriptionKey, e.fx.Users["owner"].Headers["Authorization"]
	perOp := map[string]time.Duration{}
	p99 := map[string]time.Duration{}
	for _, tt := range []struct {
		name string
		h    http.Handler
	}{{"simulator", e.sim}, {"bare", bare}} {
		b.Run(tt.name, func(b *testing.B) {
			srv := httptest.NewServer(tt.h)
			defer srv.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: 64}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			var mu sync.Mutex
			var lat []time.Duration
			b.SetParallelism(4) // 4 x GOMAXPROCS (8 on the project's machine) in flight
			b.SetBytes(int64(len(answer)))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					var rd io.Reader
					if body != "" {
						rd = strings.NewReader(body)
					}
					r, _ := http.NewRequest(method, srv.URL+path, rd)
					r.Header.Set("Ocp-Apim-Subscription-Key", key)
					r.Header.Set("Authorization", auth)
					if body != "" {
						r.Header.Set("Content-Type", "application/json")
					}
					start := time.Now()
					resp, err := client.Do(r)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					mine = append(mine, time.Since(start))
					if resp.StatusCode != want {
						b.Errorf("status %d, want %d", resp.StatusCode, want)
						return
					}
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
			perOp[tt.name] = b.Elapsed() / time.Duration(b.N)
			if len(lat) > 0 {
				slices.Sort(lat)
				p99[tt.name] = lat[len(lat)*99/100]
			}
		})
	}
	if s, bare := perOp["simulator"], perOp["bare"]; s > 0 && bare > 0 {
		b.Logf("simulator %s/op (p99 %s), bare %s/op (p99 %s): the simulator has %.0f%% of the bare handler's throughput (budget: at least 50%%; target %.0f%%), p99 ratio %.2f (target at most 2)",
			s, p99["simulator"], bare, p99["bare"], 100*float64(bare)/float64(s), 100*target, float64(p99["simulator"])/float64(max(p99["bare"], 1)))
	}
}

// BenchmarkStartupToFirstAnswer is the in-process start-up budget: build
// the default world and answer a first E10 page (under 100 ms).
func BenchmarkStartupToFirstAnswer(b *testing.B) {
	for b.Loop() {
		sim, err := New(Options{AllowedHosts: []string{testHost}})
		if err != nil {
			b.Fatal(err)
		}
		fx := sim.Fixtures()
		r := httptest.NewRequest("GET", "/files/"+fx.Records.Folder+"/downloaded?limit=20", nil)
		r.Header.Set("Ocp-Apim-Subscription-Key", fx.SubscriptionKey)
		r.Header.Set("Authorization", fx.Users["owner"].Headers["Authorization"])
		rec := httptest.NewRecorder()
		sim.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkPageByScale is the scale budget: the same pages of E10 in the
// fixture's folder at scale 1 (40 entries) and at scale 25000 (a million
// entries), handler time. A page at a million entries may take at most
// twice as long as at scale 1. The one-off costs (generating the logs,
// the first sort by a field) are paid before timing.
func BenchmarkPageByScale(b *testing.B) {
	for _, scale := range []int{1, 25000} {
		e := newBenchEnv(b, Options{Scale: scale})
		l, _ := e.sim.store.FileLogs(e.fx.Records.Folder)
		n := l.Len()
		for _, q := range []struct{ name, query string }{
			{"first", "offset=0&limit=20"},
			{"middle", fmt.Sprintf("offset=%d&limit=20", n/2)},
			{"last-sorted", fmt.Sprintf("offset=%d&limit=20&sortby=logDate%%20desc", n-20)},
		} {
			b.Run(fmt.Sprintf("scale=%d/%s", scale, q.name), func(b *testing.B) {
				req := benchRequest(b, e, "GET", e.fileLog()+"?"+q.query, "")
				e.sim.ServeHTTP(httptest.NewRecorder(), req()) // warm the sort order
				benchServe(b, e, req, http.StatusOK)
			})
		}
	}
}

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
