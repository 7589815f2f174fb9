// Package defects names the deliberate mistakes the simulator can make, one
// rule of the specification each, so the project can prove that the
// conformance suite catches every one. A Set is consulted at each decision
// point; the zero Set has no defect and the simulator behaves as specified.
//
// Each defect declares the catalogue requirements (features/requirements.json)
// it breaks: the kill matrix (harness/killmatrix) runs the suite against the
// simulator with that one defect and fails unless exactly those requirements
// fail, give or take the declared collateral.
package defects

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/switchset"
)

// Name names a defect: the switch, as given to `campusconf serve --defect
// NAME`. The simulator checks a defect by its Name constant only.
type Name string

// Defect is one switchable mistake.
type Defect struct {
	// Name is the switch, as given to `campusconf serve --defect NAME`.
	Name Name
	// Description says in one line what the simulator then does wrong.
	Description string
	// Requirements are the catalogue ids the mistake breaks: the suite must
	// fail every one of them, and nothing else beyond Collateral.
	Requirements []string
	// Collateral are ids that may also fail because the mistake really
	// touches them too; each entry is justified where it is declared.
	Collateral []string
	// Generated marks a defect only generated requests find (generated.go):
	// the kill matrix runs it with generation on.
	Generated bool
	// Op, for a generator defect, is the one operation whose answers it
	// breaks; empty: every operation the odd input it waits for reaches
	// (a limit, an offset).
	Op registry.OpID
	// Rewrite, when set, is carried out by the simulator's response
	// rewriter on the bodies of the operations answering Rewrite.Record
	// (of Rewrite.Op alone, when set), after they are encoded; such a
	// defect has no other decision point.
	Rewrite *Rewrite
	// Status, when set, is carried out by the simulator on the status of
	// Status.Op's answers, after they are written; such a defect has no
	// other decision point.
	Status *StatusChange
}

