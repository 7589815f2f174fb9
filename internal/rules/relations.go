package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/tidwall/gjson"
)

// Relations between list answers. A filtered, searched, sorted, paged or
// populated answer is judged against the whole list read without the
// parameter, entry by entry, by what identifies an entry
// (registry.ListFacts.Identity). Where the specification leaves a reading
// open (the case of a search, whether a date bound includes its own
// instant: Readings), an entry the readings disagree on is Either, and
// only what holds under every reading is judged.

// Match is what a filter must do with an entry under every open reading.
type Match int

// The matches.
const (
	// Either: the readings the specification leaves open disagree.
	Either Match = iota
	// Keep: every reading keeps the entry.
	Keep
	// Drop: every reading drops it.
	Drop
)

func (m Match) String() string {
	switch m {
	case Keep:
		return "kept"
	case Drop:
		return "dropped"
	}
	return "either"
}

// All combines the matches of filters given together: an entry is kept
// when every filter keeps it, dropped when one drops it.
func All(ms ...Match) Match {
	out := Keep
	for _, m := range ms {
		switch m {
		case Drop:
			return Drop
		case Either:
			out = Either
		}
	}
	return out
}

// SearchMatch is what a search for text in members does with an entry:
// kept where a member contains the text as written, dropped where none
// contains it in any case, and either where only a case-blind reading
// finds it (the case of a search is open). An entry that leaves every
// searched member out is either.
func SearchMatch(entry gjson.Result, members []string, text string) Match {
	seen, folded := false, false
	for _, m := range members {
		v := entry.Get(m)
		if v.Type != gjson.String {
			continue
		}
		seen = true
		if strings.Contains(v.Str, text) {
			return Keep
		}
		if strings.Contains(strings.ToLower(v.Str), strings.ToLower(text)) {
			folded = true
		}
	}
	if !seen || folded {
		return Either
	}
	return Drop
}

// DateMatch is what a date bound does with an entry whose member is at t:
// from keeps the entries after the bound, to those before it; an entry
// within the bound's own second is either (whether a bound includes its
// instant is open, and an implementation may read it to the second). An
// entry without a readable date-time is either.
func DateMatch(entry gjson.Result, member string, from bool, bound time.Time) Match {
	t, ok := ReadTime(entry.Get(member))
	if !ok {
		return Either
	}
	if t.Truncate(time.Second).Equal(bound.Truncate(time.Second)) {
		return Either
	}
	if t.After(bound) == from {
		return Keep
	}
	return Drop
}

// ReadTime reads an RFC 3339 date-time member, through the one reader
// (ParseDateTime).
func ReadTime(v gjson.Result) (time.Time, bool) {
	if v.Type != gjson.String {
		return time.Time{}, false
	}
	t, err := ParseDateTime(v.Str)
	return t, err == nil
}

// Key is what identifies an entry: the values of the identity members
// (uuids and other strings compared case-blind, as a uuid reads its hex
// digits in either case), or the whole entry where identity is empty.
func Key(entry gjson.Result, identity []string) string {
	if len(identity) == 0 {
		return Canonical(entry)
	}
	parts := make([]string, len(identity))
	seen := false
	for i, m := range identity {
		v := entry.Get(m)
		switch {
		case !v.Exists() || v.Type == gjson.Null:
			parts[i] = "∅"
			continue
		case v.Type == gjson.String:
			if t, ok := ReadTime(v); ok {
				parts[i] = t.UTC().Format(time.RFC3339Nano)
			} else {
				parts[i] = strings.ToLower(v.Str)
			}
		default:
			parts[i] = Canonical(v)
		}
		seen = true
	}
	if !seen {
		// an entry leaving out every identifying member (optional
		// fields) is told apart by what it holds
		return Canonical(entry)
	}
	return strings.Join(parts, "\x1f")
}

// Identified reports whether some entry carries one of the identity
// members: only then can entries of two answers be matched one to one
// when their other members differ (a populated answer).
func Identified(entries []gjson.Result, identity []string) bool {
	for _, e := range entries {
		for _, m := range identity {
			if v := e.Get(m); v.Exists() && v.Type != gjson.Null {
				return true
			}
		}
	}
	return false
}

func counts(entries []gjson.Result, identity []string) map[string]int {
	out := make(map[string]int, len(entries))
	for _, e := range entries {
		out[Key(e, identity)]++
	}
	return out
}

// Exactly judges a filtered answer against the whole list: every entry it
// holds is one of the list's, none that every reading drops, and, where
// complete (the answer is not cut short by a page size), every entry every
// reading keeps is there. It returns the problems, each naming the entry.
func Exactly(whole, got []gjson.Result, identity []string, match func(gjson.Result) Match, complete bool) []string {
	var problems []string
	left := counts(whole, identity)
	byKey := map[string]gjson.Result{}
	for _, e := range whole {
		byKey[Key(e, identity)] = e
	}
	for i, e := range got {
		k := Key(e, identity)
		if left[k] == 0 {
			problems = append(problems, fmt.Sprintf("entry %d is not an entry of the whole list (or is one more time than there): %s", i, clipJSON(e.Raw)))
			continue
		}
		left[k]--
		if match(byKey[k]) == Drop {
			problems = append(problems, fmt.Sprintf("entry %d should have been dropped: %s", i, clipJSON(e.Raw)))
		}
	}
	if !complete {
		return problems
	}
	for _, e := range whole {
		k := Key(e, identity)
		if left[k] > 0 && match(e) == Keep {
			left[k]--
			problems = append(problems, fmt.Sprintf("an entry that should have been kept is missing: %s", clipJSON(e.Raw)))
		}
	}
	return problems
}

