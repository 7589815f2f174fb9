package simulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// inWorld sends a request as the owner to the world name selects: by
// header when byPath is false, else by the /_w/NAME prefix. It is safe
// from several goroutines (it never calls t.Fatal).
func (e *env) inWorld(name string, byPath bool, method, path, body string) response {
	var req *http.Request
	if byPath && name != "" {
		path = "/_w/" + name + path
	}
	if body != "" {
		req = httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	req.Header.Set("Ocp-Apim-Subscription-Key", e.fx.SubscriptionKey)
	req.Header.Set("Authorization", e.fx.Users["owner"].Headers["Authorization"])
	if !byPath && name != "" {
		req.Header.Set(WorldHeader, name)
	}
	rec := httptest.NewRecorder()
	e.sim.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// notifyStatus reads the fixture notification's status in a world.
func (e *env) notifyStatus(name string, byPath bool) (float64, error) {
	method, path := e.opPath("getNotificationByGroup", e.fx.Records.Notification.GroupID)
	r := e.inWorld(name, byPath, method, path, "")
	var m map[string]any
	if r.status != 200 || json.Unmarshal(r.body, &m) != nil {
		return 0, fmt.Errorf("world %q: %s %s: status %d, body %s", name, method, path, r.status, r.body)
	}
	v, _ := m["notifyStatus"].(float64)
	return v, nil
}

// worldStatus is the status notifyStatus should read in a world.
type worldStatus struct {
	name string
	want float64
}

// wantStatuses reads the status in each world, in the order given (a read
// makes a world the most recent, or seeds it anew), and compares it; when
// says at which point of the test.
func (e *env) wantStatuses(t *testing.T, when string, worlds ...worldStatus) {
	t.Helper()
	for _, w := range worlds {
		if got, err := e.notifyStatus(w.name, false); err != nil || got != w.want {
			t.Errorf("%s: world %s status = %v (%v), want %v", when, w.name, got, err, w.want)
		}
	}
}

// TestWorldsIsolated writes to eight named worlds at once (run it with
// -race): half of them mark the fixture notification read and copy bank
// folders, the other half only read. No world sees another's writes, and
// the default world stays seeded.
func TestWorldsIsolated(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	n := e.fx.Records.Notification
	method, path := e.opPath("updateNotificationRead", "")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name, byPath, writer := fmt.Sprintf("worker-%d", g), g%4 < 2, g%2 == 0
			want := 10.0
			for i := range 20 {
				if writer {
					if r := e.inWorld(name, byPath, method, path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)); r.status != 200 {
						t.Errorf("world %s: mark read: status %d, want 200; body %s", name, r.status, r.body)
						return
					}
					if r := e.inWorld(name, byPath, "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", ""); r.status != 201 {
						t.Errorf("world %s: bank copy: status %d, want 201; body %s", name, r.status, r.body)
						return
					}
					want = 11
				}
				got, err := e.notifyStatus(name, byPath)
				if err != nil {
					t.Error(err)
					return
				}
				if got != want {
					t.Errorf("world %s, round %d: notification status = %v, want %v (another world's write leaked in?)", name, i, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got, err := e.notifyStatus("", false); err != nil || got != 10 {
		t.Errorf("default world: notification status = %v (%v), want 10: named worlds wrote to it", got, err)
	}
	names := e.sim.WorldNames()
	slices.Sort(names)
	want := []string{"worker-0", "worker-1", "worker-2", "worker-3", "worker-4", "worker-5", "worker-6", "worker-7"}
	if !slices.Equal(names, want) {
		t.Errorf("WorldNames() = %v, want %v", names, want)
	}
	// reset one world through the control API: it is seeded again, the
	// others keep their writes
	e.do("", "POST", e.fx.Control+"/worlds/worker-0/reset", "").want(t, http.StatusNoContent)
	e.wantStatuses(t, "after reset of worker-0", worldStatus{"worker-0", 10}, worldStatus{"worker-2", 11}, worldStatus{"worker-1", 10})
}

// TestWorldHeaderAndPathAgree checks that the header and the path prefix
// select the same world, and that naming two worlds at once is refused.
func TestWorldHeaderAndPathAgree(t *testing.T) {
	e := newEnv(t, Options{})
	n := e.fx.Records.Notification
	method, path := e.opPath("updateNotificationRead", "")
	e.inWorld("a", true, method, path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)).want(t, 200)
	if got, err := e.notifyStatus("a", false); err != nil || got != 11 {
		t.Errorf("world a by header after a write by path: status %v (%v), want 11", got, err)
	}
	r := e.doWith("owner", "GET", "/_w/a/healthz", "", map[string]string{WorldHeader: "b"}).want(t, http.StatusBadRequest)
	if msg := r.errorString(t); !strings.Contains(msg, "name one world") {
		t.Errorf("header b with path a: message %q, want it to say to name one world", msg)
	}
	// an empty header is the default world
	e.doWith("owner", "GET", "/healthz", "", map[string]string{WorldHeader: ""}).want(t, 200)
}

func TestWorldNameRefused(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	long := strings.Repeat("a", 65)
	for _, c := range []struct {
		name   string
		header string
		path   string
	}{
		{"dot in header", "a.b", "/healthz"},
		{"space in header", "a b", "/healthz"},
		{"too long header", long, "/healthz"},
		{"empty path name", "", "/_w//healthz"},
		{"escaped slash in path name", "", "/_w/a%2Fb/healthz"},
		{"too long path name", "", "/_w/" + long + "/healthz"},
		{"bad name in control reset", "", e.fx.Control + "/worlds/a.b/reset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := map[string]string{}
			if c.header != "" {
				h[WorldHeader] = c.header
			}
			r := e.doWith("owner", "GET", c.path, "", h)
			if strings.Contains(c.path, "/reset") {
				r = e.doWith("", "POST", c.path, "", nil)
			}
			r.want(t, http.StatusBadRequest)
			if msg := r.errorString(t); !strings.Contains(msg, "world name") && !strings.Contains(msg, "path") {
				t.Errorf("message %q: expected it to name the world name", msg)
			}
		})
	}
	if got := e.sim.WorldNames(); len(got) != 0 {
		t.Errorf("refused names created worlds %v", got)
	}
	for _, ok := range []string{"a", "A-b_9", strings.Repeat("z", 64)} {
		if err := CheckWorldName(ok); err != nil {
			t.Errorf("CheckWorldName(%q) = %v, want nil", ok, err)
		}
	}
}

// TestWorldsEvictLeastRecentlyUsed keeps three worlds: using a fourth
// drops the one used least recently, whose writes are then gone.
func TestWorldsEvictLeastRecentlyUsed(t *testing.T) {
	e := newEnv(t, Options{MaxWorlds: 3})
	n := e.fx.Records.Notification
	method, path := e.opPath("updateNotificationRead", "")
	for _, w := range []string{"a", "b", "c"} {
		e.inWorld(w, false, method, path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)).want(t, 200)
	}
	e.inWorld("a", false, "GET", "/healthz", "").want(t, 200) // a is now the most recent
	if _, err := e.notifyStatus("d", false); err != nil {     // creates d, evicts b
		t.Fatal(err)
	}
	got := e.sim.WorldNames()
	if want := []string{"d", "a", "c"}; !slices.Equal(got, want) {
		t.Fatalf("WorldNames() = %v, want %v (b evicted, most recent first)", got, want)
	}
	e.wantStatuses(t, "after b's eviction", worldStatus{"a", 11}, worldStatus{"c", 11}, worldStatus{"b", 10})
	if _, err := New(Options{MaxWorlds: -1}); err == nil {
		t.Error("New(MaxWorlds: -1) = nil error, want a refusal")
	}
}

// TestUnauthenticatedRequestsCreateNoWorld reproduces issue 45's flood:
// 70 requests to /_w/junkN/healthz (or 80 <img> tags on any page the
// developer opens) pushed every named world out, as a world was created
// before any credential check, for /healthz or a 405 too. Now only a
// request that reaches an operation and passes the credential check
// creates one: a flood of unauthenticated world names (health checks,
// operations without a key or with another, a wrong token, a 405, a 404,
// a preflight, the docs) creates none and evicts none, the named worlds
// and their writes stay, and the answers are those of a fresh world.
func TestUnauthenticatedRequestsCreateNoWorld(t *testing.T) {
	e := newEnv(t, Options{MaxWorlds: 3, Docs: true, SelfReset: true})
	n := e.fx.Records.Notification
	method, path := e.opPath("updateNotificationRead", "")
	for _, w := range []string{"alice", "bob"} {
		e.inWorld(w, false, method, path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)).want(t, 200)
	}
	get, getPath := e.opPath("getNotificationByGroup", n.GroupID)
	flood := []struct {
		name         string
		method, path string
		header       map[string]string
		status       int
	}{
		{"a health check", "GET", "/healthz", nil, 200},
		{"an operation without a key", get, getPath, nil, 401},
		{"an operation with another key", get, getPath, map[string]string{"Ocp-Apim-Subscription-Key": "0123456789abcdef0123456789abcdef"}, 401},
		{"an operation with the key and another token", get, getPath, map[string]string{"Ocp-Apim-Subscription-Key": e.fx.SubscriptionKey, "Authorization": "Bearer not-a-token"}, 401},
		{"another method", "PATCH", getPath, map[string]string{"Ocp-Apim-Subscription-Key": e.fx.SubscriptionKey}, 405},
		{"no operation there", "GET", "/nothing/here", map[string]string{"Ocp-Apim-Subscription-Key": e.fx.SubscriptionKey}, 404},
		{"a preflight", "OPTIONS", getPath, map[string]string{"Origin": "http://page.test", "Access-Control-Request-Method": "GET"}, 204},
		{"the docs", "GET", "/docs/", nil, 200},
		{"the self-reset without credentials", "POST", "/_campusconf/reset", nil, 401},
	}
	for i := range 70 {
		f := flood[i%len(flood)]
		for _, byPath := range []bool{true, false} {
			p := f.path
			req := httptest.NewRequest(f.method, p, nil)
			if byPath {
				req = httptest.NewRequest(f.method, "/_w/junk"+fmt.Sprint(i)+p, nil)
			} else {
				req.Header.Set(WorldHeader, "junk"+fmt.Sprint(i))
			}
			for k, v := range f.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			e.sim.ServeHTTP(rec, req)
			if rec.Code != f.status {
				t.Fatalf("%s (%s %s, by path %v): status %d, want %d: %s", f.name, f.method, p, byPath, rec.Code, f.status, rec.Body.String())
			}
		}
	}
	if got, want := e.sim.WorldNames(), []string{"bob", "alice"}; !slices.Equal(got, want) {
		t.Fatalf("after the flood: WorldNames() = %v, want %v (no world created, none evicted)", got, want)
	}
	e.wantStatuses(t, "after the flood", worldStatus{"alice", 11}, worldStatus{"bob", 11})
	// an authenticated operation creates its world
	if got, err := e.notifyStatus("carol", true); err != nil || got != 10 {
		t.Fatalf("an authenticated read of a new world: status %v (%v), want 10 (seeded)", got, err)
	}
	if got := e.sim.WorldNames(); !slices.Contains(got, "carol") {
		t.Errorf("WorldNames() = %v, want carol created by an authenticated operation", got)
	}
}

