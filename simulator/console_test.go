package simulator

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/campusconf/campusconf/internal/registry"
)

// TestSettingsSwitch changes latency, faults, defects and variants through
// PUT /_sim/TOKEN/settings: the next request follows them, in named worlds
// too, and a change with one bad field changes nothing.
func TestSettingsSwitch(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	folder := e.fileLog()
	e.inWorld("w", false, "GET", folder, "").want(t, 200)
	e.do("", "PUT", e.fx.Control+"/settings", `{"faults":{"operation":"E10","operationRate":1}}`).want(t, 200)
	e.do("owner", "GET", folder, "").want(t, http.StatusInternalServerError)
	e.inWorld("w", false, "GET", folder, "").want(t, http.StatusInternalServerError)

	// a variant that moves an unplaced operation: the routes follow
	_, path := e.opPath("getNotificationByGroup", e.fx.Records.Notification.GroupID)
	e.do("owner", "GET", path, "").want(t, 200)
	e.do("", "PUT", e.fx.Control+"/settings", `{"variants":["alt-paths"],"faults":{"operationRate":0}}`).want(t, 200)
	e.do("owner", "GET", path, "").want(t, http.StatusNotFound)
	e.do("owner", "GET", "/notifications/groups/"+e.fx.Records.Notification.GroupID, "").want(t, 200)
	e.inWorld("w", false, "GET", "/notifications/groups/"+e.fx.Records.Notification.GroupID, "").want(t, 200)
	e.do("owner", "GET", folder, "").want(t, 200)

	// a defect
	e.do("", "PUT", e.fx.Control+"/settings", `{"defects":["error-body-object"]}`).want(t, 200)
	if r := e.do("owner", "GET", "/files/nope/downloaded", ""); !strings.HasPrefix(string(r.body), "{") {
		t.Errorf("with error-body-object the error body is %s, want an object", r.body)
	}
	e.do("", "PUT", e.fx.Control+"/settings", `{"defects":[]}`).want(t, 200)

	before := e.sim.Settings()
	for _, body := range []string{
		`{"latency":"soon","defects":[]}`,
		`{"defects":["no-such-defect"],"latency":"1ms"}`,
		`{"variants":["nope"]}`,
		`{"faults":{"twoFactorRate":2}}`,
		`{"colour":"red"}`,
	} {
		e.do("", "PUT", e.fx.Control+"/settings", body).want(t, http.StatusBadRequest).errorString(t)
	}
	after := e.sim.Settings()
	if mustJSON(t, before) != mustJSON(t, after) {
		t.Errorf("refused changes moved the settings: %+v -> %+v", before, after)
	}
	var got struct {
		Operations              []string
		AllDefects, AllVariants []struct{ Name, Description string }
	}
	e.do("", "GET", e.fx.Control+"/settings", "").want(t, 200).decode(t, &got)
	if len(got.AllDefects) == 0 || len(got.AllVariants) == 0 || len(got.Operations) != len(registry.All()) {
		t.Errorf("GET settings: %d defects, %d variants, %d operations in the catalogues", len(got.AllDefects), len(got.AllVariants), len(got.Operations))
	}
}

// TestEventStream reads the request log stream over a real connection:
// the backlog first, then what follows, never a control API call; the
// stream ends when the simulator stops streams.
func TestEventStream(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	e.do("owner", "GET", e.fileLog(), "").want(t, 200)
	next, lines := e.events(t)
	if le := next(); le.Status != 200 || le.Op != "E10" || le.User != "owner" {
		t.Errorf("backlog entry = %+v, want the E10 call by owner, 200", le)
	}
	e.do("", "GET", e.fx.Control+"/faults", "").want(t, 200) // not in the log
	e.inWorld("w2", false, "GET", "/files/nope/downloaded", "")
	if le := next(); le.Status != 400 || le.World != "w2" || le.Path != "/files/nope/downloaded" {
		t.Errorf("live entry = %+v, want the 400 in world w2", le)
	}
	e.sim.StopStreams()
	for lines.Scan() {
	}
}