// Tally counts the entries of a list each match has.
func Tally(whole []gjson.Result, match func(gjson.Result) Match) (keep, drop, either int) {
	for _, e := range whole {
		switch match(e) {
		case Keep:
			keep++
		case Drop:
			drop++
		default:
			either++
		}
	}
	return keep, drop, either
}

// SameEntries compares two answers as sets of entries with their
// multiplicity: missing are in want and not in got, extra the reverse.
func SameEntries(want, got []gjson.Result, identity []string) (missing, extra []string) {
	left := counts(want, identity)
	for _, e := range got {
		k := Key(e, identity)
		if left[k] == 0 {
			extra = append(extra, clipJSON(e.Raw))
			continue
		}
		left[k]--
	}
	for _, e := range want {
		k := Key(e, identity)
		if left[k] > 0 {
			left[k]--
			missing = append(missing, clipJSON(e.Raw))
		}
	}
	return missing, extra
}

// PopulateOnly judges an answer read with a populate entity against the
// same answer read without it: the same entries, each with every member
// but those the entity fills as it was (a member left out in one and not
// the other is a change too). filled are the members the entity fills
// (registry.Populate.Filled): none for an entity that fills nothing, which
// then changes no member at all. listed says which members the
// specification lists: only those are compared (nil: every member), since
// a member an implementation adds (an etag) may well follow what is filled.
func PopulateOnly(without, with []gjson.Result, identity, filled []string, listed func(string) bool) []string {
	var problems []string
	missing, extra := SameEntries(without, with, identity)
	for _, m := range missing {
		problems = append(problems, "an entry is gone: "+m)
	}
	for _, m := range extra {
		problems = append(problems, "an entry appeared: "+m)
	}
	if len(problems) > 0 {
		return problems
	}
	byKey := map[string]gjson.Result{}
	for _, e := range without {
		byKey[Key(e, identity)] = e
	}
	for i, e := range with {
		for _, p := range PopulateOnlyRecord(byKey[Key(e, identity)], e, filled, listed) {
			problems = append(problems, fmt.Sprintf("entry %d: %s", i, p))
		}
	}
	return problems
}