// TestWorldMemory reports the heap a named world adds at the default
// seed: fresh after one list read, and with every list generated
// (docs/simulator.md quotes both).
func TestWorldMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("measures memory")
	}
	e := newEnv(t, Options{MaxWorlds: 64})
	rec := e.fx.Records
	every := []string{
		"/files/" + rec.Folder + "/downloaded", "/files/FileAnnotation/" + rec.File + "/all",
		"/module/Weblink/" + rec.Weblink + "/Log", "/multimedia/statistics/channel/" + rec.Channel + "/users",
		"/multimedia/capture/" + rec.Capture + "/medias", "/survey/question/" + rec.SurveyQuestion + "/response",
		"/poll/Question/" + rec.PollQuestion + "/Response", "/resource/" + rec.Resource + "/students",
	}
	const n = 16
	for _, c := range []struct {
		name  string
		reads []string
	}{{"one E10 read", every[:1]}, {"every list read", every}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range n {
			for _, p := range c.reads {
				e.inWorld(fmt.Sprintf("%s-%d", c.name[:3], i), false, "GET", p, "").want(t, 200)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
		t.Logf("heap per named world at the default seed, %s: %d KiB", c.name, per/1024)
	}
	runtime.KeepAlive(e)
}

// BenchmarkWorldRequest compares one E10 page in the default world with
// the same page in a named world (by header and by path).
func BenchmarkWorldRequest(b *testing.B) {
	e := newBenchEnv(b, Options{})
	path := e.fileLog() + "?offset=10&limit=20"
	for _, c := range []struct {
		name   string
		path   string
		header string
	}{{"default", path, ""}, {"header", path, "w1"}, {"path", "/_w/w1" + path, ""}} {
		b.Run(c.name, func(b *testing.B) {
			mk := benchRequest(b, e, "GET", c.path, "")
			benchServe(b, e, func() *http.Request {
				r := mk()
				if c.header != "" {
					r.Header.Set(WorldHeader, c.header)
				}
				return r
			}, 200)
		})
	}
}

// BenchmarkWorldDispatch is the cost of selecting a world alone, on the
// cheapest request there is (GET /healthz).
func BenchmarkWorldDispatch(b *testing.B) {
	e := newBenchEnv(b, Options{})
	for _, c := range []struct{ name, path, header string }{
		{"default", "/healthz", ""}, {"header", "/healthz", "w1"}, {"path", "/_w/w1/healthz", ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchServe(b, e, func() *http.Request {
				r := httptest.NewRequest("GET", c.path, nil)
				if c.header != "" {
					r.Header.Set(WorldHeader, c.header)
				}
				return r
			}, 200)
		})
	}
}