// The defect names that the simulator checks at a decision point of its
// own, and those declared as data in handWritten (a Rewrite or a Status,
// carried out on the answer). Each constant is the only spelling the
// simulator checks, so a typo is a compile error rather than a silent
// no-op. The response-rewrite defects of shape.go are found by their
// Rewrite alone.
const (
	// Every operation.
	MissingKeyAccepted   Name = "missing-key-accepted"
	UnknownKeyAccepted   Name = "unknown-key-accepted"
	ErrorBodyObject      Name = "error-body-object"
	JSONPatchRefused     Name = "json-patch-refused"
	StudentsAllowed      Name = "students-allowed"
	MalformedJSON500     Name = "malformed-json-500"
	MissingField422      Name = "missing-field-422"
	MalformedUUID404     Name = "malformed-uuid-404"
	LimitIgnored         Name = "limit-ignored"
	OffsetIgnored        Name = "offset-ignored"
	SortbyIgnored        Name = "sortby-ignored"
	PhotoIgnored         Name = "photo-ignored"
	ListEnvelope         Name = "list-envelope"
	ContentTypeNeeded    Name = "content-type-required"
	AnswersTextPlain     Name = "answers-text-plain"
	DateMalformedIgnored Name = "date-malformed-ignored"
	OffsetOffByOne       Name = "offset-off-by-one"
	SortAfterPaging      Name = "sort-after-paging"
	FilterAfterPaging    Name = "filter-after-paging"
	LogsEmpty            Name = "logs-empty"
	BodyMembersAnyCase   Name = "body-members-any-case"

	// Relations between list answers (issue 36).
	SortDropsLast             Name = "sort-drops-last"
	LimitOneObject            Name = "limit-one-object"
	LimitShortByOne           Name = "limit-short-by-one"
	LastPageFilled            Name = "last-page-filled"
	PopulateChangesOthers     Name = "populate-changes-others"
	E10SearchWide             Name = "e10-search-all-members"
	E10DatesDropFirst         Name = "e10-dates-drop-first"
	E10SearchOffWithDates     Name = "e10-search-ignored-with-dates"
	NotificationAncestorEmpty Name = "notification-ancestor-empty"
	NotificationAncestorSelf  Name = "notification-ancestor-self"

	// References to the wrong record (issue 36): data, carried out on
	// the answer.
	E7OtherResource   Name = "e7-other-resource"
	E11OtherFile      Name = "e11-other-file"
	E12OtherWeblink   Name = "e12-other-weblink"
	ESOtherEvaluation Name = "evaluation-session-other-evaluation"

	// Second factor and faculties.
	E1SuccessStatus0 Name = "e1-success-status-0"
	E1AnyOTP         Name = "e1-any-otp-accepted"
	E1WrongOTP500    Name = "e1-wrong-otp-500"
	PollAlways7002   Name = "poll-always-7002"
	PollNever7002    Name = "poll-never-7002"
	E3Status201      Name = "e3-status-201"
	E4AnyStaff       Name = "e4-any-staff"

	// Consultation, bank, attendance.
	E5IDsObject           Name = "e5-ids-object"
	E5StaffMayDelete      Name = "e5-staff-may-delete"
	E5Absent204           Name = "e5-absent-204"
	E5DeleteNoop          Name = "e5-delete-noop"
	E5DeletesBeforeCheck  Name = "e5-deletes-before-checking"
	E5EchoesIDs           Name = "e5-200-echoes-ids"
	E6CreatorIgnored      Name = "e6-populate-creator-ignored"
	E6Status200           Name = "e6-status-200"
	E6Absent400           Name = "e6-absent-400"
	E6PopulateUnsupported Name = "e6-populate-unsupported"
	E7Status200           Name = "e7-status-200"
	E7PublishDefaultFalse Name = "e7-publish-default-false"
	E7PublishIgnored      Name = "e7-publish-ignored"
	E8Status200           Name = "e8-status-200"

	// Evaluation, files, multimedia.
	E9Array                   Name = "e9-array"
	E9Absent400               Name = "e9-absent-400"
	E9PopulateUnsupported     Name = "e9-populate-unsupported"
	E9OtherQuestion           Name = "e9-other-question"
	E9AnyEvaluation           Name = "e9-any-evaluation"
	E10DatesDropAll           Name = "e10-dates-drop-all"
	E10SearchIgnored          Name = "e10-search-ignored"
	E10DatesIgnored           Name = "e10-dates-ignored"
	E12AbsentEmpty            Name = "e12-absent-empty-list"
	E13Array                  Name = "e13-array"
	E13Absent400              Name = "e13-absent-400"
	E14CountsRequested        Name = "e14-counts-requested"
	E14DeletedReadable        Name = "e14-deleted-still-readable"
	E14DeletesAll             Name = "e14-deletes-all"
	E14DeletesBeforeChecking  Name = "e14-deletes-before-checking"
	E14CountsDeleted          Name = "e14-counts-deleted"
	E20StudentTwice           Name = "e20-student-twice"
	PollOtherTransaction      Name = "poll-other-transaction"
	GradebookOtherModule      Name = "gradebook-other-module"
	QuizFlagsCrossed          Name = "quiz-flags-crossed"
	E1FormatOnly              Name = "e1-format-only"
	E1UseridIgnored           Name = "e1-userid-ignored"
	UnknownIDMadeUp           Name = "unknown-id-made-up"
	UnknownParentListed       Name = "unknown-parent-listed"
	E5IDsEmpty                Name = "e5-200-no-ids"
	QuizAssessmentIsSection   Name = "quiz-assessment-is-section"
	QuestionStoredBeforeCheck Name = "question-stored-before-check"
	E15EntryPerDay            Name = "e15-entry-per-day"

	// Survey, poll, students, web lectures.
	E17AbsentEmpty         Name = "e17-absent-empty-list"
	E17PopulateUnsupported Name = "e17-populate-unsupported"
	E17CreatorUnfilled     Name = "e17-creator-unfilled"
	E17CreatorJoinClears   Name = "e17-creator-join-clears"
	E18PopulateUnsupported Name = "e18-populate-unsupported"
	E19Array               Name = "e19-array"
	E19FirstResponse       Name = "e19-first-response"
	E19OptionsOneBased     Name = "e19-options-one-based"
	E20PopulateUnsupported Name = "e20-populate-unsupported"
	E21CountString         Name = "e21-count-string"
	E21CountsUnknown       Name = "e21-counts-unknown"
	E21CountsEachID        Name = "e21-counts-each-id"
	E21IDsExactCase        Name = "e21-ids-exact-case"
	E7ResourceExactCase    Name = "e7-resource-exact-case"
	ResponsesOtherQuestion Name = "responses-other-question"

	// The five unplaced operations.
	GradebookStatus204       Name = "gradebook-status-204"
	Gradebook100Refused      Name = "gradebook-100-refused"
	GradebookTotalRounded    Name = "gradebook-total-rounded"
	GradebookTotalPerRequest Name = "gradebook-total-per-request"
	GradebookRefusedApplied  Name = "gradebook-refused-applied"
	GradebookSchemaLate      Name = "gradebook-schema-checked-late"
	GradebookAbsent403       Name = "gradebook-absent-403"
	GradebookMaxMarkOptional Name = "gradebook-maxmark-optional"
	GradebookStaleEcho       Name = "gradebook-stale-echo"
	GradebookKeysExactCase   Name = "gradebook-keys-exact-case"
	WeblinkIDExactCase       Name = "weblink-id-exact-case"
	QuestionLimitsUnchecked  Name = "question-limits-unchecked"
	QuestionLimitsExclusive  Name = "question-limits-exclusive"
	NotificationOtherGroup   Name = "notification-other-group"
	EvaluationStatus204      Name = "evaluation-session-status-204"
	NotificationArray        Name = "notification-array"
	NotificationNoAncestor   Name = "notification-ancestor-ignored"
	NotifyReadIgnored        Name = "notify-read-ignored"
	NotifyReadMadeUp         Name = "notify-read-answer-made-up"
	NotifyReadOneWay         Name = "notify-read-one-way"
	NotifyReadUnchecked      Name = "notify-read-unchecked"
	NotifyReadRefusedStored  Name = "notify-read-refused-stored"
	NotifyReadSameToggles    Name = "notify-read-same-toggles"
	QuizStatus201            Name = "quiz-status-201"
	QuizMarkDefaultTrue      Name = "quiz-mark-default-true"
	QuizMarkIgnored          Name = "quiz-mark-ignored"

	// What a write did, every refusal's form, every spelling (issue 37).
	QuizTextASCII             Name = "quiz-text-ascii"
	QuizStaleAnswer           Name = "quiz-stale-answer"
	GradebookZeroOmitted      Name = "gradebook-zero-omitted"
	GradebookMaxMarkTruncated Name = "gradebook-maxmark-truncated"
	KeyRefusalObject          Name = "key-refusal-object"
	TokenRefusalObject        Name = "token-refusal-object"
	KeyWriteFirst             Name = "key-write-first"
	ForbiddenWriteFirst       Name = "forbidden-write-first"
	NotifyReadNeighbours      Name = "notify-read-neighbours"
	DateOffsetRefused         Name = "date-offset-refused"
	DateFractionRefused       Name = "date-fraction-refused"
	DateLowerRefused          Name = "date-lower-case-refused"
	UUIDUpperRefused          Name = "uuid-upper-refused"
	MediaParamRefused         Name = "media-param-refused"
)

