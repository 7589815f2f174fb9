package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"

	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator"
)

// heapBound is the bound TestBoundedMemory holds the proxy to.
const heapBound = 256 << 20

// TestBoundedMemory: hundreds of large bodies (900 KB, under the 1 MiB
// checking bound, and 2 MB, over it: "too large to check") and many
// thousands of distinct ids for the stateful rules go through the proxy,
// 8 at a time. The heap, sampled every millisecond, grows by less than
// heapBound over what it held at the start (after a collection: what
// earlier tests of the binary keep is not the proxy's), and the stateful rules' memory under its bound in bytes,
// least recently used entries dropped first (and reported).
//
// Heap, not resident memory: the test binary's RSS holds every earlier
// test of the package and pages the runtime has not yet returned, which
// say nothing of what the proxy keeps; the sampled heap (objects live or
// not yet collected) is what the proxy's own retention shows, and RSS
// follows it. The target answers at once, in process, so the proxy alone
// holds the bodies.
func TestBoundedMemory(t *testing.T) {
	bodies, ids := 300, 40000
	if testing.Short() {
		bodies, ids = 30, 4000
	}
	const stateBytes = 256 << 10
	target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "media") {
			io.WriteString(w, "1")
			return
		}
		io.WriteString(w, `{"result":"0000"}`)
	})
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fx := sim.Fixtures()
	u, _ := url.Parse("http://target.test")
	p, err := New(Options{Target: u, Fixture: fx, Transport: inproc.Transport{Handler: target}, StateBytes: stateBytes, AllowedHosts: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	// what earlier tests of the binary left is collected before the
	// sampling starts
	runtime.GC()
	base := heapNow()
	peak := heapPeak()
	send := func(method, path string, body []byte) {
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		req.Header.Set(wire.KeyHeader, fx.SubscriptionKey)
		req.Header.Set("Content-Type", "application/json")
		for h, v := range fx.Users["owner"].Headers {
			req.Header.Set(h, v)
		}
		p.ServeHTTP(httptest.NewRecorder(), req)
	}
	work := make(chan func())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for f := range work {
				f()
			}
		})
	}
	for i := range bodies {
		size := 900 << 10
		if i%3 == 2 {
			size = 2 << 20 // over the checking bound
		}
		pad := strings.Repeat("7", size)
		body := []byte(`{"otp":"` + pad + `"}`)
		work <- func() { send(http.MethodPost, "/campus/2FA/Auth", body) }
	}
	for i := range ids {
		if i%500 == 0 {
			// the ids must be checked to be remembered: let the checker
			// keep up (a producer in process outruns it, and the overflow
			// would be counted unchecked instead)
			p.Wait()
		}
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
		work <- func() { send(http.MethodDelete, "/multimedia/media", []byte(`{"iDs":["`+id+`"]}`)) }
	}
	close(work)
	wg.Wait()
	p.Wait()
	got := peak()
	if got > heapBound {
		t.Errorf("peak heap over the heap at start: expected under %d MB, got %d MB (go test ./proxy -run TestBoundedMemory -v)", heapBound>>20, got>>20)
	}
	t.Logf("peak heap %d MB over the start (%d MB at start) over %d bodies and %d ids", got>>20, base>>20, bodies, ids)
	size, max, evicted := p.check.mem.stats()
	if size > max || max != stateBytes {
		t.Errorf("state: expected at most %d bytes, got %d (bound %d)", stateBytes, size, max)
	}
	if evicted == 0 {
		t.Errorf("state: expected entries dropped past %d bytes for %d distinct ids, got none", stateBytes, ids)
	}
	r := p.Report("")
	notes := strings.Join(r.Notes, "\n")
	for _, want := range []string{"too large to check", "dropped to keep the stateful rules' memory within"} {
		if !strings.Contains(notes, want) {
			t.Errorf("report notes: expected %q, got:\n%s", want, notes)
		}
	}
}

// heapNow is the bytes of heap objects, live or not yet collected.
func heapNow() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
