// Package nettest holds test helpers that work below net/http's client:
// one raw HTTP/1.1 exchange over TCP, and the worst target the hostile
// tests point the runner at. Only tests import it.
package nettest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Exchange writes request, as it is, to a new TCP connection to addr and
// returns the answer read back and its whole body. It fails t when no
// HTTP answer comes within 10 s.
func Exchange(t testing.TB, addr, request string) (*http.Response, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }() // the answer is read: nothing is lost
	if err := c.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("expected an HTTP answer to %q, got %v", request[:min(len(request), 60)], err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return resp, body
}

// GzipBomb is 64 MiB of zeros gzipped (about 64 KiB), made once.
var GzipBomb = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 64; i++ {
		_, _ = zw.Write(zeros)
	}
	_ = zw.Close()
	return buf.Bytes()
})

// WorstTarget answers every request with about 60 KiB of response
// headers in 1000 fields (under the transport's limit, so all of them
// reach the client), one of them 8 KiB long, and GzipBomb for a body
// marked gzip: the worst target of the hostile tests for memory and time.
func WorstTarget(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<16))
	filler := strings.Repeat("f", 30)
	for i := 0; i < 1000; i++ {
		w.Header().Set(fmt.Sprintf("X-Filler-%04d", i), filler)
	}
	w.Header().Set("X-Long", strings.Repeat("L", 8<<10))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Encoding", "gzip")
	_, _ = w.Write(GzipBomb())
}
