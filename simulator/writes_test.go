package simulator

import (
	"net/http"
	"strings"
	"testing"
)

const absent = "00000000-0000-4000-8000-000000000000"

func TestDeleteSlots(t *testing.T) {
	e := newEnv(t, Options{})
	slots := e.fx.Records.DeletableSlots
	r := e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["`+slots[0]+`","`+slots[1]+`"]}`).want(t, http.StatusNoContent)
	if len(r.body) != 0 || r.header.Get("Content-Type") != "" {
		t.Errorf("204: body %q Content-Type %q, want neither", r.body, r.header.Get("Content-Type"))
	}
	// Deleted slots are gone: deleting them again finds none.
	e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["`+slots[0]+`"]}`).want(t, http.StatusNotFound).errorString(t)
	e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["`+absent+`"]}`).want(t, http.StatusNotFound)
	e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["bad"]}`).want(t, http.StatusBadRequest)
	// A partly absent list deletes what exists.
	e.do("owner", "DELETE", "/consultation/Slot", `{"iDs":["`+absent+`","`+slots[2]+`"]}`).want(t, http.StatusNoContent)
	// A refused delete changes nothing.
	e.do("staff", "DELETE", "/consultation/Slot", `{"iDs":["`+slots[3]+`"]}`).want(t, http.StatusForbidden)
	if !e.sim.store.SlotExists(slots[3]) {
		t.Error("slot deleted by a refused request")
	}
}

func TestCopyBankFolder(t *testing.T) {
	e := newEnv(t, Options{})
	src := e.fx.Records.BankFolder
	first := e.do("owner", "POST", "/bank/"+src+"/copy", "").want(t, http.StatusCreated).object(t)
	if first["id"] == src {
		t.Fatalf("copy id = source id %s, want a new id", src)
	}
	for _, k := range []string{"userID", "userName", "email"} {
		if _, ok := first[k]; ok {
			t.Errorf("without populate=Creator, %s = %v, want absent", k, first[k])
		}
	}
	second := e.do("owner", "POST", "/bank/"+first["id"].(string)+"/copy?populate=Creator,ContentCount", "").want(t, http.StatusCreated).object(t)
	if second["id"] == first["id"] {
		t.Error("copy of the copy has the copy's id")
	}
	if second["userID"] != e.fx.Users["owner"].UserID {
		t.Errorf("populate=Creator: userID = %v, want the caller %s", second["userID"], e.fx.Users["owner"].UserID)
	}
	e.do("owner", "POST", "/bank/"+absent+"/copy", "").want(t, http.StatusNotFound).errorString(t)
	e.do("owner", "POST", "/bank/"+src+"/copy?populate=Owner", "").want(t, http.StatusBadRequest)
	e.do("student", "POST", "/bank/"+src+"/copy", "").want(t, http.StatusForbidden)
}

func TestAddAndDeleteAttendance(t *testing.T) {
	e := newEnv(t, Options{})
	res := e.fx.Records.AttendanceResource
	tests := []struct {
		body        string
		wantPublish bool
	}{
		{`{"resourceID":"` + res + `"}`, true},
		{`{"resourceID":"` + res + `","publish":false}`, false},
		{`{"resourceID":"` + res + `","publish":true}`, true},
		{`{"resourceID":"` + res + `","publish":null}`, true},
	}
	for _, tt := range tests {
		a := e.do("owner", "POST", "/Attendance/Default", tt.body).want(t, http.StatusCreated).object(t)
		if a["publish"] != tt.wantPublish || a["isDefault"] != true || a["resourceID"] != res {
			t.Errorf("%s: publish=%v isDefault=%v resourceID=%v, want %v true %s", tt.body, a["publish"], a["isDefault"], a["resourceID"], tt.wantPublish, res)
		}
		id := a["id"].(string)
		if _, ok := e.sim.store.Attendance(id); !ok {
			t.Fatalf("attendance %s not stored", id)
		}
		e.do("owner", "DELETE", "/Attendance/", `{"resourceID":"`+res+`","iDs":["`+id+`"]}`).want(t, http.StatusNoContent)
		if _, ok := e.sim.store.Attendance(id); ok {
			t.Errorf("attendance %s still stored after delete", id)
		}
	}
	e.do("owner", "DELETE", "/Attendance/", `{"iDs":[]}`).want(t, http.StatusBadRequest)
	e.do("owner", "DELETE", "/Attendance/", `{"resourceID":"`+absent+`"}`).want(t, http.StatusBadRequest)
	// Without the trailing slash, ServeMux redirects to the operation's path.
	if loc := e.do("owner", "DELETE", "/Attendance", `{"resourceID":"`+res+`"}`).want(t, http.StatusTemporaryRedirect).header.Get("Location"); loc != "/Attendance/" {
		t.Errorf("redirect Location = %q, want /Attendance/", loc)
	}
	e.do("student", "DELETE", "/Attendance/", `{"resourceID":"`+res+`"}`).want(t, http.StatusForbidden)
}

func TestDeleteMedia(t *testing.T) {
	e := newEnv(t, Options{})
	m := e.fx.Records.DeletableMedia
	e.do("owner", "GET", "/multimedia/"+m[0]+"/downloadlog", "").want(t, http.StatusOK)
	tests := []struct {
		ids  []string
		want string
	}{
		{[]string{m[0], m[1], absent}, "2"},
		{[]string{m[0]}, "0"},
		{[]string{m[2], m[2]}, "1"},
		{nil, "0"},
	}
	for _, tt := range tests {
		body := `{"iDs":["` + strings.Join(tt.ids, `","`) + `"]}`
		if tt.ids == nil {
			body = `{"iDs":[]}`
		}
		if got := strings.TrimSpace(string(e.do("owner", "DELETE", "/multimedia/media", body).want(t, http.StatusOK).body)); got != tt.want {
			t.Errorf("delete %v: count = %s, want %s", tt.ids, got, tt.want)
		}
	}
	e.do("owner", "GET", "/multimedia/"+m[0]+"/downloadlog", "").want(t, http.StatusNotFound).errorString(t)
	e.do("owner", "GET", "/multimedia/"+e.fx.Records.Media+"/downloadlog", "").want(t, http.StatusOK)
}

func TestPublishSessions(t *testing.T) {
	e := newEnv(t, Options{})
	s := e.fx.Records.LectureSessions
	tests := []struct {
		body string
		want string
	}{
		{`{"iDs":["` + s[0] + `","` + s[1] + `"],"publish":true}`, "2"},
		{`{"iDs":["` + s[0] + `","` + absent + `"],"publish":false}`, "1"},
		{`{"iDs":["` + s[1] + `","` + s[1] + `"],"publish":true}`, "1"},
		{`{"iDs":[],"publish":true}`, "0"},
	}
	for _, tt := range tests {
		if got := strings.TrimSpace(string(e.do("owner", "PUT", "/weblecture/session/publish", tt.body).want(t, 200).body)); got != tt.want {
			t.Errorf("%s: count = %s, want %s", tt.body, got, tt.want)
		}
	}
	if p, _ := e.sim.store.SessionPublished(s[0]); p {
		t.Error("session 0 published, want false after the second call")
	}
	if p, _ := e.sim.store.SessionPublished(s[1]); !p {
		t.Error("session 1 unpublished, want true")
	}
	e.do("owner", "PUT", "/weblecture/session/publish", `{"iDs":["`+s[0]+`"]}`).want(t, http.StatusBadRequest)
	e.do("owner", "PUT", "/weblecture/session/publish", `{"iDs":"`+s[0]+`","publish":true}`).want(t, http.StatusBadRequest)
}
