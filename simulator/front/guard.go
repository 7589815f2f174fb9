package front

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
)

// ControlPrefix is the reserved path prefix of the control API: it
// answers only under ControlPrefix/TOKEN/ (simulator/devserver).
const ControlPrefix = "/_sim"

// IsControlPath reports whether p is under the control API's prefix.
func IsControlPath(p string) bool {
	return p == ControlPrefix || strings.HasPrefix(p, ControlPrefix+"/")
}

// controlAllowed is the control API's guard: it answers 403 and returns
// false for a request a web page of another origin sent (CrossOrigin) and
// for a path without the token. No answer under the prefix carries CORS
// headers.
func (e *Entry) controlAllowed(w http.ResponseWriter, r *http.Request) bool {
	if msg := CrossOrigin(r, false); msg != "" {
		Fail(w, e.defects, http.StatusForbidden, "control API: "+msg)
		return false
	}
	want := e.control
	got := r.URL.Path
	if len(got) < len(want) || subtle.ConstantTimeCompare([]byte(got[:len(want)]), []byte(want)) != 1 {
		Fail(w, e.defects, http.StatusForbidden, "control API: expected the path "+ControlPrefix+"/TOKEN/..., with the token `campusconf serve --control` printed (the fixture's \"control\")")
		return false
	}
	return true
}

// CrossOrigin says why r is refused by a page or endpoint that holds or
// reveals credentials (the control API, the self-reset, /docs): it was
// sent by a web page of another origin (an Origin other than the one it
// was sent to, or Sec-Fetch-Site cross-site or same-site). "" when it was
// not. With navigation, a GET that opens a page in the window (a link
// followed from another site) is not refused: the page then runs in its
// own origin, which the other site cannot read, and its CSP keeps it out
// of frames. Clients that are not browsers send neither header.
func CrossOrigin(r *http.Request, navigation bool) string {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		if navigation && r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-Dest") == "document" {
			return ""
		}
		return "refused to a page of another site (Sec-Fetch-Site: " + Clip(site) + ")"
	}
	if origin := r.Header.Get("Origin"); origin != "" && !strings.EqualFold(origin, OwnOrigin(r)) {
		return fmt.Sprintf("refused to a page of another origin (Origin: %q); it serves its own origin only", Clip(origin))
	}
	return ""
}

// OwnOrigin is the origin the request was sent to.
func OwnOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
