package proxy

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator"
)

// loopbackProxy serves a proxy for target on loopback, with opts and the
// simulator's fixture.
func loopbackProxy(t testing.TB, target string, opts Options) (*Proxy, *httptest.Server) {
	t.Helper()
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Target, _ = url.Parse(target)
	opts.Fixture = sim.Fixtures()
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close) // after the server's close, registered below
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv
}

// TestStreamingPassesThrough: a streamed answer's first part reaches the
// client before the target has finished it.
func TestStreamingPassesThrough(t *testing.T) {
	release := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		}
		io.WriteString(w, "data: last\n\n")
	}))
	defer target.Close()
	defer close(release)
	_, srv := loopbackProxy(t, target.URL, Options{})
	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := resp.Body.Read(buf)
		first <- string(buf[:n])
	}()
	select {
	case got := <-first:
		if !strings.Contains(got, "first") {
			t.Errorf("expected the first event, got %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("expected the first event before the stream ended, got nothing within 5s")
	}
}

// TestLargeBodiesUnchanged: bodies beyond the capture bound go through
// whole and unchanged both ways, and are not judged on the part kept.
func TestLargeBodiesUnchanged(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// read whole before answering: net/http is not full duplex
		data, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}))
	defer target.Close()
	p, srv := loopbackProxy(t, target.URL, Options{MaxCapture: 1024})
	body := bytes.Repeat([]byte("x"), 3<<20)
	resp, err := http.Post(srv.URL+"/notification/read", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, body) {
		t.Errorf("expected the %d bytes sent back unchanged, got %d bytes", len(body), len(got))
	}
	if f := p.Findings(); len(f) > 0 {
		t.Errorf("expected no finding on cut bodies, got %v", f)
	}
}

// TestPreflightUnchanged: a CORS preflight and the target's answer to it
// pass through as they are.
func TestPreflightUnchanged(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") != "PUT" || r.Header.Get("Origin") != "http://app.test" {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", "http://app.test")
		w.Header().Set("Access-Control-Allow-Methods", "PUT")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer target.Close()
	p, srv := loopbackProxy(t, target.URL, Options{})
	resp := sendPreflight(t, srv.URL)
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "http://app.test" {
		t.Errorf("expected 204 with the target's CORS headers, got %d %v", resp.StatusCode, resp.Header)
	}
	if f := p.Findings(); len(f) > 0 {
		t.Errorf("expected no finding on a preflight, got %v", f)
	}
}

// TestCORSAnswered: with CORS on, the proxy answers a preflight itself
// (the target refuses OPTIONS here) and lets a browser read the answers of
// a target that sends no CORS header.
func TestCORSAnswered(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `"ok"`)
	}))
	defer target.Close()
	_, srv := loopbackProxy(t, target.URL, Options{CORS: true})
	resp := sendPreflight(t, srv.URL, "ocp-apim-subscription-key, authorization, content-type")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Headers") != "ocp-apim-subscription-key, authorization, content-type" {
		t.Errorf("preflight: expected 204 allowing the headers asked for, got %d %v", resp.StatusCode, resp.Header)
	}
	resp, err := http.Get(srv.URL + "/anything")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("answer: expected Access-Control-Allow-Origin *, got %q", got)
	}
}

