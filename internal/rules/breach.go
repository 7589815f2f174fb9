package rules

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
