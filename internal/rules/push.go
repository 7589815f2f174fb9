package rules

import "github.com/tidwall/gjson"

// The second-factor result's status values the specification names: a
// push approved, or a code confirmed (0000), and a push the user denied
// (7002), carried with a 200. Other values are open (a push not yet
// answered, for one).
const (
	PushApproved = "0000"
	PushDenied   = "7002"
)

// PushDecided reports whether a second-factor result's status says the
// push was answered: approved or denied.
func PushDecided(status gjson.Result) bool {
	s := status.String()
	return status.Exists() && (s == PushApproved || s == PushDenied)
}

// WrongCodeAnswer judges the answer to a one-time password surely wrong
// (E1.reject): a refusal (4xx), or a 200 whose status, where present, is
// not PushApproved. Any other answer (a server error, another success,
// none) is a Breach; a 200 without status keeps the rule (the field is
// optional: a producer that needs it to decide says so itself).
func WrongCodeAnswer(status int, result gjson.Result) *Breach {
	st := result.Get("status")
	ok := ClientError(status) || status == 200 && st.String() != PushApproved
	bad := !ok
	return breachIf(bad, "a wrong one-time password refused (4xx, or 200 with a status other than "+PushApproved+")", answered(status, []byte(result.Raw)))
}
