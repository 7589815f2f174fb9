package steps

import (
	"net/http"
	"strings"
)

// NoRedirects returns the CheckRedirect of the suite's client. The
// interface has no redirects, so a 3xx is an answer to check, not a hop to
// follow: with next nil, no redirect is followed and the client returns the
// 3xx response itself. A caller that wants to follow some redirects passes
// its own policy as next; it is asked only for redirects to the origin
// (scheme, host and port) of the first request, so the subscription key,
// the user's headers and request bodies never reach another origin.
func NoRedirects(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if next == nil || len(via) == 0 || !sameOrigin(req, via[0]) {
			return http.ErrUseLastResponse
		}
		return next(req, via)
	}
}

func sameOrigin(a, b *http.Request) bool {
	return strings.EqualFold(a.URL.Scheme, b.URL.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

// hostPort is the host and port of r's URL, the port made explicit.
func hostPort(r *http.Request) string {
	port := r.URL.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(r.URL.Scheme)]
	}
	return r.URL.Hostname() + ":" + port
}
