// Package variants names the faithful alternatives the simulator can take
// wherever the specification is silent or permissive: another status for a
// missing subscription key, other paths for the operations it does not
// place, other list defaults, other but equally valid spellings of values.
// A variant is the dual of a defect (simulator/defects): a defect breaks a
// stated rule and the suite must fail it; a variant makes another choice the
// specification allows and the suite must pass it (harness/faithful). A Set
// is consulted at each decision point; the zero Set has no variant and the
// simulator behaves as docs/decisions.md describes.
package variants

import (
	"fmt"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/internal/switchset"
)

// Name names a variant: the switch, as given to `campusconf serve
// --variant NAME`. The simulator checks a variant by its Name constant only.
type Name string

// Variant is one switchable faithful choice.
type Variant struct {
	// Name is the switch, as given to `campusconf serve --variant NAME`.
	Name Name
	// Description says in one line what the simulator then does.
	Description string
	// Exercises is the open point (an openPoints id of
	// features/requirements.json) or the section of the specification
	// whose permission the choice uses.
	Exercises string
	// Choice groups variants that decide the same thing another way; two
	// variants of one choice cannot be switched on together.
	Choice string
	// Skips is the number of scenarios the suite reports as skipped with
	// the variant on (its fixture leaves out what they need), and
	// SkipReason a text each of their reasons contains.
	Skips      int
	SkipReason string
}

// The variant names. Each constant is the only spelling the simulator
// checks, so a typo is a compile error rather than a silent no-op.
const (
	Key403 Name = "key-403"
	Key400 Name = "key-400"
	Key404 Name = "key-404"
	// Token403 refuses a missing or unknown bearer token with 403, as
	// many gateways do: the setup tests run a fixture's mistakes on it.
	Token403         Name = "token-403"
	E5200IDs         Name = "e5-200-ids"
	AltPaths         Name = "alt-paths"
	UserHeader       Name = "user-header"
	OmitFalse        Name = "omit-false"
	UUIDUpper        Name = "uuid-upper"
	LocalOffsets     Name = "local-offsets"
	ExtraFields      Name = "extra-fields"
	QuizPatch        Name = "quiz-patch"
	QuizLenient      Name = "quiz-lenient"
	E21ChangedCount  Name = "e21-changed-count"
	Page10           Name = "page-10"
	NewestFirst      Name = "newest-first"
	NoSortbySyntax   Name = "no-sortby-syntax"
	OTPStatic        Name = "otp-static"
	OTPWrong400      Name = "otp-wrong-400"
	PushPendingFirst Name = "push-pending-first"
	NoForbiddenTable Name = "no-forbidden-table"
	PopulateExact    Name = "populate-exact"
	Charset          Name = "charset"
	E5AnyAbsent404   Name = "e5-any-absent-404"
	GradebookReplace Name = "gradebook-replace"
	Nulls            Name = "nulls"
	OptionalAbsent   Name = "optional-absent"
	PagingCapped     Name = "paging-capped"
	FewEntries       Name = "few-entries"

	DatesStartExclusive Name = "dates-start-exclusive"
	DatesEndExclusive   Name = "dates-end-exclusive"
	E15DatesUnfiltered  Name = "e15-dates-unfiltered"
	PermissionPerRecord Name = "permission-per-record"
	SortbyDash          Name = "sortby-dash"
	SearchCaseSensitive Name = "search-case-sensitive"
	WhereIgnored        Name = "where-ignored"
	UnknownID404        Name = "unknown-id-404"

	// The faithful behaviours of real deployments (issue 38).
	RateLimit      Name = "rate-limit"
	PushPendingFor Name = "push-pending-for"
	DateLowerCase  Name = "date-lower-case"
	SignedLinks    Name = "signed-links"
)

// RateLimitPerSecond is the rate past which the rate-limit variant answers
// 429: the operations of one world share a window of one second.
const RateLimitPerSecond = 150

// PushPendingSeconds is how long, from its first poll, the
// push-pending-for variant keeps a push pending.
const PushPendingSeconds = 3

// StaticOTP is the one-time password of the otp-static variant.
const StaticOTP = "482915"

// UserTokenHeader is the header that conveys the login user's token with
// the user-header variant.
const UserTokenHeader = "X-Campus-User"

