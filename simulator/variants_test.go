package simulator

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/variants"
)

// What the variants answer, as docs/variants.md states it (simulator/ops
// holds the handlers' own constants).
const (
	page10Default = 10
	fewEntries    = 3
	cappedDefault = 7
	statusSuccess = "0000"
	statusPending = "7001"
)

// variantChecks shows, per variant, the behaviour it switches on, which
// the default simulator does not have: a variant the suite passes
// (harness/faithful) is never a no-op.
var variantChecks = map[variants.Name]func(t *testing.T, e *env){
	variants.Key403: func(t *testing.T, e *env) {
		e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Ocp-Apim-Subscription-Key": ""}).want(t, http.StatusForbidden).errorString(t)
	},
	variants.Token403: func(t *testing.T, e *env) {
		e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Authorization": "Bearer not-a-token"}).want(t, http.StatusForbidden).errorString(t)
		e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Authorization": ""}).want(t, http.StatusForbidden).errorString(t)
	},
	variants.Key400: func(t *testing.T, e *env) {
		e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Ocp-Apim-Subscription-Key": "wrong"}).want(t, http.StatusBadRequest).errorString(t)
	},
	variants.Key404: func(t *testing.T, e *env) {
		e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Ocp-Apim-Subscription-Key": ""}).want(t, http.StatusNotFound).errorString(t)
	},
	variants.E5200IDs: func(t *testing.T, e *env) {
		slot := e.fx.Records.DeletableSlots[0]
		var ids []string
		e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["`+slot+`","`+absent+`"]}`).want(t, http.StatusOK).decode(t, &ids)
		if !slices.Equal(ids, []string{slot}) {
			t.Errorf("deleted ids = %v, want [%s]", ids, slot)
		}
	},
	variants.E5AnyAbsent404: func(t *testing.T, e *env) {
		slot := e.fx.Records.DeletableSlots[0]
		e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["`+slot+`","`+absent+`"]}`).want(t, http.StatusNotFound)
		if !e.sim.store.SlotExists(slot) {
			t.Error("a refused delete deleted a slot")
		}
	},
	variants.AltPaths: func(t *testing.T, e *env) {
		for _, op := range registry.All() {
			if op.Placed {
				continue
			}
			if got := e.fx.Operations[string(op.ID)]; got.Method != op.AltMethod || got.Path != op.AltPath {
				t.Errorf("fixture operations.%s = %s %s, want %s %s", op.ID, got.Method, got.Path, op.AltMethod, op.AltPath)
			}
		}
		q := e.fx.Records.QuizSection
		body := `{"id":"` + q.ID + `","name":"x"}`
		e.do("owner", "PATCH", "/quiz/sections", body).want(t, http.StatusOK)
		e.do("owner", "PUT", "/quiz/section", body).want(t, http.StatusNotFound)
	},
	variants.UserHeader: func(t *testing.T, e *env) {
		h := e.fx.Users["owner"].Headers
		if len(h) != 1 || h[variants.UserTokenHeader] == "" {
			t.Errorf("fixture owner headers = %v, want only %s", h, variants.UserTokenHeader)
		}
		e.do("owner", "POST", "/campus/2FA/Push", "").want(t, http.StatusOK)
		e.doWith("", "POST", "/campus/2FA/Push", "", map[string]string{"Authorization": "Bearer " + h[variants.UserTokenHeader]}).want(t, http.StatusUnauthorized)
	},
	variants.OmitFalse: func(t *testing.T, e *env) {
		a := e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`","publish":false}`).want(t, http.StatusCreated).object(t)
		if _, ok := a["publish"]; ok {
			t.Errorf("publish false sent as %v, want it left out", a["publish"])
		}
		if a["isDefault"] != true {
			t.Errorf("isDefault = %v, want true kept", a["isDefault"])
		}
	},
	variants.UUIDUpper: func(t *testing.T, e *env) {
		res := e.fx.Records.AttendanceResource
		if res != strings.ToUpper(res) {
			t.Errorf("fixture attendanceResource = %s, want upper case", res)
		}
		a := e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+strings.ToLower(res)+`"}`).want(t, http.StatusCreated).object(t)
		if id, _ := a["id"].(string); id == "" || id != strings.ToUpper(id) || a["resourceID"] != res {
			t.Errorf("id %v resourceID %v, want both in upper case", a["id"], a["resourceID"])
		}
		tx := e.do("owner", "POST", "/campus/2FA/Push", "").want(t, http.StatusOK).object(t)["transactionId"].(string)
		e.do("owner", "POST", "/campus/2FA/Poll", `{"transactionId":"`+tx+`"}`).want(t, http.StatusOK)
	},
	variants.LocalOffsets: func(t *testing.T, e *env) {
		a := e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).want(t, http.StatusCreated).object(t)
		if d, _ := a["createdDate"].(string); !strings.HasSuffix(d, "+08:00") || !strings.Contains(d, ".") {
			t.Errorf("createdDate = %v, want +08:00 with a fraction", a["createdDate"])
		}
	},
	variants.ExtraFields: func(t *testing.T, e *env) {
		for _, r := range e.do("owner", "GET", e.fileLog()+"?limit=2", "").want(t, http.StatusOK).list(t) {
			if r["etag"] == nil || r["links"] == nil {
				t.Errorf("entry %v: want etag and links", r)
			}
		}
	},
	variants.QuizPatch: func(t *testing.T, e *env) {
		q := e.fx.Records.QuizSection
		e.do("owner", "PUT", "/quiz/section", `{"id":"`+q.ID+`","name":"x","displayQuestionMark":true}`).want(t, http.StatusOK)
		got := e.do("owner", "PUT", "/quiz/section", `{"id":"`+q.ID+`","name":"y"}`).want(t, http.StatusOK).object(t)
		if got["displayQuestionMark"] != true {
			t.Errorf("displayQuestionMark = %v after an update leaving it out, want true kept", got["displayQuestionMark"])
		}
	},
	variants.QuizLenient: func(t *testing.T, e *env) {
		q := e.fx.Records.QuizSection
		got := e.do("owner", "PUT", "/quiz/section", `{"id":"`+q.ID+`","name":"","displayedRandomQuestions":-2147483648}`).want(t, http.StatusOK).object(t)
		if got["name"] != "" || got["displayedRandomQuestions"] != float64(-2147483648) {
			t.Errorf("answer = %v, want the empty name and -2147483648 given back", got)
		}
	},
	variants.Nulls: func(t *testing.T, e *env) {
		got := e.do("owner", "GET", "/notification/group/"+e.fx.Records.Notification.GroupID, "").want(t, http.StatusOK).object(t)
		if v, ok := got["ancestor"]; !ok || v != nil {
			t.Errorf("ancestor without populate = %v (present %v), want null", v, ok)
		}
	},
	variants.GradebookReplace: func(t *testing.T, e *env) {
		gm := e.fx.Records.GradebookModule
		path := "/gradebook/" + gm.ID + "/settings"
		schema := `"gradingSchema":[{"letterGrade":"A","maxMark":100}]`
		all := `{"iD_Weightage":[`
		for i, item := range gm.GradeItems {
			if i > 0 {
				all += ","
			}
			all += `{"key":"` + item + `","value":25}`
		}
		e.do("owner", "PATCH", path, all+`],`+schema+`}`).want(t, http.StatusOK)
		// merged, 80 + 3x25 would exceed 100; as the whole weighting it is 80
		got := e.do("owner", "PATCH", path, `{"iD_Weightage":[{"key":"`+gm.GradeItems[0]+`","value":80}],`+schema+`}`).want(t, http.StatusOK).object(t)
		total := 0.0
		for _, w := range got["iD_Weightage"].([]any) {
			total += w.(map[string]any)["value"].(float64)
		}
		if total != 80 {
			t.Errorf("weightages total %g after naming one item at 80, want 80 (the others at 0)", total)
		}
	},
	variants.E21ChangedCount: func(t *testing.T, e *env) {
		body := `{"iDs":` + mustJSON(t, e.fx.Records.LectureSessions) + `,"publish":true}`
		e.do("owner", "PUT", "/weblecture/session/publish", body).want(t, http.StatusOK)
		if got := string(e.do("owner", "PUT", "/weblecture/session/publish", body).want(t, http.StatusOK).body); strings.TrimSpace(got) != "0" {
			t.Errorf("publishing published sessions again counted %s, want 0", got)
		}
	},
	variants.Page10: func(t *testing.T, e *env) {
		if n := len(e.do("owner", "GET", "/survey/question/"+e.fx.Records.SurveyQuestion+"/response", "").want(t, http.StatusOK).list(t)); n != page10Default {
			t.Errorf("default page has %d entries, want %d", n, page10Default)
		}
		e.do("owner", "GET", "/survey/question/"+e.fx.Records.SurveyQuestion+"/response?limit=51", "").want(t, http.StatusBadRequest)
	},
	variants.FewEntries: func(t *testing.T, e *env) {
		for _, path := range []string{e.fileLog(), "/resource/" + e.fx.Records.Resource + "/students?limit=1000", "/multimedia/capture/" + e.fx.Records.Capture + "/medias"} {
			if n := len(e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)); n != fewEntries {
				t.Errorf("GET %s has %d entries, want %d", path, n, fewEntries)
			}
		}
	},
	variants.PagingCapped: func(t *testing.T, e *env) {
		path := "/survey/question/" + e.fx.Records.SurveyQuestion + "/response"
		if n := len(e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)); n != cappedDefault {
			t.Errorf("default page has %d entries, want %d", n, cappedDefault)
		}
		e.do("owner", "GET", path+"?limit=26", "").want(t, http.StatusBadRequest).errorString(t)
		e.do("owner", "GET", path+"?offset=1001", "").want(t, http.StatusBadRequest).errorString(t)
		e.do("owner", "GET", path+"?offset=1000", "").want(t, http.StatusOK)
	},
	variants.DatesStartExclusive: func(t *testing.T, e *env) { boundExcluded(t, e, "StartDate", false) },
	variants.DatesEndExclusive:   func(t *testing.T, e *env) { boundExcluded(t, e, "EndDate", true) },
	variants.SearchCaseSensitive: func(t *testing.T, e *env) {
		path := e.fileLog()
		all := e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)
		name, _ := all[0]["name"].(string)
		if name == "" || strings.ToUpper(name) == name {
			t.Fatalf("the first log entry's name %q: want one with lower-case letters", name)
		}
		if n := len(e.do("owner", "GET", path+"?SearchText="+url.QueryEscape(name), "").want(t, http.StatusOK).list(t)); n == 0 {
			t.Errorf("SearchText=%q as written: want its entries, got none", name)
		}
		for _, it := range e.do("owner", "GET", path+"?SearchText="+url.QueryEscape(strings.ToUpper(name)), "").want(t, http.StatusOK).list(t) {
			if fn, _ := it["fileName"].(string); !strings.Contains(fn, strings.ToUpper(name)) && !strings.Contains(it["name"].(string), strings.ToUpper(name)) {
				t.Errorf("SearchText=%q in upper case: want only entries holding it as written, got %v", strings.ToUpper(name), it)
				break
			}
		}
	},
	variants.E15DatesUnfiltered: func(t *testing.T, e *env) {
		path := "/multimedia/statistics/channel/" + e.fx.Records.Channel + "/users"
		if n := len(e.do("owner", "GET", path+"?startDate=2100-01-01T00:00:00Z", "").want(t, http.StatusOK).list(t)); n == 0 {
			t.Error("startDate in 2100: want the all-time totals, got an empty list")
		}
		e.do("owner", "GET", path+"?startDate=yesterday", "").want(t, http.StatusBadRequest).errorString(t)
	},
	variants.PermissionPerRecord: func(t *testing.T, e *env) {
		e.do("student", "GET", "/multimedia/"+e.fx.Records.Media+"/downloadlog", "").want(t, http.StatusForbidden).errorString(t)
		e.do("student", "GET", "/multimedia/00000000-0000-4000-8000-000000000001/downloadlog", "").want(t, http.StatusNotFound)
		e.do("student", "DELETE", "/multimedia/media", `{"iDs":["00000000-0000-4000-8000-000000000001"]}`).want(t, http.StatusOK)
		e.do("student", "DELETE", "/multimedia/media", `{"iDs":["`+e.fx.Records.DeletableMedia[1]+`"]}`).want(t, http.StatusForbidden)
		named := 0
		for _, fb := range e.fx.Forbidden {
			if fb.Record != "" {
				named++
			}
		}
		if named == 0 {
			t.Error("fixture forbidden entries name no record, want some")
		}
	},
	variants.SortbyDash: func(t *testing.T, e *env) {
		path := e.fileLog() + "?sortby="
		list := e.do("owner", "GET", path+url.QueryEscape("-logDate,name"), "").want(t, http.StatusOK).list(t)
		for i := 1; i < len(list); i++ {
			if list[i-1]["logDate"].(string) < list[i]["logDate"].(string) {
				t.Fatalf("sortby=-logDate,name: entry %d is dated before entry %d", i-1, i)
			}
		}
		e.do("owner", "GET", path+url.QueryEscape("logDate desc"), "").want(t, http.StatusBadRequest).errorString(t)
		if got := e.fx.Conventions.Sortby.Key("logDate", true); got != "-logDate" {
			t.Errorf("fixture sortby key of logDate descending = %q, want -logDate", got)
		}
	},
	variants.OptionalAbsent: func(t *testing.T, e *env) {
		a := e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).want(t, http.StatusCreated).object(t)
		if len(a) != 0 {
			t.Errorf("attendance answered with fields %v, want none (none is required)", a)
		}
		q := e.do("owner", "PUT", "/quiz/section", `{"id":"`+e.fx.Records.QuizSection.ID+`","name":"x"}`).want(t, http.StatusOK).object(t)
		if len(q) != 1 || q["name"] != "x" {
			t.Errorf("quiz section answered as %v, want only its required name", q)
		}
		st := e.do("owner", "GET", "/resource/"+e.fx.Records.Resource+"/students?populate=photo", "").want(t, http.StatusOK).list(t)
		if len(st) == 0 || st[0]["photo"] == nil || st[0]["userName"] != nil {
			t.Errorf("student with populate=photo = %v, want the photo asked for and nothing optional besides", st)
		}
	},
	variants.WhereIgnored: func(t *testing.T, e *env) {
		path := "/poll/Question/" + e.fx.Records.PollQuestion + "/Response?limit=100"
		all := e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)
		if len(all) < 2 {
			t.Fatalf("the poll question has %d responses, want 2 or more", len(all))
		}
		got := e.do("owner", "GET", path+"&where="+url.QueryEscape("id:"+all[0]["id"].(string)), "").want(t, http.StatusOK).list(t)
		if len(got) != len(all) {
			t.Errorf("where=id:…: %d entries, want all %d (where ignored)", len(got), len(all))
		}
	},
	variants.UnknownID404: func(t *testing.T, e *env) {
		e.do("owner", "GET", "/poll/Response/"+absent, "").want(t, http.StatusNotFound).errorString(t)
		e.do("owner", "GET", "/poll/Response/"+e.fx.Records.PollResponse, "").want(t, http.StatusOK)
	},
	variants.NewestFirst: func(t *testing.T, e *env) {
		path := e.fileLog()
		got := e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)
		want := newEnv(t, Options{}).do("owner", "GET", path+"?sortby=logDate+desc", "").want(t, http.StatusOK).list(t)
		if len(got) < 2 || got[0]["logDate"] != want[0]["logDate"] {
			t.Errorf("first entry logged %v, want the newest %v", got[0]["logDate"], want[0]["logDate"])
		}
	},
	variants.NoSortbySyntax: func(t *testing.T, e *env) {
		if e.fx.Conventions.Sortby.Declared() {
			t.Errorf("fixture conventions.sortby = %+v, want none", e.fx.Conventions.Sortby)
		}
		path := e.fileLog()
		l := e.do("owner", "GET", path+"?sortby=-logDate", "").want(t, http.StatusOK).list(t)
		if len(l) < 2 || l[0]["logDate"].(string) < l[len(l)-1]["logDate"].(string) {
			t.Errorf("sortby=-logDate: want newest first")
		}
		e.do("owner", "GET", path+"?sortby=logDate+desc", "").want(t, http.StatusBadRequest)
	},
	variants.OTPStatic: func(t *testing.T, e *env) {
		sf := e.fx.SecondFactor
		if sf.OTP != variants.StaticOTP || sf.TOTPSecret != "" {
			t.Errorf("fixture secondFactor otp %q secret %q, want the static code and no secret", sf.OTP, sf.TOTPSecret)
		}
		r := e.do("owner", "POST", "/campus/2FA/Auth", `{"userid":"`+sf.UserID+`","otp":"`+sf.OTP+`"}`).want(t, http.StatusOK).object(t)
		if r["status"] != statusSuccess {
			t.Errorf("status = %v, want %s", r["status"], statusSuccess)
		}
	},
	variants.OTPWrong400: func(t *testing.T, e *env) {
		e.do("owner", "POST", "/campus/2FA/Auth", `{"userid":"`+e.fx.SecondFactor.UserID+`","otp":"000000x"}`).want(t, http.StatusBadRequest).errorString(t)
	},
	variants.PushPendingFirst: func(t *testing.T, e *env) {
		tx := e.do("owner", "POST", "/campus/2FA/Push", "").want(t, http.StatusOK).object(t)["transactionId"].(string)
		var got []any
		for range 3 {
			got = append(got, e.do("owner", "POST", "/campus/2FA/Poll", `{"transactionId":"`+tx+`"}`).want(t, http.StatusOK).object(t)["status"])
		}
		if !slices.Equal(got, []any{statusPending, statusPending, statusSuccess}) {
			t.Errorf("three polls = %v, want 7001, 7001, 0000", got)
		}
	},
	variants.PushPendingFor: func(t *testing.T, e *env) {
		tx := e.do("owner", "POST", "/campus/2FA/Push", "").want(t, http.StatusOK).object(t)["transactionId"].(string)
		poll := func() any {
			return e.do("owner", "POST", "/campus/2FA/Poll", `{"transactionId":"`+tx+`"}`).want(t, http.StatusOK).object(t)["status"]
		}
		for range 5 {
			if got := poll(); got != statusPending {
				t.Fatalf("a poll within %d s of the first: status %v, want 7001 however often it is polled", variants.PushPendingSeconds, got)
			}
		}
		time.Sleep(variants.PushPendingSeconds * time.Second)
		if got := poll(); got != statusSuccess {
			t.Errorf("a poll %d s after the first: status %v, want 0000", variants.PushPendingSeconds, got)
		}
	},
	variants.RateLimit: func(t *testing.T, e *env) {
		path := e.fileLog() + "?limit=1"
		for i := range variants.RateLimitPerSecond + 1 {
			r := e.do("owner", "GET", path, "")
			if r.status == http.StatusTooManyRequests {
				if i < variants.RateLimitPerSecond-5 {
					t.Errorf("429 after %d requests, want none before %d in a second", i, variants.RateLimitPerSecond)
				}
				if ra := r.header.Get("Retry-After"); ra != "1" {
					t.Errorf("Retry-After %q, want 1 (the seconds to the next window)", ra)
				}
				r.errorString(t)
				return
			}
		}
		t.Errorf("%d requests at once: want a 429 past %d", variants.RateLimitPerSecond+1, variants.RateLimitPerSecond)
	},
	variants.DateLowerCase: func(t *testing.T, e *env) {
		a := e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).want(t, http.StatusCreated).object(t)
		if d, _ := a["createdDate"].(string); len(d) < 20 || d[10] != 't' || !strings.HasSuffix(d, "z") {
			t.Errorf("createdDate = %v, want a lower-case t and z", a["createdDate"])
		}
	},
	variants.SignedLinks: func(t *testing.T, e *env) {
		path := "/multimedia/statistics/channel/" + e.fx.Records.Channel + "/users?limit=1"
		a := e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)
		b := e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t)
		if len(a) != 1 || len(b) != 1 {
			t.Fatalf("want one entry each, got %d and %d", len(a), len(b))
		}
		pa, _ := a[0]["photoUrl"].(string)
		pb, _ := b[0]["photoUrl"].(string)
		if a[0]["matrixNo"] != b[0]["matrixNo"] || pa == pb || !strings.Contains(pa, "X-Signature=") {
			t.Errorf("two reads: photoUrl %q and %q of %v and %v, want one record with links signed differently", pa, pb, a[0]["matrixNo"], b[0]["matrixNo"])
		}
	},
	variants.NoForbiddenTable: func(t *testing.T, e *env) {
		if len(e.fx.Forbidden) != 0 {
			t.Errorf("fixture forbidden = %v, want none", e.fx.Forbidden)
		}
		e.do("student", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).want(t, http.StatusCreated)
		e.do("staff", "POST", "/campus/Faculty", "").want(t, http.StatusForbidden)
	},
	variants.PopulateExact: func(t *testing.T, e *env) {
		path := "/survey/question/" + e.fx.Records.SurveyQuestion + "/response?populate="
		e.do("owner", "GET", path+"Creator", "").want(t, http.StatusOK)
		e.do("owner", "GET", path+"creator", "").want(t, http.StatusBadRequest)
	},
	variants.Charset: func(t *testing.T, e *env) {
		r := e.do("owner", "POST", "/campus/2FA/Push", "").want(t, http.StatusOK)
		if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("Content-Type = %q, want application/json; charset=utf-8", ct)
		}
	},
}

