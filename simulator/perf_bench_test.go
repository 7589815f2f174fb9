package simulator

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The performance budgets of BENCHMARKS.md. Timing is only ever measured
// here, in benchmarks; no unit test asserts a duration.

// BenchmarkHotList compares the simulator answering an E10 page over
// loopback with a bare net/http handler writing the same bytes, through
// the same client, 8 requests in flight. The budget: the simulator's
// throughput is at least half the bare handler's (simulator ns/op at most
// twice bare ns/op).
func BenchmarkHotList(b *testing.B) {
	e := newBenchEnv(b, Options{})
	path := "/files/" + e.fx.Records.Folder + "/downloaded?offset=10&limit=20"
	req := benchRequest(b, e, "GET", path, "")
	rec := httptest.NewRecorder()
	e.sim.ServeHTTP(rec, req())
	if rec.Code != http.StatusOK {
		b.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	page := rec.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(page)
	})
	key, auth := e.fx.SubscriptionKey, e.fx.Users["owner"].Headers["Authorization"]
	perOp := map[string]time.Duration{}
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
			b.SetParallelism(4) // 4 x GOMAXPROCS (8 on the project's machine) in flight
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r, _ := http.NewRequest("GET", srv.URL+path, nil)
					r.Header.Set("Ocp-Apim-Subscription-Key", key)
					r.Header.Set("Authorization", auth)
					resp, err := client.Do(r)
					if err != nil {
						b.Error(err)
						return
					}
					n, _ := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK || n != int64(len(page)) {
						b.Errorf("status %d, %d bytes; want 200, %d bytes", resp.StatusCode, n, len(page))
						return
					}
				}
			})
			perOp[tt.name] = b.Elapsed() / time.Duration(b.N)
		})
	}
	if s, bare := perOp["simulator"], perOp["bare"]; s > 0 && bare > 0 {
		b.Logf("simulator %s/op, bare %s/op: the simulator has %.0f%% of the bare handler's throughput (budget: at least 50%%)",
			s, bare, 100*float64(bare)/float64(s))
	}
}

// BenchmarkStartupToFirstAnswer is the in-process start-up budget: build
// the default world and answer a first E10 page (under 100 ms).
func BenchmarkStartupToFirstAnswer(b *testing.B) {
	for b.Loop() {
		sim, err := New(Options{})
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
				req := benchRequest(b, e, "GET", "/files/"+e.fx.Records.Folder+"/downloaded?"+q.query, "")
				e.sim.ServeHTTP(httptest.NewRecorder(), req()) // warm the sort order
				benchServe(b, e, req, http.StatusOK)
			})
		}
	}
}
