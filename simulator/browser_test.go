package simulator

import (
	"context"
	"net/http/httptest"
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

// browser starts headless Chromium for a test, bounded to a minute, and
// records every URL the pages request. It skips when no Chromium is
// installed, except on CI.
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	chrome := ""
	if p := os.Getenv("CHROME_PATH"); p != "" {
		chrome = p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if chrome != "" {
			break
		}
		if p, err := exec.LookPath(name); err == nil {
			chrome = p
		}
	}
	if chrome == "" {
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
	}))
	t.Cleanup(bcancel)
	return bctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(urls)
	}
}

// TestDocsInBrowser opens /docs/ in headless Chromium: Swagger UI renders
// every operation at the simulator's paths, the key and the owner's token
// are authorized already, "Try it out" on the notification read answers
// 200, and nothing is fetched from anywhere but the simulator.
func TestDocsInBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Docs: true})
	srv := httptest.NewServer(e.sim)
	defer srv.Close()
	ctx, requested := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/docs/"), chromedp.WaitVisible(chromedp.CSS(".opblock"))); err != nil {
		t.Fatalf("open /docs/: %v", err)
	}
	paths, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('.opblock-summary-path')).map(e => e.dataset.path || e.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range operations {
		want := strings.TrimSuffix(op.path, "{$}")
		if !slices.ContainsFunc(paths, func(p string) bool { return strings.ReplaceAll(p, "\u200b", "") == want }) {
			t.Errorf("%s: path %s not shown; shown %v", op.id, want, paths)
		}
	}
	auth, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(() => { const a = window.ui.authSelectors.authorized().toJS(); const out = {}; for (const k in a) { out[k] = a[k].value; } return out; })()`))
	if err != nil {
		t.Fatal(err)
	}
	owner := strings.TrimPrefix(e.fx.Users["owner"].Headers["Authorization"], "Bearer ")
	if auth["subscriptionKey"] != e.fx.SubscriptionKey || auth["bearerAuth"] != owner {
		t.Errorf("authorized = %v, want the subscription key and the owner's token", maskAll(auth))
	}
	// Try it out: the notification of the fixture group
	gid := e.fx.Records.Notification.GroupID
	block := `#operations-notification-NG`
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(block+` .opblock-summary`)),
		// tryItOutEnabled: the inputs are open without the Try it out button
		chromedp.WaitVisible(chromedp.CSS(block+` .parameters input[placeholder="id"]`)),
		chromedp.SendKeys(chromedp.CSS(block+` .parameters input[placeholder="id"]`), gid),
		chromedp.Click(chromedp.CSS(block+` .execute`)),
		chromedp.WaitVisible(chromedp.CSS(block+` .live-responses-table tbody .response-col_status`)),
	)
	if err != nil {
		t.Fatalf("try it out: %v", err)
	}
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+block+` .live-responses-table tbody .response-col_status').textContent.trim()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(status, "200") {
		t.Errorf("try it out: live response status %q, want 200", status)
	}
	for _, u := range requested() {
		if !strings.HasPrefix(u, srv.URL) && !strings.HasPrefix(u, "data:") {
			t.Errorf("the docs page requested %s: expected only the simulator's own URLs", u)
		}
	}
}

// maskAll shows which credentials are set without showing them.
func maskAll(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		s, _ := v.(string)
		out[k] = "<" + string(rune('0'+min(len(s), 9))) + "+ chars>"
	}
	return out
}
