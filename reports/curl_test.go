package reports

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCurl(t *testing.T) {
	tests := []struct {
		name string
		ex   Exchange
		want string
	}{
		{
			name: "plain GET",
			ex:   Exchange{Method: "GET", URL: "https://h.test/api/poll/Response/1"},
			want: "curl -sS -i https://h.test/api/poll/Response/1",
		},
		{
			name: "no method means GET",
			ex:   Exchange{URL: "https://h.test/x?a=1&b=2"},
			want: "curl -sS -i 'https://h.test/x?a=1&b=2'",
		},
		{
			name: "headers sorted, computed ones left to curl",
			ex: Exchange{Method: "delete", URL: "https://h.test/consultation/Slot", RequestHeaders: map[string]string{
				"Ocp-Apim-Subscription-Key": "<SUBSCRIPTION_KEY>",
				"Authorization":             "Bearer <TOKEN_staff>",
				"Content-Length":            "12",
				"Accept-Encoding":           "gzip",
				"Content-Type":              "application/json",
			}, RequestBody: `{"iDs":["1"]}`},
			want: `curl -sS -i -X DELETE https://h.test/consultation/Slot -H 'Authorization: Bearer <TOKEN_staff>' -H 'Content-Type: application/json' -H 'Ocp-Apim-Subscription-Key: <SUBSCRIPTION_KEY>' --data-raw '{"iDs":["1"]}'`,
		},
		{
			name: "single quotes in the body",
			ex:   Exchange{Method: "POST", URL: "https://h.test/bank/1/copy", RequestBody: `{"name":"it's"}`},
			want: `curl -sS -i -X POST https://h.test/bank/1/copy --data-raw '{"name":"it'\''s"}'`,
		},
		{
			name: "cut body is flagged",
			ex:   Exchange{Method: "PUT", URL: "https://h.test/q", RequestBody: strings.Repeat("a", MaxBody), Truncated: true},
			want: "curl -sS -i -X PUT https://h.test/q --data-raw " + strings.Repeat("a", MaxBody) + " # request body cut at MaxBody bytes: incomplete",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Curl(tt.ex); got != tt.want {
				t.Errorf("Curl:\ngot:  %.300s\nwant: %.300s", got, tt.want)
			}
		})
	}
}

// TestCurlShellRoundTrip runs the curl line through a real shell with curl
// replaced by a printer of its arguments: whatever the body and headers
// hold, the shell must hand curl exactly the recorded values.
func TestCurlShellRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	body := "{\"a\":\"it's $HOME `id` \\\"q\\\" ünï ✓\",\n\"b\":\"<x>&amp;!*?[]\"}"
	ex := Exchange{
		Method:         "PATCH",
		URL:            "https://h.test/gradebook/1/settings?x=$(id)&y='z'",
		RequestHeaders: map[string]string{"Authorization": "Bearer <TOKEN_owner>", "X-Odd": `a"b'c$d`},
		RequestBody:    body,
	}
	line := Curl(ex)
	script := `curl() { printf '%s\0' "$@"; }; ` + line
	out, err := exec.Command(sh, "-c", script).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", script, err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	want := []string{"-sS", "-i", "-X", "PATCH", ex.URL,
		"-H", "Authorization: Bearer <TOKEN_owner>",
		"-H", `X-Odd: a"b'c$d`,
		"--data-raw", body}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("arguments curl would get (-want +got):\n%s", diff)
	}
	if bytes.Contains(out, []byte("uid=")) {
		t.Error("the shell ran a command substitution from the recorded request")
	}
}
