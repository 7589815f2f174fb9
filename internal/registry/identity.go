package registry

// identities are the members that identify a record of each kind without
// an "id" member: what a check comparing answers across requests (paging,
// sorting, repeated reads, read-backs) may compare. The specification
// states no member as stable from one answer to the next (a link may carry
// a per-response signature, a date-time may be spelled another way), so no
// other member is compared across requests (issue 38). A log entry has no
// id of its own: it is the event it records (who did what to which target
// when).
var identities = map[string][]string{
	"FileLog":            {"targetID", "userGuid", "action", "logDate"},
	"WeblinkLog":         {"targetID", "userGuid", "logDate"},
	"MediaLog":           {"userID", "logDate"},
	"ChannelUser":        {"matrixNo"},
	"FileAnnotation":     {"annotationId"},
	"CaptureSession":     {"sessionID"},
	"Faculty":            {"facC", "deptC"},
	"GradebookSettings":  {"resourceID"},
	"PushResult":         {"transactionId"},
	"SecondFactorResult": {"requestId"},
}

// Identity returns the members that identify a record of the kind named
// by an OpenAPI component (Operation.Record): "id" unless the record has
// none, then the members declared for it.
func Identity(record string) []string {
	if m, ok := identities[record]; ok {
		return append([]string(nil), m...)
	}
	return []string{"id"}
}

// DeclaredIdentities returns the records declared with members other than
// "id" (a copy), for the test holding them to the OpenAPI document.
func DeclaredIdentities() map[string][]string {
	out := make(map[string][]string, len(identities))
	for k, v := range identities {
		out[k] = append([]string(nil), v...)
	}
	return out
}
