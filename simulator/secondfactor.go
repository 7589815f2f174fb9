package simulator

import (
	"net/http"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/totp"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/variants"
)

// campusRoutes are the routes of the campus directory: E4 syncs the faculties.
var campusRoutes = map[registry.OpID]route{
	registry.E4: {superAdmin, (*Simulator).syncFaculties},
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
func (s *Simulator) validateOTP(w http.ResponseWriter, r *http.Request, _ store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	userid, otp := b.str("userid", true), b.str("otp", true)
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	u, ok := s.store.UserByLogin(*userid)
	if !ok {
		s.fail(w, http.StatusNotFound, "no user has userid "+*userid)
		return
	}
	res := store.SecondFactorResult{Status: statusSuccess, CredentialID: u.CredentialID, RequestID: s.store.NextRequestID(), StatusMessage: "Success"}
	if !totp.Verify(u.TOTPSecret, *otp, s.opts.WallClock(), 1) && !s.staticOTP(u, *otp) && !s.defects.Has(defects.E1AnyOTP) {
		if s.defects.Has(defects.E1WrongOTP500) {
			s.fail(w, http.StatusInternalServerError, "internal error while checking the one-time password")
			return
		}
		if s.variants.Has(variants.OTPWrong400) {
			s.fail(w, http.StatusBadRequest, "otp: the one-time password is not valid")
			return
		}
		res.Status, res.StatusMessage = statusWrongOTP, "The one-time password is not valid"
	}
	writeJSON(w, http.StatusOK, res)
}

// sendPush is E3.
func (s *Simulator) sendPush(w http.ResponseWriter, r *http.Request, u store.User) {
	p, evicted := s.store.OpenPushCounted(u)
	noteEvicted(r, evicted)
	writeJSON(w, http.StatusOK, store.PushResult{Status: statusSuccess, TransactionID: p.ID, CredentialID: u.CredentialID, StatusMessage: "Push notification sent"})
}

// pollPush is E2.
func (s *Simulator) pollPush(w http.ResponseWriter, r *http.Request, u store.User) {
	b := s.readBody(w, r)
	if b == nil {
		return
	}
	id := b.str("transactionId", true)
	if b.err != nil {
		s.badRequest(w, b.err)
		return
	}
	if s.variants.Has(variants.UUIDUpper) {
		*id = strings.ToLower(*id) // issued in upper case, read in either
	}
	p, err := s.store.Poll(*id, u)
	if err != nil {
		s.failStore(w, err, http.StatusNotFound)
		return
	}
	res := store.PushResult{TransactionID: p.ID, CredentialID: u.CredentialID}
	switch {
	case s.stillPending(p.ID):
		res.Status, res.StatusMessage = statusPending, "Waiting for the user to answer the push request"
	case p.Decision == store.Deny && s.defects.Has(defects.PollNever7002):
		res.Status, res.StatusMessage = statusPending, "Waiting for the user to answer the push request"
	case s.defects.Has(defects.PollAlways7002) || p.Decision == store.Deny:
		res.Status, res.StatusMessage = statusDenied, "The user denied the mobile push request"
	case p.Decision == store.Pending:
		res.Status, res.StatusMessage = statusPending, "Waiting for the user to answer the push request"
	default:
		res.Status, res.StatusMessage = statusSuccess, "Approved"
	}
	writeJSON(w, http.StatusOK, res)
}

// syncFaculties is E4.
func (s *Simulator) syncFaculties(w http.ResponseWriter, _ *http.Request, _ store.User) {
	writeJSON(w, http.StatusOK, s.store.Faculties())
}

// secondFactorRoutes are the routes of the second factor: E1 validates a one-time password, E2 polls and E3 sends a mobile push.
var secondFactorRoutes = map[registry.OpID]route{
	registry.E1: {anyone, (*Simulator).validateOTP},
	registry.E2: {anyone, (*Simulator).pollPush},
	registry.E3: {anyone, (*Simulator).sendPush},
}
