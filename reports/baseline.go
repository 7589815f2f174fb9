package reports

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// BaselineVersion is the version of the baseline file form this program
// writes. ReadBaseline still reads version 1 files.
const BaselineVersion = 2

// DateLayout is the form of a baseline entry's expiry date (YYYY-MM-DD).
const DateLayout = time.DateOnly

// Baseline is the list of requirements known to fail, kept in a JSON file
// (by convention .conformance-baseline.json) next to the code under test.
// A CI run passes the gate when every failed MUST requirement has an entry
// that has not expired, so an implementation can adopt the suite before it
// conforms and still fail on any new failure. The file is meant to shrink:
// the gate names entries that now pass, and an entry with an expiry date
// excuses its failure only until that day.
//
//	{
//	  "version": 2,
//	  "entries": [
//	    {"id": "E5.403", "reason": "role model lands in 2.4", "expires": "2027-03-31", "owner": "team-timetable"}
//	  ]
//	}
type Baseline struct {
	// Version is the version of the file it was read from, or
	// BaselineVersion.
	Version int `json:"version"`
	// Entries are the known failures, sorted by id, one per id.
	Entries []BaselineEntry `json:"entries"`
}

// BaselineEntry is one known failure.
type BaselineEntry struct {
	// ID is the requirement id.
	ID string `json:"id"`
	// Reason says why the failure is accepted for now; required.
	Reason string `json:"reason"`
	// Expires, when set, is the last day (YYYY-MM-DD, UTC) the entry
	// excuses its failure; from the next day on the gate treats the
	// failure as unexcused and names the entry as expired.
	Expires string `json:"expires,omitempty"`
	// Owner, when set, is who answers for the entry.
	Owner string `json:"owner,omitempty"`
}

// baselineV1 is the version 1 form: ids, and optional reasons for the
// reviewer.
type baselineV1 struct {
	Version      int               `json:"version"`
	Requirements []string          `json:"requirements"`
	Reasons      map[string]string `json:"reasons,omitempty"`
}

// BaselineOptions say what BaselineFrom writes into every entry.
type BaselineOptions struct {
	// Reason, when set, is every entry's reason. When empty, each entry
	// says what failed and when: "failed in the run of 2026-11-25:
	// expected 403, got 204".
	Reason string
	// Expires and Owner, when set, are every entry's expiry date
	// (YYYY-MM-DD) and owner.
	Expires, Owner string
}

// BaselineFrom returns the baseline of r: an entry for each requirement
// that failed in it, MUST and SHOULD alike. r should be finalized.
func BaselineFrom(r *Report, o BaselineOptions) Baseline {
	b := Baseline{Version: BaselineVersion, Entries: []BaselineEntry{}}
	when := ""
	if !r.Started.IsZero() {
		when = " of " + r.Started.UTC().Format(DateLayout)
	}
	must, should := failedRequirements(r)
	for _, f := range append(must, should...) {
		reason := o.Reason
		if reason == "" {
			reason = "failed in the run" + when + ": " + f.Reason
		}
		b.Entries = append(b.Entries, BaselineEntry{ID: f.ID, Reason: reason, Expires: o.Expires, Owner: o.Owner})
	}
	slices.SortFunc(b.Entries, func(x, y BaselineEntry) int { return cmp.Compare(x.ID, y.ID) })
	return b
}

// IDs returns the requirement ids of the entries, sorted.
func (b Baseline) IDs() []string {
	ids := make([]string, 0, len(b.Entries))
	for _, e := range b.Entries {
		ids = append(ids, e.ID)
	}
	slices.Sort(ids)
	return ids
}

