package devserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/ops"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
)

// Interactive docs at /docs (the simulator's Options.Docs): Swagger UI, its assets embedded
// in the binary by github.com/swaggest/swgui (nothing is fetched at run
// time), showing the interface's OpenAPI document as this simulator serves
// it: the five operations the specification does not place at the paths
// the simulator gives them (alt-paths moves them), and the server set to
// the page's own origin. The subscription key and a user's token are
// filled in, so "Try it out" works at once: the owner by default,
// /docs/?user=admin (staff, student) for another; /docs/?world=NAME sends
// every try to a named world. The page holds credentials, which is why
// `campusconf serve` serves it only on a loopback address, why a page of
// another origin may only follow a link to it (front.CrossOrigin), and why it
// carries a Content-Security-Policy that keeps it out of frames and runs
// no script but its own (docsCSP).

// DocsPath is where the docs live: the entry layer (front.Entry) sends
// them DocsPath and everything under it.
const DocsPath = "/docs"

// docs serves the Swagger UI pages, one per fixture user.
type docs struct {
	// store is the world whose credentials the pages fill in; defects
	// and variants are the switches in force.
	store    *store.Store
	defects  *switches.Defects
	variants *switches.Variants
	// fixture is the world's fixture file, whose ids the document's
	// examples are (withExamples).
	fixture func() *fixtures.File
	once    sync.Once
	// pages are the index pages by fixture user, rendered once; assets
	// serves Swagger UI's files.
	pages    map[string]docsPage
	assets   http.Handler
	spec     []byte // the document as placed here, servers set per request
	specErr  error
	fallback string
}

// docsPage is one user's index page and the policy that lets exactly its
// inline scripts and style run.
type docsPage struct {
	html []byte
	csp  string
}

// NewDocs returns the docs of the world st, built on their first request,
// with the switches in force (d, v); fixture gives the world's fixture
// file, the examples of the document's parameters.
func NewDocs(st *store.Store, d *switches.Defects, v *switches.Variants, fixture func() *fixtures.File) http.Handler {
	return &docs{store: st, defects: d, variants: v, fixture: fixture, fallback: "owner"}
}

func (d *docs) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// every answer says nosniff, the error form rewritten from what the
	// assets' server answers (a 404) included
	w = nosniff{w}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY") // for browsers that predate frame-ancestors
	if msg := front.CrossOrigin(r, true); msg != "" {
		front.Fail(w, d.defects, http.StatusForbidden, "docs: "+msg)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		front.Fail(w, d.defects, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on "+front.Clip(r.URL.Path))
		return
	}
	d.once.Do(d.build)
	h.Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case DocsPath:
		h.Set("Location", DocsPath+"/")
		front.Fail(w, d.defects, http.StatusFound, "the docs are at "+DocsPath+"/")
		return
	case DocsPath + "/openapi.json":
		d.serveSpec(w, r)
		return
	case DocsPath + "/":
		user := r.URL.Query().Get("user")
		if user == "" {
			user = d.fallback
		}
		p, ok := d.pages[user]
		if !ok {
			front.Fail(w, d.defects, http.StatusBadRequest, "user: expected admin, owner, staff or student, got "+front.Clip(user))
			return
		}
		h.Set("Content-Security-Policy", p.csp)
		h.Set("Content-Type", "text/html; charset=utf-8")
		html := p.html
		if world := r.URL.Query().Get("world"); world != "" {
			// the switcher's links keep the world the page tries in
			html = bytes.ReplaceAll(html, []byte(`href="?user=`), []byte(`href="?world=`+url.QueryEscape(world)+`&amp;user=`))
		}
		w.Write(html)
		return
	}
	h.Del("Cache-Control") // the assets never change within a binary
	h.Set("Content-Security-Policy", docsAssetCSP)
	// an unknown asset is a 404 with a JSON string body like any other
	d.assets.ServeHTTP(front.AnswerJSON(w, r, d.defects), r)
}

// userSwitcher is the row of links above Swagger UI that opens the page
// of another fixture user (?user=), current the one shown. Its style is
// an inline element, which the page's policy allows by its hash.
func userSwitcher(users []store.User, current string) template.HTML {
	var b strings.Builder
	b.WriteString(`<style>.campusconf-users{font:14px sans-serif;padding:8px 20px;background:#f0f0f0;border-bottom:1px solid #ddd}.campusconf-users a,.campusconf-users strong{margin-left:.6em}</style>`)
	b.WriteString(`<nav class="campusconf-users" aria-label="user">Try it out as:`)
	for _, u := range users {
		name := template.HTMLEscapeString(u.Fixture)
		if u.Fixture == current {
			b.WriteString(` <strong data-user="` + name + `">` + name + `</strong>`)
			continue
		}
		b.WriteString(` <a data-user="` + name + `" href="?user=` + url.QueryEscape(u.Fixture) + `">` + name + `</a>`)
	}
	b.WriteString(`</nav>`)
	return template.HTML(b.String()) // built from escaped parts
}

