package proxy

import (
	"fmt"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/totp"
)

// oneTimePassword (E1) judges a code when it is surely valid (the
// fixture's fixed one, or the TOTP of now give or take 30 s) or surely
// wrong (neither, even 90 s either way), for the fixture's user. A valid
// code is judged on its first use only.
func oneTimePassword(j *judgement) {
	code := j.req.Get("otp").String()
	first := !j.m.has(kindCode, code)
	j.m.set(kindCode, code, true)
	sf := j.c.fx.SecondFactor
	if sf.UserID == "" || j.req.Get("userid").String() != sf.UserID || (sf.OTP == "" && sf.TOTPSecret == "") {
		return
	}
	now := time.Now()
	valid := sf.OTP != "" && code == sf.OTP || sf.TOTPSecret != "" && totp.Verify(sf.TOTPSecret, code, now, 1)
	wrong := !valid && !(sf.TOTPSecret != "" && totp.Verify(sf.TOTPSecret, code, now, 3))
	status := j.resp.Get("status")
	switch {
	case valid && first:
		bad := rules.ClientError(j.ex.Status) || j.ex.Status == 200 && status.Exists() && status.String() != rules.PushApproved
		j.Judge("E1.200", "200 with status "+rules.PushApproved+" for a valid one-time password", bad, fmt.Sprintf("%d %s", j.ex.Status, j.resp.Raw))
	case wrong:
		j.Breach("E1.reject", rules.WrongCodeAnswer(j.ex.Status, j.resp))
	}
}

// pushPolled (E2) judges a push's decided status against what the user
// the push went to does (pushSent): the denying user's push is denied,
// the approving user's approved. A push not yet answered says nothing of
// how it will be.
func pushPolled(j *judgement) {
	status := j.resp.Get("status")
	if !j.is2xx || !rules.PushDecided(status) {
		return
	}
	was, _ := j.m.get(kindPush, j.req.Get("transactionId").String())
	got := "status " + status.String()
	switch was {
	case "deny":
		j.Judge("E2.deny", "status "+rules.PushDenied+" for a push the denying user turned down", status.String() == rules.PushApproved, got)
	case "approve":
		j.Judge("E2.approve", "status "+rules.PushApproved+" for a push the approving user accepted", status.String() == rules.PushDenied, got)
	}
}

// pushSent (E3) remembers which fixture user a push went to, and judges
// its transaction id.
func pushSent(j *judgement) {
	if !j.is2xx {
		return
	}
	t := j.resp.Get("transactionId")
	if t.Exists() && (t.Type != gjson.String || t.Str == "") {
		j.Broke("E3.200", "a non-empty transactionId", "transactionId "+t.Raw)
	}
	tx := t.String()
	if tx == "" {
		return
	}
	switch j.user {
	case j.c.fx.SecondFactor.DenyingUser:
		j.m.set(kindPush, tx, "deny")
	case j.c.fx.SecondFactor.ApprovingUser:
		j.m.set(kindPush, tx, "approve")
	}
}