// event is an entry of the console's live request log, as the stream at
// GET /_sim/TOKEN/events sends it.
type event struct {
	Status             int
	Method, Path       string
	User, Op, World    string
	Violations, Relies []string
}

// events opens the console's event stream over a real connection; next
// returns its next entry, lines is the stream.
func (e *env) events(t *testing.T) (next func() event, lines *bufio.Scanner) {
	t.Helper()
	srv := httptest.NewServer(e.sim)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+e.fx.Control+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	lines = bufio.NewScanner(resp.Body)
	return func() event {
		t.Helper()
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				var le event
				if err := json.Unmarshal([]byte(data), &le); err != nil {
					t.Fatalf("event %s: %v", data, err)
				}
				return le
			}
		}
		t.Fatalf("stream ended: %v", lines.Err())
		return event{}
	}, lines
}

// TestConsoleInBrowser opens the console in headless Chromium: the users
// with their credentials, the records, a fault switched on from the page
// that makes the next request fail, and that request in the live log.
func TestConsoleInBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Control: true})
	p := openPage(t, e, e.fx.Control+"/ui", "the console",
		chromedp.WaitVisible(chromedp.CSS(`#users tbody tr`)),
		chromedp.WaitReady(chromedp.CSS(`#fault-op option[value="E10"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#records tbody tr`)),
	)
	defer e.sim.StopStreams()
	ctx := p.ctx
	users, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#users tbody tr')).map(r => r.cells[0].textContent + ' ' + r.cells[2].textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 4 || !strings.Contains(strings.Join(users, "\n"), e.fx.Users["owner"].Headers["Authorization"]) {
		t.Errorf("users shown: %d rows; want 4 with the owner's Authorization header", len(users))
	}
	// search the records
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#search`), e.fx.Records.BankFolder)); err != nil {
		t.Fatal(err)
	}
	count, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#records tbody tr').length`))
	if err != nil || count != 1 {
		t.Errorf("records matching the fixture bank folder id: %d (%v), want 1", count, err)
	}
	// switch the E10 fault on from the page, with the keyboard's help
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#fault-op`), "E10"),
		chromedp.SetValue(chromedp.CSS(`#fault-rate`), ""),
		chromedp.SendKeys(chromedp.CSS(`#fault-rate`), "1"),
		chromedp.Focus(chromedp.CSS(`#apply`)),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#status`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById('status').textContent === 'settings applied'`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('status').textContent`))
		t.Fatalf("apply: status %q: %v", st, err)
	}
	if f := e.sim.Faults(); f.Operation != "E10" || f.OperationRate != 1 {
		t.Fatalf("faults after Apply = %+v, want E10 at rate 1", f)
	}
	// the next request fails, and the page shows it
	e.do("owner", "GET", e.fileLog(), "").want(t, http.StatusInternalServerError)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#log tbody tr[data-status="500"]`))); err != nil {
		t.Fatalf("the failed request did not show in the live log: %v", err)
	}
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#log tbody tr').dataset.status`))
	if err != nil || first != "500" {
		t.Errorf("newest log row has status %q (%v), want 500 (newest first)", first, err)
	}
	// a request breaking a rule: its violation and reliance in the row
	e.do("owner", "GET", "/resource/not-a-uuid/students", "").want(t, http.StatusBadRequest)
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#log tbody tr td.violations').textContent.startsWith('E20.')`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the violation of the E20 request did not show in the live log: %v", err)
	}
	relies, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#log tbody tr td.relies').textContent`))
	if err != nil || !strings.Contains(relies, "D-sort-default") {
		t.Errorf("newest log row relies on %q (%v), want D-sort-default", relies, err)
	}
	p.ownRequests(t)
	p.keptCSP(t)
}