// nosniff writes X-Content-Type-Options: nosniff with whatever answer
// passes through it, whoever set the headers before.
type nosniff struct{ http.ResponseWriter }

func (n nosniff) WriteHeader(status int) {
	n.Header().Set("X-Content-Type-Options", "nosniff")
	n.ResponseWriter.WriteHeader(status)
}

func (n nosniff) Write(b []byte) (int, error) {
	n.Header().Set("X-Content-Type-Options", "nosniff")
	return n.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (n nosniff) Unwrap() http.ResponseWriter { return n.ResponseWriter }

// docsAssetCSP is the policy of the docs' assets (scripts, style sheet,
// icons): none of them is a page, so nothing may run in one.
const docsAssetCSP = "default-src 'none'; frame-ancestors 'none'"

// docsCSP is the policy of an index page: scripts only from the page's own
// assets and its inline scripts, whose hashes are given (hashSources), the
// same for styles, images from itself (Swagger UI draws its icons as data:
// URLs), requests to its own origin only, and no framing.
func docsCSP(scripts, styles string) string {
	return "default-src 'none'; script-src 'self'" + scripts + "; style-src 'self'" + styles +
		"; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

var (
	inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	inlineStyle  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
)

// hashSources is the CSP source list (" 'sha256-...'" each) allowing the
// inline elements re matches in page, by the hash of their text: the page
// is rendered once, so the hashes are of exactly the bytes served.
func hashSources(re *regexp.Regexp, page []byte) string {
	var b strings.Builder
	for _, m := range re.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[1])
		b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	return b.String()
}

// build makes the per-user pages and the placed document.
func (d *docs) build() {
	key := d.store.SubscriptionKey()
	userHdr := d.variants.Has(variants.UserHeader)
	d.pages = map[string]docsPage{}
	for _, u := range d.store.Users() {
		token, _ := json.Marshal(u.Token)
		// a try goes to the world ?world=NAME names; with user-header the
		// token travels in its own header as well
		interceptor := `function (req) {
				if (req.loadSpec) { return req; }
				var world = new URLSearchParams(window.location.search).get("world");
				if (world) { req.headers["` + wire.WorldHeader + `"] = world; }`
		if userHdr {
			interceptor += `
				req.headers["` + variants.UserTokenHeader + `"] = ` + string(token) + `;`
		}
		interceptor += `
				return req;
			}`
		ui := v5emb.NewHandlerWithConfig(swgui.Config{
			PrependHTML: userSwitcher(d.store.Users(), u.Fixture),
			Title:       "Campus Learning Platform (campusconf simulator, " + u.Fixture + ")",
			SwaggerJSON: DocsPath + "/openapi.json",
			BasePath:    DocsPath + "/",
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
		rec := httptest.NewRecorder()
		ui.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, DocsPath+"/", nil))
		page := rec.Body.Bytes()
		d.pages[u.Fixture] = docsPage{html: page, csp: docsCSP(hashSources(inlineScript, page), hashSources(inlineStyle, page))}
		d.assets = ui // the same files for every user
	}
	d.spec, d.specErr = placedSpec(d.variants, d.fixture())
}

// placedSpec is the OpenAPI document with the unplaced operations at this
// simulator's paths, as the variants in force v place them, its
// parameters' examples from f's world (withExamples; none for nil f).
func placedSpec(v *switches.Variants, f *fixtures.File) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(openapi.JSON(), &doc); err != nil {
		return nil, err
	}
	paths, _ := doc["paths"].(map[string]any)
	for _, op := range registry.All() {
		method, path := ops.Place(op, v)
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
	if f != nil {
		withExamples(doc, f)
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
		front.Fail(w, d.defects, http.StatusInternalServerError, "docs: "+d.specErr.Error())
		return
	}
	// the server entry is spliced in: the rest of the document is fixed
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(d.spec, &doc); err != nil {
		front.Fail(w, d.defects, http.StatusInternalServerError, "docs: "+err.Error())
		return
	}
	servers, _ := json.Marshal([]map[string]string{{"url": front.OwnOrigin(r), "description": "this simulator"}})
	doc["servers"] = servers
	front.WriteJSON(w, http.StatusOK, doc)
}
