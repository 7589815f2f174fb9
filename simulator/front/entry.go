// Package front is the simulator's HTTP entry layer, in front of the
// operations and the dev-server extras and knowing neither the store nor
// the domain: the request log and what feeds the console and the traffic
// record, the host check, CORS, the request target's shape, the control
// API's guard, the route table, the reading of JSON
// request bodies, the JSON error form of every answer (as the defects in
// force bend it), and the listener that gives http.Server's own error
// answers that form too.
package front

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator/switches"
)

// Entry is the one layer every request passes before the router, in this
// order: the request log and what feeds the console and the traffic
// record (logged, only when one of them is on), the docs (only when
// served), then the front checks: the request target's shape (a canonical
// path, a well-formed query), CORS for the interface, the control API's
// guard, and a writer that turns whatever the router still answers by
// itself into the JSON string error form. One layer with early exits in
// place of four nested handlers: a request with the features off pays a
// flag test for each, not a handler call and a context lookup.
type Entry struct {
	mux     http.Handler
	defects *switches.Defects
	log     *slog.Logger
	watch   Watcher
	// docs serves docsPath and what lies under docsDir; nil without
	// docs.
	docs              http.Handler
	docsPath, docsDir string
	// control is the control API's base path and "/" ("/_sim/TOKEN/"),
	// "" without the control API.
	control string
	// observed is set when a request log, the console's live log or a
	// traffic record reads what each request did (see logged).
	observed bool
	// red hides credentials in the query logged (nil: none; the control
	// token's segment of the path is masked apart).
	red *redact.Redactor
	// cors is the origins browsers may call the interface from.
	cors wire.CORSPolicy
}

// Config is what an Entry needs besides the router.
type Config struct {
	// Defects are the defects in force: the form of error answers.
	Defects *switches.Defects
	// Log receives one line per request; nil logs nothing. Lines never
	// contain the subscription key or a token.
	Log *slog.Logger
	// Watch reads what each request did, besides the log; nil when
	// nothing does.
	Watch Watcher
	// Docs serves DocsPath and everything under it; nil without docs.
	Docs     http.Handler
	DocsPath string
	// ControlPath is the control API's base path, token included
	// ("/_sim/TOKEN"); "" without the control API.
	ControlPath string
	// Redactor hides the world's credentials in the query the request
	// log and the Watcher get, in every encoding (reports/redact, the
	// reports' redactor); nil hides none. The control token's segment of
	// the path is masked apart.
	Redactor *redact.Redactor
	// CORS is the origins browsers may call the interface from
	// (wire.CORSPolicy); nil allows any.
	CORS *wire.CORSPolicy
}

// NewEntry returns the layer in front of mux.
func NewEntry(mux http.Handler, c Config) *Entry {
	e := &Entry{mux: mux, defects: c.Defects, log: c.Log, watch: c.Watch, docs: c.Docs,
		docsPath: c.DocsPath, docsDir: c.DocsPath + "/", observed: c.Log != nil || c.Watch != nil, red: c.Redactor}
	e.cors = wire.AnyCORS
	if c.CORS != nil {
		e.cors = *c.CORS
	}
	if c.ControlPath != "" {
		e.control = c.ControlPath + "/"
	}
	return e
}

func (e *Entry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.observed {
		e.logged(w, r)
		return
	}
	e.serve(w, r)
}

// serve is the docs and the front checks, then the router.
func (e *Entry) serve(w http.ResponseWriter, r *http.Request) {
	if e.docs != nil && (r.URL.Path == e.docsPath || strings.HasPrefix(r.URL.Path, e.docsDir)) {
		e.docs.ServeHTTP(w, r)
		return
	}
	jw := answersPool.Get().(*jsonAnswers)
	*jw = jsonAnswers{ResponseWriter: w, defects: e.defects, r: r}
	defer func() {
		*jw = jsonAnswers{} // holds nothing of a finished request
		answersPool.Put(jw)
	}()
	if r.RequestURI == "*" {
		// OPTIONS * (http.Server answers it itself unless
		// DisableGeneralOptionsHandler): no operation is there.
		Fail(jw, e.defects, http.StatusBadRequest, "request target: expected a path, got *")
		return
	}
	control := IsControlPath(r.URL.Path)
	if !control && e.corsPreflight(jw, r) {
		return
	}
	if msg := targetProblem(r); msg != "" {
		Fail(jw, e.defects, http.StatusBadRequest, msg)
		return
	}
	if control && e.control != "" && !e.controlAllowed(jw, r) {
		return
	}
	e.mux.ServeHTTP(jw, r)
}