// ReadBaseline reads a baseline file of version 2 or 1, of at most
// MaxBaselineFile bytes. It refuses unknown
// fields, since a misspelt field in a hand-edited file would silently gate
// nothing; a version it does not read (wrapping ErrVersion); and entries
// without an id, without a reason (version 2), with an expiry date not
// written YYYY-MM-DD, or repeating an id. Errors name the file and the
// entry.
func ReadBaseline(path string) (Baseline, error) {
	data, err := readBounded(path, MaxBaselineFile, "")
	if err != nil {
		return Baseline{}, err
	}
	b, err := decodeBaseline(data)
	if err != nil {
		return Baseline{}, fmt.Errorf("baseline %s: %w", path, err)
	}
	return b, nil
}

func decodeBaseline(data []byte) (Baseline, error) {
	var head struct {
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Baseline{}, err
	}
	var version int
	if err := json.Unmarshal(head.Version, &version); err != nil {
		return Baseline{}, fmt.Errorf("version: expected %d or 1, got %s: %w", BaselineVersion, clipRaw(head.Version), ErrVersion)
	}
	strict := func(v any) error {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		return dec.Decode(v)
	}
	var b Baseline
	switch version {
	case 1:
		var v1 baselineV1
		if err := strict(&v1); err != nil {
			return Baseline{}, err
		}
		b.Version = 1
		for i, id := range v1.Requirements {
			if strings.TrimSpace(id) == "" {
				return Baseline{}, fmt.Errorf("requirements[%d]: expected a requirement id, got %q", i, id)
			}
			b.Entries = append(b.Entries, BaselineEntry{ID: id, Reason: v1.Reasons[id]})
		}
	case 2:
		if err := strict(&b); err != nil {
			return Baseline{}, err
		}
		for i, e := range b.Entries {
			if err := e.check(); err != nil {
				return Baseline{}, fmt.Errorf("entries[%d]: %w", i, err)
			}
		}
	default:
		return Baseline{}, fmt.Errorf("version: expected %d or 1, got %d: %w", BaselineVersion, version, ErrVersion)
	}
	seen := map[string]bool{}
	for i, e := range b.Entries {
		if seen[e.ID] {
			return Baseline{}, fmt.Errorf("entry %d: requirement %q is listed twice: expected one entry per id", i, e.ID)
		}
		seen[e.ID] = true
	}
	if b.Entries == nil {
		b.Entries = []BaselineEntry{}
	}
	return b, nil
}

// check says what is wrong with a version 2 entry.
func (e BaselineEntry) check() error {
	if strings.TrimSpace(e.ID) == "" {
		return fmt.Errorf("id: expected a requirement id, got %q", e.ID)
	}
	if strings.TrimSpace(e.Reason) == "" {
		return fmt.Errorf("%s: reason: expected why the failure is accepted, got nothing", e.ID)
	}
	if e.Expires != "" {
		if _, err := ParseDate(e.Expires); err != nil {
			return fmt.Errorf("%s: expires: %w", e.ID, err)
		}
	}
	return nil
}

// ParseDate reads an expiry date: YYYY-MM-DD, a day in UTC.
func ParseDate(s string) (time.Time, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("expected a date YYYY-MM-DD, got %q", s)
	}
	return t, nil
}

// expired reports whether e no longer excuses its failure on the day of
// now (UTC): its expiry date is before that day.
func (e BaselineEntry) expired(now time.Time) bool {
	if e.Expires == "" {
		return false
	}
	t, err := ParseDate(e.Expires)
	if err != nil {
		return true // ReadBaseline refuses it; a hand-built one excuses nothing
	}
	today := now.UTC().Format(DateLayout)
	return t.Format(DateLayout) < today
}

