package simulator

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/totp"
)

func TestCredentials(t *testing.T) {
	e := newEnv(t, Options{})
	path := e.fileLog()
	tests := []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"valid", nil, http.StatusOK},
		{"missing key", map[string]string{"Ocp-Apim-Subscription-Key": ""}, http.StatusUnauthorized},
		{"unknown key", map[string]string{"Ocp-Apim-Subscription-Key": "nope"}, http.StatusUnauthorized},
		{"missing token", map[string]string{"Authorization": ""}, http.StatusUnauthorized},
		{"unknown token", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"basic scheme", map[string]string{"Authorization": "Basic b3duZXI6eA=="}, http.StatusUnauthorized},
		{"lower-case scheme", map[string]string{"Authorization": strings.Replace(e.fx.Users["owner"].Headers["Authorization"], "Bearer", "bearer", 1)}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.doWith("owner", "GET", path, "", tt.header)
			if r.status != tt.want {
				t.Fatalf("status = %d, want %d; body %s", r.status, tt.want, r.body)
			}
			if tt.want != http.StatusOK {
				r.errorString(t)
			}
		})
	}
}

// TestStatedPermissions covers the two permissions the specification
// states: E4 needs Super Admin, E5 needs Access_Delete on the module.
func TestStatedPermissions(t *testing.T) {
	slot := `{"iDs":["` + newEnv(t, Options{}).fx.Records.DeletableSlots[0] + `"]}`
	tests := []struct {
		user, method, path, body string
		want                     int
	}{
		{"admin", "POST", "/campus/Faculty", "", http.StatusOK},
		{"owner", "POST", "/campus/Faculty", "", http.StatusForbidden},
		{"staff", "POST", "/campus/Faculty", "", http.StatusForbidden},
		{"student", "POST", "/campus/Faculty", "", http.StatusForbidden},
		{"owner", "DELETE", "/consultation/Slot", slot, http.StatusNoContent},
		{"admin", "DELETE", "/consultation/Slot", slot, http.StatusNoContent},
		{"staff", "DELETE", "/consultation/Slot", slot, http.StatusForbidden},
		{"student", "DELETE", "/consultation/Slot", slot, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.user+" "+tt.path, func(t *testing.T) {
			e := newEnv(t, Options{})
			r := e.do(tt.user, tt.method, tt.path, tt.body).want(t, tt.want)
			if tt.want == http.StatusForbidden {
				if msg := r.errorString(t); !strings.Contains(msg, "not authorized") {
					t.Errorf("403 message = %q, want one saying the login user is not authorized", msg)
				}
			}
		})
	}
}

// TestForbiddenTableMatchesBehaviour checks that the fixture's forbidden
// table lists exactly the refusals of the role model beyond E4 and E5.
func TestForbiddenTableMatchesBehaviour(t *testing.T) {
	e := newEnv(t, Options{})
	listed := map[string]bool{}
	for _, f := range e.fx.Forbidden {
		listed[f.Operation+"/"+f.User] = true
	}
	for _, op := range registry.All() {
		if op.ID == "E4" || op.ID == "E5" {
			continue
		}
		for _, user := range []string{"admin", "owner", "staff", "student"} {
			fresh := newEnv(t, Options{})
			path := strings.NewReplacer("{id}", fresh.fx.Records.Evaluation, "{evaluationid}", fresh.fx.Records.Evaluation, "{ID}", fresh.fx.Records.Weblink, "{$}", "").Replace(op.Path)
			r := fresh.do(user, op.Method, path, "{}")
			got := r.status == http.StatusForbidden
			if want := listed[string(op.ID)+"/"+user]; got != want {
				t.Errorf("%s as %s: 403 = %v, fixture lists it = %v (status %d, body %s)", op.ID, user, got, want, r.status, r.body)
			}
		}
	}
	if len(e.fx.Forbidden) == 0 {
		t.Error("forbidden table is empty, want the student refusals")
	}
}

