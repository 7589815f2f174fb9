package reports

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// TestHTMLInBrowser opens the sample report.html from file:// in headless
// Chromium, reads the counts it shows, uses the filters and saves a
// full-page screenshot. Set REPORTS_SCREENSHOT_DIR to keep the screenshots
// after the test.
func TestHTMLInBrowser(t *testing.T) {
	r := sampleReport()
	dir := t.TempDir()
	page := filepath.Join(dir, HTMLFile)
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	bctx, requested := browsertest.Open(t)

	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String()
	if err := chromedp.Do(bctx, chromedp.Navigate(fileURL), chromedp.WaitVisible(chromedp.CSS("#verdict"))); err != nil {
		t.Fatalf("open %s: %v", fileURL, err)
	}

	t.Run("counts", func(t *testing.T) {
		got, err := chromedp.Run(bctx, chromedp.Evaluate[map[string]string](`(() => {
			const out = {};
			document.querySelectorAll('[id^="count-"]').forEach(e => { out[e.id] = e.textContent.trim(); });
			out.verdict = document.getElementById('verdict').dataset.verdict;
			return out;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		c := r.Counts
		want := map[string]string{
			"count-scenarios":            fmt.Sprint(c.Scenarios),
			"count-passed":               fmt.Sprint(c.Passed),
			"count-failed":               fmt.Sprint(c.Failed),
			"count-failed-must":          fmt.Sprint(c.FailedMust),
			"count-failed-should":        fmt.Sprint(c.FailedShould),
			"count-skipped":              fmt.Sprint(c.Skipped),
			"count-not-configured":       fmt.Sprint(c.NotConfigured),
			"count-requirements":         fmt.Sprint(c.Requirements),
			"count-requirements-covered": fmt.Sprint(c.RequirementsCovered),
			"count-requirements-passing": fmt.Sprint(c.RequirementsPassing),
			"verdict":                    string(r.Verdict),
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: got %q, want %q", k, got[k], w)
			}
		}
	})

	// visible returns the outcome and operation of each scenario row shown.
	visible := func(t *testing.T) [][2]string {
		t.Helper()
		rows, err := chromedp.Run(bctx, chromedp.Evaluate[[][2]string](`Array.from(document.querySelectorAll('#scenarios tr[data-scenario]'))
			.filter(e => e.offsetParent !== null)
			.map(e => [e.dataset.outcome, e.dataset.operation])`))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	count := func(pred func(Scenario) bool) int {
		n := 0
		for _, s := range r.Scenarios {
			if pred(s) {
				n++
			}
		}
		return n
	}

	t.Run("all shown at first", func(t *testing.T) {
		if got, want := len(visible(t)), len(r.Scenarios); got != want {
			t.Errorf("visible scenarios: got %d, want %d", got, want)
		}
	})

	shot := func(t *testing.T, name string) {
		t.Helper()
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", path, len(png))
		if keep := os.Getenv("REPORTS_SCREENSHOT_DIR"); keep != "" {
			if err := os.MkdirAll(keep, 0o755); err == nil {
				kept := filepath.Join(keep, name)
				if err := os.WriteFile(kept, png, 0o644); err == nil {
					t.Logf("screenshot kept: %s", kept)
				}
			}
		}
	}
	t.Run("screenshot", func(t *testing.T) { shot(t, "report-full.png") })

	t.Run("outcome filter failed", func(t *testing.T) {
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`button[data-filter-outcome="failed"]`))); err != nil {
			t.Fatal(err)
		}
		rows := visible(t)
		if got, want := len(rows), r.Counts.Failed; got != want {
			t.Errorf("visible scenarios after the failed filter: got %d, want %d", got, want)
		}
		for _, row := range rows {
			if row[0] != string(Failed) {
				t.Errorf("visible scenario with outcome %q under the failed filter", row[0])
			}
		}
	})

	t.Run("operation filter", func(t *testing.T) {
		const op = "E9"
		err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById('filter-operation');
			s.value = '`+op+`';
			s.dispatchEvent(new Event('change', {bubbles: true}));
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		rows := visible(t)
		want := count(func(s Scenario) bool { return s.Operation == op && s.Outcome == Failed })
		if len(rows) != want {
			t.Errorf("visible scenarios, failed in %s: got %d, want %d", op, len(rows), want)
		}
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`button[data-filter-outcome="all"]`))); err != nil {
			t.Fatal(err)
		}
		rows = visible(t)
		want = count(func(s Scenario) bool { return s.Operation == op })
		if len(rows) != want {
			t.Errorf("visible scenarios in %s: got %d, want %d", op, len(rows), want)
		}
		for _, row := range rows {
			if row[1] != op {
				t.Errorf("visible scenario of operation %q under the %s filter", row[1], op)
			}
		}
		shown, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#shown")))
		if err != nil {
			t.Fatal(err)
		}
		if wantText := fmt.Sprintf("Showing %d of %d scenarios", want, len(r.Scenarios)); shown != wantText {
			t.Errorf("#shown: got %q, want %q", shown, wantText)
		}
		badge, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#failures-shown")))
		if err != nil {
			t.Fatal(err)
		}
		failedHere := count(func(s Scenario) bool { return s.Operation == op && (s.Outcome == Failed || s.Outcome == Error) })
		if wantBadge := fmt.Sprintf("%d of %d", failedHere, r.Counts.Failed+r.Counts.Errored); badge != wantBadge {
			t.Errorf("#failures-shown: got %q, want %q", badge, wantBadge)
		}
		shot(t, "report-filtered.png")
	})

	t.Run("copy button", func(t *testing.T) {
		// Headless Chromium may refuse the clipboard; either answer shows
		// the handler ran.
		label, err := chromedp.Run(bctx, chromedp.Evaluate[string](`new Promise(resolve => {
			const b = document.querySelector('#failures details[open]:not([hidden]) .copy');
			b.click();
			const start = Date.now();
			(function wait() {
				if (b.textContent !== 'Copy' || Date.now() - start > 3000) return resolve(b.textContent);
				setTimeout(wait, 20);
			})();
		})`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if label != "Copied" && label != "Select and copy" {
			t.Errorf("copy button after a click: got %q, want %q or %q", label, "Copied", "Select and copy")
		}
	})

	t.Run("no network", func(t *testing.T) {
		for _, u := range requested() {
			if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
				t.Errorf("the page fetched %s; it must be self-contained", u)
			}
		}
	})
}
