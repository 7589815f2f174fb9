package rules

import (
	"time"

	"github.com/campusconf/campusconf/internal/registry"
)

// Open bounds. The specification names the ends of some ranges and
// filters without saying whether an end is included, and leaves other
// readings of a bound open (OpenDateRange, OpenPaging). Every producer
// (the scenarios, the proxy, the generated requests, the front-end
// contract) judges such a bound by what holds under every reading: an
// entry strictly inside the range is kept, one strictly outside is not;
// an entry at a bound's own instant is either. Readings lists each such
// matter with the readings a faithful implementation may take; the
// simulator makes one of them (docs/decisions.md, "Open bounds and
// filters"), and a faithful variant of the simulator takes another.

// DateRange is a range of instants whose ends may each be included or
// not. A zero Start or End leaves that side open.
type DateRange struct {
	Start, End time.Time
}

// SurelyInside reports whether t lies in the range under every reading of
// its ends: strictly after Start and strictly before End.
func (r DateRange) SurelyInside(t time.Time) bool {
	return (r.Start.IsZero() || t.After(r.Start)) && (r.End.IsZero() || t.Before(r.End))
}

// SurelyOutside reports whether t lies outside the range under every
// reading of its ends: strictly before Start or strictly after End.
func (r DateRange) SurelyOutside(t time.Time) bool {
	return !r.Start.IsZero() && t.Before(r.Start) || !r.End.IsZero() && t.After(r.End)
}

// Between returns an instant strictly between a and b (a before b): a
// bound a check can send so that the entries on each side of it are surely
// inside or surely outside, whichever way its end is read. It falls on a
// whole second where a and b are two seconds apart or more, so that an
// implementation that reads bounds to the second reads the same bound. It
// returns the zero time when a is not before b.
func Between(a, b time.Time) time.Time {
	if !a.Before(b) {
		return time.Time{}
	}
	mid := a.Add(b.Sub(a) / 2)
	if b.Sub(a) >= 2*time.Second {
		if s := mid.Truncate(time.Second); s.After(a) {
			return s
		}
	}
	return mid
}

// DateFilter is a date-time range an operation takes in its query.
type DateFilter struct {
	Op registry.OpID
	// Start and End are the query parameters of the range's ends.
	Start, End string
	// Field is the date-time field of the entries the range bounds, ""
	// where the specification names none.
	Field string
	// Filters says the specification states that the range filters the
	// entries; where false, whether it filters at all is open too.
	Filters bool
}

// DateFilters are the date-time ranges of the interface: E10's keeps the
// download log entries dated in it ("begin of range", "end of range");
// E15's two dates are listed with no word on what they do.
var DateFilters = []DateFilter{
	{Op: registry.E10, Start: "StartDate", End: "EndDate", Field: "logDate", Filters: true},
	{Op: registry.E15, Start: "startDate", End: "endDate"},
}

// Reading is one matter of a bound, filter or count the specification
// leaves open, with the readings a faithful implementation may take and
// what holds under all of them, which is all any producer checks.
type Reading struct {
	// ID names the matter; docs/decisions.md names it too, with the
	// simulator's reading.
	ID string
	// Topic says what is open; Section is where the specification leaves
	// it so.
	Topic, Section string
	// Readings are the faithful readings.
	Readings []string
	// Holds is what holds under every reading: what is checked.
	Holds string
}

// Readings are the open bounds, filters and counts.
var Readings = []Reading{
	{ID: "dates-ends", Topic: "whether E10's StartDate and EndDate, and E15's startDate and endDate, include an instant equal to them",
		Section:  "Endpoints (E10: begin and end of range; E15)",
		Readings: []string{"both ends included", "the start excluded", "the end excluded", "both excluded"},
		Holds:    "an entry strictly inside the range is kept and one strictly outside is not (DateRange); the suite's bound falls strictly between two entries (Between)"},
	{ID: "search-case", Topic: "whether E10's SearchText matches the student name or file name ignoring case",
		Section:  "Endpoints (E10: SearchText filters by student name or file name)",
		Readings: []string{"ignoring case", "as written"},
		Holds:    "an entry whose name or fileName holds the text as written is kept, one where neither holds it in any case is dropped; one holding it only in another case is either (SearchMatch)"},
	{ID: "e15-dates-filter", Topic: "whether E15's startDate and endDate filter the statistics at all, and how (the days summed, the users listed)",
		Section:  "Endpoints (E15)",
		Readings: []string{"the statistics are summed over the days in the range", "the dates are ignored"},
		Holds:    "a date that is not an RFC 3339 date-time is refused; nothing is checked of what a valid range does"},
	{ID: "dates-one-end", Topic: "a range with one end, or a start after its end",
		Section:  "Endpoints (E10, E15)",
		Readings: []string{"the other side open", "an empty list", "a refusal (400)"},
		Holds:    "nothing: no check sends a start after its end, and one end alone is judged by DateRange"},
	{ID: "offset-past-end", Topic: "an offset at or past the length of the list, and offsets beyond a cap",
		Section:  "Endpoints (offset); Limits (maximum and default not shown)",
		Readings: []string{"an empty page", "a refusal (400) beyond a cap of the implementation"},
		Holds:    "the offset just past the entries a walk through the pages read gives an empty page; no offset beyond what the list showed is sent, and a refusal inside the list makes the walk unobservable"},
	{ID: "limit-bound", Topic: "limit as a bound: its default, its maximum, and limit=0",
		Section:  "Endpoints (limit); Limits (maximum and default not shown)",
		Readings: []string{"at most limit entries, limit=0 an empty page", "limit=0 read as no limit", "a refusal (400) beyond a cap"},
		Holds:    "limit=2 returns at most 2 entries; no other value of limit is judged"},
	{ID: "counts", Topic: "what E14's and E21's 'number of records affected' counts: the records named that exist, or those the call changed, and an id named twice",
		Section:  "Endpoints (E14, E21)",
		Readings: []string{"the distinct records named that exist", "the records the call changed"},
		Holds:    "a count of distinct existing ids, each of which the call changes (E21 sets the opposite flag first); ids that name no record are never counted"},
}
