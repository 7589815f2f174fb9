// Package decisions names the simulator's documented choices that an
// answer can depend on, each by a stable id of docs/decisions.md. A handler
// (or the shared helper it calls) that takes a choice's branch notes it on
// the request (simulator/ops); the request log, the console and the
// traffic report name it, so a front end learns what it relies on before
// it meets an implementation that chose otherwise. The section "Decision
// ids" of docs/decisions.md is generated from this table
// (TestDecisionsDoc).
package decisions

// Choice is one decision, as a bit of a Set.
type Choice uint8

// The decisions, in report order. A new one is a line here and a row of
// table; TestDecisionsDoc then asks for the page to be regenerated.
const (
	UnplacedPaths Choice = iota
	Auth401
	ExtraPermissions
	LimitDefault
	LimitBounds
	SortDefault
	SortbySyntax
	WhereSyntax
	DateBounds
	UnknownID
	Delete204
	Counts
	// NumChoices is the number of decisions.
	NumChoices
)

// Decision is one documented choice of the simulator that an answer can
// depend on: its id in docs/decisions.md, what the simulator does, what a
// real implementation may do instead and how an app stays robust to it.
type Decision struct {
	ID string `json:"id"`
	// Simulator says what the simulator does.
	Simulator string `json:"simulator"`
	// Instead says what a real implementation may do instead.
	Instead string `json:"instead"`
	// Robust says how to make the app robust to it.
	Robust string `json:"robust"`
	// Section is the heading of docs/decisions.md that gives the details.
	Section string `json:"section"`
}

var table = [NumChoices]Decision{
	UnplacedPaths: {"D-unplaced-paths",
		"serves the five operations the specification does not place (GB, ES, NG, NR, QS) at its own method and path, and takes its own body for ES",
		"another method or path for each, and another body for the evaluation session update",
		"keep the five paths (and the ES body) in configuration, not in code, and take them from the implementation's documentation",
		"Where the five unplaced operations live"},
	Auth401: {"D-auth-401",
		"answers 401 to a missing or unknown subscription key or bearer token",
		"400 or 403 from its gateway (the specification lists no 401), with a body that may not be a JSON string",
		"handle 400, 401 and 403 alike where the key or the token may be at fault (missing, expired, revoked), and do not branch on 401 alone",
		"Who is calling"},
	ExtraPermissions: {"D-extra-permissions",
		"refuses students every write and every log read with 403, beyond the two permissions the specification states",
		"allow them, or refuse other roles (staff without a right) other operations",
		"handle 403 on every operation, not only faculty sync and slot deletion, and do not hide features by role on the strength of the simulator's refusals",
		"Who is calling"},
	LimitDefault: {"D-limit-default",
		"gives a list without limit its first 100 entries",
		"another default page size (10, 25), or the whole list",
		"send limit on every list read and walk the pages with offset until a page comes back short",
		"Lists"},
	LimitBounds: {"D-limit-bounds",
		"accepts limit up to 1000 and offsets up to 2147483647, and answers limit=0 with an empty page",
		"a lower cap, answered with 400 or silently applied, and limit=0 read as no limit",
		"ask for pages of at most 100, expect fewer entries than asked, and never send limit=0",
		"Open bounds and filters"},
	SortDefault: {"D-sort-default",
		"lists records in creation order (the logs oldest first) when no sortby is given",
		"any order, newest first included, and not necessarily the same order from one call to the next",
		"send sortby where the order matters, or sort on the client",
		"Lists"},
	SortbySyntax: {"D-sortby-syntax",
		"reads sortby as field, field asc or field desc, several keys joined by commas",
		"another syntax (-field, field:desc), a single key only, or sortby ignored",
		"take the sortby syntax from the implementation's documentation, and check the order of what comes back",
		"Lists"},
	WhereSyntax: {"D-where-syntax",
		"reads where as field:value, an exact match ignoring case",
		"another syntax or matching rule, or where ignored",
		"take the where syntax from the implementation's documentation, and filter again on the client",
		"Lists"},
	DateBounds: {"D-date-bounds",
		"includes both ends of a date range (E10 StartDate/EndDate, E15 startDate/endDate), and E15's dates filter the days summed",
		"either end excluded, and E15's dates ignored",
		"widen the range by a second on each side where an instant on the bound matters, and do not rely on E15 filtering",
		"Open bounds and filters"},
	UnknownID: {"D-unknown-id",
		"answers an id that names no record with 400, or with an empty list (the logs), where the specification lists no 404",
		"404, 400 or an empty answer, in any combination",
		"treat 400, 404 and an empty list alike as \"no such record\" after a write, and check ids before relying on them",
		"Not-found and other statuses"},
	Delete204: {"D-delete-204",
		"answers a successful slot deletion (E5) with 204 and no body",
		"200 with the ids it deleted",
		"accept any 2xx for E5 and do not read its body",
		"Not-found and other statuses"},
	Counts: {"D-counts",
		"counts, in E14's and E21's \"number of records affected\", the distinct ids named that exist",
		"count only the records the call changed, or each id as named",
		"do not compare the count with the number of ids sent; read the records back where it matters",
		"Open bounds and filters"},
}

// All returns every documented choice the simulator can report a request
// relying on, in report order.
func All() []Decision { return table[:] }

// Decision returns the documented choice c.
func (c Choice) Decision() Decision { return table[c] }

// Set is a set of decisions, one bit each.
type Set uint32

// Has reports whether c is in the set.
func (s Set) Has(c Choice) bool { return s&(1<<c) != 0 }

// Add puts c in the set.
func (s *Set) Add(c Choice) { *s |= 1 << c }

// IDs lists the set's decision ids in table order (nil when empty).
func (s Set) IDs() []string {
	if s == 0 {
		return nil
	}
	var out []string
	for c := range NumChoices {
		if s.Has(c) {
			out = append(out, table[c].ID)
		}
	}
	return out
}