// answersPool keeps the JSON answer writers between requests: one a
// request was an allocation of every answer. A writer goes back when its
// request's handler has returned, after which net/http allows no use of
// it.
var answersPool = sync.Pool{New: func() any { return new(jsonAnswers) }}

// corsPreflight lets browsers read every answer of the interface from
// the origins the policy allows, and answers preflight requests (true
// when it did): one from an allowed origin gets the headers it asks for,
// one refused gets 403 and its reason, which the request log shows. The
// control API gets neither: a page of another origin must not drive it.
func (e *Entry) corsPreflight(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	origin := ""
	if o := r.Header["Origin"]; len(o) > 0 {
		origin = o[0]
	}
	allowed := true
	if e.cors.Any() {
		h["Access-Control-Allow-Origin"] = anyOrigin // shared, never changed in place
	} else {
		h["Vary"] = varyOrigin
		var v string
		if v, allowed = e.cors.AllowOrigin(origin); allowed {
			h.Set("Access-Control-Allow-Origin", v)
		}
	}
	if allowed && origin != "" {
		h["Access-Control-Expose-Headers"] = exposed
	}
	if r.Method != http.MethodOptions {
		return false
	}
	method := r.Header.Get("Access-Control-Request-Method")
	if method == "" {
		// a plain OPTIONS, not a preflight: what the interface allows
		h.Set("Access-Control-Allow-Methods", wire.CORSMethods)
		h.Set("Access-Control-Allow-Headers", wire.CORSDefaultHeaders)
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	asked := strings.Join(r.Header.Values("Access-Control-Request-Headers"), ",")
	if why := e.cors.CheckPreflight(origin, method, asked); why != "" {
		if n := NoteOf(r); n != nil {
			n.Refused = why
		}
		h.Del("Access-Control-Allow-Origin")
		h.Del("Access-Control-Expose-Headers")
		Fail(w, e.defects, http.StatusForbidden, why)
		return true
	}
	h.Set("Access-Control-Allow-Methods", wire.CORSMethods)
	h.Set("Access-Control-Allow-Headers", wire.CORSAllowHeaders(asked))
	h.Set("Access-Control-Max-Age", wire.CORSMaxAge)
	w.WriteHeader(http.StatusNoContent)
	return true
}

// exposed and varyOrigin are shared header values, as anyOrigin.
var (
	exposed    = []string{wire.CORSExposeHeaders}
	varyOrigin = []string{"Origin"}
)

// targetProblem says what is wrong with the request target, or "".
//
// A path that is not canonical (an empty, "." or ".." segment) would be
// redirected by ServeMux to its cleaned form; the interface has no
// redirects, and a client sending such a path has a bug worth seeing, so
// it is 400. A query that url.ParseQuery refuses (a bad %-escape, a ";"
// separator) would lose its parameters silently in URL.Query: 400 too.
func targetProblem(r *http.Request) string {
	p := r.URL.EscapedPath()
	if p == "" || p[0] != '/' {
		return fmt.Sprintf("path: expected an absolute path beginning with /, got %q", Clip(p))
	}
	if !plainPath(p) && cleanPath(p) != p {
		return fmt.Sprintf("path: expected a path without empty, \".\" or \"..\" segments, got %q", Clip(p))
	}
	// url.ParseQuery can refuse only a "%" or a ";": a query without
	// either is not parsed twice.
	if strings.ContainsAny(r.URL.RawQuery, "%;") {
		if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
			return fmt.Sprintf("query: expected name=value pairs joined by & with valid %%XX escapes, got %q (%v)", Clip(r.URL.RawQuery), err)
		}
	}
	return ""
}

// plainPath reports whether p, beginning with "/", has no segment that
// path.Clean would change: such a segment is empty or begins with "."
// ("", ".", ".."), so it follows a "/" with a "/" or a ".". A path with
// neither pair is canonical without cleaning it (a segment such as
// ".well-known" is left to cleanPath).
func plainPath(p string) bool {
	for i := 1; i < len(p); i++ {
		if p[i-1] == '/' && (p[i] == '/' || p[i] == '.') {
			return false
		}
	}
	return true
}

// cleanPath is ServeMux's canonical form of p: "." and ".." resolved,
// repeated slashes collapsed, a trailing slash kept.
func cleanPath(p string) string {
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}
