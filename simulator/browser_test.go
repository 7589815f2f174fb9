package simulator

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/campusconf/campusconf/internal/browsertest"
	"github.com/campusconf/campusconf/internal/registry"
)

// browser starts headless Chromium for a test (internal/browsertest).
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	return browsertest.Open(t)
}

// TestDocsInBrowser opens /docs/ in headless Chromium: Swagger UI renders
// every operation at the simulator's paths, the key and the owner's token
// are authorized already, "Try it out" on the notification read answers
// 200, nothing is fetched from anywhere but the simulator, and the page's
// Content-Security-Policy blocks nothing it needs (no violation reported
// on the console).
func TestDocsInBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Docs: true})
	srv := httptest.NewServer(e.sim)
	defer srv.Close()
	ctx, requested := browser(t)
	console := browsertest.Console(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/docs/"), chromedp.WaitVisible(chromedp.CSS(".opblock"))); err != nil {
		t.Fatalf("open /docs/: %v", err)
	}
	paths, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('.opblock-summary-path')).map(e => e.dataset.path || e.textContent.trim())`))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range registry.All() {
		want := strings.TrimSuffix(op.Path, "{$}")
		if !slices.ContainsFunc(paths, func(p string) bool { return strings.ReplaceAll(p, "\u200b", "") == want }) {
			t.Errorf("%s: path %s not shown; shown %v", op.ID, want, paths)
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
	// Try it out: the notification of the fixture group, which the
	// document's example (this world's id) fills in already
	gid := e.fx.Records.Notification.GroupID
	block := `#operations-notification-` + registry.Must(registry.NG).OperationID()
	input := block + ` .parameters input[placeholder="id"]`
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(block+` .opblock-summary`)),
		// tryItOutEnabled: the inputs are open without the Try it out button
		chromedp.WaitVisible(chromedp.CSS(input)),
	)
	if err != nil {
		t.Fatalf("open NG: %v", err)
	}
	filled, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+input+`').value`))
	if err != nil {
		t.Fatal(err)
	}
	if filled != gid {
		t.Errorf("NG's id input: expected the world's group id %s from the document's example, got %q", gid, filled)
		err = chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(input), ""), chromedp.SendKeys(chromedp.CSS(input), gid))
		if err != nil {
			t.Fatal(err)
		}
	}
	err = chromedp.Do(ctx,
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
	for _, v := range browsertest.CSPViolations(console()) {
		t.Errorf("the docs page broke its own Content-Security-Policy: expected no violation, got %s", v)
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

// TestDocsUserSwitcher: the docs page's switcher opens the page of another
// fixture user, whose token is then the one authorized, keeping the world
// the page tries in; its style breaks no Content-Security-Policy.
func TestDocsUserSwitcher(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Docs: true})
	srv := httptest.NewServer(e.sim)
	defer srv.Close()
	ctx, _ := browser(t)
	console := browsertest.Console(ctx)
	bearer := `window.ui.authSelectors.authorized().toJS().bearerAuth.value`
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/docs/?world=w1"), chromedp.WaitVisible(chromedp.CSS(".opblock"))); err != nil {
		t.Fatalf("open /docs/: %v", err)
	}
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('nav a[data-user="admin"]').getAttribute('href')`))
	if err != nil || href != "?world=w1&user=admin" {
		t.Errorf("the switcher's link to admin: expected ?world=w1&user=admin, got %q (%v)", href, err)
	}
	err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav a[data-user="admin"]`)),
		chromedp.WaitVisible(chromedp.CSS(`nav strong[data-user="admin"]`)), chromedp.WaitVisible(chromedp.CSS(".opblock")))
	if err != nil {
		t.Fatalf("switch to admin: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](bearer))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(e.fx.Users["admin"].Headers["Authorization"], "Bearer "); got != want {
		t.Errorf("after switching to admin: expected admin's token authorized, got %s", maskAll(map[string]any{"bearer": got}))
	}
	for _, v := range browsertest.CSPViolations(console()) {
		t.Errorf("the docs page broke its own Content-Security-Policy: expected no violation, got %s", v)
	}
}
