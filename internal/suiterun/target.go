package suiterun

import (
	"crypto/tls"
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/steps"
)

// The one place that points the suite at what it checks: `campusconf run`
// (the embedded simulator, or --target), package conformance (a handler or
// a URL) and the simulator harness (internal/simrun) all set steps.Config's
// BaseURL, Client and Fixture through these.

// ReplayURL is the base URL of the requests a simulator serves in process:
// where `campusconf serve` listens by default, so a failing request (and
// the curl line in a report) can be replayed against
// `campusconf serve --seed N`.
const ReplayURL = "http://127.0.0.1:8080"

// InProcess returns cfg pointed at h, served in this process with no port.
// baseURL only fills in the requests' URLs.
func InProcess(cfg steps.Config, h http.Handler, baseURL string) steps.Config {
	cfg.BaseURL = strings.TrimRight(baseURL, "/")
	cfg.Client = inproc.Client(h)
	return cfg
}

// OverHTTP returns cfg pointed at baseURL over the network. Its client,
// which a caller may use for a reachability probe or a reset too, bounds
// response headers and follows no redirect; with insecure it accepts a
// self-signed certificate.
func OverHTTP(cfg steps.Config, baseURL string, insecure bool) steps.Config {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxResponseHeaderBytes = wire.MaxResponseHeaderBytes
	if insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for with --insecure
	}
	cfg.BaseURL = strings.TrimRight(baseURL, "/")
	cfg.Client = &http.Client{Transport: tr, CheckRedirect: wire.NoRedirects(nil)}
	return cfg
}