// Requirement ids shared by the defects that break one rule on every
// operation it applies to; which operations those are is the registry's.
var (
	badJSONReqs  = registry.Requirements(".400.json", func(o registry.Operation) bool { return o.JSONBody })
	requiredReqs = append(registry.Requirements(".400.required", func(o registry.Operation) bool { return o.RequiredMembers }),
		// A grading schema entry's two members are required fields too.
		"GB.400.schema")
	uuidReqs  = registry.Requirements(".400.uuid", func(o registry.Operation) bool { return o.UUIDInput })
	pagedOps  = registry.Select(func(o registry.Operation) bool { return o.Paged })
	listReqs  = registry.Requirements(".200", func(o registry.Operation) bool { return o.List })
	limitReqs = ids(".limit", pagedOps...)
	// sortedOps are the lists whose sorted answer the suite reads whole.
	sortedOps = registry.Select(func(o registry.Operation) bool {
		l, ok := registry.List(o.ID)
		return ok && o.Paged && len(l.SortKeys) > 0
	})
	// The offset order check compares a page of limit entries with entries
	// of another page of limit entries: with limit ignored both pages are
	// the whole rest of the list, so that check fails as well.
	// Paging the sorted list compares a page of limit entries too.
	limitCollateral = append(ids(".offset-order", pagedOps...), ids(".sortby", pagedOps...)...)
)

// otherRecord is the uuid the reference defects put where an answer names
// the record its request named: well-formed, and no record's.
const otherRecord = `"0a0a0a0a-0036-4000-8000-000000000036"`

func ids(suffix string, ops ...registry.OpID) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = op.Requirement(suffix)
	}
	return out
}

