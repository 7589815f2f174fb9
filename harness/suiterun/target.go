package suiterun

import (
	"crypto/tls"
	"maps"
	"net/http"
	"net/url"
	"strings"

	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/steps"
)

// The one place that points the suite at what it checks: `campusconf run`
// (the embedded simulator, or --target), package conformance (a handler or
// a URL) and the simulator harness (harness/simrun) all set steps.Config's
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
// self-signed certificate. The userinfo and query of baseURL are secrets:
// cfg.BaseURL has neither, so no request URL in a report carries them; the
// client adds the query to every request, and the userinfo as basic
// authentication where a request has no Authorization of its own; and
// cfg.Secrets holds them, so a target that echoes them is redacted too.
func OverHTTP(cfg steps.Config, baseURL string, insecure bool) steps.Config {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// a connection for every request the run may have in flight (a
	// scenario's, and the refusal check's probes side by side) stays open
	// for the next: net/http keeps 2 by default and closes the others, and
	// against a distant target every new connection costs a round trip
	// (three over TLS) before its request
	tr.MaxIdleConnsPerHost = 2 * max(cfg.Concurrency, 1)
	tr.MaxResponseHeaderBytes = wire.MaxResponseHeaderBytes
	if cfg.MaxResponseHeader > 0 {
		tr.MaxResponseHeaderBytes = cfg.MaxResponseHeader
	}
	if insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for with --insecure
	}
	var rt http.RoundTripper = tr
	base := baseURL
	if u, err := url.Parse(baseURL); err == nil && (u.User != nil || u.RawQuery != "" || u.Fragment != "") {
		if cfg.Secrets == nil {
			cfg.Secrets = map[string]string{}
		}
		maps.Copy(cfg.Secrets, redact.TargetSecrets(baseURL))
		rt = targetParts{next: tr, user: u.User, query: u.Query()}
		u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
		base = u.String()
	}
	cfg.BaseURL = strings.TrimRight(base, "/")
	cfg.Client = &http.Client{Transport: rt, CheckRedirect: wire.NoRedirects(nil)}
	return cfg
}

// targetParts adds what the target URL carries besides its base to every
// request: its query parameters, and its userinfo as basic authentication
// where the request has no Authorization.
type targetParts struct {
	next  *http.Transport
	user  *url.Userinfo
	query url.Values
}

func (t targetParts) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if len(t.query) > 0 {
		q := req.URL.Query()
		for k, vs := range t.query {
			if !q.Has(k) {
				q[k] = vs
			}
		}
		req.URL.RawQuery = q.Encode()
	}
	if t.user != nil && req.Header.Get("Authorization") == "" {
		pw, _ := t.user.Password()
		req.SetBasicAuth(t.user.Username(), pw)
	}
	return t.next.RoundTrip(req)
}
