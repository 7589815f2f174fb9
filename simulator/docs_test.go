package simulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestDocsServed(t *testing.T) {
	e := newEnv(t, Options{Docs: true})
	page := e.do("", "GET", "/docs/", "").want(t, 200)
	if ct := page.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("/docs/ Content-Type = %q, want text/html", ct)
	}
	owner := strings.TrimPrefix(e.fx.Users["owner"].Headers["Authorization"], "Bearer ")
	for _, want := range []string{e.fx.SubscriptionKey, owner, "/docs/openapi.json", "swagger-ui-bundle.js", WorldHeader} {
		if !strings.Contains(string(page.body), want) {
			t.Errorf("/docs/ page: expected it to contain %q", clip(want))
		}
	}
	staff := strings.TrimPrefix(e.fx.Users["staff"].Headers["Authorization"], "Bearer ")
	if body := e.do("", "GET", "/docs/?user=staff", "").want(t, 200).body; !strings.Contains(string(body), staff) {
		t.Error("/docs/?user=staff: expected the staff token in the page")
	}
	e.do("", "GET", "/docs/?user=nobody", "").want(t, http.StatusBadRequest).errorString(t)
	if r := e.do("", "GET", "/docs", "").want(t, http.StatusFound); r.header.Get("Location") != "/docs/" {
		t.Errorf("/docs redirects to %q, want /docs/", r.header.Get("Location"))
	} else {
		r.errorString(t)
	}
	for _, asset := range []string{"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"} {
		r := e.do("", "GET", "/docs/"+asset, "").want(t, 200)
		if len(r.body) < 1000 {
			t.Errorf("/docs/%s: %d bytes, want the embedded asset", asset, len(r.body))
		}
	}
	e.do("", "POST", "/docs/", "").want(t, http.StatusMethodNotAllowed).errorString(t)
	e.do("", "GET", "/docs/no-such-asset.js", "").want(t, http.StatusNotFound).errorString(t)
	// without Options.Docs nothing is there
	newEnv(t, Options{}).do("", "GET", "/docs/", "").want(t, http.StatusNotFound)
}

// TestDocsPlacesUnplaced checks that the document behind /docs shows the
// five unplaced operations where this simulator serves them, and its own
// origin as the server.
func TestDocsPlacesUnplaced(t *testing.T) {
	for _, c := range []struct {
		name     string
		variants []string
	}{{"default placement", nil}, {"alt-paths", []string{"alt-paths"}}} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, Options{Docs: true, Variants: c.variants})
			var doc struct {
				Servers []struct{ URL string } `json:"servers"`
				Paths   map[string]map[string]json.RawMessage
			}
			e.do("", "GET", "/docs/openapi.json", "").want(t, 200).decode(t, &doc)
			if len(doc.Servers) != 1 || doc.Servers[0].URL != "http://example.com" {
				t.Errorf("servers = %+v, want the request's own origin http://example.com", doc.Servers)
			}
			for _, op := range operations {
				method, path := e.sim.place(op)
				path = strings.TrimSuffix(path, "{$}") // a ServeMux pattern
				if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
					t.Errorf("%s: expected %s %s in the docs' document", op.ID, method, path)
				}
				if moved := path != op.Path; moved {
					if _, ok := doc.Paths[op.Path][strings.ToLower(op.Method)]; ok {
						t.Errorf("%s: still at %s %s, where this simulator does not serve it", op.ID, op.Method, op.Path)
					}
				}
			}
		})
	}
}
