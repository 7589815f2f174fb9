package simulator

import (
	"net/http"
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
