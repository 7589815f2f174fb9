package simulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentUse runs reads, writes and resets at once; with -race it
// checks that the store guards its data.
func TestConcurrentUse(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	rec := e.fx.Records
	_, notify := e.opPath("updateNotificationRead", "")
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