// TestVariants runs each variant's check against the simulator with the
// variant. Each check asserts what differs from the default simulator.
func TestVariants(t *testing.T) {
	for _, v := range variants.All() {
		check, ok := variantChecks[v.Name]
		if !ok {
			t.Errorf("variant %s: expected a check in variantChecks", v.Name)
			continue
		}
		t.Run(string(v.Name), func(t *testing.T) {
			check(t, newEnv(t, Options{Variants: []string{string(v.Name)}}))
		})
	}
}

func TestVariantNames(t *testing.T) {
	if _, err := New(Options{Variants: []string{"no-such-variant"}}); err == nil || !strings.Contains(err.Error(), "unknown variant") {
		t.Errorf("unknown variant: error = %v, want one naming it", err)
	}
	if _, err := New(Options{Variants: []string{string(variants.Key403), string(variants.Key400)}}); err == nil || !strings.Contains(err.Error(), "choose one") {
		t.Errorf("key-403 with key-400: error = %v, want a conflict", err)
	}
}

// boundExcluded checks that E10's bound param, set to the earliest (or
// latest) logDate of the folder's log, keeps no entry dated at it.
func boundExcluded(t *testing.T, e *env, param string, earliest bool) {
	t.Helper()
	path := e.fileLog()
	at := extremeLogDate(t, e.do("owner", "GET", path, "").want(t, http.StatusOK).list(t), earliest)
	for _, entry := range e.do("owner", "GET", path+"?"+param+"="+url.QueryEscape(at), "").want(t, http.StatusOK).list(t) {
		if entry["logDate"] == at {
			t.Errorf("%s=%s kept an entry dated %s, want it excluded", param, at, at)
		}
	}
}

// extremeLogDate is the earliest or the latest logDate of a download log,
// as written.
func extremeLogDate(t *testing.T, list []map[string]any, earliest bool) string {
	t.Helper()
	var best string
	var bestT time.Time
	for _, e := range list {
		s, _ := e["logDate"].(string)
		d, err := time.Parse(time.RFC3339Nano, s)
		if err == nil && (best == "" || d.Before(bestT) == earliest && !d.Equal(bestT)) {
			best, bestT = s, d
		}
	}
	if best == "" {
		t.Fatal("the download log has no dated entry")
	}
	return best
}