// handWritten lists the defects with a decision point of their own.
var handWritten = []Defect{
	// Every operation.
	{Name: MissingKeyAccepted, Description: "calls without the Ocp-Apim-Subscription-Key header are accepted",
		Requirements: []string{"ALL.key"},
		// The key check's E14 without a key, carried out, deletes the
		// media A deleted media is gone reads first (E13).
		Collateral: []string{"E13.200"}},
	{Name: UnknownKeyAccepted, Description: "any non-empty Ocp-Apim-Subscription-Key is accepted, also one never issued",
		Requirements: []string{"ALL.key-unknown"}},
	{Name: ErrorBodyObject, Description: "error bodies are a JSON object {\"message\": ...} instead of a JSON string",
		Requirements: []string{"ALL.error-body"}},
	{Name: JSONPatchRefused, Description: "request bodies sent as application/json-patch+json, the documented media type, are refused with 415; only application/json is accepted",
		// with a parameter it is the same media type, refused too
		Requirements: []string{"ALL.media-type", "ALL.media-param"}},
	{Name: StudentsAllowed, Description: "students may call the writes and log reads the fixture declares forbidden to them",
		Requirements: []string{"ALL.forbidden"},
		// The refusal probe of E14 is read around (the media the key
		// check and A deleted media is gone read first): let through, it
		// deletes it.
		Collateral: []string{"E13.200"}},
	{Name: MalformedJSON500, Description: "a request body that is not well-formed JSON is answered 500 instead of 400",
		Requirements: badJSONReqs},
	{Name: MissingField422, Description: "a body missing a required field is answered 422 instead of 400",
		Requirements: requiredReqs},
	{Name: MalformedUUID404, Description: "a malformed uuid in the path or body is answered 404 (as an unknown id) instead of 400",
		Requirements: uuidReqs},
	{Name: LimitIgnored, Description: "list operations ignore limit and return every entry from offset on",
		Requirements: append(slices.Clone(limitReqs), ids(".limit-one", pagedOps...)...), Collateral: limitCollateral},
	{Name: OffsetIgnored, Description: "list operations ignore offset and always start at the first entry",
		// The offset-order scenarios read the list page by page first,
		// and that walk already names the broken rule: offset.
		Requirements: ids(".offset", pagedOps...)},
	{Name: SortbyIgnored, Description: "list operations accept sortby but keep their stored order",
		Requirements: ids(".sortby", pagedOps...)},
	{Name: PhotoIgnored, Description: "E18 and E20 accept populate=photo but leave photo out",
		Requirements: []string{"E18.photo", "E20.photo"}},
	{Name: ListEnvelope, Description: "list operations wrap the array in an envelope {\"items\": [...], \"total\": n}",
		Requirements: listReqs, Rewrite: &Rewrite{Edit: Envelope}},
	{Name: ContentTypeNeeded, Description: "a request body without a Content-Type header is refused with 415",
		Requirements: []string{"ALL.no-content-type"}},
	{Name: AnswersTextPlain, Description: "every JSON answer is declared Content-Type: text/plain",
		Requirements: []string{"ALL.response-json"}},
	{Name: DateMalformedIgnored, Description: "E10 and E15 ignore a StartDate, EndDate, startDate or endDate that is not an RFC 3339 date-time instead of refusing it",
		Requirements: []string{"E10.400.date", "E15.400.date"}},
	{Name: OffsetOffByOne, Description: "list operations skip one entry too many: offset=k starts at entry k+2",
		Requirements: ids(".offset-order", pagedOps...),
		// Paging the sorted list is checked with an offset too, and the
		// fixed-limit pages skip the entry.
		Collateral: append(ids(".sortby", pagedOps...), ids(".pages", pagedOps...)...)},
	{Name: FilterAfterPaging, Description: "list operations cut the page (offset, limit) from the whole list first and filter it after: a filtered page of limit 1 is empty unless the list's first entry matches",
		Requirements: []string{"E10.search-exact", "E10.dates-exact", "E10.combined"}},
	{Name: SortAfterPaging, Description: "list operations take the page from the stored order and sort only the page",
		Requirements: ids(".sortby", pagedOps...)},
	{Name: BodyMembersAnyCase, Description: "request body members are matched ignoring case: userId is read as userid, resourceid as resourceID, ids as iDs",
		Requirements: []string{"ALL.member-case"}},
	{Name: SortDropsLast, Description: "list operations lose the last entry of a sorted list: sortby answers one entry fewer than the list holds",
		Requirements: ids(".sort-same", sortedOps...),
		// The fixed-limit pages are read sorted too, and miss that entry.
		Collateral: ids(".pages", pagedOps...)},
	{Name: LimitOneObject, Description: "list operations answer limit=1 with the one entry itself, an object, instead of an array of one",
		// Only the limit=1 scenarios send limit=1; the shape check of
		// their answer names the broken rule: a list answers an array.
		Requirements: ids(".200", pagedOps...)},
	{Name: LimitShortByOne, Description: "list operations answer limit-1 entries for a limit: limit=1 gives an empty array",
		Requirements: ids(".limit-one", pagedOps...),
		// offset=1&limit=2 gives one entry, not entries 2 and 3, sorted or not.
		Collateral: append(ids(".offset-order", pagedOps...), ids(".sortby", pagedOps...)...)},
	{Name: LastPageFilled, Description: "list operations fill a last page that would be short from before its offset: with limit, a page past offset+limit > length holds the last limit entries again",
		Requirements: ids(".pages", pagedOps...)},
	{Name: PopulateChangesOthers, Description: "a populate entity changes more than it fills: E17's Creator leaves out about a quarter of the responses, E18's and E20's photo upper-cases userName, NG's ancestor drops notifyMessage",
		Requirements: []string{"E17.populate-only", "E18.populate-only", "E20.populate-only", "NG.populate-only"}},
	{Name: E7OtherResource, Description: "E7 answers the attendance with resourceID naming another resource than the one the body gave (a valid uuid)",
		Requirements: []string{"E7.resource"},
		// E7's success scenario reads the resourceID of the record too, and
		// the round trip compares every member the write sets.
		Collateral: []string{"E7.201", "ALL.round-trip"},
		Rewrite:    &Rewrite{Record: "Attendance", Op: registry.E7, Field: "resourceID", Edit: Replace, Arg: otherRecord}},
	{Name: E11OtherFile, Description: "E11 answers annotations whose documentId names another file than the one the path names (a valid uuid)",
		Requirements: []string{"E11.file"},
		Rewrite:      &Rewrite{Record: "FileAnnotation", Op: registry.E11, Field: "documentId", Edit: Replace, Arg: otherRecord}},
	{Name: E12OtherWeblink, Description: "E12 answers view log entries whose targetID names another weblink than the one the path names (a valid uuid)",
		Requirements: []string{"E12.weblink"},
		Rewrite:      &Rewrite{Record: "WeblinkLog", Op: registry.E12, Field: "targetID", Edit: Replace, Arg: otherRecord}},
	{Name: ESOtherEvaluation, Description: "evaluation session update answers an evaluation whose id is another than the one the path names (a valid uuid)",
		Requirements: []string{"ES.id"},
		Rewrite:      &Rewrite{Record: "Evaluation", Op: registry.ES, Field: "id", Edit: Replace, Arg: otherRecord}},
	{Name: LogsEmpty, Description: "E11, E12 and E16 answer an empty list for records that have entries",
		Requirements: []string{"E11.200", "E12.200", "E16.200"}},

	// Second factor and faculties.
	{Name: E1SuccessStatus0, Description: "E1 reports a valid one-time password with status \"0\" instead of \"0000\"",
		Requirements: []string{"E1.200"},
		Rewrite:      &Rewrite{Record: "SecondFactorResult", Op: registry.E1, Field: "status", Edit: Map, Arg: `{"\"0000\"": "0"}`}},
	{Name: E1AnyOTP, Description: "E1 confirms any one-time password of a known user",
		Requirements: []string{"E1.reject"}},
	{Name: E1WrongOTP500, Description: "E1 answers a wrong one-time password with 500",
		Requirements: []string{"E1.reject"},
		// The typical E1 call, which the media-type checks send, carries a
		// wrong one-time password: a server error is no acceptance of it.
		Collateral: []string{"ALL.media-type", "ALL.media-json", "ALL.no-content-type", "ALL.media-param"}},
	{Name: PollAlways7002, Description: "E2 poll answers 7002 (denied) for every transaction, approved or not",
		Requirements: []string{"E2.approve"}},
	{Name: PollNever7002, Description: "E2 poll never answers 7002: a denied push polls as approved (0000)",
		Requirements: []string{"E2.deny"}},
	{Name: E3Status201, Description: "E3 send push answers 201 instead of 200",
		Requirements: []string{"E3.200"},
		Status:       &StatusChange{Op: registry.E3, From: 200, To: 201}},
	{Name: E4AnyStaff, Description: "E4 faculty sync is allowed to every staff member, not only to Super Admin",
		Requirements: []string{"E4.403"}},

	// Consultation, bank, attendance.
	{Name: E5IDsObject, Description: "E5 answers 200 with the deleted ids in an object {\"iDs\": [...]} instead of 204 or an array",
		Requirements: []string{"E5.success"}},
	{Name: UnknownIDMadeUp, Description: "E19, NG, NR, the evaluation session update and the quiz section update answer an id that names no record with 200 and an empty record of the kind (zero values), as a handler that never checks the lookup does",
		Requirements: []string{"ALL.unknown-id"}},
	{Name: UnknownParentListed, Description: "E10 and E20 answer a folder or resource that does not exist with the entries of the fixture's, as a query that drops its condition on an id that matches nothing does",
		Requirements: []string{"ALL.unknown-id"}},
	{Name: E5IDsEmpty, Description: "E5 deletes the slots and answers 200 with an empty array, not the ids it deleted",
		Requirements: []string{"E5.success"}},
	{Name: E5StaffMayDelete, Description: "E5 lets any staff member delete slots, without Access_Delete on the module",
		Requirements: []string{"E5.403"}},
	{Name: E5Absent204, Description: "E5 answers 204 when none of the slot ids exists instead of 404",
		Requirements: []string{"E5.404"},
		// E5.gone observes the deletion through E5's 404 for the deleted
		// slots, so a 204 for absent slots fails it too.
		Collateral: []string{"E5.gone"},
		Status:     &StatusChange{Op: registry.E5, From: 404, To: 204}},
	{Name: E5DeleteNoop, Description: "E5 answers 204 but leaves the slots in place: deleting them again succeeds again",
		Requirements: []string{"E5.gone"}},
	{Name: E5EchoesIDs, Description: "E5 deletes the slots that exist and answers 200 with the iDs it was sent, those naming no slot included",
		Requirements: []string{"E5.success"}},
	{Name: E5DeletesBeforeCheck, Description: "E5 deletes the slots of the well-formed ids before it finds the malformed one and refuses the request with 400",
		Requirements: []string{"E5.refused-unchanged"}},
	{Name: E6CreatorIgnored, Description: "E6 accepts populate=Creator but leaves the creator's userID, userName and email out",
		Requirements: []string{"E6.populate-creator"}},
	{Name: E6Status200, Description: "E6 copy bank folder answers 200 instead of 201",
		Requirements: []string{"E6.201"},
		Status:       &StatusChange{Op: registry.E6, From: 201, To: 200}},
	{Name: E6Absent400, Description: "E6 answers 400 for a bank folder that does not exist instead of 404",
		Requirements: []string{"E6.404"},
		Status:       &StatusChange{Op: registry.E6, From: 404, To: 400}},
	{Name: E6PopulateUnsupported, Description: "E6 implements no populate: every populate entity, Creator and ContentCount included, is refused with 400",
		Requirements: []string{"E6.populate"},
		// populate=Creator refused, no creator can be described.
		Collateral: []string{"E6.populate-creator"}},
	{Name: E7Status200, Description: "E7 add default attendance answers 200 instead of 201",
		Requirements: []string{"E7.201"},
		Status:       &StatusChange{Op: registry.E7, From: 201, To: 200}},
	{Name: E7PublishDefaultFalse, Description: "E7 add default attendance defaults publish to false instead of true",
		Requirements: []string{"E7.default-publish"}},
	{Name: E7PublishIgnored, Description: "E7 ignores publish in the body: every default attendance is published",
		Requirements: []string{"E7.publish"},
		// E7's round trip sends publish false too.
		Collateral: []string{"ALL.round-trip"}},
	{Name: E8Status200, Description: "E8 delete attendances answers 200 with the deleted ids instead of 204",
		Requirements: []string{"E8.204"}},

	// Evaluation, files, multimedia.
	{Name: E9Array, Description: "E9 answers the question inside an array of one instead of as an object",
		Requirements: []string{"E9.200"},
		Rewrite:      &Rewrite{Record: "EvaluationQuestion", Op: registry.E9, Edit: ArrayOfOne}},
	{Name: E9Absent400, Description: "E9 answers 400 for an absent evaluation or question instead of 404",
		Requirements: []string{"E9.404"},
		// A question of another evaluation is absent from this one.
		Collateral: []string{"E9.scope"},
		Status:     &StatusChange{Op: registry.E9, From: 404, To: 400}},
	{Name: E9PopulateUnsupported, Description: "E9 implements no populate: every populate entity is refused with 400",
		Requirements: []string{"E9.populate"}},
	{Name: E9OtherQuestion, Description: "E9 answers another question of the evaluation than the one asked for",
		Requirements: []string{"E9.id"}},
	{Name: E9AnyEvaluation, Description: "E9 serves a question under any evaluation that exists, not only its own",
		Requirements: []string{"E9.scope"}},
	{Name: E10DatesDropAll, Description: "E10 answers an empty list whenever StartDate or EndDate is given",
		Requirements: []string{"E10.dates", "E10.dates-exact"},
		// The filters given together keep nothing either.
		Collateral: []string{"E10.combined"}},
	{Name: E10SearchIgnored, Description: "E10 ignores SearchText",
		Requirements: []string{"E10.search", "E10.search-exact"},
		// Given together with the dates, the search is ignored too.
		Collateral: []string{"E10.combined"}},
	{Name: E10DatesIgnored, Description: "E10 ignores StartDate and EndDate",
		Requirements: []string{"E10.dates", "E10.dates-exact"}},
	{Name: E10SearchWide, Description: "E10 SearchText also matches folderName and email, not only the student name and the file name",
		Requirements: []string{"E10.search-exact"},
		// Given together with the dates, the search keeps the same extra entries.
		Collateral: []string{"E10.combined"}},
	{Name: E10DatesDropFirst, Description: "E10 with StartDate or EndDate leaves out the oldest entry of the range",
		Requirements: []string{"E10.dates-exact"},
		// Given together with the search, the range loses that entry too.
		Collateral: []string{"E10.combined"}},
	{Name: E10SearchOffWithDates, Description: "E10 ignores SearchText when StartDate or EndDate is given too",
		Requirements: []string{"E10.combined"}},
	{Name: E12AbsentEmpty, Description: "E12 answers 200 [] for a weblink that does not exist instead of 404",
		Requirements: []string{"E12.404"}},
	{Name: E13Array, Description: "E13 answers an array of media log entries instead of a single object",
		Requirements: []string{"E13.200"},
		Rewrite:      &Rewrite{Record: "MediaLog", Op: registry.E13, Edit: ArrayOfOne}},
	{Name: E13Absent400, Description: "E13 answers 400 for a media that does not exist instead of 404",
		Requirements: []string{"E13.404"},
		// E14.gone observes the deletion through E13's 404 for the
		// deleted media, so any other answer for an absent media fails it.
		Collateral: []string{"E14.gone"},
		Status:     &StatusChange{Op: registry.E13, From: 404, To: 400}},
	{Name: E15EntryPerDay, Description: "E15 lists one entry per user and day of activity instead of one per user",
		Requirements: []string{"E15.per-user"}},
	{Name: E14CountsRequested, Description: "E14 counts every requested id, absent ones included",
		Requirements: []string{"E14.count"}},
	{Name: E14DeletedReadable, Description: "E14 counts the medias but leaves them in place: a deleted media is still readable",
		Requirements: []string{"E14.gone"},
		// E14.count deletes its media twice: left in place, it is counted
		// the second time too
		Collateral: []string{"E14.count"}},
	{Name: E14CountsDeleted, Description: "E14 deletes the medias but counts every named media it ever held, those deleted before included, as a soft delete counting the rows its filter matches does",
		Requirements: []string{"E14.count"}},
	{Name: E20StudentTwice, Description: "E20 lists the first student twice (a student holding access through two routes, joined in once per route)",
		Requirements: []string{"E20.distinct"}},
	{Name: PollOtherTransaction, Description: "E2 answers a poll with a transaction id of its own (the poll's request id), not the transaction it names",
		Requirements: []string{"E2.transaction"},
		Rewrite:      &Rewrite{Record: "PushResult", Op: registry.E2, Field: "transactionId", Edit: Format, Arg: "%s-poll"}},
	{Name: GradebookOtherModule, Description: "gradebook update answers in resourceID the id of the settings record, not of the module",
		Requirements: []string{"GB.module"},
		Rewrite:      &Rewrite{Record: "GradebookSettings", Op: registry.GB, Field: "resourceID", Edit: Replace, Arg: `"5b0e5c1a-7d1e-4c55-9a3e-2f6d1c0b9e41"`}},
	{Name: QuestionStoredBeforeCheck, Description: "evaluation session update stores a question's values before checking their limits: a mark of 10000.01 is refused with 400, and stored all the same",
		// the read of the question after each refusal answers the value
		// out of its range, which the record's own rule names
		Requirements: []string{"REC.EvaluationQuestion.mark", "REC.EvaluationQuestion.difficultyLevel", "REC.EvaluationQuestion.videoTimeStamp"}},
	{Name: QuizAssessmentIsSection, Description: "quiz section update answers the section's own id as its assessmentId",
		Requirements: []string{"QS.assessment"}},
	{Name: E19OptionsOneBased, Description: "E19 answers selectedOptions counted from 1, where E18 lists the same response's options counted from 0",
		Requirements: []string{"E19.agrees"}},
	{Name: E1FormatOnly, Description: "E1 checks the form of the one-time password only: any six digits are confirmed",
		Requirements: []string{"E1.reject"}},
	{Name: E1UseridIgnored, Description: "E1 checks the code against the login user's secret and ignores the userid sent: a userid that names no user is confirmed with the caller's code",
		Requirements: []string{"E1.user"},
		// An unknown userid is then a user's wrong code (200 with another
		// status), not a 404.
		Collateral: []string{"E1.404"}},
	{Name: QuizFlagsCrossed, Description: "quiz section update stores randomizeOptions as requireRational and requireRational as randomizeOptions (two columns crossed)",
		Requirements: []string{"ALL.round-trip"}},
	{Name: E14DeletesBeforeChecking, Description: "E14 deletes the medias of the well-formed ids before it finds the malformed one and refuses the request with 400",
		Requirements: []string{"E14.refused-unchanged"},
		// E14.gone reads the media it deleted (E13 answers 404 where 200
		// is due) before deleting it
		Collateral: []string{"E13.200"}},
	{Name: E14DeletesAll, Description: "E14 deletes every media, not only those it names (a delete without its filter), and counts the named ones",
		// The first E14 of the run deletes them all: the next finds the
		// media it names gone (E14.count answers 0), and the reads
		// before the others' deletes, A deleted media is gone's and the
		// neighbour check's, find theirs gone too. Were the neighbour
		// check the first E14 to run, it would fail ALL.neighbours.
		Requirements: []string{"E14.count"},
		Collateral:   []string{"E13.200"}},

	// Survey, poll, students, web lectures.
	{Name: E17AbsentEmpty, Description: "E17 answers 200 [] for a survey question that does not exist instead of 404",
		Requirements: []string{"E17.404"}},
	{Name: E17PopulateUnsupported, Description: "E17 implements no populate: populate=Creator is refused with 400",
		Requirements: []string{"E17.populate"},
		// E17.creator reads the creators of populate=Creator: refused,
		// there are none.
		Collateral: []string{"E17.creator"}},
	{Name: E17CreatorUnfilled, Description: "E17 accepts populate=Creator but leaves the creator's userId, userName and userMatrixNo out",
		Requirements: []string{"E17.creator"}},
	{Name: E17CreatorJoinClears, Description: "E17 with populate=Creator fills the creator's members but empties each response's options, as a join that selects the user's columns over the response's does",
		Requirements: []string{"E17.populate-only"}},
	{Name: E18PopulateUnsupported, Description: "E18 implements no populate: populate=photo is refused with 400",
		Requirements: []string{"E18.populate"},
		// E18.photo reads the photos of populate=photo: refused, there are none.
		Collateral: []string{"E18.photo"}},
	{Name: E19FirstResponse, Description: "E19 answers the response after the one the path names among its question's responses (an off-by-one lookup)",
		Requirements: []string{"E19.id"}},
	{Name: E19Array, Description: "E19 answers the poll response inside an array of one instead of as an object",
		Requirements: []string{"E19.200"},
		Rewrite:      &Rewrite{Record: "PollResponse", Op: registry.E19, Edit: ArrayOfOne}},
	{Name: E20PopulateUnsupported, Description: "E20 implements no populate: populate=photo is refused with 400",
		Requirements: []string{"E20.populate"},
		// E20.photo reads the photos of populate=photo: refused, there are none.
		Collateral: []string{"E20.photo"}},
	{Name: E21CountString, Description: "E21 answers the count as a JSON string (\"4\") instead of an integer",
		Requirements: []string{"E21.count"}},
	{Name: E21CountsUnknown, Description: "E21 counts every distinct requested id, sessions that do not exist included",
		Requirements: []string{"E21.count-unknown"}},
	{Name: E7ResourceExactCase, Description: "E7 looks the resource up by its id as written, so a resource named by its uuid in upper case is refused (400) as unknown",
		Requirements: []string{"ALL.uuid-case"}},
	{Name: E21IDsExactCase, Description: "E21 looks the sessions up by their ids as written: sessions named by their uuids in upper case are neither changed nor counted",
		Requirements: []string{"ALL.uuid-case"}},
	{Name: E21CountsEachID, Description: "E21 counts every id of the body that names a session, a session named twice counted twice",
		Requirements: []string{"E21.count-distinct"}},
	{Name: ResponsesOtherQuestion, Description: "E17 and E18 list about every second response (by id) under another question's id",
		Requirements: []string{"E17.question", "E18.question"}},

	// The five unplaced operations.
	{Name: GradebookStatus204, Description: "gradebook update answers 204 with no body instead of 200 with the settings",
		Requirements: []string{"GB.200"},
		Status:       &StatusChange{Op: registry.GB, From: 200, To: 204}},
	{Name: Gradebook100Refused, Description: "gradebook update refuses a module total of exactly 100 (checks total < 100 instead of total <= 100)",
		Requirements: []string{"GB.total-100"}},
	{Name: GradebookTotalRounded, Description: "gradebook update rounds the module total to a whole percent before the check, so 100.01 passes",
		Requirements: []string{"GB.total-over"}},
	{Name: GradebookTotalPerRequest, Description: "gradebook update checks the 100 percent total over the weightages in the request only, not over the module after the update",
		Requirements: []string{"GB.per-module"}},
	{Name: GradebookRefusedApplied, Description: "gradebook update refused for its total (400) still stores the weightages",
		Requirements: []string{"GB.unchanged"}},
	{Name: GradebookSchemaLate, Description: "gradebook update stores the weightages before it reads the grading schema, then refuses a schema entry without maxMark (400) with the weightages stored",
		Requirements: []string{"GB.unchanged"}},
	{Name: GradebookAbsent403, Description: "gradebook update of a module that does not exist answers 403 (ownership checked first) instead of 404",
		Requirements: []string{"GB.404"},
		Status:       &StatusChange{Op: registry.GB, From: 404, To: 403}},
	{Name: GradebookMaxMarkOptional, Description: "gradebook update accepts a grading schema entry without maxMark (taken as 0)",
		Requirements: []string{"GB.400.schema"}},
	{Name: WeblinkIDExactCase, Description: "E12 looks the weblink up by its id as written, so a weblink named by its uuid in upper case is not found (404)",
		Requirements: []string{"ALL.uuid-case"}},
	{Name: GradebookKeysExactCase, Description: "gradebook update matches the iD_Weightage keys with the module's grade items as written, so a grade item named by its uuid in upper case is refused as not of the module",
		Requirements: []string{"ALL.uuid-case"}},
	{Name: GradebookStaleEcho, Description: "gradebook update stores the new weightages but answers the settings as they were before",
		Requirements: []string{"GB.echo"},
		// GB's round trip compares the answer with what it sent too.
		Collateral: []string{"ALL.round-trip"}},
	{Name: QuestionLimitsUnchecked, Description: "evaluation session update accepts question marks, difficulty levels and video time stamps beyond their limits",
		Requirements: []string{"ES.question-outside"}},
	{Name: QuestionLimitsExclusive, Description: "evaluation session update refuses question values at their limits (mark 0 and 10000, difficultyLevel 0 and 3, videoTimeStamp 0 and 2147483647)",
		Requirements: []string{"ES.question-inside"}},
	{Name: NotificationOtherGroup, Description: "notification by group answers a notification of another group",
		// The read-status scenarios read the notification back through
		// NG and see another group's: they fail NG.group too, as the
		// proxy judges it, not the rule of the write read back.
		Requirements: []string{"NG.group"},
		// The neighbour check reads the other notification through NG,
		// and is answered the one it changes.
		Collateral: []string{"ALL.neighbours"}},
	{Name: EvaluationStatus204, Description: "evaluation session update answers 204 with no body instead of 200 with the evaluation",
		Requirements: []string{"ES.200"},
		Status:       &StatusChange{Op: registry.ES, From: 200, To: 204}},
	{Name: NotificationArray, Description: "notification by group answers an array of the group's notifications instead of one notification",
		Requirements: []string{"NG.200"},
		Rewrite:      &Rewrite{Record: "Notification", Op: registry.NG, Edit: ArrayOfOne}},
	{Name: NotificationNoAncestor, Description: "notification by group accepts populate=ancestor but leaves ancestor out",
		Requirements: []string{"NG.ancestor", "NG.ancestor-filled"}},
	{Name: NotificationAncestorEmpty, Description: "notification by group answers populate=ancestor with an empty ancestor array, although the target has ancestors",
		Requirements: []string{"NG.ancestor-filled"},
		Rewrite:      &Rewrite{Record: "Notification", Op: registry.NG, Field: "ancestor", Edit: Replace, Arg: "[]"}},
	{Name: NotificationAncestorSelf, Description: "notification by group answers populate=ancestor with the target itself as the last of its ancestors, as a breadcrumb would",
		Requirements: []string{"NG.ancestor-self"}},
	{Name: NotifyReadMadeUp, Description: "notification read update marks the notification but answers a record made from the request: the id and status sent, the nil uuid for targetID and notifyGroupId, no type and no message",
		Requirements: []string{"NR.read", "NR.unread"}},
	{Name: NotifyReadIgnored, Description: "notification read update returns the record but leaves notifyStatus unchanged",
		Requirements: []string{"NR.read"}},
	{Name: NotifyReadOneWay, Description: "notification read update is one-way: a read notification cannot be marked unread again",
		Requirements: []string{"NR.unread"},
		// The refusal's read-back of NR.range-unchanged marks the
		// notification unread first (one call, to keep the schedule's
		// chain short), which a one-way update answers read.
		Collateral: []string{"NR.range-unchanged"}},
	{Name: NotifyReadSameToggles, Description: "notification read update with the value the notification already holds flips it instead (11 on a read one makes it unread, 10 on an unread one read)",
		Requirements: []string{"NR.same"}},
	{Name: NotifyReadUnchecked, Description: "notification read update answers 200 with the notification unchanged for a read value other than 10 or 11, instead of 400",
		Requirements: []string{"NR.range"},
		// NR.range-unchanged reads back a refusal it does not get.
		Collateral: []string{"NR.range-unchanged"}},
	{Name: NotifyReadRefusedStored, Description: "notification read update refuses a read value other than 10 or 11 with 400, but has stored it as read (11) first",
		Requirements: []string{"NR.range-unchanged"}},
	{Name: QuizStatus201, Description: "quiz section update answers 201 instead of 200",
		Requirements: []string{"QS.200"},
		Status:       &StatusChange{Op: registry.QS, From: 200, To: 201}},
	{Name: QuizMarkDefaultTrue, Description: "quiz section update defaults displayQuestionMark to true instead of false",
		Requirements: []string{"QS.default"}},
	{Name: QuizMarkIgnored, Description: "quiz section update ignores displayQuestionMark in the body: it stays false",
		Requirements: []string{"QS.given"},
		// QS's round trip sends every flag true too.
		Collateral: []string{"ALL.round-trip"}},

	// What a write did, every refusal's form, every spelling (issue 37).
	{Name: QuizTextASCII, Description: "quiz section update keeps text beyond ASCII as question marks: \"Sección 😀\" is stored and answered as \"Secci?n ?\"",
		Requirements: []string{"ALL.round-trip"}},
	{Name: QuizStaleAnswer, Description: "quiz section update stores the update but answers the section as it was before",
		Requirements: []string{"ALL.round-trip"},
		// the older scenarios see the old name and flag too
		Collateral: []string{"QS.200", "QS.given"}},
	{Name: GradebookZeroOmitted, Description: "gradebook update answers a grading schema entry whose maxMark is 0 without maxMark, a required member (an omitempty): the round trip's maxMark 0 shows it, and the record's shape check names it",
		Requirements: []string{"REC.GradebookSettings.types"}},
	{Name: GradebookMaxMarkTruncated, Description: "gradebook update stores maxMark as a whole number, cutting its fraction: 33.3 comes back as 33",
		Requirements: []string{"ALL.round-trip"}},
	{Name: KeyRefusalObject, Description: "a refusal for a missing or unknown subscription key carries a JSON object {\"statusCode\": 401, \"message\": ...}, as API gateways write it, instead of a JSON string",
		Requirements: []string{"ALL.error-body"}},
	{Name: TokenRefusalObject, Description: "a refusal for a missing or unknown user token carries a JSON object {\"message\": ...} instead of a JSON string",
		Requirements: []string{"ALL.error-body"}},
	{Name: KeyWriteFirst, Description: "a write without a valid subscription key is carried out (as owner) before the call is refused",
		Requirements: []string{"ALL.key"},
		// The refused E14 of the key check deletes the media A deleted
		// media is gone reads first (E13), and finds gone.
		Collateral: []string{"E13.200"}},
	{Name: ForbiddenWriteFirst, Description: "a write the role model refuses is carried out (as owner) before the call is refused with 403",
		Requirements: []string{"ALL.forbidden"},
		// Carried out, the refused E14 deletes the media the key check
		// and A deleted media is gone read first (E13), and the refused
		// slot deletion of E5.403 deletes the slots it then expects.
		Collateral: []string{"E13.200", "E5.403"}},
	{Name: NotifyReadNeighbours, Description: "notification read update sets the read status of every notification of the user, not only of the one it names",
		Requirements: []string{"ALL.neighbours"}},
	{Name: DateOffsetRefused, Description: "E10 and E15 refuse a date-time with a numeric offset (+05:30) instead of Z with 400",
		Requirements: []string{"ALL.date-spelling"}},
	{Name: DateFractionRefused, Description: "E10 and E15 refuse a date-time with more than three digits of fractional seconds with 400",
		Requirements: []string{"ALL.date-spelling"}},
	{Name: DateLowerRefused, Description: "E10 and E15 refuse a date-time written with a lower-case t or z with 400",
		Requirements: []string{"ALL.date-case"}},
	{Name: UUIDUpperRefused, Description: "a uuid with upper-case hexadecimal digits, in a path or a body, is refused with 400",
		Requirements: []string{"ALL.uuid-case"}},
	{Name: MediaParamRefused, Description: "a request body whose Content-Type carries a parameter (application/json-patch+json; charset=utf-8) is refused with 415",
		Requirements: []string{"ALL.media-param"}},
}

