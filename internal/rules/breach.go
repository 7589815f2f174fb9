package rules

import "fmt"

// Breach is what an answer shows against a rule: what the rule expects and
// what came back, worded for a report ("expected X, got Y"). A predicate
// of this package returns nil for an answer that keeps its rule, so no
// producer reads an empty string as a pass.
type Breach struct {
	Expected, Got string
}

// breachIf returns a Breach of expected and got when bad holds, nil
// otherwise.
func breachIf(bad bool, expected, got string) *Breach {
	if !bad {
		return nil
	}
	return &Breach{Expected: expected, Got: got}
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