// TestCORSOrigins: --cors-origins restricts the proxy's CORS as the
// simulator's: a preflight from an origin not listed is refused with its
// reason on the console, a listed one gets the headers it asks for, and
// answers name the origin and expose the headers an app may read.
func TestCORSOrigins(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `"ok"`)
	}))
	defer target.Close()
	var console bytes.Buffer
	_, srv := loopbackProxy(t, target.URL, Options{CORSOrigins: []string{"http://app.test"}, Console: &console})
	resp := sendPreflight(t, srv.URL, "x-request-id")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Headers") != "x-request-id" || resp.Header.Get("Access-Control-Allow-Origin") != "http://app.test" {
		t.Errorf("preflight from a listed origin: expected 204 allowing x-request-id for http://app.test, got %d %v", resp.StatusCode, resp.Header)
	}
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/notification/read", nil)
	req.Header.Set("Origin", "http://evil.test")
	req.Header.Set("Access-Control-Request-Method", "PUT")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from an origin not listed: expected 403 without Access-Control-Allow-Origin, got %d %v", resp.StatusCode, resp.Header)
	}
	if !strings.Contains(console.String(), `origin "http://evil.test" is not among --cors-origins`) {
		t.Errorf("console: expected the refusal's reason, got %q", console.String())
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/anything", nil)
	req.Header.Set("Origin", "http://app.test")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Access-Control-Allow-Origin") != "http://app.test" || resp.Header.Get("Access-Control-Expose-Headers") == "" {
		t.Errorf("answer: expected the origin allowed and headers exposed, got %v", resp.Header)
	}
}

// BenchmarkProxyOverhead: the same valid read (E19) sent straight to a
// loopback simulator, through a bare httputil.ReverseProxy (the cost of
// the hop alone) and through the proxy, one at a time (latency, with the
// median reported as p50-µs) and in parallel (throughput: ns/op), against
// a simulator answering at once and one taking 1 ms per answer, nearer a
// real service.
func BenchmarkProxyOverhead(b *testing.B) {
	for _, latency := range []time.Duration{0, time.Millisecond} {
		// one sub-benchmark per latency, so its servers close before the next
		b.Run(fmt.Sprintf("target=%s", latency), func(b *testing.B) {
			sim, err := simulator.New(simulator.Options{Latency: simulator.Latency{Min: latency}})
			if err != nil {
				b.Fatal(err)
			}
			target := httptest.NewServer(sim)
			defer target.Close()
			_, proxied := loopbackProxy(b, target.URL, Options{})
			tu, _ := url.Parse(target.URL)
			bareRP := httputil.NewSingleHostReverseProxy(tu)
			bareRP.Transport = &http.Transport{MaxIdleConnsPerHost: 256}
			bare := httptest.NewServer(bareRP)
			defer bare.Close()
			fx := sim.Fixtures()
			path := "/poll/Response/" + fx.Records.PollResponse
			send := func(b *testing.B, c *http.Client, base string) {
				req, _ := http.NewRequest(http.MethodGet, base+path, nil)
				req.Header.Set(wire.KeyHeader, fx.SubscriptionKey)
				for h, v := range fx.Users["owner"].Headers {
					req.Header.Set(h, v)
				}
				resp, err := c.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil {
					b.Fatal(err)
				}
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("expected 200, got %d", resp.StatusCode)
				}
			}
			for _, tc := range []struct{ name, base string }{{"direct", target.URL}, {"bare", bare.URL}, {"proxy", proxied.URL}} {
				name := tc.name
				b.Run(name+"/serial", func(b *testing.B) {
					c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
					lat := make([]time.Duration, 0, b.N)
					for b.Loop() {
						start := time.Now()
						send(b, c, tc.base)
						lat = append(lat, time.Since(start))
					}
					sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
				})
				b.Run(name+"/parallel", func(b *testing.B) {
					c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
					b.SetParallelism(8)
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							send(b, c, tc.base)
						}
					})
				})
			}
		})
	}
}

