package simulator

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadClient calls a simulator served on loopback as the owner.
type loadClient struct {
	base, key, auth string
	http            *http.Client
	ctx             context.Context
}

func (c *loadClient) call(method, path, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(c.ctx, method, c.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Ocp-Apim-Subscription-Key", c.key)
	req.Header.Set("Authorization", c.auth)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return resp.StatusCode, b, err
}

// ledger is the test's record of what the simulator acknowledged.
type ledger struct {
	mu           sync.Mutex
	copies       []string        // bank folders created by E6
	attendances  map[string]bool // created by E7: true while not deleted
	deletedMedia map[string]int  // media id -> E14 deletions acknowledged
	mediaCount   int             // sum of the counts E14 answered
	deletedSlots map[string]bool
	sessions     map[string]bool // the last acknowledged publish flag
	overTotal    []string        // gradebook answers totalling over 100

	// notifyMu serialises the notification updates, so that the last
	// acknowledged one is the last one applied.
	notifyMu   sync.Mutex
	notifyLast int32
	quizMu     sync.Mutex
	quizLast   string
}

// TestLoadLosesNothing drives one simulator over loopback from 8
// goroutines with a fixed mix of reads and writes, then checks that every
// acknowledged write is visible, every acknowledged delete is gone, the
// last acknowledged update of a record is its state, no gradebook ever
// totals over 100, and that nothing is left running or held once the
// server is closed. Under -race it also checks the store's locking.
func TestLoadLosesNothing(t *testing.T) {
	const workers = 8
	perWorker := 500
	if testing.Short() {
		perWorker = 100
	}
	runtime.GC()
	baseGoroutines := runtime.NumGoroutine()

	e := newEnv(t, Options{})
	rec := e.fx.Records
	gb := rec.GradebookModule
	var heapBefore runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heapBefore)

	srv := httptest.NewServer(e.sim)
	tr := &http.Transport{MaxIdleConnsPerHost: workers}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := &loadClient{base: srv.URL, key: e.fx.SubscriptionKey, auth: e.fx.Users["owner"].Headers["Authorization"],
		http: &http.Client{Transport: tr, Timeout: 10 * time.Second}, ctx: ctx}

	l := &ledger{attendances: map[string]bool{}, deletedMedia: map[string]int{}, deletedSlots: map[string]bool{}, sessions: map[string]bool{}}
	var errMu sync.Mutex
	var errs []string
	fail := func(format string, args ...any) {
		errMu.Lock()
		defer errMu.Unlock()
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	// expect checks a status against the acceptable ones.
	expect := func(what string, status int, body []byte, err error, ok ...int) bool {
		if err != nil {
			fail("%s: %v", what, err)
			return false
		}
		for _, s := range ok {
			if status == s {
				return true
			}
		}
		fail("%s: status %d, want one of %v; body %.200s", what, status, ok, body)
		return false
	}
	// decode reads an accepted answer's body into v.
	decode := func(what string, body []byte, v any) {
		if err := json.Unmarshal(body, v); err != nil {
			fail("%s: expected a JSON body, got %v; body %.200s", what, err, body)
		}
	}

	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			var mine []string // this worker's live attendances
			var copies []string
			for i := range perWorker {
				switch i % 12 {
				case 0: // E6: copy the seeded folder or one of our copies
					src := rec.BankFolder
					if len(copies) > 0 && rng.IntN(2) == 0 {
						src = copies[rng.IntN(len(copies))]
					}
					st, b, err := c.call("POST", "/bank/"+src+"/copy", "")
					if expect("E6 "+src, st, b, err, 201) {
						var f struct{ ID string }
						decode("E6 "+src, b, &f)
						copies = append(copies, f.ID)
						l.mu.Lock()
						l.copies = append(l.copies, f.ID)
						l.mu.Unlock()
					}
				case 1, 7: // E7
					st, b, err := c.call("POST", "/Attendance/Default", `{"resourceID":"`+rec.AttendanceResource+`","publish":false}`)
					if expect("E7", st, b, err, 201) {
						var a struct{ ID string }
						decode("E7", b, &a)
						mine = append(mine, a.ID)
						l.mu.Lock()
						l.attendances[a.ID] = true
						l.mu.Unlock()
					}
				case 2: // E8: delete one of ours
					if len(mine) == 0 {
						continue
					}
					id := mine[0]
					st, b, err := c.call("DELETE", "/Attendance/", `{"resourceID":"`+rec.AttendanceResource+`","iDs":["`+id+`"]}`)
					if expect("E8", st, b, err, 204) {
						mine = mine[1:]
						l.mu.Lock()
						l.attendances[id] = false
						l.mu.Unlock()
					}
				case 3: // E14: every worker races for the same media
					id := rec.DeletableMedia[rng.IntN(len(rec.DeletableMedia))]
					st, b, err := c.call("DELETE", "/multimedia/media", `{"iDs":["`+id+`","`+id+`"]}`)
					if expect("E14", st, b, err, 200) {
						var n int
						decode("E14", b, &n)
						l.mu.Lock()
						l.mediaCount += n
						if n == 1 {
							l.deletedMedia[id]++
						}
						l.mu.Unlock()
					}
				case 4: // E21: each session is published by one worker only
					if g >= len(rec.LectureSessions) {
						st, b, err := c.call("GET", "/multimedia/"+rec.Media+"/downloadlog", "")
						expect("E13", st, b, err, 200)
						continue
					}
					id, p := rec.LectureSessions[g], rng.IntN(2) == 0
					st, b, err := c.call("PUT", "/weblecture/session/publish", fmt.Sprintf(`{"iDs":[%q],"publish":%t}`, id, p))
					if expect("E21", st, b, err, 200) {
						l.mu.Lock()
						l.sessions[id] = p
						l.mu.Unlock()
					}
				case 5: // notification read status, serialised
					read := int32(10 + rng.IntN(2))
					l.notifyMu.Lock()
					st, b, err := c.call("PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":%d}`, rec.Notification.ID, read))
					if expect("notification read", st, b, err, 200) {
						l.notifyLast = read
					}
					l.notifyMu.Unlock()
				case 6: // gradebook: some updates go over 100 and must be refused
					var parts []string
					for _, item := range gb.GradeItems {
						if rng.IntN(2) == 0 {
							parts = append(parts, fmt.Sprintf(`{"key":%q,"value":%d}`, item, rng.IntN(45)))
						}
					}
					st, b, err := c.call("PATCH", "/gradebook/"+gb.ID+"/settings", `{"iD_Weightage":[`+strings.Join(parts, ",")+`],"gradingSchema":[]}`)
					if expect("gradebook", st, b, err, 200, 400) && st == 200 {
						var g struct {
							IDWeightage []struct{ Value float64 } `json:"iD_Weightage"`
						}
						decode("gradebook", b, &g)
						total := 0.0
						for _, w := range g.IDWeightage {
							total += w.Value
						}
						if total > 100+1e-9 {
							l.mu.Lock()
							l.overTotal = append(l.overTotal, string(b))
							l.mu.Unlock()
						}
					}
				case 8: // quiz section, serialised
					name := fmt.Sprintf("worker %d update %d", g, i)
					l.quizMu.Lock()
					st, b, err := c.call("PUT", "/quiz/section", fmt.Sprintf(`{"id":%q,"name":%q}`, rec.QuizSection.ID, name))
					if expect("quiz", st, b, err, 200) {
						l.quizLast = name
					}
					l.quizMu.Unlock()
				case 9: // E5: every worker races for the same slots
					id := rec.DeletableSlots[rng.IntN(len(rec.DeletableSlots))]
					st, b, err := c.call("DELETE", "/consultation/Slot", `{"iDs":["`+id+`"]}`)
					if expect("E5", st, b, err, 204, 404) && st == 204 {
						l.mu.Lock()
						l.deletedSlots[id] = true
						l.mu.Unlock()
					}
				case 10: // list reads
					st, b, err := c.call("GET", fmt.Sprintf("/files/%s/downloaded?offset=%d&limit=20&sortby=logDate%%20desc", rec.Folder, rng.IntN(30)), "")
					if expect("E10", st, b, err, 200) {
						var items []json.RawMessage
						if json.Unmarshal(b, &items) != nil || len(items) > 20 {
							fail("E10: %d items, want a list of at most 20", len(items))
						}
					}
				case 11:
					st, b, err := c.call("GET", "/resource/"+rec.Resource+"/students?populate=photo&limit=5", "")
					expect("E20", st, b, err, 200)
					st, b, err = c.call("GET", "/notification/group/"+rec.Notification.GroupID, "")
					expect("notification by group", st, b, err, 200)
				}
			}
		}()
	}
	wg.Wait()
	for _, msg := range errs {
		t.Error(msg)
	}

	// Every acknowledged copy can itself be copied.
	for _, id := range l.copies {
		st, b, err := c.call("POST", "/bank/"+id+"/copy", "")
		if err != nil || st != 201 {
			t.Errorf("E6 on the acknowledged copy %s: status %d (%v), want 201; body %.200s", id, st, err, b)
		}
	}
	// Every live attendance exists and deletes with 204; deleted ones are gone.
	live := 0
	for id, alive := range l.attendances {
		_, exists := e.sim.store.Attendance(id)
		if exists != alive {
			t.Errorf("attendance %s: exists %t, want %t (acknowledged %s)", id, exists, alive, map[bool]string{true: "created", false: "deleted"}[alive])
		}
		if alive {
			live++
			if st, b, err := c.call("DELETE", "/Attendance/", `{"resourceID":"`+rec.AttendanceResource+`","iDs":["`+id+`"]}`); err != nil || st != 204 {
				t.Errorf("E8 on attendance %s: status %d (%v), want 204; body %s", id, st, err, b)
			}
		}
	}
	// Each media was deleted at most once, and the deleted ones are gone.
	deleted := 0
	for id, n := range l.deletedMedia {
		if n != 1 {
			t.Errorf("media %s: E14 acknowledged its deletion %d times, want once", id, n)
		}
		deleted += n
		if st, b, err := c.call("GET", "/multimedia/"+id+"/downloadlog", ""); err != nil || st != 404 {
			t.Errorf("E13 on the deleted media %s: status %d (%v), want 404; body %.200s", id, st, err, b)
		}
	}
	if deleted != l.mediaCount {
		t.Errorf("E14 counted %d deletions, the ledger %d", l.mediaCount, deleted)
	}
	if st, _, err := c.call("GET", "/multimedia/"+rec.Media+"/downloadlog", ""); err != nil || st != 200 {
		t.Errorf("E13 on the media nobody deleted: status %d (%v), want 200", st, err)
	}
	for id := range l.deletedSlots {
		if e.sim.store.SlotExists(id) {
			t.Errorf("slot %s: E5 acknowledged its deletion, it still exists", id)
		}
	}
	for id, want := range l.sessions {
		if got, _ := e.sim.store.SessionPublished(id); got != want {
			t.Errorf("session %s: published %t, want the last acknowledged %t", id, got, want)
		}
	}
	if n, _ := e.sim.store.Notification(rec.Notification.ID); l.notifyLast != 0 && n.NotifyStatus != l.notifyLast {
		t.Errorf("notification %d: status %d, want the last acknowledged %d", rec.Notification.ID, n.NotifyStatus, l.notifyLast)
	}
	if q, _ := e.sim.store.QuizSection(rec.QuizSection.ID); l.quizLast != "" && q.Name != l.quizLast {
		t.Errorf("quiz section: name %q, want the last acknowledged %q", q.Name, l.quizLast)
	}
	for _, b := range l.overTotal {
		t.Errorf("a gradebook update was acknowledged with a total over 100: %.300s", b)
	}
	if g, _ := e.sim.store.Gradebook(gb.ID); true {
		total := 0.0
		for _, w := range g.IDWeightage {
			total += w.Value
		}
		if total > 100+1e-9 {
			t.Errorf("gradebook of %s totals %g after the load, want at most 100", gb.ID, total)
		}
	}
	t.Logf("%d requests: %d copies, %d attendances (%d live), %d media and %d slots deleted",
		workers*perWorker, len(l.copies), len(l.attendances), live, deleted, len(l.deletedSlots))

	// Nothing left running once the server and the client are closed.
	srv.Close()
	tr.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseGoroutines+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseGoroutines+2 {
		buf := make([]byte, 64<<10)
		t.Errorf("%d goroutines after the load, %d before:\n%s", n, baseGoroutines, buf[:runtime.Stack(buf, true)])
	}
	// Nor held: the world keeps what was created (a few thousand small
	// records), nothing per request.
	var heapAfter runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heapAfter)
	if grew := int64(heapAfter.HeapAlloc) - int64(heapBefore.HeapAlloc); grew > 32<<20 {
		t.Errorf("heap grew by %d MiB over the load, want under 32 MiB", grew>>20)
	}
}

// TestConcurrentUse runs reads, writes and resets at once; with -race it
// checks that the store guards its data.
func TestConcurrentUse(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	rec := e.fx.Records
	_, notify := e.opPath("NR", "")
	calls := []struct{ method, path, body string }{
		{"GET", "/files/" + rec.Folder + "/downloaded?sortby=name", ""},
		{"GET", "/resource/" + rec.Resource + "/students?populate=photo", ""},
		{"POST", "/bank/" + rec.BankFolder + "/copy", ""},
		{"POST", "/Attendance/Default", `{"resourceID":"` + rec.AttendanceResource + `"}`},
		{"PUT", notify, fmt.Sprintf(`{"id":%d,"read":11}`, rec.Notification.ID)},
		{"POST", "/campus/2FA/Push", ""},
		{"DELETE", "/multimedia/media", `{"iDs":["` + rec.DeletableMedia[0] + `"]}`},
		{"POST", e.fx.Control + "/reset", ""},
	}
	key, auth := e.fx.SubscriptionKey, e.fx.Users["owner"].Headers["Authorization"]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				c := calls[(g+i)%len(calls)]
				var req *http.Request
				if c.body != "" {
					req = httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
				} else {
					req = httptest.NewRequest(c.method, c.path, nil)
				}
				req.Header.Set("Ocp-Apim-Subscription-Key", key)
				req.Header.Set("Authorization", auth)
				rr := httptest.NewRecorder()
				e.sim.ServeHTTP(rr, req)
				if rr.Code >= 500 {
					t.Errorf("%s %s: status %d", c.method, c.path, rr.Code)
				}
			}
		}()
	}
	wg.Wait()
}