// catalogue lists every variant, sorted by name.
var catalogue = sorted([]Variant{
	{Name: Key403, Choice: "key-status", Exercises: "OP.key-status",
		Description: "a missing or unknown subscription key is refused with 403 instead of 401"},
	{Name: Key400, Choice: "key-status", Exercises: "OP.key-status",
		Description: "a missing or unknown subscription key is refused with 400 instead of 401"},
	{Name: Key404, Choice: "key-status", Exercises: "OP.key-status",
		Description: "a missing or unknown subscription key is refused with 404, another client error, instead of 401"},
	{Name: Token403, Choice: "token-status", Exercises: "Who is calling (D-auth-401)",
		Description: "a missing or unknown bearer token is refused with 403 instead of 401, as many gateways do"},
	{Name: E5200IDs, Exercises: "OP.e5-200",
		Description: "E5 answers 200 with the array of the deleted slot ids instead of 204"},
	{Name: E5AnyAbsent404, Exercises: "Errors (404 on E5: plain not found)",
		Description: "E5 deletes nothing and answers 404 when any of the ids is not a slot, not only when none is"},
	{Name: AltPaths, Exercises: "OP.unplaced",
		Description: "the five unplaced operations live at PUT /gradebook/settings/{id}, PUT /evaluations/{id}/question-session, GET /notifications/groups/{id}, POST /notifications/read-status, PATCH /quiz/sections (fixture operations follow)"},
	{Name: UserHeader, Exercises: "OP.identity",
		Description: "the login user is conveyed by the header X-Campus-User: <token> instead of Authorization: Bearer (fixture users follow)"},
	{Name: OmitFalse, Exercises: "Resources (a field not marked required may be absent)",
		Description: "boolean fields that are false are left out of every record",
		// The checks of a flag set false (E7.publish, QS.default) see
		// nothing: absent is not false, the record may leave any
		// optional field out.
		Skips: 2, SkipReason: "an optional field this check needs"},
	{Name: UUIDUpper, Exercises: "Conventions (uuid means a string in UUID format; RFC 9562 reads hex digits in either case)",
		Description: "uuids are written in upper case in answers and in the fixture, and read in either case"},
	{Name: LocalOffsets, Exercises: "Conventions (date-time means an RFC 3339 string)",
		Description: "date-times are written with the offset +08:00 and milliseconds (the same instants)"},
	{Name: ExtraFields, Exercises: "Resources (fields beyond those listed are not forbidden)",
		Description: "every record answered carries two fields the specification does not list, \"etag\" and \"links\""},
	{Name: QuizPatch, Exercises: "Endpoints / Update quiz section (semantics of fields left out not shown)",
		Description: "the quiz section update keeps the stored value of every optional field the body leaves out (PATCH semantics) instead of resetting it to its default"},
	{Name: QuizLenient, Exercises: "OP.write-edges",
		Description: "the quiz section update accepts an empty name and any int32 displayedRandomQuestions, negative ones included, and gives them back, instead of refusing them"},
	{Name: E21ChangedCount, Exercises: "Endpoints / E21 (number of records affected)",
		Description: "E21 counts only the sessions whose publish flag the call changed"},
	{Name: Page10, Choice: "list-defaults", Exercises: "OP.query-syntax",
		Description: "lists default to 10 entries per page and take a limit of at most 50"},
	{Name: NewestFirst, Exercises: "OP.query-syntax",
		Description: "lists without sortby are in reverse stored order: newest first for the logs and responses"},
	{Name: NoSortbySyntax, Choice: "sortby-syntax", Exercises: "OP.query-syntax",
		Description: "sortby takes \"field\" or \"-field\" (descending) and the fixture declares no sortby convention",
		Skips:       20, SkipReason: "conventions.sortby"},
	{Name: OTPStatic, Exercises: "OP.status-codes; Authentication 4 (how a one-time password is issued is not shown)",
		Description: "the fixture gives a fixed secondFactor.otp instead of a TOTP secret, and E1 confirms that code for that user"},
	{Name: OTPWrong400, Exercises: "OP.status-codes",
		Description: "a wrong one-time password is refused with 400 and a JSON string instead of 200 with status 6004"},
	{Name: PushPendingFirst, Exercises: "OP.status-codes",
		Description: "E2 answers 7001 (waiting for the user) to the first two polls of a transaction and decides from the third"},
	{Name: NoForbiddenTable, Exercises: "OP.roles",
		Description: "only the two stated permissions are enforced (students may call every other operation) and the fixture lists no forbidden table",
		Skips:       1, SkipReason: "forbidden"},
	{Name: PopulateExact, Exercises: "Endpoints (populate: accepted entities as spelled)",
		Description: "populate entities are matched exactly as the specification spells them (Creator, ContentCount, photo, ancestor, ...), not ignoring case"},
	{Name: GradebookReplace, Exercises: "Endpoints / Update gradebook settings (whether iD_Weightage is merged or is the whole weighting is not shown)",
		Description: "the gradebook update takes iD_Weightage as the module's whole weighting: grade items it leaves out get weight 0"},
	{Name: Nulls, Exercises: "Resources (a field not marked required may be absent)",
		Description: "every field a record leaves out is written as null, as many serialisers write an absent optional value"},
	{Name: OptionalAbsent, Exercises: "Resources (a field not marked required may be absent)",
		Description: "every record answered carries its required fields only, and the fields a populate entity asks for; every optional field is left out",
		Skips:       74, SkipReason: "an optional field this check needs"},
	{Name: PagingCapped, Choice: "list-defaults", Exercises: "OP.query-syntax; Limits (maximum and default of limit and offset not shown)",
		Description: "lists default to 7 entries per page, and refuse with 400 a limit above 25 or an offset above 1000"},
	{Name: FewEntries, Exercises: "Limits (list sizes not shown)",
		Description: "every list holds only its first 3 entries (the smallest lists the fixture documentation allows)",
		// E10.combined needs an entry surely between two date bounds and
		// a search among such entries: three entries leave none.
		Skips: 1, SkipReason: "too few entries"},
	{Name: DatesStartExclusive, Exercises: "OP.dates-ends",
		Description: "E10's StartDate and E15's startDate exclude an instant equal to them (the simulator includes it)"},
	{Name: SearchCaseSensitive, Exercises: "OP.search-case",
		Description: "E10's SearchText matches the name or file name as written, not ignoring case"},
	{Name: DatesEndExclusive, Exercises: "OP.dates-ends",
		Description: "E10's EndDate and E15's endDate exclude an instant equal to them (the simulator includes it)"},
	{Name: E15DatesUnfiltered, Exercises: "OP.e15-dates",
		Description: "E15 checks startDate and endDate as date-times and otherwise ignores them: the statistics are always all-time totals"},
	{Name: PermissionPerRecord, Exercises: "OP.roles (Authentication 2, 6: the role and permission model not shown)",
		Description: "a student's permission is checked on the record a request names: a write or log read naming a record that exists is refused (403), one naming none is answered as anyone's (404, an empty list, a count of 0); the fixture's forbidden entries name some records"},
	{Name: SortbyDash, Choice: "sortby-syntax", Exercises: "OP.query-syntax (sortby syntax not shown)",
		Description: "sortby takes \"field\" and \"-field\" (descending), several joined by \",\" (\"-logDate,name\"); the fixture declares that syntax as a template"},
	{Name: WhereIgnored, Exercises: "OP.query-syntax (where syntax not shown)",
		Description: "lists ignore the where parameter: every entry is answered, filtered or not"},
	{Name: UnknownID404, Exercises: "Errors (an unknown id on an operation without a documented 404)",
		Description: "an id that names no record is answered 404 where the simulator answers 400 (E7, E8, E19, ES, NG, NR, QS)"},
	{Name: RateLimit, Exercises: "Limits (rate limits and quotas: not shown)",
		Description: "past 150 requests in a second, every operation answers 429 with Retry-After (the seconds to the next window) and a JSON string, as a gateway in front of a deployment does"},
	{Name: PushPendingFor, Exercises: "OP.status-codes (statuses other than 0000 and 7002 not shown)",
		Description: "E2 answers 7001 (waiting for the user) for 3 seconds from a transaction's first poll, however often it is polled, then decides"},
	{Name: DateLowerCase, Exercises: "Conventions (date-time means an RFC 3339 string; section 5.6 allows t and z in lower case)",
		Description: "date-times are written with a lower-case t and z (2025-03-01t10:00:00z)"},
	{Name: SignedLinks, Exercises: "Resources (no member is stated stable between answers)",
		Description: "every link (photo, photoUrl, mP4Url, mP3Url, viewerURL) carries a signature in its query that differs in every answer, as pre-signed object-store links do"},
	{Name: Charset, Exercises: "Endpoints / common (bodies are JSON; the answer's media type parameters are not shown)",
		Description: "JSON answers carry Content-Type: application/json; charset=utf-8"},
})

