package simulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// benchRequest builds a request as the owner.
func benchRequest(b *testing.B, e *env, method, path, body string) func() *http.Request {
	b.Helper()
	key := e.fx.SubscriptionKey
	auth := e.fx.Users["owner"].Headers["Authorization"]
	return func() *http.Request {
		var r *http.Request
		if body != "" {
			r = httptest.NewRequest(method, path, strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
		} else {
			r = httptest.NewRequest(method, path, nil)
		}
		r.Header.Set("Ocp-Apim-Subscription-Key", key)
		r.Header.Set("Authorization", auth)
		return r
	}
}

func benchServe(b *testing.B, e *env, req func() *http.Request, want int) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.sim.ServeHTTP(rec, req())
		if rec.Code != want {
			b.Fatalf("status = %d, want %d: %s", rec.Code, want, rec.Body)
		}
	}
}

func newBenchEnv(b *testing.B, opts Options) *env {
	b.Helper()
	opts.AllowedHosts = append(opts.AllowedHosts, testHost) // httptest's requests
	sim, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	return &env{sim: sim, fx: sim.Fixtures()}
}

// BenchmarkFileLogPage is the hot read: one default page (100 entries) of
// E10 at scale 1.
func BenchmarkFileLogPage(b *testing.B) {
	e := newBenchEnv(b, Options{})
	benchServe(b, e, benchRequest(b, e, "GET", "/files/"+e.fx.Records.Folder+"/downloaded?offset=10&limit=20", ""), 200)
}

// BenchmarkNotificationRead is the hot write: a notification read update.
func BenchmarkNotificationRead(b *testing.B) {
	e := newBenchEnv(b, Options{})
	n := e.fx.Records.Notification
	benchServe(b, e, benchRequest(b, e, "PUT", "/notification/read", fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)), 200)
}

// BenchmarkFileLogPageLarge pages E10 on a folder holding a million
// entries (scale 25000): the cost must not depend on the list length.
func BenchmarkFileLogPageLarge(b *testing.B) {
	e := newBenchEnv(b, Options{Scale: 25000})
	if l, _ := e.sim.store.FileLogs(e.fx.Records.Folder); l.Len() != 1_000_000 { // generated here, before timing
		b.Fatalf("folder holds %d entries, want 1000000", l.Len())
	}
	for _, q := range []string{"offset=500000&limit=20", "offset=999980&limit=20&sortby=logDate"} {
		b.Run(q, func(b *testing.B) {
			req := benchRequest(b, e, "GET", "/files/"+e.fx.Records.Folder+"/downloaded?"+q, "")
			// Warm the sort order cache, computed once per list and field.
			e.sim.ServeHTTP(httptest.NewRecorder(), req())
			benchServe(b, e, req, 200)
		})
	}
}

// BenchmarkCreateAttendance is the create path: E7 decodes a small body
// and adds a record. It measures what body checks (duplicate keys) cost.
func BenchmarkCreateAttendance(b *testing.B) {
	e := newBenchEnv(b, Options{})
	body := `{"resourceID":"` + e.fx.Records.AttendanceResource + `","publish":true}`
	benchServe(b, e, benchRequest(b, e, "POST", "/Attendance/Default", body), http.StatusCreated)
}

// BenchmarkStudentPage is the other list page of bench/loopback.sh: a
// page of 20 accessible students (E20).
func BenchmarkStudentPage(b *testing.B) {
	e := newBenchEnv(b, Options{})
	benchServe(b, e, benchRequest(b, e, "GET", "/resource/"+e.fx.Records.Resource+"/students?offset=0&limit=20", ""), 200)
}

// BenchmarkPollResponse is the single record read of bench/loopback.sh:
// one poll response (E19).
func BenchmarkPollResponse(b *testing.B) {
	e := newBenchEnv(b, Options{})
	benchServe(b, e, benchRequest(b, e, "GET", "/poll/Response/"+e.fx.Records.PollResponse, ""), 200)
}