// TestForwardedExactly: what the proxy changes of an exchange is what
// docs/proxy.md lists. It adds no Accept-Encoding the client did not send
// and passes a compressed answer on byte for byte, judging a decoded copy
// (the gzip error body below is an object: ALL.error-body); it appends the
// client's address to X-Forwarded-For and keeps an X-Forwarded-Host and
// -Proto the client sent, as httputil does; request bodies and other
// headers pass as sent.
func TestForwardedExactly(t *testing.T) {
	type seen struct {
		header http.Header
		body   []byte
	}
	got := make(chan seen, 1)
	var wire []byte // the compressed answer as the target wrote it
	{
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = io.WriteString(zw, `{"error":"not found"}`)
		_ = zw.Close()
		wire = b.Bytes()
	}
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- seen{r.Header.Clone(), body}
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(http.StatusNotFound)
			w.Write(wire)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `"not found"`)
	}))
	defer target.Close()
	p, srv := loopbackProxy(t, target.URL, Options{})
	// a client that adds no Accept-Encoding and decodes nothing
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	path := "/poll/Response/a02f0c7e-02ff-43ff-bb00-6cadf6e62900"
	// exchange sends req through the proxy: the client's answer, its
	// body, and what the target saw
	exchange := func(t *testing.T, req *http.Request) (*http.Response, []byte, seen) {
		t.Helper()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, answer, <-got
	}

	t.Run("no encoding asked", func(t *testing.T) {
		body := []byte("{ \"odd\" :\t1 }\n")
		req, _ := http.NewRequest(http.MethodPut, srv.URL+path, bytes.NewReader(body))
		req.Header.Set("X-Forwarded-For", "203.0.113.9")
		req.Header.Set("X-Custom", "kept")
		resp, answer, s := exchange(t, req)
		if ae := s.header.Values("Accept-Encoding"); len(ae) > 0 {
			t.Errorf("target: expected no Accept-Encoding (the client sent none), got %q", ae)
		}
		if xff := s.header.Get("X-Forwarded-For"); xff != "203.0.113.9, 127.0.0.1" {
			t.Errorf("target: expected X-Forwarded-For %q (the client's appended), got %q", "203.0.113.9, 127.0.0.1", xff)
		}
		if h := s.header.Get("X-Forwarded-Host"); h != strings.TrimPrefix(srv.URL, "http://") {
			t.Errorf("target: expected X-Forwarded-Host %q, got %q", strings.TrimPrefix(srv.URL, "http://"), h)
		}
		if pr := s.header.Get("X-Forwarded-Proto"); pr != "http" {
			t.Errorf("target: expected X-Forwarded-Proto http, got %q", pr)
		}
		if s.header.Get("X-Custom") != "kept" || !bytes.Equal(s.body, body) {
			t.Errorf("target: expected the header and the body %q as sent, got %q and %q", body, s.header.Get("X-Custom"), s.body)
		}
		if string(answer) != `"not found"` || resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("client: expected the plain answer, got %q (Content-Encoding %q)", answer, resp.Header.Get("Content-Encoding"))
		}
	})

	t.Run("gzip asked", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("X-Forwarded-Host", "app.example")
		req.Header.Set("X-Forwarded-Proto", "https")
		resp, answer, s := exchange(t, req)
		if s.header.Get("X-Forwarded-Host") != "app.example" || s.header.Get("X-Forwarded-Proto") != "https" {
			t.Errorf("target: expected the client's X-Forwarded-Host and -Proto kept, got %q and %q", s.header.Get("X-Forwarded-Host"), s.header.Get("X-Forwarded-Proto"))
		}
		if !bytes.Equal(answer, wire) || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("client: expected the %d compressed bytes as the target wrote them, got %d bytes (Content-Encoding %q)", len(wire), len(answer), resp.Header.Get("Content-Encoding"))
		}
		if f := flat(p.Findings()); !slices.Contains(f, "E19 ALL.error-body") {
			t.Errorf("checks: expected the decoded error body judged (E19 ALL.error-body), got %v", f)
		}
	})
}

// sendPreflight sends a browser's CORS preflight of a PUT from
// http://app.test to base's /notification/read, asking for headers when
// given, and returns the answer, its body closed.
func sendPreflight(t *testing.T, base string, headers ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodOptions, base+"/notification/read", nil)
	req.Header.Set("Origin", "http://app.test")
	req.Header.Set("Access-Control-Request-Method", "PUT")
	if len(headers) > 0 {
		req.Header.Set("Access-Control-Request-Headers", strings.Join(headers, ", "))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