func sorted(vs []Variant) []Variant {
	slices.SortFunc(vs, func(a, b Variant) int { return strings.Compare(string(a.Name), string(b.Name)) })
	return vs
}

// All returns every variant, sorted by name.
func All() []Variant { return slices.Clone(catalogue) }

// Lookup returns the variant with the given name, as a user spells it.
func Lookup(name string) (Variant, bool) {
	for _, v := range catalogue {
		if string(v.Name) == name {
			return v, true
		}
	}
	return Variant{}, false
}

// Names returns the name of every variant, sorted.
func Names() []string {
	out := make([]string, len(catalogue))
	for i, v := range catalogue {
		out[i] = string(v.Name)
	}
	return out
}

// Compatible reports whether a and b may be switched on together.
func Compatible(a, b Variant) bool {
	return a.Name == b.Name || a.Choice == "" || a.Choice != b.Choice
}

// Set is a set of enabled variants. The zero value has none.
type Set = switchset.Set[Name]

// New returns the set of the named variants, or an error naming the first
// unknown name (and the known ones) or two variants of one choice.
func New(names []string) (Set, error) {
	var s Set
	var chosen []Variant
	for _, n := range names {
		n = strings.TrimSpace(n)
		v, ok := Lookup(n)
		if !ok {
			return Set{}, fmt.Errorf("unknown variant %q (known: %s)", n, strings.Join(Names(), ", "))
		}
		for _, c := range chosen {
			if !Compatible(c, v) {
				return Set{}, fmt.Errorf("variants %q and %q both decide the %s: choose one", c.Name, v.Name, v.Choice)
			}
		}
		chosen = append(chosen, v)
		s.Add(v.Name)
	}
	return s, nil
}
