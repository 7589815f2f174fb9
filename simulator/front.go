package simulator

import (
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
)

// entry is the one layer every request passes before the router, in this
// order: the request log and what feeds the console and the traffic
// record (logged, only when one of them is on), the docs (only when
// served), then the front checks: the request target's shape (a canonical
// path, a well-formed query), CORS for the interface, the control API's
// guard, and a writer that turns whatever the router still answers by
// itself into the JSON string error form. One layer with early exits in
// place of four nested handlers: a request with the features off pays a
// flag test for each, not a handler call and a context lookup.
type entry struct {
	s   *Simulator
	mux http.Handler
	// docs serves /docs; nil without Options.Docs.
	docs *docs
	// observed is set when a request log, the console's live log or a
	// traffic record reads what each request did (see logged).
	observed bool
}

// entry returns the layer in front of mux as the options stand.
func (s *Simulator) entry(mux http.Handler) *entry {
	e := &entry{s: s, mux: mux, observed: s.observed()}
	if s.opts.Docs {
		e.docs = newDocs(s)
	}
	return e
}

func (e *entry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.observed {
		e.logged(w, r)
		return
	}
	e.serve(w, r)
}

// serve is the docs and the front checks, then the router.
func (e *entry) serve(w http.ResponseWriter, r *http.Request) {
	if e.docs != nil && isDocsPath(r.URL.Path) {
		e.docs.serve(w, r)
		return
	}
	s := e.s
	jw := answersPool.Get().(*jsonAnswers)
	*jw = jsonAnswers{ResponseWriter: w, s: s, r: r}
	defer func() {
		*jw = jsonAnswers{} // holds nothing of a finished request
		answersPool.Put(jw)
	}()
	if r.RequestURI == "*" {
		// OPTIONS * (http.Server answers it itself unless
		// DisableGeneralOptionsHandler): no operation is there.
		s.fail(jw, http.StatusBadRequest, "request target: expected a path, got *")
		return
	}
	control := isControlPath(r.URL.Path)
	if !control && corsPreflight(jw, r) {
		return
	}
	if msg := targetProblem(r); msg != "" {
		s.fail(jw, http.StatusBadRequest, msg)
		return
	}
	if control && s.opts.Control && !s.controlAllowed(jw, r) {
		return
	}
	e.mux.ServeHTTP(jw, r)
}

// answersPool keeps the JSON answer writers between requests: one a
// request was an allocation of every answer. A writer goes back when its
// request's handler has returned, after which net/http allows no use of
// it.
var answersPool = sync.Pool{New: func() any { return new(jsonAnswers) }}

// corsPreflight lets browsers read every answer of the interface, and
// answers preflight requests (true when it did). The control API gets
// neither: a page of another origin must not drive it.
func corsPreflight(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h["Access-Control-Allow-Origin"] = anyOrigin // shared, never changed in place
	if r.Method != http.MethodOptions {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Ocp-Apim-Subscription-Key, Authorization, "+userHeader+", "+WorldHeader+", Content-Type")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

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
		return fmt.Sprintf("path: expected an absolute path beginning with /, got %q", clip(p))
	}
	if !plainPath(p) && cleanPath(p) != p {
		return fmt.Sprintf("path: expected a path without empty, \".\" or \"..\" segments, got %q", clip(p))
	}
	// url.ParseQuery can refuse only a "%" or a ";": a query without
	// either is not parsed twice.
	if strings.ContainsAny(r.URL.RawQuery, "%;") {
		if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
			return fmt.Sprintf("query: expected name=value pairs joined by & with valid %%XX escapes, got %q (%v)", clip(r.URL.RawQuery), err)
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

// jsonAnswers makes sure an answer of 300 or above carries a JSON string
// body: the handlers write one already; what ServeMux writes by itself
// (its redirect to a subtree's slash, for DELETE /Attendance) or any
// http.Error is rewritten, keeping the status and the Location and Allow
// headers.
type jsonAnswers struct {
	http.ResponseWriter
	s       *Simulator
	r       *http.Request
	wrote   bool
	swallow bool
}

func (j *jsonAnswers) WriteHeader(status int) {
	if status < http.StatusOK { // informational: the answer is still to come
		j.ResponseWriter.WriteHeader(status)
		return
	}
	if j.wrote {
		return
	}
	j.wrote = true
	h := j.Header()
	if ct := h["Content-Type"]; status < http.StatusMultipleChoices || (len(ct) > 0 && ct[0] == "application/json") {
		j.ResponseWriter.WriteHeader(status)
		return
	}
	msg := fmt.Sprintf("%s %s: %s", j.r.Method, j.r.URL.Path, strings.ToLower(http.StatusText(status)))
	if loc := h.Get("Location"); loc != "" {
		msg = fmt.Sprintf("%s %s: the operation is at %s; send the request there", j.r.Method, j.r.URL.Path, loc)
	}
	h.Del("Content-Length")
	h.Del("X-Content-Type-Options")
	j.swallow = true
	j.s.fail(j.ResponseWriter, status, msg)
}

func (j *jsonAnswers) Write(b []byte) (int, error) {
	if !j.wrote {
		j.WriteHeader(http.StatusOK)
	}
	if j.swallow {
		return len(b), nil
	}
	return j.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (j *jsonAnswers) Unwrap() http.ResponseWriter { return j.ResponseWriter }

// anyOrigin and jsonType are header values shared by every answer: setting
// the map entry to them saves an allocation a request. Header.Set and
// Header.Add never change a value slice in place, so sharing is safe.
var (
	anyOrigin = []string{"*"}
	jsonType  = []string{"application/json"}
)
