package ops

import (
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/totp"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// campusRoutes are the routes of the campus directory: E4 syncs the faculties.
var campusRoutes = map[registry.OpID]route{
	registry.E4: {access: superAdmin, handle: (*Env).syncFaculties},
}

// Second-factor status codes: the specification states 0000 and 7002; 7001
// (pending) and 6004 (wrong one-time password) are the simulator's.
const (
	statusSuccess  = "0000"
	statusDenied   = "7002"
	statusPending  = "7001"
	statusWrongOTP = "6004"
)

// validateOTP is E1.
func (env *Env) validateOTP(w http.ResponseWriter, r *http.Request, caller store.User, b *front.Body) {
	userid, otp := b.Str("userid", true), b.Str("otp", true)
	if env.refused(w, b) {
		return
	}
	u, ok := env.store.UserByLogin(*userid)
	if env.defects.Has(defects.E1UseridIgnored) {
		u, ok = caller, true
	}
	if !ok {
		env.fail(w, http.StatusNotFound, "no user has userid "+*userid)
		return
	}
	res := store.SecondFactorResult{Status: statusSuccess, CredentialID: u.CredentialID, RequestID: env.store.NextRequestID(), StatusMessage: "Success"}
	formatOnly := env.defects.Has(defects.E1FormatOnly) && len(*otp) == 6 && strings.Trim(*otp, "0123456789") == ""
	if !totp.Verify(u.TOTPSecret, *otp, env.wallClock(), 1) && !env.staticOTP(u, *otp) && !env.defects.Has(defects.E1AnyOTP) && !formatOnly {
		if env.defects.Has(defects.E1WrongOTP500) {
			env.fail(w, http.StatusInternalServerError, "internal error while checking the one-time password")
			return
		}
		if env.variants.Has(variants.OTPWrong400) {
			env.fail(w, http.StatusBadRequest, "otp: the one-time password is not valid")
			return
		}
		res.Status, res.StatusMessage = statusWrongOTP, "The one-time password is not valid"
	}
	front.WriteJSON(w, http.StatusOK, res)
}

// sendPush is E3.
func (env *Env) sendPush(w http.ResponseWriter, r *http.Request, u store.User) {
	p, evicted := env.store.OpenPushCounted(u)
	noteEvicted(r, evicted)
	front.WriteJSON(w, http.StatusOK, store.PushResult{Status: statusSuccess, TransactionID: p.ID, CredentialID: u.CredentialID, StatusMessage: "Push notification sent"})
}

// pollPush is E2.
func (env *Env) pollPush(w http.ResponseWriter, r *http.Request, u store.User, b *front.Body) {
	id := b.Str("transactionId", true)
	if env.refused(w, b) {
		return
	}
	if env.variants.Has(variants.UUIDUpper) {
		*id = strings.ToLower(*id) // issued in upper case, read in either
	}
	p, err := env.store.Poll(*id, u)
	if err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	res := store.PushResult{TransactionID: p.ID, CredentialID: u.CredentialID}
	switch {
	case env.stillPending(p.ID):
		res.Status, res.StatusMessage = statusPending, "Waiting for the user to answer the push request"
	case p.Decision == store.Deny && env.defects.Has(defects.PollNever7002):
		// a wrong final outcome, not a poll that never decides: the
		// suite waits out a pending push and skips it when its window
		// runs out, so only a decision can be judged (issue 38)
		res.Status, res.StatusMessage = statusSuccess, "Approved"
	case env.defects.Has(defects.PollAlways7002) || p.Decision == store.Deny:
		res.Status, res.StatusMessage = statusDenied, "The user denied the mobile push request"
	case p.Decision == store.Pending:
		res.Status, res.StatusMessage = statusPending, "Waiting for the user to answer the push request"
	default:
		res.Status, res.StatusMessage = statusSuccess, "Approved"
	}
	front.WriteJSON(w, http.StatusOK, res)
}

// syncFaculties is E4.
func (env *Env) syncFaculties(w http.ResponseWriter, _ *http.Request, _ store.User) {
	front.WriteJSON(w, http.StatusOK, env.store.Faculties())
}

// DecidePush is the control API's answer to the push transaction the path
// names (transactionId): the decision in the body, "approve", "deny" or
// "pending", is what the user's phone says from then on (E2).
func (env *Env) DecidePush(w http.ResponseWriter, r *http.Request) {
	b := env.readBody(w, r)
	if b == nil {
		return
	}
	d := b.Str("decision", true)
	if b.Err() == nil {
		switch store.Decision(*d) {
		case store.Approve, store.Deny, store.Pending:
		default:
			b.Check(true, "decision: expected \"approve\", \"deny\" or \"pending\", got %q", *d)
		}
	}
	if b.Err() != nil {
		env.fail(w, http.StatusBadRequest, b.Err().Error())
		return
	}
	if err := env.store.DecidePush(r.PathValue("transactionId"), store.Decision(*d)); err != nil {
		env.failStore(w, err, http.StatusNotFound)
		return
	}
	front.NoContent(w)
}

// secondFactorRoutes are the routes of the second factor: E1 validates a one-time password, E2 polls and E3 sends a mobile push.
var secondFactorRoutes = map[registry.OpID]route{
	registry.E1: {access: anyone, handle: withBody((*Env).validateOTP)},
	registry.E2: {access: anyone, handle: withBody((*Env).pollPush)},
	registry.E3: {access: anyone, handle: (*Env).sendPush},
}
