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
	named := func(world string) http.Header {
		h := http.Header{}
		if world != "" {
			h.Set(WorldHeader, world)
		}
		return h
	}
	tests := []struct {
		path        string
		h           http.Header
		world, rest string
	}{
		{"/campus/2FA/Auth", named(""), "", "/campus/2FA/Auth"},
		{"/campus/2FA/Auth", named("w1"), "w1", "/campus/2FA/Auth"},
		{"/_w/w2/campus/2FA/Auth", named(""), "w2", "/campus/2FA/Auth"},
		{"/_w/w2/campus/2FA/Auth", named("w1"), "w2", "/campus/2FA/Auth"}, // the path wins
		{"/_w/w3", named(""), "w3", "/"},
	}
	for _, tt := range tests {
		if world, rest := WorldOf(tt.path, tt.h); world != tt.world || rest != tt.rest {
			t.Errorf("WorldOf(%q, %v): expected %q, %q, got %q, %q", tt.path, tt.h, tt.world, tt.rest, world, rest)
		}
	}
}
