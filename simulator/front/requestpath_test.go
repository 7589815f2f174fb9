package front

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/simulator/variants"
)

// TestHeaderValueKeysCanonical holds the keys read with HeaderValue to
// their canonical form: HeaderValue does not canonicalise, so a key
// written otherwise would never be found.
func TestHeaderValueKeysCanonical(t *testing.T) {
	for _, key := range []string{"Ocp-Apim-Subscription-Key", "Authorization", variants.UserTokenHeader, "Content-Type"} {
		if got := http.CanonicalHeaderKey(key); got != key {
			t.Errorf("header key %q: expected its canonical form, got %q as canonical", key, got)
		}
	}
}

// TestHeaderValueAsGet holds HeaderValue to Header.Get.
func TestHeaderValueAsGet(t *testing.T) {
	h := http.Header{}
	h.Add("Authorization", "Bearer a")
	h.Add("Authorization", "Bearer b")
	h.Set("Content-Type", "")
	for _, key := range []string{"Authorization", "Content-Type", "Ocp-Apim-Subscription-Key"} {
		if got, want := HeaderValue(h, key), h.Get(key); got != want {
			t.Errorf("HeaderValue(%q): expected %q (Header.Get), got %q", key, want, got)
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

// TestPlainIntAsUnmarshal holds plainInt to json.Unmarshal: where it reads
// a value, json.Unmarshal reads the same one without error.
func TestPlainIntAsUnmarshal(t *testing.T) {
	for _, raw := range []string{
		"0", "-0", "11", "-11", "2147483647", "2147483648", "-2147483648", "-2147483649",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "1e3", "1.0", "01", "-", "", " 1", "1 ", "+1", "\"1\"", "null",
	} {
		var n64 int64
		err64 := json.Unmarshal([]byte(raw), &n64)
		got64, ok64 := plainInt([]byte(raw), 64)
		if ok64 && (err64 != nil || got64 != n64) {
			t.Errorf("plainInt(%q, 64): expected json.Unmarshal's %d (error %v), got %d", raw, n64, err64, got64)
		}
		var n32 int32
		err32 := json.Unmarshal([]byte(raw), &n32)
		got32, ok32 := plainInt([]byte(raw), 32)
		if ok32 && (err32 != nil || got32 != int64(n32)) {
			t.Errorf("plainInt(%q, 32): expected json.Unmarshal's %d (error %v), got %d", raw, n32, err32, got32)
		}
		// every plain integer json.Unmarshal takes is read here too
		if plain := raw != "" && raw != "-" && strings.Trim(raw, "-0123456789") == "" && !strings.HasPrefix(strings.TrimPrefix(raw, "-"), "0") || raw == "0" || raw == "-0"; plain {
			if err64 == nil && !ok64 {
				t.Errorf("plainInt(%q, 64): expected %d, got none", raw, n64)
			}
			if err32 == nil && !ok32 {
				t.Errorf("plainInt(%q, 32): expected %d, got none", raw, n32)
			}
		}
	}
}