// PopulateOnlyRecord judges a record read with a populate entity against
// the same record read without it: every member listed but those filled
// as it was.
func PopulateOnlyRecord(without, with gjson.Result, filled []string, listed func(string) bool) []string {
	var problems []string
	names := map[string]bool{}
	without.ForEach(func(k, _ gjson.Result) bool { names[k.Str] = true; return true })
	with.ForEach(func(k, _ gjson.Result) bool { names[k.Str] = true; return true })
	for _, n := range slices.Sorted(mapKeys(names)) {
		if slices.Contains(filled, n) || listed != nil && !listed(n) {
			continue
		}
		a, b := without.Get(gjson.Escape(n)), with.Get(gjson.Escape(n))
		if absentValue(a) && absentValue(b) {
			continue
		}
		if !SameValue(a, b) {
			problems = append(problems, fmt.Sprintf("%q was %s, is %s", n, orAbsent(a), orAbsent(b)))
		}
	}
	return problems
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func absentValue(v gjson.Result) bool { return !v.Exists() || v.Type == gjson.Null }

func orAbsent(v gjson.Result) string {
	if absentValue(v) {
		return "absent"
	}
	return clipJSON(v.Raw)
}

// Pages judges the pages of a walk with a fixed limit against the whole
// list: together they hold each entry once, none repeated, none skipped.
func Pages(whole []gjson.Result, pages [][]gjson.Result, identity []string) []string {
	var got []gjson.Result
	for _, p := range pages {
		got = append(got, p...)
	}
	missing, extra := SameEntries(whole, got, identity)
	var problems []string
	for _, m := range extra {
		problems = append(problems, "an entry is on more pages than the list holds it (repeated, or foreign): "+m)
	}
	for _, m := range missing {
		problems = append(problems, "an entry of the list is on no page (skipped): "+m)
	}
	return problems
}

// SearchProbe chooses a text to search members for from the list itself,
// so that over-matching shows: preferably a text some entries hold in a
// searched member and others only in another member (which a search of
// the wrong members keeps), else one that keeps some entries and drops
// others. ok is false when no text of the list tells entries apart.
func SearchProbe(whole []gjson.Result, members []string) (text string, ok bool) {
	searched := map[string]bool{}
	for _, m := range members {
		searched[m] = true
	}
	var cands []string
	seen := map[string]bool{}
	add := func(c string) {
		if len([]rune(c)) >= 3 && !seen[c] && len(cands) < 300 {
			seen[c] = true
			cands = append(cands, c)
		}
	}
	for _, e := range whole {
		for _, m := range members {
			v := e.Get(m)
			if v.Type != gjson.String {
				continue
			}
			for _, w := range strings.FieldsFunc(v.Str, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				add(w)
			}
			add(v.Str)
		}
	}
	best, bestScore := "", [2]int{-1, -1}
	for _, c := range cands {
		keep, drop, over := 0, 0, 0
		for _, e := range whole {
			switch SearchMatch(e, members, c) {
			case Keep:
				keep++
			case Drop:
				drop++
				if elsewhere(e, searched, c) {
					over++
				}
			}
		}
		if keep == 0 || drop == 0 {
			continue
		}
		if score := [2]int{over, drop}; score[0] > bestScore[0] || score[0] == bestScore[0] && score[1] > bestScore[1] {
			best, bestScore = c, score
		}
	}
	return best, best != ""
}

// elsewhere reports whether an entry holds text, in any case, in a string
// member other than the searched ones.
func elsewhere(e gjson.Result, searched map[string]bool, text string) bool {
	found := false
	low := strings.ToLower(text)
	e.ForEach(func(k, v gjson.Result) bool {
		if !searched[k.Str] && v.Type == gjson.String && strings.Contains(strings.ToLower(v.Str), low) {
			found = true
		}
		return !found
	})
	return found
}

// BoundProbe chooses a date bound from the list itself: the date-time of
// the member of an entry at about fraction (0..1) of the instants the
// list holds, with an instant surely on each side of it. It returns the
// entry's own text of it (as the implementation writes it, in upper case) and the
// instant; ok is false when the list holds fewer than three distinct
// seconds.
func BoundProbe(whole []gjson.Result, member string, fraction float64) (text string, at time.Time, ok bool) {
	type inst struct {
		t   time.Time
		raw string
	}
	var ts []inst
	seen := map[int64]bool{}
	for _, e := range whole {
		v := e.Get(member)
		t, ok := ReadTime(v)
		if !ok || seen[t.Unix()] {
			continue
		}
		seen[t.Unix()] = true
		// the entry's own spelling, in upper case: RFC 3339 allows a
		// lower-case t and z, which a reader of the query may not take
		ts = append(ts, inst{t, strings.ToUpper(v.Str)})
	}
	if len(ts) < 3 {
		return "", time.Time{}, false
	}
	slices.SortFunc(ts, func(a, b inst) int { return a.t.Compare(b.t) })
	i := min(max(int(fraction*float64(len(ts)-1)+0.5), 1), len(ts)-2)
	return ts[i].raw, ts[i].t, true
}

func clipJSON(s string) string {
	const n = 200
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ReferenceAnswer judges the records of an answer against a record its
// request named (registry.Reference): each record's member names it
// (Names). A member left out (or null) is passed over where optional and
// a Breach where required; seen counts the records that carried it, so
// that a producer tells a kept rule from one it could not observe (seen
// 0). list words the records as the entries of a list.
func ReferenceAnswer(records []gjson.Result, member, input string, want gjson.Result, optional, list bool) (b *Breach, seen int) {
	for i, rec := range records {
		where := "the answer"
		if list {
			where = fmt.Sprintf("entry %d", i)
		}
		v := rec.Get(member)
		if !v.Exists() || v.Type == gjson.Null {
			if optional {
				continue
			}
			return &Breach{Expected: fmt.Sprintf("%q, a required member, naming %s", member, want.Raw), Got: where + " without it"}, seen
		}
		seen++
		if !Names(v, want) {
			return &Breach{Expected: fmt.Sprintf("%q naming the record the request named (%s, its %s)", member, want.Raw, input),
				Got: fmt.Sprintf("%s with %q %s", where, member, clipRaw(v.Raw))}, seen
		}
	}
	return nil, seen
}

// DistinctAnswer judges the entries of one answer against a member no two
// of them may share (registry.Distinct): equal JSON values, compared as
// written, in two entries are a Breach; entries leaving the member out
// are passed over.
func DistinctAnswer(records []gjson.Result, member string) *Breach {
	seen := map[string]int{}
	for i, rec := range records {
		v := rec.Get(member)
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		if j, twice := seen[v.Raw]; twice {
			return &Breach{Expected: fmt.Sprintf("one entry per %q", member), Got: fmt.Sprintf("entries %d and %d both with %s", j, i, clipRaw(v.Raw))}
		}
		seen[v.Raw] = i
	}
	return nil
}

// clipRaw shortens a JSON value for a Breach.
func clipRaw(raw string) string {
	if len(raw) > 80 {
		return raw[:80] + "..."
	}
	return raw
}

// Names reports whether a member names the record the request named: the
// same string in any case (a uuid reads its hex digits in either case),
// or the same number.
func Names(member, input gjson.Result) bool {
	switch {
	case member.Type == gjson.String && input.Type == gjson.String:
		return strings.EqualFold(member.Str, input.Str)
	case member.Type == gjson.Number && input.Type == gjson.Number:
		return member.Raw == input.Raw || member.Float() == input.Float()
	}
	return false
}
