package defects

import "github.com/campusconf/campusconf/internal/registry"

// Generator defects: each is a crash (5xx) or a wrong answer on one odd
// input that no scenario sends, the kind of mistake only generated
// requests (`campusconf run --generate N`, generate) find. The
// kill matrix runs them as a group of their own, with generation on, and
// requires exactly the declared GEN requirement to fail.
const (
	GenSearchNonASCII500   Name = "gen-search-non-ascii-500"
	GenLimitMax500         Name = "gen-limit-1000-500"
	GenOffsetOverflow500   Name = "gen-offset-overflow-500"
	GenEmptyIDs500         Name = "gen-empty-ids-500"
	GenUpperUUID500        Name = "gen-upper-uuid-500"
	GenExtraMember500      Name = "gen-extra-member-500"
	GenDateRegexOnly       Name = "gen-date-pattern-only"
	GenEmptyListNull       Name = "gen-empty-list-null"
	GenUnstableOrder       Name = "gen-unstable-order"
	GenNilUUID422          Name = "gen-nil-uuid-422"
	GenLongNameErrorObject Name = "gen-long-name-error-object"
	GenPopulateWildcard    Name = "gen-populate-wildcard-ignored"
	GenRefusedTypeApplied  Name = "gen-refused-type-applied"

	// The edges every generated run sends (generate/edges.go).
	GenLimitInt32Max500    Name = "gen-limit-int32-max-500"
	GenIDInt64Max500       Name = "gen-id-int64-max-500"
	GenPopulateTwice500    Name = "gen-populate-twice-500"
	GenPopulateCombined500 Name = "gen-populate-combined-500"
	GenPopulateEmpty500    Name = "gen-populate-empty-500"
	GenSortbyTwice500      Name = "gen-sortby-twice-500"
	GenSortbyCombined500   Name = "gen-sortby-combined-500"
	GenSortbyEmpty500      Name = "gen-sortby-empty-500"
	GenIDsMany500          Name = "gen-ids-many-500"
	GenSchemaEmpty500      Name = "gen-grading-schema-empty-500"
)

// generatorDefects are the defects only generated requests find.
var generatorDefects = []Defect{
	{Name: GenSearchNonASCII500, Op: registry.E10, Description: "E10 crashes (500) on a SearchText holding a character beyond ASCII",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenLimitMax500, Description: "list operations crash (500) on limit exactly 1000, the simulator's maximum page (an off-by-one in the page buffer)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenOffsetOverflow500, Description: "list operations crash (500) when offset plus limit overflows an int32 (offset 2147483647)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenEmptyIDs500, Op: registry.E21, Description: "E21 crashes (500) when iDs is empty, null or left out (it takes the first id without looking)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenUpperUUID500, Op: registry.E19, Description: "E19 crashes (500) on a poll response id written in upper case, which the uuid format allows",
		// the scenarios send E19 an upper-case id too (ALL.uuid-case)
		Requirements: []string{"GEN.no-5xx", "ALL.uuid-case"}},
	{Name: GenExtraMember500, Op: registry.E7, Description: "E7 crashes (500) on a body member the document does not list, after creating the attendance",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenDateRegexOnly, Op: registry.E15, Description: "E15 checks startDate and endDate against a pattern only and ignores an impossible date-time (February 30, month 13, hour 25) instead of refusing it",
		Requirements: []string{"GEN.invalid-refused"}},
	{Name: GenEmptyListNull, Op: registry.E16, Description: "E16 answers null instead of [] when a media item has no lecture-capture sessions",
		Requirements: []string{"GEN.shape"},
		// ALL.unknown-id's call to E16 names a media that does not exist,
		// which has no sessions: its null is no array (E16.200)
		Collateral: []string{"E16.200"}},
	{Name: GenUnstableOrder, Op: registry.E11, Description: "E11 lists a file's annotations in a different order on every call",
		Requirements: []string{"GEN.repeatable-read"}},
	{Name: GenNilUUID422, Op: registry.E12, Description: "E12 answers 422, a status the operation does not list, for the nil uuid (all zeros)",
		Requirements: []string{"GEN.status-listed"}},
	{Name: GenLongNameErrorObject, Op: registry.QS, Description: "quiz section update refuses a name longer than 255 characters with a JSON object as the error body ({\"error\": ...}) instead of a JSON string",
		Requirements: []string{"GEN.error-body"}},
	{Name: GenPopulateWildcard, Op: registry.E18, Description: "E18 takes populate=* and populate=all as wildcards and ignores them instead of refusing an entity outside the accepted list",
		Requirements: []string{"GEN.invalid-refused-should"}},
	{Name: GenLimitInt32Max500, Description: "list operations crash (500) on limit 2147483647, the int32 maximum (a page buffer sized by limit before its cap is checked)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenIDInt64Max500, Op: registry.NR, Description: "notification read update crashes (500) on the id 9223372036854775807, the int64 maximum (an id+1 that overflows)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenPopulateTwice500, Op: registry.E9, Description: "E9 crashes (500) when populate is given twice",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenPopulateCombined500, Op: registry.E6, Description: "E6 crashes (500) when populate names several entities in one value (Creator,ContentCount), after copying the folder",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenPopulateEmpty500, Op: registry.E20, Description: "E20 crashes (500) on an empty populate",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenSortbyTwice500, Op: registry.E17, Description: "E17 crashes (500) when sortby is given twice",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenSortbyCombined500, Op: registry.E10, Description: "E10 crashes (500) on a sortby of several keys joined by the declared separator",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenSortbyEmpty500, Op: registry.E18, Description: "E18 crashes (500) on an empty sortby",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenIDsMany500, Op: registry.E8, Description: "E8 crashes (500) when iDs holds more than 64 ids, after deleting them",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenSchemaEmpty500, Op: registry.GB, Description: "gradebook update crashes (500) on an empty gradingSchema, after storing it",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenRefusedTypeApplied, Op: registry.NR, Description: "notification read update given read as a JSON string marks the notification read, then refuses the request with 400",
		Requirements: []string{"GEN.invalid-unchanged"}},
}

// Generated returns the generator defects, sorted by name.
func Generated() []Defect {
	var out []Defect
	for _, d := range All() {
		if d.Generated {
			out = append(out, d)
		}
	}
	return out
}
