// Package wire holds the facts of the interface's HTTP traffic that more
// than one side needs: the subscription key header, how a request names a
// simulator world, and the client policy of every producer (response
// headers bounded, no redirect followed), and the record the simulator
// keeps of a front end's traffic, which the traffic report shows
// (traffic.go). It imports nothing of the project, so the producers, the
// simulator and the reports read these facts here instead of from each
// other.
package wire

import (
	"net/http"
	"strings"
)

// KeyHeader carries the subscription key on every call (Authentication 1).
const KeyHeader = "Ocp-Apim-Subscription-Key"

// A simulator keeps named worlds apart: a request carrying WorldHeader, or
// whose path starts with WorldPathPrefix and the world's name, is served
// from that world's records. The proxy reads them to keep its memory per
// world.
const (
	// WorldHeader names the world of a request.
	WorldHeader = "X-Campusconf-World"
	// WorldPathPrefix, then the world's name and "/", selects a world by
	// path: /_w/NAME/campus/2FA/Auth.
	WorldPathPrefix = "/_w/"
)

// WorldOf names the world a request addresses by its path prefix or, when
// the path has none, its header, and returns the path without the prefix.
// "" is the default world.
func WorldOf(path string, h http.Header) (world, rest string) {
	if tail, ok := strings.CutPrefix(path, WorldPathPrefix); ok {
		name, after, _ := strings.Cut(tail, "/")
		return name, "/" + after
	}
	return h.Get(WorldHeader), path
}

// MaxResponseHeaderBytes bounds the response headers a producer reads from
// a target, all fields together, unless the run raises it (`run
// --max-header`): a longer header is not judged.
const MaxResponseHeaderBytes = 64 << 10

// MaxResponseBodyBytes bounds the body a producer reads of one answer,
// unless the run raises it (`run --max-body`): the scenarios and the
// generated requests share the bound, and a longer answer is not judged.
const MaxResponseBodyBytes = 4 << 20

// NoRedirects returns the CheckRedirect of a producer's client. The
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
