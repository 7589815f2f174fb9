package front

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
)

// The host check. A web page can reach a simulator on the developer's
// machine through DNS rebinding: its own name, resolved a second time to
// 127.0.0.1, makes the browser treat the simulator as the page's origin,
// and the page then reads /docs (which holds credentials) or resets the
// world. The browser still sends the page's name in Host, so the simulator
// answers only Host values it is served as, as the dev servers of the
// front-end ecosystem do: localhost and names under .localhost (browsers
// resolve them to loopback themselves), every IP address (an address
// cannot be rebound: there is no name to resolve again), and the names
// Options.AllowedHosts lists (`campusconf serve` adds its --addr host and
// --allowed-hosts). Other requests get 421 Misdirected Request with a JSON
// string body, before anything else runs. A request without Host (HTTP/1.0)
// is answered: browsers always send one. "*" in AllowedHosts switches the
// check off.

// AnyHost in the allowed hosts switches the host check off.
const AnyHost = "*"

// Hosts are the Host values the simulator answers: the compiled allowed
// hosts (the simulator's Options.AllowedHosts).
type Hosts struct {
	off bool
	// names are allowed names in lower case, without a trailing dot;
	// domains are names whose subdomains are allowed too (".example.com").
	names, domains []string
}

// NewHosts compiles the allowed hosts, refusing an entry that is not a
// host name ("campus-api", "dev.example.edu"), a domain with its
// subdomains (".example.edu" or "*.example.edu"), an IP address, or "*".
func NewHosts(hosts []string) (Hosts, error) {
	var p Hosts
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
			return Hosts{}, fmt.Errorf("allowed host %q: expected a host name without scheme or port (campus-api, dev.example.edu), a domain and its subdomains (.example.edu), an IP address, or * for any host", Clip(h))
		}
		if domain {
			p.domains = append(p.domains, name)
		} else {
			p.names = append(p.names, name)
		}
	}
	return p, nil
}

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

// Allows reports whether the simulator answers requests sent to host (a
// Host header: a name or address, with or without a port). It does not
// allocate.
func (p *Hosts) Allows(host string) bool {
	if p.off {
		return true
	}
	h := hostName(host)
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

// hostName is the name or address of a Host header: without the port, the
// brackets of an IPv6 address, or a trailing dot.
func hostName(host string) string {
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

// Misdirected answers a request sent to a Host the simulator is not
// served as: 421 with a JSON string body (always a string, whatever the
// defects in force: this is the server's answer, not the interface's), and
// a line on log (when not nil).
func Misdirected(w http.ResponseWriter, r *http.Request, log *slog.Logger) {
	name := Clip(hostName(r.Host))
	msg := fmt.Sprintf("host %q: this simulator is not served under that name; it answers localhost, IP addresses and the names it is told to allow (campusconf serve --allowed-hosts %s, or Options.AllowedHosts)", name, name)
	WriteJSON(w, http.StatusMisdirectedRequest, msg)
	if log != nil {
		log.LogAttrs(r.Context(), slog.LevelWarn, r.Method+" "+LogPath(r.URL.Path),
			slog.Int("status", http.StatusMisdirectedRequest), slog.String("host", name))
	}
}
