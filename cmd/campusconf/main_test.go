package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/wire"
)

// TestCommandsTable holds the command table to what the help promises:
// one row per name, in alphabetical order, each with a summary and a run
// function.
func TestCommandsTable(t *testing.T) {
	for i, c := range commands {
		if c.name == "" || c.summary == "" || c.run == nil {
			t.Errorf("commands[%d] = {%q, %q, run set: %v}: expected a name, a summary and a run function", i, c.name, c.summary, c.run != nil)
		}
		if i > 0 && commands[i-1].name >= c.name {
			t.Errorf("commands[%d] %q after %q: expected the names in strictly alphabetical order (the help's order, no duplicates)", i, c.name, commands[i-1].name)
		}
	}
}

func TestDispatchHelp(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
	}{
		{nil, exitUsage},
		{[]string{"help"}, exitOK},
		{[]string{"--help"}, exitOK},
		{[]string{"-h"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := dispatch(tt.args, &stdout, &stderr); got != tt.wantCode {
				t.Errorf("dispatch(%q): expected exit %d, got %d", tt.args, tt.wantCode, got)
			}
			for _, c := range commands {
				if want := fmt.Sprintf("  %-10s %s\n", c.name, c.summary); !strings.Contains(stdout.String(), want) {
					t.Errorf("expected the help to list %q, got:\n%s", want, stdout.String())
				}
			}
		})
	}
}

func TestDispatchUnknownCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := dispatch([]string{"bogus"}, &stdout, &stderr); got != exitUsage {
		t.Errorf("expected exit %d, got %d", exitUsage, got)
	}
	if want := `campusconf: unknown command "bogus"`; !strings.Contains(stderr.String(), want) {
		t.Errorf("expected stderr to contain %q, got %q", want, stderr.String())
	}
}

// asOwner sends a request to url as the fixture's owner, with its
// subscription key (and a JSON body when body is not empty), reads the
// whole answer and returns its status.
func asOwner(tb testing.TB, f *fixtures.File, method, url, body string) int {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set(wire.KeyHeader, f.SubscriptionKey)
	for h, v := range f.Users["owner"].Headers {
		req.Header.Set(h, v)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode
}
