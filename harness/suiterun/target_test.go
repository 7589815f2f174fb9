package suiterun

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/campusconf/campusconf/steps"
)

func TestTargets(t *testing.T) {
	redirect := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	srv := httptest.NewServer(redirect)
	defer srv.Close()
	tests := []struct {
		name     string
		cfg      steps.Config
		wantBase string
	}{
		{"in process", InProcess(steps.Config{Tags: "@E7"}, redirect, "http://campusconf.test/"), "http://campusconf.test"},
		{"over HTTP", OverHTTP(steps.Config{Tags: "@E7"}, srv.URL+"//", false), srv.URL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cfg.BaseURL != tt.wantBase {
				t.Errorf("BaseURL: expected %q, got %q", tt.wantBase, tt.cfg.BaseURL)
			}
			if tt.cfg.Tags != "@E7" {
				t.Errorf("Tags: expected the caller's %q kept, got %q", "@E7", tt.cfg.Tags)
			}
			if tt.cfg.Client == nil {
				t.Fatal("Client: expected one, got nil")
			}
		})
	}

	teapot := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	answers := []struct {
		name string
		cfg  steps.Config
		want int
	}{
		{"over HTTP follows no redirect: the 302 is the answer", OverHTTP(steps.Config{}, srv.URL, false), http.StatusFound},
		{"in process serves the handler", InProcess(steps.Config{}, teapot, "http://campusconf.test"), http.StatusTeapot},
	}
	for _, tt := range answers {
		resp, err := tt.cfg.Client.Get(tt.cfg.BaseURL + "/")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: expected %d, got %d", tt.name, tt.want, resp.StatusCode)
		}
	}
}

// TestOverHTTPKeepsConnections sends rounds of as many requests at once
// as the run's concurrency through the client OverHTTP makes: the
// connections the first round opened carry the next rounds, none is
// opened again (a distant target charges a round trip for each).
func TestOverHTTPKeepsConnections(t *testing.T) {
	const concurrency, rounds = 12, 4
	var opened atomic.Int64
	arrived := make(chan struct{}, concurrency)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		// hold the answer until the round's requests are all in (or a
		// moment has passed), so that they are in flight together
		for i := 0; len(arrived) < concurrency && i < 200; i++ {
			time.Sleep(time.Millisecond)
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	cfg := OverHTTP(steps.Config{Concurrency: concurrency}, srv.URL, false)
	for range rounds {
		var wg sync.WaitGroup
		for range concurrency {
			wg.Go(func() {
				resp, err := cfg.Client.Get(srv.URL + "/")
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			})
		}
		wg.Wait()
		for len(arrived) > 0 {
			<-arrived
		}
	}
	if got := opened.Load(); got > concurrency {
		t.Errorf("%d rounds of %d requests at once: expected at most %d connections opened, got %d", rounds, concurrency, concurrency, got)
	}
}
