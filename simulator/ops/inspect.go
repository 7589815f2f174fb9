package ops

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/front"
)

// What the simulator tells a front end about its requests: the request
// rules each breaks (openapi.Violations, the proxy's reading too) and the
// documented choices its answer relied on (relies.go). It is worked out
// only while someone reads it (the request log, a console watching, the
// traffic record); otherwise the layer below costs a context lookup.

// inspect reads an operation's request against the request rules when
// someone consumes the result (opHandler calls it then): it keeps the body
// for the handler, lists the violations and notes the unplaced path.
func (h *opHandler) inspect(note *front.Note, r *http.Request) {
	env, op, params := h.env, h.op, h.params
	if op.Unplaced() {
		note.Relies.Add(decisions.UnplacedPaths)
	}
	var pv map[string]string
	if len(params) > 0 {
		pv = make(map[string]string, len(params))
		for _, p := range params {
			pv[p] = r.PathValue(p)
		}
	}
	var data []byte
	cut := false
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		data, err = io.ReadAll(io.LimitReader(r.Body, front.MaxBodyBytes+1))
		cut = err != nil || len(data) > front.MaxBodyBytes
		// the handler reads the same bytes, and what lies beyond them
		// (its own limit answers 413)
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), r.Body), r.Body}
	}
	if v := requestValidator(); v != nil {
		note.Violations = v.Violations(op.ID, pv, queryOf(r).Values(), data, cut)
	}
	if env.examples {
		// the traffic record keeps one of each operation, reliance and
		// rule broken
		note.Example = exampleOf(r, data, cut)
	}
}

// pathParams lists the names of the {parameters} of a route path.
func pathParams(path string) []string {
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(name, "}"), "..."))
		}
	}
	return out
}

// requestValidator is the validator of the OpenAPI document, built once
// on first use (nil if the embedded document does not load, which its
// own tests rule out).
var requestValidator = sync.OnceValue(func() *openapi.Validator {
	v, err := openapi.NewValidator()
	if err != nil {
		return nil
	}
	return v
})

// exampleBodyBytes bounds the body an example request keeps.
const exampleBodyBytes = 4 << 10

// exampleOf is r as a traffic report shows it: method, path and query, and
// the start of its body. No header is kept, so neither the subscription
// key nor a token; a secret the app put in the query or the body is the
// report writer's to redact.
func exampleOf(r *http.Request, body []byte, cut bool) wire.Example {
	e := wire.Example{Method: r.Method, Target: front.LogPath(r.URL.Path), ContentType: r.Header.Get("Content-Type")}
	if r.URL.RawQuery != "" {
		e.Target += "?" + r.URL.RawQuery
	}
	if len(body) > exampleBodyBytes {
		body, cut = body[:exampleBodyBytes], true
	}
	e.Body, e.BodyCut = string(body), cut
	return e
}
