package defects

// Generator defects: each is a crash (5xx) or a wrong answer on one odd
// input that no scenario sends, the kind of mistake only generated
// requests (`campusconf run --generate N`, internal/generate) find. The
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
)

// generatorDefects are the defects only generated requests find.
var generatorDefects = []Defect{
	{Name: GenSearchNonASCII500, Description: "E10 crashes (500) on a SearchText holding a character beyond ASCII",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenLimitMax500, Description: "list operations crash (500) on limit exactly 1000, the simulator's maximum page (an off-by-one in the page buffer)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenOffsetOverflow500, Description: "list operations crash (500) when offset plus limit overflows an int32 (offset 2147483647)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenEmptyIDs500, Description: "E21 crashes (500) when iDs is empty, null or left out (it takes the first id without looking)",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenUpperUUID500, Description: "E19 crashes (500) on a poll response id written in upper case, which the uuid format allows",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenExtraMember500, Description: "E7 crashes (500) on a body member the document does not list, after creating the attendance",
		Requirements: []string{"GEN.no-5xx"}},
	{Name: GenDateRegexOnly, Description: "E15 checks startDate and endDate against a pattern only and ignores an impossible date-time (February 30, month 13, hour 25) instead of refusing it",
		Requirements: []string{"GEN.invalid-refused"}},
	{Name: GenEmptyListNull, Description: "E16 answers null instead of [] when a media item has no lecture-capture sessions",
		Requirements: []string{"GEN.shape"}},
	{Name: GenUnstableOrder, Description: "E11 lists a file's annotations in a different order on every call",
		Requirements: []string{"GEN.repeatable-read"}},
	{Name: GenNilUUID422, Description: "E12 answers 422, a status the operation does not list, for the nil uuid (all zeros)",
		Requirements: []string{"GEN.status-listed"}},
	{Name: GenLongNameErrorObject, Description: "quiz section update refuses a name longer than 255 characters with a JSON object as the error body ({\"error\": ...}) instead of a JSON string",
		Requirements: []string{"GEN.error-body"}},
	{Name: GenPopulateWildcard, Description: "E18 takes populate=* and populate=all as wildcards and ignores them instead of refusing an entity outside the accepted list",
		Requirements: []string{"GEN.invalid-refused-should"}},
	{Name: GenRefusedTypeApplied, Description: "notification read update given read as a JSON string marks the notification read, then refuses the request with 400",
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
