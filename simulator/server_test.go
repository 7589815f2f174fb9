package simulator

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/nettest"
)

// TestServerLevelAnswersAreJSON sends requests that http.Server answers by
// itself, before any handler, over a raw loopback connection to a server
// set up as `campusconf serve` sets it up: every answer is a JSON string
// with Content-Type application/json, with the status net/http chose.
func TestServerLevelAnswersAreJSON(t *testing.T) {
	sim, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	fx := sim.Fixtures()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: sim, MaxHeaderBytes: MaxHeaderBytes, DisableGeneralOptionsHandler: true, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(JSONErrors(ln)) }() // ErrServerClosed once the test is over
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()
	creds := "Ocp-Apim-Subscription-Key: " + fx.SubscriptionKey + "\r\nAuthorization: " + fx.Users["owner"].Headers["Authorization"] + "\r\n"
	list := "/files/" + fx.Records.Folder + "/downloaded"
	tests := []struct {
		name    string
		request string
		want    int
		isError bool
	}{
		{"a good request passes untouched", "GET " + list + "?limit=1 HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "\r\n", http.StatusOK, false},
		{"bad escape in the path", "GET /files/%zz/downloaded HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "\r\n", http.StatusBadRequest, true},
		{"bad escape in the query", "GET " + list + "?limit=%zz HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "\r\n", http.StatusBadRequest, true},
		{"headers over the limit", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nX-Big: " + strings.Repeat("a", MaxHeaderBytes+8<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge, true},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", http.StatusBadRequest, true},
		{"malformed header line", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nno colon here\r\n\r\n", http.StatusBadRequest, true},
		{"unknown protocol version", "GET /healthz HTTP/2.5\r\nHost: " + addr + "\r\n\r\n", http.StatusHTTPVersionNotSupported, true},
		{"unknown transfer encoding", "POST /Attendance/Default HTTP/1.1\r\nHost: " + addr + "\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented, true},
		{"unknown expectation", "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nExpect: tea\r\n\r\n", http.StatusExpectationFailed, true},
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", http.StatusBadRequest, true},
		{"path cleaning", "GET /files/../healthz HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", http.StatusBadRequest, true},
		{"the kept redirect", "DELETE /Attendance HTTP/1.1\r\nHost: " + addr + "\r\n" + creds + "Content-Length: 0\r\n\r\n", http.StatusTemporaryRedirect, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := nettest.Exchange(t, addr, tt.request)
			if resp.StatusCode != tt.want {
				t.Errorf("expected status %d, got %d: %q", tt.want, resp.StatusCode, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("expected Content-Type application/json, got %q: %q", ct, body)
			}
			if !tt.isError {
				return
			}
			var msg string
			if err := json.Unmarshal(body, &msg); err != nil || msg == "" {
				t.Errorf("expected a JSON string body, got %q (%v)", body, err)
			}
		})
	}
}
