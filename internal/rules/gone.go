package rules

import "fmt"

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
