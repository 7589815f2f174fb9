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

	t.Run("over HTTP follows no redirect", func(t *testing.T) {
		cfg := OverHTTP(steps.Config{}, srv.URL, false)
		resp, err := cfg.Client.Get(cfg.BaseURL + "/")
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusFound {
			t.Errorf("expected the redirect itself (302) as the answer, got %d", resp.StatusCode)
		}
	})
	t.Run("in process serves the handler", func(t *testing.T) {
		teapot := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
		cfg := InProcess(steps.Config{}, teapot, "http://campusconf.test")
		resp, err := cfg.Client.Get(cfg.BaseURL + "/")
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusTeapot {
			t.Errorf("expected the handler's 418, got %d", resp.StatusCode)
		}
	})
}
