package wire

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// CORS, one policy for every server of the project a browser calls (the
// simulator, the proxy with --cors): the origins a page may call it from
// (serve and proxy --cors-origins, any by default), the headers a
// preflight may ask for (any well-formed header name: an app adds its own,
// X-Request-Id or a tracing header, and the answer names it back), and the
// headers an app may read from an answer besides the safelisted ones.

// AnyOrigin allows every origin (the default of --cors-origins).
const AnyOrigin = "*"

// CORSMethods are the methods a preflight may ask for: those of the
// interface.
const CORSMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"

// CORSExposeHeaders are the answer headers an app may read besides the
// CORS-safelisted ones: Retry-After (of a 503 or 429), Location, and the
// simulator's own (the world a request was served by).
const CORSExposeHeaders = "Retry-After, Location, " + WorldHeader

// CORSDefaultHeaders are the request headers a preflight is allowed when
// it names none: those of the interface.
const CORSDefaultHeaders = KeyHeader + ", Authorization, X-Campus-User, " + WorldHeader + ", Content-Type"

// CORSMaxAge is how long a browser may keep a preflight's answer, in
// seconds.
const CORSMaxAge = "600"

// CORSPolicy is a compiled --cors-origins (ParseCORSOrigins); the zero
// value allows no origin, AnyCORS every one.
type CORSPolicy struct {
	any     bool
	origins []string
}

// AnyCORS is the policy allowing every origin.
var AnyCORS = CORSPolicy{any: true}

// ParseCORSOrigins reads --cors-origins: "" or "*" allows any origin;
// otherwise a comma-separated list of origins, each scheme://host[:port]
// (http://localhost:5173) without path, query or trailing slash.
func ParseCORSOrigins(list string) (CORSPolicy, error) {
	list = strings.TrimSpace(list)
	if list == "" || list == AnyOrigin {
		return AnyCORS, nil
	}
	var p CORSPolicy
	for o := range strings.SplitSeq(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o == AnyOrigin {
			return CORSPolicy{}, fmt.Errorf("origin *: expected either * alone or a list of origins, got %q", clipHost(list))
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return CORSPolicy{}, fmt.Errorf("origin %q: expected scheme://host[:port] such as http://localhost:5173, without path or trailing slash", clipHost(o))
		}
		p.origins = append(p.origins, strings.ToLower(o))
	}
	if len(p.origins) == 0 {
		return CORSPolicy{}, fmt.Errorf("expected * or origins such as http://localhost:5173, got %q", clipHost(list))
	}
	return p, nil
}

// Any reports whether every origin is allowed.
func (p CORSPolicy) Any() bool { return p.any }

// String is the policy as --cors-origins writes it.
func (p CORSPolicy) String() string {
	if p.any {
		return AnyOrigin
	}
	return strings.Join(p.origins, ",")
}

// AllowOrigin returns the Access-Control-Allow-Origin value for a request
// from origin, and whether the origin is allowed: "*" when any is, the
// origin itself when it is listed (the answer then varies with Origin).
func (p CORSPolicy) AllowOrigin(origin string) (string, bool) {
	if p.any {
		return AnyOrigin, true
	}
	if origin != "" && slices.Contains(p.origins, strings.ToLower(origin)) {
		return origin, true
	}
	return "", false
}

// CheckPreflight says why a preflight from origin asking for method and
// headers (the values of Access-Control-Request-Method and -Headers) is
// refused, or "" when it is allowed.
func (p CORSPolicy) CheckPreflight(origin, method, headers string) string {
	if _, ok := p.AllowOrigin(origin); !ok {
		if origin == "" {
			return fmt.Sprintf("CORS preflight refused: no Origin header, and --cors-origins allows only %s", p)
		}
		return fmt.Sprintf("CORS preflight refused: origin %q is not among --cors-origins %s", clipHost(origin), p)
	}
	if !slices.Contains(strings.Split(CORSMethods, ", "), method) {
		return fmt.Sprintf("CORS preflight refused: method %q is not one of %s", clipHost(method), CORSMethods)
	}
	for h := range strings.SplitSeq(headers, ",") {
		if h = strings.TrimSpace(h); h != "" && !isToken(h) {
			return fmt.Sprintf("CORS preflight refused: Access-Control-Request-Headers: expected header names separated by commas, got %q", clipHost(headers))
		}
	}
	return ""
}

// CORSAllowHeaders is the Access-Control-Allow-Headers of an allowed
// preflight: the headers it asks for (any name an app sends, checked by
// CheckPreflight), or the interface's own when it asks for none.
func CORSAllowHeaders(requested string) string {
	if strings.TrimSpace(requested) == "" {
		return CORSDefaultHeaders
	}
	return requested
}

// isToken reports whether s is an HTTP token (a header name).
func isToken(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}
