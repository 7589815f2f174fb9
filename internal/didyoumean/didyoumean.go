// Package didyoumean suggests the known name a mistyped one was meant to
// be, for error messages about fixture keys and flag values.
package didyoumean

import "strings"

// Suggest returns the name in known closest to got, and whether one is
// close enough to suggest: a name equal but for case always is; otherwise
// the nearest by edit distance, if at most a third of got's length (and at
// least 1, at most 3) edits away. Ties go to the name listed first.
func Suggest(got string, known []string) (string, bool) {
	for _, k := range known {
		if k != got && strings.EqualFold(k, got) {
			return k, true
		}
	}
	limit := min(max(len([]rune(got))/3, 1), 3)
	best, bestD := "", limit+1
	for _, k := range known {
		if d := Distance(strings.ToLower(got), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best, best != ""
}

// Hint is Suggest worded for an error message: `; did you mean "x"?`, or
// "" when nothing is close.
func Hint(got string, known []string) string {
	if s, ok := Suggest(got, known); ok {
		return `; did you mean "` + s + `"?`
	}
	return ""
}

// Distance is the Levenshtein distance between a and b, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
