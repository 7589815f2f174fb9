package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator"
)

// TestChecksOffTheHotPath: with its one checker stuck, the proxy still
// forwards every exchange at once; what finds the queue full is counted
// unchecked and reported, never silently dropped; once the checker moves
// again, what was queued is checked.
func TestChecksOffTheHotPath(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":"an object"}`) // breaks ALL.error-body
	}))
	defer target.Close()
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(target.URL)
	p, err := New(Options{Target: u, Fixture: sim.Fixtures(), Checkers: 1, QueueLen: 2})
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}, 100), make(chan struct{})
	p.beforeCheck = func() {
		started <- struct{}{}
		<-release
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	const n = 20
	for i := range n {
		done := make(chan error, 1)
		go func() {
			resp, err := http.Get(srv.URL + "/poll/Response/a02f0c7e-02ff-43ff-bb00-6cadf6e62900")
			if err == nil {
				resp.Body.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("request %d: expected it forwarded while the checker is stuck, it waited over 10s", i+1)
		}
		if i == 0 {
			<-started // the checker holds the first exchange
		}
	}
	// the client has its answer before the handler has handed the
	// exchange on
	for deadline := time.Now().Add(10 * time.Second); p.Seen() < n && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	// one exchange with the checker, two in its queue, the rest overflow
	if got := p.Unchecked(); got != n-3 {
		t.Errorf("Unchecked: expected %d (one being checked, two queued), got %d", n-3, got)
	}
	close(release)
	r := p.Report("--max-exchanges 20")
	note := strings.Join(r.Notes, "\n")
	if !strings.Contains(note, "17 exchange(s) forwarded but unchecked") {
		t.Errorf("report notes: expected the unchecked exchanges counted, got:\n%s", note)
	}
	if p.Seen() != n {
		t.Errorf("Seen: expected %d, got %d", n, p.Seen())
	}
	found := false
	for _, sc := range r.Scenarios {
		if sc.ID == "proxy/E19/ALL.error-body" {
			found = true
			if !strings.Contains(sc.Name, "3 broke it") {
				t.Errorf("%s: expected the 3 exchanges checked to break it, got %q", sc.ID, sc.Name)
			}
		}
	}
	if !found {
		t.Errorf("expected a scenario proxy/E19/ALL.error-body, got none")
	}
	p.Close()
}
