package wire

import (
	"net/http"
	"testing"
)

// TestNoRedirectsKeepsToTheOrigin: a caller's own redirect policy is asked
// only for same-origin hops.
func TestNoRedirectsKeepsToTheOrigin(t *testing.T) {
	follow := func(*http.Request, []*http.Request) error { return nil }
	tests := []struct {
		name       string
		next       func(*http.Request, []*http.Request) error
		from, to   string
		wantFollow bool
	}{
		{"default, same origin", nil, "http://a.test/x", "http://a.test/y", false},
		{"policy, same origin", follow, "http://a.test/x", "http://a.test:80/y", true},
		{"policy, other host", follow, "http://a.test/x", "http://b.test/x", false},
		{"policy, other port", follow, "http://a.test/x", "http://a.test:8080/x", false},
		{"policy, other scheme", follow, "http://a.test/x", "https://a.test/x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, _ := http.NewRequest(http.MethodGet, tt.from, nil)
			to, _ := http.NewRequest(http.MethodGet, tt.to, nil)
			err := NoRedirects(tt.next)(to, []*http.Request{from})
			if got := err == nil; got != tt.wantFollow {
				t.Errorf("%s -> %s: expected follow=%v, got error %v", tt.from, tt.to, tt.wantFollow, err)
			}
		})
	}
}

func TestWorldOf(t *testing.T) {
	tests := []struct {
		path, header    string
		world, wantPath string
	}{
		{"/campus/2FA/Auth", "", "", "/campus/2FA/Auth"},
		{"/campus/2FA/Auth", "w1", "w1", "/campus/2FA/Auth"},
		{"/_w/w2/campus/2FA/Auth", "", "w2", "/campus/2FA/Auth"},
		{"/_w/w2/campus/2FA/Auth", "w1", "w2", "/campus/2FA/Auth"},
		{"/_w/w3", "", "w3", "/"},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != "" {
			h.Set(WorldHeader, tt.header)
		}
		world, path := WorldOf(tt.path, h)
		if world != tt.world || path != tt.wantPath {
			t.Errorf("WorldOf(%q, header %q): expected %q, %q, got %q, %q", tt.path, tt.header, tt.world, tt.wantPath, world, path)
		}
	}
}
