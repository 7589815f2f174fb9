package simulator

import (
	"net/http"
	"testing"
	"time"

	"github.com/campusconf/campusconf/internal/totp"
)

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
