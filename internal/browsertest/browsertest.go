// Package browsertest starts headless Chromium for the project's browser
// tests (the HTML report, the simulator's docs page and console).
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Open starts headless Chromium for t, bounded to a minute, and returns its
// context and a function listing every URL its pages requested so far. It
// skips t when no Chromium is installed (CHROME_PATH, else chromium,
// chromium-browser, google-chrome on PATH), except on CI (CI=true), where
// the browser tests must run.
func Open(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	chrome, ok := find()
	if !ok {
		msg := "no Chromium found (CHROME_PATH, chromium, chromium-browser, google-chrome); install it with: apt-get install -y --no-install-recommends chromium"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: the browser tests must run on CI)")
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "chromium-profile")),
		chromedp.WindowSize(1280, 900),
	)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	var mu sync.Mutex
	var urls []string
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			urls = append(urls, e.Request.URL)
			mu.Unlock()
		}
	}), chromedp.WithLogf(t.Logf))
	t.Cleanup(bcancel)
	return bctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(urls)
	}
}

// find returns the browser to drive: CHROME_PATH, else the first of the
// usual names on PATH.
func find() (string, bool) {
	if p := os.Getenv("CHROME_PATH"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// Console starts collecting what the pages of ctx write to the console
// (calls of the console API, uncaught exceptions, the browser's own log,
// where Content-Security-Policy violations appear), and returns a function
// listing the messages so far. Call it before navigating.
func Console(ctx context.Context) func() []chromedp.ConsoleMessage {
	var mu sync.Mutex
	var msgs []chromedp.ConsoleMessage
	messages := chromedp.Console(ctx) // subscribed now, read below
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			mu.Lock()
			msgs = append(msgs, m)
			mu.Unlock()
		}
	}()
	return func() []chromedp.ConsoleMessage {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(msgs)
	}
}

// CSPViolations returns the messages that report a Content-Security-Policy
// violation: something the page's policy blocked.
func CSPViolations(msgs []chromedp.ConsoleMessage) []string {
	var out []string
	for _, m := range msgs {
		if strings.Contains(m.Text, "Content Security Policy") || strings.Contains(m.Text, "Content-Security-Policy") {
			out = append(out, m.String())
		}
	}
	return out
}
