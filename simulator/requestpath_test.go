package simulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestHeaderValueKeysCanonical holds the keys read with headerValue to
// their canonical form: headerValue does not canonicalise, so a key
// written otherwise would never be found.
func TestHeaderValueKeysCanonical(t *testing.T) {
	for _, key := range []string{"Ocp-Apim-Subscription-Key", "Authorization", userHeader, "Content-Type"} {
		if got := http.CanonicalHeaderKey(key); got != key {
			t.Errorf("header key %q: expected its canonical form, got %q as canonical", key, got)
		}
	}
}

// TestHeaderValueAsGet holds headerValue to Header.Get.
func TestHeaderValueAsGet(t *testing.T) {
	h := http.Header{}
	h.Add("Authorization", "Bearer a")
	h.Add("Authorization", "Bearer b")
	h.Set("Content-Type", "")
	for _, key := range []string{"Authorization", "Content-Type", "Ocp-Apim-Subscription-Key"} {
		if got, want := headerValue(h, key), h.Get(key); got != want {
			t.Errorf("headerValue(%q): expected %q (Header.Get), got %q", key, want, got)
		}
	}
}

// TestPlainPathIsClean holds plainPath to cleanPath: a path plainPath
// passes is its own canonical form.
func TestPlainPathIsClean(t *testing.T) {
	for _, p := range []string{
		"/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/.", "/..", "/./", "/../",
		"/a/.b", "/.well-known/x", "/a/b.", "/a/b..", "/a/b/", "/a/b//", "/poll/Response/0f8fad5b-d9cb-469f-a165-70867728950e",
		"/files/x%2F..%2Fy/downloaded", "/a%2F%2Fb", "/a/...", "/a/.../",
	} {
		got, clean := plainPath(p), cleanPath(p) == p
		if got && !clean {
			t.Errorf("plainPath(%q): expected false (cleanPath gives %q), got true", p, cleanPath(p))
		}
		// the other way holds as well for these: a clean path with no "/." or "//"
		if !got && clean && !strings.Contains(p, "/.") && !strings.Contains(p, "//") {
			t.Errorf("plainPath(%q): expected true, got false", p)
		}
	}
}
