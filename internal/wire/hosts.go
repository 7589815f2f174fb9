package wire

import (
	"fmt"
	"net/netip"
	"strings"
)

// The host check, one for every server of the project that a browser may
// reach (the simulator, the proxy). A web page can reach a server on the
// developer's machine through DNS rebinding: its own name, resolved a
// second time to 127.0.0.1, makes the browser treat the server as the
// page's origin, and the page then reads what the server answers (the
// simulator's /docs holds credentials) or changes it. The browser still
// sends the page's name in Host, so a server answers only Host values it is
// served as, as the dev servers of the front-end ecosystem do: localhost
// and names under .localhost (browsers resolve them to loopback
// themselves), every IP address (an address cannot be rebound: there is no
// name to resolve again), and the names it is told to allow (its --addr
// host and --allowed-hosts). A request without Host (HTTP/1.0) is
// answered: browsers always send one. AnyHost among the allowed hosts
// switches the check off.

// AnyHost among the allowed hosts switches the host check off.
const AnyHost = "*"

// HostPolicy is a compiled list of allowed hosts (NewHostPolicy).
type HostPolicy struct {
	off bool
	// names are allowed names in lower case, without a trailing dot;
	// domains are names whose subdomains are allowed too (".example.com").
	names, domains []string
}

// NewHostPolicy compiles hosts, each a host name ("campus-api",
// "dev.example.edu"), a domain with its subdomains (".example.edu" or
// "*.example.edu"), an IP address, or AnyHost; it refuses anything else.
func NewHostPolicy(hosts []string) (HostPolicy, error) {
	var p HostPolicy
	for _, h := range hosts {
		if h == AnyHost {
			p.off = true
			continue
		}
		if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
			continue // every address is allowed already
		}
		name := strings.ToLower(strings.TrimSuffix(h, "."))
		domain := false
		if rest, ok := strings.CutPrefix(name, "*."); ok {
			name, domain = rest, true
		} else if rest, ok := strings.CutPrefix(name, "."); ok {
			name, domain = rest, true
		}
		if !isHostName(name) {
			return HostPolicy{}, fmt.Errorf("allowed host %q: expected a host name without scheme or port (campus-api, dev.example.edu), a domain and its subdomains (.example.edu), an IP address, or * for any host", clipHost(h))
		}
		if domain {
			p.domains = append(p.domains, name)
		} else {
			p.names = append(p.names, name)
		}
	}
	return p, nil
}

// CheckAllowedHosts refuses an entry of hosts NewHostPolicy would refuse.
func CheckAllowedHosts(hosts []string) error {
	_, err := NewHostPolicy(hosts)
	return err
}

// Off reports whether the policy answers every host (AnyHost).
func (p *HostPolicy) Off() bool { return p.off }

// isHostName reports whether s is made of DNS labels: letters, digits, -
// and _, separated by single dots.
func isHostName(s string) bool {
	if s == "" || len(s) > 253 || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Allows reports whether requests sent to host (a Host header: a name or
// address, with or without a port) are answered. It does not allocate.
func (p *HostPolicy) Allows(host string) bool {
	if p.off {
		return true
	}
	h := HostName(host)
	if h == "" || strings.EqualFold(h, "localhost") || hasSuffixFold(h, ".localhost") {
		return true
	}
	if c := h[0]; '0' <= c && c <= '9' || strings.IndexByte(h, ':') >= 0 {
		if _, err := netip.ParseAddr(h); err == nil {
			return true
		}
	}
	for _, n := range p.names {
		if strings.EqualFold(h, n) {
			return true
		}
	}
	for _, d := range p.domains {
		if strings.EqualFold(h, d) || hasSuffixFold(h, d) && h[len(h)-len(d)-1] == '.' {
			return true
		}
	}
	return false
}

// HostName is the name or address of a Host header: without the port, the
// brackets of an IPv6 address, or a trailing dot.
func HostName(host string) string {
	if strings.HasPrefix(host, "[") {
		if end := strings.IndexByte(host, ']'); end > 0 {
			return host[1:end]
		}
		return host
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && strings.IndexByte(host, ':') == i {
		host = host[:i]
	}
	return strings.TrimSuffix(host, ".")
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// clipHost cuts a host for a message.
func clipHost(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