func TestValidateOTP(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e := newEnv(t, Options{WallClock: func() time.Time { return at }})
	sf := e.fx.SecondFactor
	code := func(offset time.Duration) string {
		c, err := totp.Generate(sf.TOTPSecret, at.Add(offset))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name, body string
		want       int
		wantStatus string
	}{
		{"current code", `{"userid":"` + sf.UserID + `","otp":"` + code(0) + `"}`, 200, "0000"},
		{"previous step", `{"userid":"` + sf.UserID + `","otp":"` + code(-totp.Step) + `"}`, 200, "0000"},
		{"next step", `{"userid":"` + sf.UserID + `","otp":"` + code(totp.Step) + `"}`, 200, "0000"},
		{"two steps old", `{"userid":"` + sf.UserID + `","otp":"` + code(-2*totp.Step) + `"}`, 200, "6004"},
		{"wrong code", `{"userid":"` + sf.UserID + `","otp":"abcdef"}`, 200, "6004"},
		{"unknown user", `{"userid":"nobody","otp":"` + code(0) + `"}`, 404, ""},
		{"missing otp", `{"userid":"` + sf.UserID + `"}`, 400, ""},
		{"missing userid", `{"otp":"123456"}`, 400, ""},
		{"otp as number", `{"userid":"` + sf.UserID + `","otp":123456}`, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do("owner", "POST", "/campus/2FA/Auth", tt.body).want(t, tt.want)
			if tt.wantStatus == "" {
				r.errorString(t)
				return
			}
			m := r.object(t)
			if m["status"] != tt.wantStatus {
				t.Errorf("status = %v, want %s", m["status"], tt.wantStatus)
			}
			for _, k := range []string{"credentialId", "requestId", "statusMessage"} {
				if _, ok := m[k].(string); !ok {
					t.Errorf("%s = %v, want a string", k, m[k])
				}
			}
		})
	}
}

func TestPushThenPoll(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	push := func(user string) string {
		m := e.do(user, "POST", "/campus/2FA/Push", "").want(t, 200).object(t)
		if m["status"] != "0000" {
			t.Fatalf("push status = %v, want 0000", m["status"])
		}
		return m["transactionId"].(string)
	}
	poll := func(user, tx string) string {
		return e.do(user, "POST", "/campus/2FA/Poll", `{"transactionId":"`+tx+`"}`).want(t, 200).object(t)["status"].(string)
	}
	tests := []struct {
		user, decision, want string
	}{
		{e.fx.SecondFactor.ApprovingUser, "", "0000"},
		{e.fx.SecondFactor.DenyingUser, "", "7002"},
		{"admin", "", "0000"},
		{"student", "", "7002"},
		{"owner", "pending", "7001"},
		{"owner", "deny", "7002"},
		{"staff", "approve", "0000"},
	}
	for _, tt := range tests {
		t.Run(tt.user+" "+tt.decision, func(t *testing.T) {
			tx := push(tt.user)
			if tt.decision != "" {
				e.do("", "POST", e.fx.Control+"/push/"+tx, `{"decision":"`+tt.decision+`"}`).want(t, http.StatusNoContent)
			}
			if got := poll(tt.user, tx); got != tt.want {
				t.Errorf("poll status = %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("pending then approved", func(t *testing.T) {
		tx := push("owner")
		e.do("", "POST", e.fx.Control+"/push/"+tx, `{"decision":"pending"}`).want(t, http.StatusNoContent)
		if got := poll("owner", tx); got != "7001" {
			t.Fatalf("poll status = %s, want 7001", got)
		}
		e.do("", "POST", e.fx.Control+"/push/"+tx, `{"decision":"approve"}`).want(t, http.StatusNoContent)
		if got := poll("owner", tx); got != "0000" {
			t.Errorf("poll status = %s, want 0000", got)
		}
	})
	t.Run("errors", func(t *testing.T) {
		tx := push("owner")
		e.do("owner", "POST", "/campus/2FA/Poll", `{"transactionId":"nope"}`).want(t, 404).errorString(t)
		e.do("staff", "POST", "/campus/2FA/Poll", `{"transactionId":"`+tx+`"}`).want(t, 404)
		e.do("owner", "POST", "/campus/2FA/Poll", `{}`).want(t, 400)
		e.do("", "POST", e.fx.Control+"/push/"+tx, `{"decision":"maybe"}`).want(t, 400)
		e.do("", "POST", e.fx.Control+"/push/nope", `{"decision":"deny"}`).want(t, 404)
	})
}
