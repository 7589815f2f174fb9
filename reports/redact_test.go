package reports

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestRedactorString(t *testing.T) {
	red := NewRedactor(map[string]string{
		"abc":           "<A>",
		"abcdef":        "<LONG>",
		"k+y/z":         "<KEY>",
		"cdefgh":        "<C>",
		"":              "<EMPTY>",
		"TOKEN":         "<TOKEN_owner>",
		"sk-0123456789": "<SUBSCRIPTION_KEY>",
	})
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing secret", "nothing secret"},
		{"abc", "<A>"},
		{"xabcdefx", "x<LONG>x"}, // the longest wins where both start
		{"abcabc", "<A><A>"},
		{"xabcdefghx", "x<LONG><C>x"}, // overlap: no byte of either survives
		{"key=k%2By%2Fz&x=k+y/z", "key=<KEY>&x=<KEY>"},
		{"path/k+y%2Fz", "path/<KEY>"},
		{"Bearer TOKEN and TOKEN", "Bearer <TOKEN_owner> and <TOKEN_owner>"},
		{`{"key":"sk-0123456789"}`, `{"key":"<SUBSCRIPTION_KEY>"}`},
		{"ünïcødé abc ✓", "ünïcødé <A> ✓"},
	}
	for _, tt := range tests {
		if got := red.String(tt.in); got != tt.want {
			t.Errorf("String(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
	// One pass: a placeholder that holds another secret is not scanned
	// again.
	red2 := NewRedactor(map[string]string{"abc": "<TOKEN>", "TOKEN": "<T>"})
	if got, want := red2.String("abc TOKEN"), "<TOKEN> <T>"; got != want {
		t.Errorf("String: got %q, want %q", got, want)
	}
	var nilRed *Redactor
	if got := nilRed.String("abc"); got != "abc" {
		t.Errorf("nil Redactor String: got %q, want the input", got)
	}
}

func TestRedactorHeaders(t *testing.T) {
	red := NewRedactor(map[string]string{
		"tok-owner": "<TOKEN_owner>",
		"sk-1":      "<SUBSCRIPTION_KEY>",
		"alice":     "<USER_alice>",
	})
	var nilRed *Redactor
	tests := []struct {
		name string
		red  *Redactor
		in   http.Header
		want map[string]string
	}{
		{"empty", red, nil, nil},
		{"known bearer token", red, http.Header{"Authorization": {"Bearer tok-owner"}}, map[string]string{"Authorization": "Bearer <TOKEN_owner>"}},
		{"unknown bearer token", red, http.Header{"Authorization": {"Bearer zzz"}}, map[string]string{"Authorization": "Bearer <REDACTED>"}},
		{"token without scheme", red, http.Header{"Authorization": {"zzz"}}, map[string]string{"Authorization": "<REDACTED>"}},
		{"token partly known", red, http.Header{"Authorization": {"Bearer tok-owner-extra"}}, map[string]string{"Authorization": "Bearer <REDACTED>"}},
		{"proxy authorization", red, http.Header{"Proxy-Authorization": {"Basic dXNlcjpwYXNz"}}, map[string]string{"Proxy-Authorization": "Basic <REDACTED>"}},
		{"known key", red, http.Header{"Ocp-Apim-Subscription-Key": {"sk-1"}}, map[string]string{"Ocp-Apim-Subscription-Key": "<SUBSCRIPTION_KEY>"}},
		{"unknown key", red, http.Header{"Ocp-Apim-Subscription-Key": {"other"}}, map[string]string{"Ocp-Apim-Subscription-Key": "<REDACTED>"}},
		{"non-canonical name", red, http.Header{"ocp-apim-subscription-key": {"other"}}, map[string]string{"Ocp-Apim-Subscription-Key": "<REDACTED>"}},
		{"cookie keeps names", red, http.Header{"Cookie": {"session=s3cr3t; theme=dark"}}, map[string]string{"Cookie": "session=<REDACTED>; theme=<REDACTED>"}},
		{"set-cookie keeps attributes", red, http.Header{"Set-Cookie": {"id=abc; Path=/; HttpOnly", "b=2"}}, map[string]string{"Set-Cookie": "id=<REDACTED>; Path=/; HttpOnly\nb=<REDACTED>"}},
		{"other headers: known secrets only", red, http.Header{"X-User": {"alice"}, "Accept": {"application/json", "text/plain"}}, map[string]string{"X-User": "<USER_alice>", "Accept": "application/json, text/plain"}},
		{"nil redactor still redacts credentials", nilRed, http.Header{"Authorization": {"Bearer tok-owner"}, "Ocp-Apim-Subscription-Key": {"sk-1"}, "Accept": {"*/*"}},
			map[string]string{"Authorization": "Bearer <REDACTED>", "Ocp-Apim-Subscription-Key": "<REDACTED>", "Accept": "*/*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.red.Headers(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Headers(%v) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestTruncateBody(t *testing.T) {
	pad := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name    string
		in      string
		wantLen int
		wantCut bool
	}{
		{"empty", "", 0, false},
		{"short", "hello", 5, false},
		{"exactly MaxBody", pad(MaxBody), MaxBody, false},
		{"one byte over", pad(MaxBody + 1), MaxBody, true},
		{"two-byte rune across the limit", pad(MaxBody-1) + "ü" + "tail", MaxBody - 1, true},
		{"three-byte rune across the limit", pad(MaxBody-2) + "学" + "tail", MaxBody - 2, true},
		{"four-byte rune across the limit", pad(MaxBody-1) + "😀" + "tail", MaxBody - 1, true},
		{"rune ends at the limit", pad(MaxBody-2) + "ü" + "tail", MaxBody, true},
		{"not UTF-8 at all", strings.Repeat("\xff", MaxBody+10), MaxBody, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := TruncateBody([]byte(tt.in))
			if len(got) != tt.wantLen || cut != tt.wantCut {
				t.Errorf("TruncateBody: got %d bytes, cut %v; want %d bytes, cut %v", len(got), cut, tt.wantLen, tt.wantCut)
			}
			if !strings.HasPrefix(tt.in, got) {
				t.Error("TruncateBody: result is not a prefix of the input")
			}
			if utf8.ValidString(tt.in) && !utf8.ValidString(got) {
				t.Error("TruncateBody: cut a valid body inside a character")
			}
		})
	}
}
