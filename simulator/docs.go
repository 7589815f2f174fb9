package simulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/simulator/variants"
)

// Interactive docs at /docs (Options.Docs): Swagger UI, its assets embedded
// in the binary by github.com/swaggest/swgui (nothing is fetched at run
// time), showing the interface's OpenAPI document as this simulator serves
// it: the five operations the specification does not place at the paths
// the simulator gives them (alt-paths moves them), and the server set to
// the page's own origin. The subscription key and a user's token are
// filled in, so "Try it out" works at once: the owner by default,
// /docs/?user=admin (staff, student) for another; /docs/?world=NAME sends
// every try to a named world. The page holds credentials, which is why
// `campusconf serve` serves it only on a loopback address.

// docsPath is where the docs live.
const docsPath = "/docs"

// docs serves the Swagger UI pages, one handler per fixture user.
type docs struct {
	s        *Simulator
	once     sync.Once
	byUser   map[string]http.Handler
	spec     []byte // the document as placed here, servers set per request
	specErr  error
	fallback string
}

// withDocs serves /docs and everything under it, and next for the rest.
func (s *Simulator) withDocs(next http.Handler) http.Handler {
	d := &docs{s: s, fallback: "owner"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p != docsPath && !strings.HasPrefix(p, docsPath+"/") {
			next.ServeHTTP(w, r)
			return
		}
		d.serve(w, r)
	})
}

func (d *docs) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		d.s.fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on "+clip(r.URL.Path))
		return
	}
	d.once.Do(d.build)
	w.Header().Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case docsPath:
		w.Header().Set("Location", docsPath+"/")
		d.s.fail(w, http.StatusFound, "the docs are at "+docsPath+"/")
		return
	case docsPath + "/openapi.json":
		d.serveSpec(w, r)
		return
	case docsPath + "/":
		user := r.URL.Query().Get("user")
		if user == "" {
			user = d.fallback
		}
		h, ok := d.byUser[user]
		if !ok {
			d.s.fail(w, http.StatusBadRequest, "user: expected admin, owner, staff or student, got "+clip(user))
			return
		}
		h.ServeHTTP(w, r)
		return
	}
	w.Header().Del("Cache-Control") // the assets never change within a binary
	// an unknown asset is a 404 with a JSON string body like any other
	d.byUser[d.fallback].ServeHTTP(&jsonAnswers{ResponseWriter: w, s: d.s, r: r}, r)
}

// build makes the per-user pages and the placed document.
func (d *docs) build() {
	s := d.s
	key := s.store.SubscriptionKey()
	userHdr := s.variants.Has(variants.UserHeader)
	d.byUser = map[string]http.Handler{}
	for _, u := range s.store.Users() {
		token, _ := json.Marshal(u.Token)
		// a try goes to the world ?world=NAME names; with user-header the
		// token travels in its own header as well
		interceptor := `function (req) {
				if (req.loadSpec) { return req; }
				var world = new URLSearchParams(window.location.search).get("world");
				if (world) { req.headers["` + WorldHeader + `"] = world; }`
		if userHdr {
			interceptor += `
				req.headers["` + userHeader + `"] = ` + string(token) + `;`
		}
		interceptor += `
				return req;
			}`
		d.byUser[u.Fixture] = v5emb.NewHandlerWithConfig(swgui.Config{
			Title:       "Campus Learning Platform (campusconf simulator, " + u.Fixture + ")",
			SwaggerJSON: docsPath + "/openapi.json",
			BasePath:    docsPath + "/",
			ShowTopBar:  false,
			PreAuthorizeApiKey: map[string]string{
				"subscriptionKey": key,
				"bearerAuth":      u.Token,
			},
			SettingsUI: map[string]string{
				"requestInterceptor":   interceptor,
				"persistAuthorization": "false",
				"tryItOutEnabled":      "true",
			},
		})
	}
	d.spec, d.specErr = placedSpec(s)
}

// placedSpec is the OpenAPI document with the unplaced operations at this
// simulator's paths.
func placedSpec(s *Simulator) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(openapi.JSON(), &doc); err != nil {
		return nil, err
	}
	paths, _ := doc["paths"].(map[string]any)
	for _, op := range operations {
		method, path := s.place(op)
		if method == op.Method && path == op.Path {
			continue
		}
		item, _ := paths[op.Path].(map[string]any)
		o, ok := item[strings.ToLower(op.Method)]
		if !ok {
			continue
		}
		delete(item, strings.ToLower(op.Method))
		if len(item) == 0 || onlyParameters(item) {
			delete(paths, op.Path)
		}
		dst, _ := paths[path].(map[string]any)
		if dst == nil {
			dst = map[string]any{}
			if params, ok := item["parameters"]; ok {
				dst["parameters"] = params
			}
			paths[path] = dst
		}
		dst[strings.ToLower(method)] = o
	}
	return json.Marshal(doc)
}

// onlyParameters reports whether a path item holds no operation.
func onlyParameters(item map[string]any) bool {
	for k := range item {
		if k != "parameters" && k != "summary" && k != "description" && k != "servers" {
			return false
		}
	}
	return true
}

// serveSpec serves the placed document with the page's own origin as its
// server.
func (d *docs) serveSpec(w http.ResponseWriter, r *http.Request) {
	if d.specErr != nil {
		d.s.fail(w, http.StatusInternalServerError, "docs: "+d.specErr.Error())
		return
	}
	// the server entry is spliced in: the rest of the document is fixed
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(d.spec, &doc); err != nil {
		d.s.fail(w, http.StatusInternalServerError, "docs: "+err.Error())
		return
	}
	servers, _ := json.Marshal([]map[string]string{{"url": ownOrigin(r), "description": "this simulator"}})
	doc["servers"] = servers
	writeJSON(w, http.StatusOK, doc)
}
