package rules

import "fmt"

// Requirements of the subscription key (Authentication 1).
const (
	// ReqKeyMissing: a call without the subscription key header is refused.
	ReqKeyMissing = "ALL.key"
	// ReqKeyUnknown: a call whose subscription key was never issued is
	// refused.
	ReqKeyUnknown = "ALL.key-unknown"
)

// ClientError reports whether status is a client error (4xx).
func ClientError(status int) bool { return status >= 400 && status < 500 }

// KeyRefusal judges the answer (status, body) to a call without a valid
// subscription key, missing or never issued: the specification names no
// status, and the requirement asks for a client error, so any 4xx refuses
// it (OP.key-status); a 2xx, 3xx or 5xx, or no answer (status 0), is a
// Breach. The body's form is ErrorBody's rule (ALL.error-body), judged
// apart: body only words what came back.
func KeyRefusal(status int, body []byte) *Breach {
	return breachIf(!ClientError(status),
		"a call without a valid subscription key refused with a client error (4xx)", answered(status, body))
}

// answered words an answer for a Breach's Got: its status and, when short
// enough, its body.
func answered(status int, body []byte) string {
	if status == 0 {
		return "no response"
	}
	b := trimSpace(body)
	if len(b) == 0 {
		return fmt.Sprint(status)
	}
	if len(b) > 120 {
		return fmt.Sprintf("%d %s...", status, b[:120])
	}
	return fmt.Sprintf("%d %s", status, b)
}

// GoneAnswer judges the answer to a call addressing records deleted
// earlier (E5.gone, E14.gone): 404 keeps the rule; a 403 says nothing of
// the records (a permission may be checked first), so judged is false;
// any other answer is a Breach.
func GoneAnswer(status int) (b *Breach, judged bool) {
	if status == 403 {
		return nil, false
	}
	return breachIf(status != 404, "404 for records deleted earlier", fmt.Sprint(status)), true
}