// WriteBaseline writes b to path as indented JSON, version
// BaselineVersion, entries sorted by id (the first of a repeated id kept),
// so that regenerating it gives a small diff. It refuses an entry
// ReadBaseline would refuse.
func WriteBaseline(path string, b Baseline) error {
	b.Version = BaselineVersion
	entries := slices.Clone(b.Entries)
	slices.SortStableFunc(entries, func(x, y BaselineEntry) int { return cmp.Compare(x.ID, y.ID) })
	entries = slices.CompactFunc(entries, func(x, y BaselineEntry) bool { return x.ID == y.ID })
	for i, e := range entries {
		if err := e.check(); err != nil {
			return fmt.Errorf("baseline %s: entries[%d]: %w", path, i, err)
		}
	}
	if entries == nil {
		entries = []BaselineEntry{}
	}
	b.Entries = entries
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// GateResult is the outcome of Baseline.Gate. report.json carries it (as
// "gate") when the run had a baseline, so summary.md and the diff can say
// it too.
type GateResult struct {
	// File is the baseline file, when the caller sets it.
	File string `json:"file,omitempty"`
	// Date is the day (YYYY-MM-DD, UTC) expiry dates were judged against.
	Date string `json:"date"`
	// Pass is true when every failed MUST requirement has an entry that
	// has not expired.
	Pass bool `json:"pass"`
	// New are the failed requirements without an entry, MUST and SHOULD
	// alike; NewMust are those of them that are MUST and so fail the gate.
	New     []string `json:"new,omitempty"`
	NewMust []string `json:"newMust,omitempty"`
	// Known are the entries, not expired, that still fail.
	Known []string `json:"known,omitempty"`
	// Fixed are the entries that now pass: remove them, so that they
	// cannot regress unnoticed.
	Fixed []string `json:"fixed,omitempty"`
	// NotRun are the entries no scenario concluded on in this run (not
	// run, or unknown to the catalogue): neither fixed nor failing.
	NotRun []string `json:"notRun,omitempty"`
	// Expired are the entries past their expiry date, whatever their
	// result; ExpiredMust are the failed MUST requirements whose entry has
	// expired, which fail the gate as a new failure would.
	Expired     []ExpiredEntry `json:"expired,omitempty"`
	ExpiredMust []string       `json:"expiredMust,omitempty"`
	// Ran is false when no scenario ran at all; the gate then proves
	// nothing even when it passes.
	Ran bool `json:"ran"`
}

// ExpiredEntry is a baseline entry past its expiry date, with its
// requirement's result in the run: "failed" (no longer excused),
// "passed" (remove it) or "not run".
type ExpiredEntry struct {
	BaselineEntry
	Result Result `json:"result"`
}

// Gate compares the failures of a finalized report with the baseline, on
// the day of now: an entry whose expiry date is before that day excuses
// nothing.
func (b Baseline) Gate(r *Report, now time.Time) GateResult {
	entry := map[string]BaselineEntry{}
	for _, e := range b.Entries {
		if _, ok := entry[e.ID]; !ok {
			entry[e.ID] = e
		}
	}
	must, should := failedRequirements(r)
	failed := map[string]bool{}
	g := GateResult{Pass: true, Ran: r.Counts.Passed+r.Counts.Failed > 0, Date: now.UTC().Format(DateLayout)}
	for _, f := range append(must, should...) {
		failed[f.ID] = true
		e, listed := entry[f.ID]
		isMust := f.Strictness != Should
		switch {
		case !listed:
			g.New = append(g.New, f.ID)
			if isMust {
				g.NewMust = append(g.NewMust, f.ID)
				g.Pass = false
			}
		case e.expired(now) && isMust:
			g.ExpiredMust = append(g.ExpiredMust, f.ID)
			g.Pass = false
		}
	}
	result := map[string]Result{}
	for _, q := range r.Requirements {
		result[q.ID] = q.Result
	}
	for _, id := range b.IDs() {
		e := entry[id]
		res := ResultNotRun
		switch {
		case failed[id]:
			res = ResultFailed
			if !e.expired(now) {
				g.Known = append(g.Known, id)
			}
		case result[id] == ResultPassed:
			res = ResultPassed
			g.Fixed = append(g.Fixed, id)
		default:
			g.NotRun = append(g.NotRun, id)
		}
		if e.expired(now) {
			g.Expired = append(g.Expired, ExpiredEntry{BaselineEntry: e, Result: res})
		}
	}
	slices.Sort(g.New)
	slices.Sort(g.NewMust)
	slices.Sort(g.ExpiredMust)
	return g
}

// String says in plain words whether the gate passed, which failures are
// new, which entries have expired, and which entries can go.
func (g GateResult) String() string {
	var b strings.Builder
	if g.Pass {
		b.WriteString("Baseline gate passed: every failed MUST requirement is in the baseline.")
	} else {
		var why []string
		if len(g.NewMust) > 0 {
			why = append(why, fmt.Sprintf("%s not in the baseline: %s",
				plural(len(g.NewMust), "failed MUST requirement is", "failed MUST requirements are"), strings.Join(g.NewMust, ", ")))
		}
		if len(g.ExpiredMust) > 0 {
			why = append(why, fmt.Sprintf("%s no longer excused, %s baseline entry expired: %s",
				plural(len(g.ExpiredMust), "failed MUST requirement is", "failed MUST requirements are"),
				verb(len(g.ExpiredMust), "its", "their"), strings.Join(g.ExpiredMust, ", ")))
		}
		fmt.Fprintf(&b, "Baseline gate failed: %s.", strings.Join(why, "; "))
	}
	if !g.Ran {
		b.WriteString("\nNo scenario ran, so this proves nothing: check the fixtures and options.")
	}
	if warn := without(g.New, g.NewMust); len(warn) > 0 {
		fmt.Fprintf(&b, "\n%s not in the baseline (a warning: the gate ignores SHOULD): %s.",
			plural(len(warn), "failed SHOULD requirement is", "failed SHOULD requirements are"), strings.Join(warn, ", "))
	}
	if len(g.Expired) > 0 {
		fmt.Fprintf(&b, "\n%s expired (an expired entry excuses nothing: fix the failure, or renew the date with a reason): %s.",
			plural(len(g.Expired), "baseline entry has", "baseline entries have"), strings.Join(expiredList(g.Expired), "; "))
	}
	if len(g.Known) > 0 {
		fmt.Fprintf(&b, "\n%s still %s as the baseline expects.", plural(len(g.Known), "baseline entry", "baseline entries"), verb(len(g.Known), "fails", "fail"))
	}
	if len(g.Fixed) > 0 {
		fmt.Fprintf(&b, "\n%s now %s; remove %s from the baseline: %s.",
			plural(len(g.Fixed), "baseline entry", "baseline entries"), verb(len(g.Fixed), "passes", "pass"),
			verb(len(g.Fixed), "it", "them"), strings.Join(g.Fixed, ", "))
	} else if len(g.Known)+len(g.NotRun) > 0 {
		b.WriteString("\nNo baseline entry passes yet.")
	}
	if len(g.NotRun) > 0 {
		fmt.Fprintf(&b, "\n%s did not run this time: %s.", plural(len(g.NotRun), "baseline entry", "baseline entries"), strings.Join(g.NotRun, ", "))
	}
	return b.String()
}

// expiredList describes expired entries, one string each: "E7.x (expired
// 2026-01-31, owner team-a, still fails)".
func expiredList(es []ExpiredEntry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.ID+" ("+e.Describe()+")")
	}
	return out
}

// Describe says when an expired entry expired, whose it is and what its
// requirement did in the run.
func (e ExpiredEntry) Describe() string {
	s := "expired " + e.Expires
	if e.Owner != "" {
		s += ", owner " + e.Owner
	}
	switch e.Result {
	case ResultFailed:
		s += ", still fails"
	case ResultPassed:
		s += ", now passes"
	default:
		s += ", not run"
	}
	return s
}

// clipRaw shows at most 40 bytes of a raw JSON value in a message.
func clipRaw(b json.RawMessage) string {
	if len(b) == 0 {
		return "nothing"
	}
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func without(list, drop []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}
