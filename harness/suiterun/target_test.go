package suiterun

import (
	"net/http"
	"net/http/httptest"
	"testing"

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
