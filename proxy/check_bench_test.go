package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator"
)

// BenchmarkCheck: the checks of one exchange, the 20-entry list page
// bench/proxy.sh sends (E10, limit=20), off the hot path. Profile it with
// go test ./proxy -run '^$' -bench BenchmarkCheck -cpuprofile cpu.out.
func BenchmarkCheck(b *testing.B) {
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	fx := sim.Fixtures()
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/files/"+fx.Records.Folder+"/downloaded?limit=20", nil)
	req.Header.Set(wire.KeyHeader, fx.SubscriptionKey)
	for h, v := range fx.Users["owner"].Headers {
		req.Header.Set(h, v)
	}
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, req)
	resp := rec.Result()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("expected 200, got %d", resp.StatusCode)
	}
	c, _ := testChecker(b)
	b.ReportAllocs()
	for b.Loop() {
		ex := &Exchange{Method: req.Method, URL: req.URL, RequestHeader: req.Header, Status: 200, ResponseHeader: resp.Header, ResponseBody: body}
		if _, fs := c.check(ex); len(fs) > 0 {
			b.Fatalf("expected no finding, got %v", fs)
		}
	}
}