// catalogue lists every defect, sorted by name. It is made on first use,
// not at start: the shape defects read the OpenAPI document (some 88,000
// allocations, 45 to 80 ms), which every command of the binary would pay
// at start-up, `campusconf run --target` included, that never needs them.
var catalogue = sync.OnceValue(func() []Defect {
	all := append(slices.Clone(handWritten), shapeDefects()...)
	for _, d := range generatorDefects {
		d.Generated = true
		all = append(all, d)
	}
	slices.SortFunc(all, func(a, b Defect) int { return strings.Compare(string(a.Name), string(b.Name)) })
	return all
})

// All returns every defect the simulator knows, sorted by name.
func All() []Defect {
	out := slices.Clone(catalogue())
	for i := range out {
		out[i].Requirements = slices.Clone(out[i].Requirements)
		out[i].Collateral = slices.Clone(out[i].Collateral)
	}
	return out
}

// Lookup returns the defect with the given name, as a user spells it.
func Lookup(name string) (Defect, bool) {
	for _, d := range catalogue() {
		if string(d.Name) == name {
			return d, true
		}
	}
	return Defect{}, false
}

// Set is a set of enabled defects. The zero value has none.
type Set = switchset.Set[Name]

// New returns the set of the named defects, or an error naming the first
// unknown name and the known ones.
func New(names []string) (Set, error) {
	var s Set
	for _, n := range names {
		n = strings.TrimSpace(n)
		d, ok := Lookup(n)
		if !ok {
			return Set{}, fmt.Errorf("unknown defect %q (known: %s)", n, strings.Join(Names(), ", "))
		}
		s.Add(d.Name)
	}
	return s, nil
}

// Names returns the name of every known defect, sorted.
func Names() []string {
	all := catalogue()
	out := make([]string, len(all))
	for i, d := range all {
		out[i] = string(d.Name)
	}
	return out
}
