package proxy

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestHostCheckBeforeForwarding reproduces issue 45's DNS rebinding
// through the proxy: a page at evil.test:PORT (resolving to 127.0.0.1)
// read the simulator's /docs/?user=admin, the admin's token and key in
// it, as the proxy set Host to the target's. Now a request sent to a name
// the proxy does not answer gets 421 with a JSON string body and reaches
// nothing; localhost, IP addresses, the names allowed and AnyHost pass.
func TestHostCheckBeforeForwarding(t *testing.T) {
	var reached atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>the admin's token</p>")
	}))
	t.Cleanup(target.Close)
	tests := []struct {
		name    string
		allowed []string
		host    string
		want    int
	}{
		{"a rebound name", nil, "evil.test:%d", http.StatusMisdirectedRequest},
		{"a rebound name, no port", nil, "evil.test", http.StatusMisdirectedRequest},
		{"a name ending in localhost", nil, "evillocalhost:%d", http.StatusMisdirectedRequest},
		{"localhost", nil, "localhost:%d", http.StatusOK},
		{"a name under .localhost", nil, "app.localhost:%d", http.StatusOK},
		{"the loopback address", nil, "127.0.0.1:%d", http.StatusOK},
		{"a name allowed", []string{"campus-api"}, "campus-api:%d", http.StatusOK},
		{"a subdomain allowed", []string{".dev.example.edu"}, "a.dev.example.edu:%d", http.StatusOK},
		{"the check off", []string{"*"}, "evil.test:%d", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := boundsProxy(t, target.URL, Options{AllowedHosts: tt.allowed})
			addr := serveProxy(t, p)
			_, port, _ := net.SplitHostPort(addr)
			host := strings.ReplaceAll(tt.host, "%d", port)
			before := reached.Load()
			req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/docs/?user=admin", nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("Host %s: expected %d, got %d: %s", host, tt.want, resp.StatusCode, body)
			}
			if tt.want != http.StatusMisdirectedRequest {
				if reached.Load() != before+1 {
					t.Errorf("Host %s: expected the request forwarded, the target saw nothing", host)
				}
				return
			}
			if reached.Load() != before {
				t.Errorf("Host %s: expected nothing forwarded, the target saw the request", host)
			}
			var msg string
			if err := json.Unmarshal(body, &msg); err != nil || !strings.Contains(msg, "--allowed-hosts") || strings.Contains(string(body), "token") {
				t.Errorf("Host %s: expected a JSON string naming --allowed-hosts, got %q (%v)", host, body, err)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type: expected application/json, got %q", ct)
			}
			if note := strings.Join(p.Report("").Notes, "\n"); !strings.Contains(note, "1 request(s) refused with 421") {
				t.Errorf("report notes: expected the refusal counted, got:\n%s", note)
			}
		})
	}
	if _, err := New(Options{Target: nil}); err == nil {
		t.Error("New without a target: expected an error")
	}
	sim := boundsProxy(t, target.URL, Options{})
	if _, err := New(Options{Target: sim.opts.Target, Fixture: sim.opts.Fixture, AllowedHosts: []string{"api:8080"}}); err == nil || !strings.Contains(err.Error(), "expected a host name") {
		t.Errorf("New with an allowed host holding a port: expected it refused, got %v", err)
	}
}
