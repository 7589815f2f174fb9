package rules

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
