// Package registry names each operation of the interface once: its id,
// where it lives, what it takes and answers, the fixture records it needs,
// its typical call and its place in reports. The simulator's routes and
// response rewrites, its variants, the suite's typical calls and
// scheduling, the report order, the load command and the defect lists read
// it; the OpenAPI document, the requirement catalogue and docs/fixtures.md
// stay separate artefacts, checked against it by this package's tests.
//
// The package imports nothing of the project, so every side may import it.
package registry

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// OpID names an operation: the specification's id (E1, E2, ...) or, for
// an operation it does not place, the short id the catalogue, fixtures and
// reports use. Code names an operation by one of the constants below, so a
// typo fails to compile; a name read from outside (a tag, a fixture, a
// flag) becomes an OpID through Lookup.
type OpID string

// The operations, in report order.
const (
	E1  OpID = "E1"
	E2  OpID = "E2"
	E3  OpID = "E3"
	E4  OpID = "E4"
	E5  OpID = "E5"
	E6  OpID = "E6"
	E7  OpID = "E7"
	E8  OpID = "E8"
	E9  OpID = "E9"
	E10 OpID = "E10"
	E11 OpID = "E11"
	E12 OpID = "E12"
	E13 OpID = "E13"
	E14 OpID = "E14"
	E15 OpID = "E15"
	E16 OpID = "E16"
	E17 OpID = "E17"
	E18 OpID = "E18"
	E19 OpID = "E19"
	E20 OpID = "E20"
	E21 OpID = "E21"
	GB  OpID = "GB"
	ES  OpID = "ES"
	NG  OpID = "NG"
	NR  OpID = "NR"
	QS  OpID = "QS"
)

// Operation is one operation of the interface.
type Operation struct {
	// ID names the operation.
	ID OpID
	// Alias is the name an unplaced operation had in earlier fixture files,
	// still read wherever an operation is named.
	Alias string
	// Name is how reports name the operation.
	Name string
	// Method and Path are where the specification places the operation;
	// for an unplaced one (Placed false) they are the simulator's choice,
	// and a fixture says where an implementation puts it.
	Method, Path string
	Placed       bool
	// AltMethod and AltPath are where the simulator's alt-paths variant
	// puts an unplaced operation.
	AltMethod, AltPath string

	// Statuses are the statuses the interface documents for it besides
	// 400, 403 and 500, which every operation has.
	Statuses []int
	// Input is the OpenAPI component of its request body, if it takes one.
	Input string
	// Record is the OpenAPI component its success answer holds (empty when
	// it answers no record); List says the answer is an array of them.
	Record string
	List   bool
	// EmptyAnswer says its success answer has no body.
	EmptyAnswer bool
	// Paged says it takes offset and limit.
	Paged bool
	// ListFacts, given exactly when List is set, are what its list answer
	// means: the filters it takes and its sort keys (&ListFacts{} for a
	// list with neither). Populates are the populate entities it accepts
	// and what each fills; References the members of its answer tied to
	// a record its request names. The types, and the checks derived from
	// them, are in listfacts.go.
	ListFacts  *ListFacts
	Populates  []Populate
	References []Reference
	// JSONBody says it takes a JSON body the specification describes, so
	// a malformed one must be refused; RequiredMembers says that body has
	// required members; UUIDInput says it names records by uuid.
	JSONBody, RequiredMembers, UUIDInput bool

	// Destructive says calling it changes stored records (its scenarios
	// that do carry @destructive, which --read-only leaves out).
	Destructive bool
	// Profile is the one profile the operation belongs to: an
	// implementation declares the profiles it implements, and the
	// scenarios of the others are unsupported rather than failed.
	Profile Profile

	// ChangesState says calling it changes state or has an effect outside
	// the service: it creates, updates or deletes records, verifies a
	// one-time code or sends a push. It is wider than Destructive (E1 and
	// E3 have effects on the second factor, not on fixture records). A
	// read-only run sends no request to such an operation.
	ChangesState bool
	// Group is the group of records the operation changes (ChangesState)
	// or reads when another operation changes them: the suite's scheduler
	// (steps/schedule.go) runs a scenario calling an operation that
	// changes a group alone on that group, in the run's order, and lets
	// scenarios that only read it share it. A group is a kind of record,
	// neighbours included (CONTRIBUTING.md, "What a check touches").
	// Every operation that changes state has one; a read nothing else
	// changes has none.
	Group string
	// Records are the fixture record keys (records.*) it needs.
	Records []string
	// IDs are the inputs of its requests that name records, each with the
	// fixture value a request may address. The key says where the input
	// is: "path.NAME", "query.NAME" or "body.PATH" (a body member; the
	// members of a list's items joined by ".": "iD_Weightage.key"); the
	// value is a path into the fixture ("records.folder"; a list gives
	// each of its ids). The generated requests address these records;
	// writes name only records the fixture gives to be changed.
	IDs map[string]string

	// Typical is a call a conforming implementation answers without
	// refusing it for its content; see Call for its placeholders.
	Typical Call
	// Forbidden, when set, replaces Typical to check a refusal (see
	// Probe): it names real records, so a lookup before the permission
	// check cannot turn the refusal into a 404, and an implementation that
	// checks permissions per record has a record to refuse.
	Forbidden *Call
	// Subject is the fixture record the refusal probe addresses, as a
	// records.* key path ("bankFolder", "deletableMedia.0",
	// "notification.id"): the probe call names it as {records.<Subject>}
	// (in its path, its query or its body), and a fixture's forbidden entry may name another record of the same
	// kind in its place. Empty for an operation that addresses no record
	// (E1..E4).
	Subject string
	// ProbeSetup, when set, is made by the default caller before the
	// refusal probe, which then names the field Save of its answer as
	// {saved.probe}: a record the fixture cannot name because the run
	// makes it (an attendance just added, a push just sent).
	ProbeSetup *Setup
	// ShownBy are the reads that show what a call of it changes; NotShown
	// says, for a write no read shows, why. Every operation that changes
	// state declares one of the two (see Readback).
	ShownBy  []Readback
	NotShown string
	// ListedBy is the list that carries the record this operation reads
	// too, where the two must agree (E19: E18).
	ListedBy *Listing
	// PermissionOn is the input (a key of IDs: "path.id", "body.iDs")
	// naming the record whose permission an implementation that checks
	// permissions per record checks: the simulator's permission-per-record
	// variant looks that record up. Empty: the operation addresses no
	// record, and is refused as a whole.
	PermissionOn string
	// Stated is the permission the specification states for it
	// (Authentication 3), none for most.
	Stated Permission
	// TypicalUser is the caller of typical calls when the default caller
	// would be refused.
	TypicalUser string
	// Load says the load command can call it (reads, and idempotent
	// writes); LoadQuery is the query it adds.
	Load      bool
	LoadQuery string
	LoadBody  string
}

// Profile names a group of operations that make sense to implement
// together: one domain of the specification. Every operation belongs to
// exactly one (Operation.Profile); a fixture's "implements" names the
// profiles an implementation claims. A name read from outside becomes a
// Profile through LookupProfile.
type Profile string

// The profiles, in report order (that of their first operation). The
// specification's areas, with /campus split in two (its second-factor
// operations and the faculty synchronisation are different products'
// concerns) and the unplaced operations joined to the domain they serve:
// the evaluation session update to evaluation, the two notification
// operations to one profile.
const (
	ProfileSecondFactor  Profile = "second-factor" // E1–E3
	ProfileFaculty       Profile = "faculty"       // E4
	ProfileConsultation  Profile = "consultation"  // E5
	ProfileBank          Profile = "bank"          // E6
	ProfileAttendance    Profile = "attendance"    // E7, E8
	ProfileEvaluation    Profile = "evaluation"    // E9, ES
	ProfileFiles         Profile = "files"         // E10, E11
	ProfileModules       Profile = "modules"       // E12
	ProfileMultimedia    Profile = "multimedia"    // E13–E16
	ProfileSurvey        Profile = "survey"        // E17
	ProfilePoll          Profile = "poll"          // E18, E19
	ProfileResources     Profile = "resources"     // E20
	ProfileWebLectures   Profile = "web-lectures"  // E21
	ProfileGradebook     Profile = "gradebook"     // GB
	ProfileNotifications Profile = "notifications" // NG, NR
	ProfileQuizzes       Profile = "quizzes"       // QS
)

// Call is a request in fixture placeholders: {records.x}, {operations.x},
// {secondFactor.x} are looked up in the fixture, {absent} is a uuid no
// implementation has (see Fill).
type Call struct {
	// Params are the path parameters.
	Params map[string]string
	// Query are the query parameters.
	Query map[string]string
	// Body is the JSON body, sent when HasBody.
	Body    string
	HasBody bool
}

// Setup is a call made to prepare another: Op's Call, whose answer's
// field Save is kept.
type Setup struct {
	Op   OpID
	Call Call
	Save string
}

// Probe returns the call that checks a refusal of the operation: its
// Forbidden call, or else its typical call, addressing record (a records.*
// key path of a record of the Subject's kind) in the Subject's place; ""
// addresses the Subject itself.
func (o Operation) Probe(record string) Call {
	c := o.Typical
	if o.Forbidden != nil {
		c = *o.Forbidden
	}
	if record == "" || o.Subject == "" || record == o.Subject {
		return c
	}
	from, to := "{records."+o.Subject+"}", "{records."+record+"}"
	c.Params, c.Query = replaced(c.Params, from, to), replaced(c.Query, from, to)
	c.Body = strings.ReplaceAll(c.Body, from, to)
	return c
}

// replaced is a copy of params with from replaced by to in each value.
func replaced(params map[string]string, from, to string) map[string]string {
	out := maps.Clone(params)
	for k, v := range out {
		out[k] = strings.ReplaceAll(v, from, to)
	}
	return out
}

// SubjectIsNumber reports whether the probe writes the Subject as a JSON
// number (the notification id), not as a string: a record named in its
// place must be one too.
func (o Operation) SubjectIsNumber() bool {
	c := o.Probe("")
	ph := "{records." + o.Subject + "}"
	return o.Subject != "" && strings.Contains(c.Body, ph) && !strings.Contains(c.Body, `"`+ph+`"`)
}

// Unplaced reports whether the specification leaves the operation's method
// and path open.
func (o Operation) Unplaced() bool { return !o.Placed }

// FixtureBody reports whether the fixture gives the operation's request
// body (operations.<id>.body), as its typical call says: the
// specification shows no body for it, so none can be made up.
func (o Operation) FixtureBody() bool {
	return o.Typical.HasBody && o.Typical.Body == "{operations."+string(o.ID)+".body}"
}

// OperationID is the operation's operationId in the OpenAPI document,
// which says what it does (generated clients name their methods after
// it): the old fixture name of an unplaced operation, else its display
// name in lower camel case ("getDownloadLogsByFolder"). The document
// gives the operation's id (E10) in openapi.IDExtension.
func (o Operation) OperationID() string {
	if o.Alias != "" {
		return o.Alias
	}
	var b strings.Builder
	for i, w := range strings.FieldsFunc(o.Name, func(r rune) bool { return r == ' ' || r == '-' }) {
		if i == 0 {
			w = strings.ToLower(w[:1]) + w[1:]
		} else {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

var all = []Operation{
	{ID: E1, Profile: ProfileSecondFactor, ChangesState: true, Name: "Validate one-time password", Statuses: []int{200, 404, 503}, Input: "OtpInput", Method: "POST", Path: "/campus/2FA/Auth", Placed: true,
		NotShown: "a one-time password's use changes no record a read shows",
		Record:   "SecondFactorResult", JSONBody: true, RequiredMembers: true, Group: "second-factor",
		IDs:     map[string]string{"body.userid": "secondFactor.userid"},
		Typical: Call{Body: `{"userid": "{secondFactor.userid}", "otp": "000000"}`, HasBody: true}},
	{ID: E2, Profile: ProfileSecondFactor, Name: "Check push status", Statuses: []int{200, 404, 503}, Input: "PushPollInput", Method: "POST", Path: "/campus/2FA/Poll", Placed: true,
		Record: "PushResult", JSONBody: true, RequiredMembers: true, Group: "second-factor",
		Typical:    Call{Body: `{"transactionId": "{absent}"}`, HasBody: true},
		Forbidden:  &Call{Body: `{"transactionId": "{saved.probe}"}`, HasBody: true},
		ProbeSetup: &Setup{Op: E3, Save: "transactionId"}},
	{ID: E3, Profile: ProfileSecondFactor, ChangesState: true, Name: "Send push", Statuses: []int{200, 404, 503}, Method: "POST", Path: "/campus/2FA/Push", Placed: true,
		NotShown: "the push it sends is named only by the id its answer gives (E2 polls it): no read can be made before it",
		Record:   "PushResult", Destructive: true, Group: "second-factor"},
	{ID: E4, Profile: ProfileFaculty, ChangesState: true, Name: "Sync faculties", Statuses: []int{200, 404}, Method: "POST", Path: "/campus/Faculty", Placed: true,
		Stated:   SuperAdmin,
		NotShown: "the faculties it synchronises are read by no other operation",
		Record:   "Faculty", List: true, Destructive: true, Group: "faculties", TypicalUser: "admin",
		ListFacts: &ListFacts{}},
	{ID: E5, Profile: ProfileConsultation, ChangesState: true, Name: "Delete slots", Statuses: []int{200, 204, 404}, Input: "SlotDeleteInput", Method: "DELETE", Path: "/consultation/Slot", Placed: true,
		Stated:   AccessDelete,
		NotShown: "slots are read by no operation; only a second deletion shows them gone",
		JSONBody: true, UUIDInput: true, Destructive: true, Group: "slots", Records: []string{"deletableSlots"}, Subject: "deletableSlots.0",
		IDs:       map[string]string{"body.iDs": "records.deletableSlots"},
		Typical:   Call{Body: `{"iDs": ["{absent}"]}`, HasBody: true},
		Forbidden: &Call{Body: `{"iDs": ["{records.deletableSlots.0}"]}`, HasBody: true}},
	{ID: E6, Profile: ProfileBank, ChangesState: true, Name: "Copy bank folder", Statuses: []int{201, 404}, Method: "POST", Path: "/bank/{id}/copy", Placed: true,
		PermissionOn: "path.id",
		NotShown:     "bank folders are read by no operation; the copy is its own answer",
		Record:       "BankFolder", UUIDInput: true, Destructive: true, Group: "bank", Records: []string{"bankFolder"}, Subject: "bankFolder",
		IDs:       map[string]string{"path.id": "records.bankFolder"},
		Typical:   Call{Params: map[string]string{"id": "{absent}"}},
		Forbidden: &Call{Params: map[string]string{"id": "{records.bankFolder}"}},
		Populates: []Populate{{Entity: "Creator", Fills: []string{"userID", "userName", "email"}},
			{Entity: "ContentCount", FillsNothing: noMember}}},
	{ID: E7, Profile: ProfileAttendance, ChangesState: true, Name: "Add default attendance", Statuses: []int{201}, Input: "DefaultAttendanceInput", Method: "POST", Path: "/Attendance/Default", Placed: true,
		PermissionOn: "body.resourceID",
		NotShown:     "attendances are read by no operation",
		Record:       "Attendance", JSONBody: true, RequiredMembers: true, UUIDInput: true, Destructive: true, Group: "attendance",
		Records: []string{"attendanceResource"}, Subject: "attendanceResource",
		IDs:     map[string]string{"body.resourceID": "records.attendanceResource"},
		Typical: Call{Body: `{"resourceID": "{records.attendanceResource}"}`, HasBody: true},
		References: []Reference{{Member: "resourceID", Input: "body.resourceID", Requirement: "E7.resource",
			Section: "Endpoints / E7 (resourceID: resource the content belongs to); Resources / Attendance (resourceID: owning resource)"}}},
	{ID: E8, Profile: ProfileAttendance, ChangesState: true, Name: "Delete attendances", Statuses: []int{204}, Input: "AttendanceDeleteInput", Method: "DELETE", Path: "/Attendance/", Placed: true,
		PermissionOn: "body.resourceID",
		NotShown:     "attendances are read by no operation",
		EmptyAnswer:  true, JSONBody: true, RequiredMembers: true, UUIDInput: true, Destructive: true, Group: "attendance",
		Records: []string{"attendanceResource"}, Subject: "attendanceResource",
		IDs:        map[string]string{"body.resourceID": "records.attendanceResource"},
		Typical:    Call{Body: `{"resourceID": "{records.attendanceResource}", "iDs": ["{absent}"]}`, HasBody: true},
		Forbidden:  &Call{Body: `{"resourceID": "{records.attendanceResource}", "iDs": ["{saved.probe}"]}`, HasBody: true},
		ProbeSetup: &Setup{Op: E7, Call: Call{Body: `{"resourceID": "{records.attendanceResource}"}`, HasBody: true}, Save: "id"}},
	{ID: E9, Profile: ProfileEvaluation, Name: "Get evaluation question", Statuses: []int{200, 404}, Method: "GET", Path: "/evaluation/{evaluationid}/Question/{id}", Placed: true,
		Record: "EvaluationQuestion", UUIDInput: true, Group: "evaluation",
		Records: []string{"evaluation", "evaluationQuestion", "otherEvaluationQuestion"}, Subject: "evaluationQuestion", Load: true,
		IDs:     map[string]string{"path.evaluationid": "records.evaluation", "path.id": "records.evaluationQuestion"},
		Typical: Call{Params: map[string]string{"evaluationid": "{records.evaluation}", "id": "{records.evaluationQuestion}"}},
		Populates: []Populate{{Entity: "lastUpdatedUser", FillsNothing: noMember}, {Entity: "Response", FillsNothing: noMember},
			{Entity: "ResponseWithCreator", FillsNothing: noMember}},
		References: []Reference{{Member: "id", Input: "path.id", Requirement: "E9.id",
			Section: "Endpoints / E9 (id: question id)"}}},
	{ID: E10, Profile: ProfileFiles, Name: "Get download logs by folder", Statuses: []int{200}, Method: "GET", Path: "/files/{id}/downloaded", Placed: true,
		PermissionOn: "path.id",
		Record:       "FileLog", List: true, Paged: true, UUIDInput: true, Records: []string{"folder"}, Subject: "folder",
		Load: true, LoadQuery: "offset=0&limit=20",
		IDs:     map[string]string{"path.id": "records.folder"},
		Typical: Call{Params: map[string]string{"id": "{records.folder}"}},
		ListFacts: &ListFacts{SortKeys: []string{"logDate"},
			Filters: []Filter{
				{Param: "SearchText", Kind: SearchText, Members: []string{"name", "fileName"}, Requirement: "E10.search-exact",
					Section: "Endpoints / E10: SearchText filters by student name or file name"},
				{Param: "StartDate", Kind: DateFrom, Members: []string{"logDate"}, Requirement: "E10.dates-exact",
					Section: "Endpoints / E10: StartDate, begin of range"},
				{Param: "EndDate", Kind: DateTo, Members: []string{"logDate"}, Requirement: "E10.dates-exact",
					Section: "Endpoints / E10: EndDate, end of range"},
			}}},
	{ID: E11, Profile: ProfileFiles, Name: "Get all annotations of a file", Statuses: []int{200}, Method: "GET", Path: "/files/FileAnnotation/{id}/all", Placed: true,
		Record: "FileAnnotation", List: true, UUIDInput: true, Records: []string{"file"}, Subject: "file", Load: true,
		IDs:       map[string]string{"path.id": "records.file"},
		Typical:   Call{Params: map[string]string{"id": "{records.file}"}},
		ListFacts: &ListFacts{},
		References: []Reference{{Member: "documentId", Input: "path.id", Requirement: "E11.file",
			Section: "Endpoints / E11 (id: file); Resources / File annotation (documentId: the file)"}}},
	{ID: E12, Profile: ProfileModules, Name: "Get weblink view logs", Statuses: []int{200, 404}, Method: "GET", Path: "/module/Weblink/{ID}/Log", Placed: true,
		PermissionOn: "path.ID",
		Record:       "WeblinkLog", List: true, UUIDInput: true, Records: []string{"weblink"}, Subject: "weblink", Load: true,
		IDs:       map[string]string{"path.ID": "records.weblink"},
		Typical:   Call{Params: map[string]string{"id": "{records.weblink}"}},
		ListFacts: &ListFacts{},
		References: []Reference{{Member: "targetID", Input: "path.id", Requirement: "E12.weblink",
			Section: "Endpoints / E12 (ID: weblink id); Resources / Weblink view log entry (targetID)"}}},
	{ID: E13, Profile: ProfileMultimedia, Name: "Get downloads of a media", Statuses: []int{200, 404}, Method: "GET", Path: "/multimedia/{id}/downloadlog", Placed: true,
		PermissionOn: "path.id",
		Record:       "MediaLog", UUIDInput: true, Group: "media", Records: []string{"media"}, Subject: "media", Load: true,
		IDs:     map[string]string{"path.id": "records.media"},
		Typical: Call{Params: map[string]string{"id": "{records.media}"}}},
	{ID: E14, Profile: ProfileMultimedia, ChangesState: true, Name: "Delete medias", Statuses: []int{200}, Input: "MediaDeleteInput", Method: "DELETE", Path: "/multimedia/media", Placed: true,
		PermissionOn: "body.iDs",
		ShownBy:      []Readback{{Op: E13}, {Op: E13, Each: "body.iDs"}},
		JSONBody:     true, UUIDInput: true, Destructive: true, Group: "media", Records: []string{"deletableMedia"}, Subject: "deletableMedia.0",
		IDs:       map[string]string{"body.iDs": "records.deletableMedia"},
		Typical:   Call{Body: `{"iDs": ["{absent}"]}`, HasBody: true},
		Forbidden: &Call{Body: `{"iDs": ["{records.deletableMedia.0}"]}`, HasBody: true}},
	{ID: E15, Profile: ProfileMultimedia, Name: "Get channel users", Statuses: []int{200}, Method: "GET", Path: "/multimedia/statistics/channel/{id}/users", Placed: true,
		PermissionOn: "path.id",
		Record:       "ChannelUser", List: true, Paged: true, UUIDInput: true, Records: []string{"channel"}, Subject: "channel", Load: true,
		IDs:     map[string]string{"path.id": "records.channel"},
		Typical: Call{Params: map[string]string{"id": "{records.channel}"}},
		ListFacts: &ListFacts{SortKeys: []string{"name"}, Distinct: []Distinct{{Member: "matrixNo", Requirement: "E15.per-user"}},
			Filters: []Filter{
				{Param: "startDate", Kind: DateFrom, Open: "e15-dates-filter", Section: "Endpoints / E15"},
				{Param: "endDate", Kind: DateTo, Open: "e15-dates-filter", Section: "Endpoints / E15"},
			}}},
	{ID: E16, Profile: ProfileMultimedia, Name: "Get lecture-capture files", Statuses: []int{200}, Method: "GET", Path: "/multimedia/capture/{id}/medias", Placed: true,
		PermissionOn: "path.id",
		Record:       "CaptureSession", List: true, UUIDInput: true, Records: []string{"capture"}, Subject: "capture", Load: true,
		IDs:       map[string]string{"path.id": "records.capture"},
		Typical:   Call{Params: map[string]string{"id": "{records.capture}"}},
		ListFacts: &ListFacts{}},
	{ID: E17, Profile: ProfileSurvey, Name: "Get responses by survey question", Statuses: []int{200, 404}, Method: "GET", Path: "/survey/question/{id}/response", Placed: true,
		Record: "SurveyResponse", List: true, Paged: true, UUIDInput: true, Records: []string{"surveyQuestion"}, Subject: "surveyQuestion", Load: true,
		IDs:       map[string]string{"path.id": "records.surveyQuestion"},
		Typical:   Call{Params: map[string]string{"id": "{records.surveyQuestion}"}},
		ListFacts: &ListFacts{SortKeys: []string{"createdDate"}},
		Populates: []Populate{{Entity: "Creator", Fills: []string{"userId", "userName", "userMatrixNo"}}},
		References: []Reference{{Member: "questionID", Input: "path.id", Requirement: "E17.question",
			Section: "Endpoints / E17 (id: question id); Resources / Survey response (questionID)"}}},
	{ID: E18, Profile: ProfilePoll, Name: "Get responses by poll question", Statuses: []int{200}, Method: "GET", Path: "/poll/Question/{id}/Response", Placed: true,
		Record: "PollResponse", List: true, Paged: true, UUIDInput: true, Records: []string{"pollQuestion"}, Subject: "pollQuestion", Load: true,
		IDs:       map[string]string{"path.id": "records.pollQuestion"},
		Typical:   Call{Params: map[string]string{"id": "{records.pollQuestion}"}},
		ListFacts: &ListFacts{SortKeys: []string{"createdDate"}},
		Populates: []Populate{{Entity: "photo", Member: "photo"}},
		References: []Reference{{Member: "questionID", Input: "path.id", Requirement: "E18.question",
			Section: "Endpoints / E18 (id: question id); Resources / Poll response (questionID)"}}},
	{ID: E19, Profile: ProfilePoll, Name: "Get poll response", Statuses: []int{200}, Method: "GET", Path: "/poll/Response/{id}", Placed: true,
		Record: "PollResponse", UUIDInput: true, Records: []string{"pollResponse"}, Subject: "pollResponse", Load: true,
		IDs:      map[string]string{"path.id": "records.pollResponse"},
		Typical:  Call{Params: map[string]string{"id": "{records.pollResponse}"}},
		ListedBy: &Listing{Op: E18, Parent: "questionID", Requirement: "E19.agrees"},
		References: []Reference{{Member: "id", Input: "path.id", Requirement: "E19.id",
			Section: "Endpoints / E19 (id: response id)"}}},
	{ID: E20, Profile: ProfileResources, Name: "Get accessible students", Statuses: []int{200}, Method: "GET", Path: "/resource/{id}/students", Placed: true,
		Record: "Student", List: true, Paged: true, UUIDInput: true, Records: []string{"resource"}, Subject: "resource", Load: true,
		IDs:       map[string]string{"path.id": "records.resource"},
		Typical:   Call{Params: map[string]string{"id": "{records.resource}"}},
		ListFacts: &ListFacts{SortKeys: []string{"userName"}, Distinct: []Distinct{{Member: "id", Requirement: "E20.distinct"}}},
		Populates: []Populate{{Entity: "photo", Member: "photo"}}},
	{ID: E21, Profile: ProfileWebLectures, ChangesState: true, Name: "Publish sessions", Statuses: []int{200}, Input: "SessionPublishInput", Method: "PUT", Path: "/weblecture/session/publish", Placed: true,
		PermissionOn: "body.iDs",
		NotShown:     "lecture sessions are read by no operation",
		JSONBody:     true, UUIDInput: true, Destructive: true, Group: "lecture-sessions", Records: []string{"lectureSessions"}, Subject: "lectureSessions.0",
		IDs:       map[string]string{"body.iDs": "records.lectureSessions"},
		Typical:   Call{Body: `{"iDs": ["{absent}"], "publish": true}`, HasBody: true},
		Forbidden: &Call{Body: `{"iDs": ["{records.lectureSessions.0}"], "publish": true}`, HasBody: true}},
	{ID: GB, Profile: ProfileGradebook, ChangesState: true, Alias: "updateGradebookSettings", Name: "Update gradebook settings", Statuses: []int{200, 404}, Input: "GradebookSettingsInput",
		PermissionOn: "path.id",
		NotShown:     "gradebook settings are read by no operation but the update itself",
		Method:       "PATCH", Path: "/gradebook/{id}/settings", AltMethod: "PUT", AltPath: "/gradebook/settings/{id}",
		Record: "GradebookSettings", JSONBody: true, RequiredMembers: true, UUIDInput: true, Destructive: true, Group: "gradebook",
		Records: []string{"gradebookModule"}, Subject: "gradebookModule.id",
		IDs: map[string]string{"path.id": "records.gradebookModule.id", "body.iD_Weightage.key": "records.gradebookModule.gradeItems"},
		Typical: Call{Params: map[string]string{"id": "{absent}"},
			Body: `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}`, HasBody: true},
		Forbidden: &Call{Params: map[string]string{"id": "{records.gradebookModule.id}"},
			Body: `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}`, HasBody: true}},
	{ID: ES, Profile: ProfileEvaluation, ChangesState: true, Alias: "updateEvaluationSession", Name: "Update evaluation question session", Statuses: []int{200}, Input: "EvaluationSessionInput",
		PermissionOn: "path.id",
		ShownBy:      []Readback{{Op: E9}},
		Method:       "PATCH", Path: "/evaluation/{id}/session", AltMethod: "PUT", AltPath: "/evaluations/{id}/question-session",
		Record: "Evaluation", Destructive: true, Group: "evaluation", Records: []string{"evaluation", "evaluationQuestion"}, Subject: "evaluation",
		IDs:     map[string]string{"path.id": "records.evaluation"},
		Typical: Call{Params: map[string]string{"id": "{records.evaluation}"}, HasBody: true, Body: "{operations.ES.body}"},
		References: []Reference{{Member: "id", Input: "path.id", Requirement: "ES.id",
			Section: "Operations whose location is not given / Update evaluation question session (200 returns the evaluation record)"}}},
	{ID: NG, Profile: ProfileNotifications, Alias: "getNotificationByGroup", Name: "Get notification by group id", Statuses: []int{200},
		PermissionOn: "path.id",
		Method:       "GET", Path: "/notification/group/{id}", AltMethod: "GET", AltPath: "/notifications/groups/{id}",
		Record: "Notification", UUIDInput: true, Group: "notification", Records: []string{"notification"}, Subject: "notification.groupId", Load: true,
		IDs:       map[string]string{"path.id": "records.notification.groupId"},
		Typical:   Call{Params: map[string]string{"id": "{records.notification.groupId}"}},
		Populates: []Populate{{Entity: "ancestor", Member: "ancestor", NonEmpty: true}},
		References: []Reference{{Member: "notifyGroupId", Input: "path.id", Requirement: "NG.group",
			Section: "Operations whose location is not given / Get notification by notification group id (path parameter: group id)"}}},
	{ID: NR, Profile: ProfileNotifications, ChangesState: true, Alias: "updateNotificationRead", Name: "Update notification read status", Statuses: []int{200}, Input: "NotificationReadInput",
		PermissionOn: "body.id",
		ShownBy:      []Readback{{Op: NG, Members: []string{"notifyStatus"}}},
		Method:       "PUT", Path: "/notification/read", AltMethod: "POST", AltPath: "/notifications/read-status",
		Record: "Notification", JSONBody: true, RequiredMembers: true, Destructive: true, Group: "notification",
		Records: []string{"notification"}, Subject: "notification.id", Load: true, LoadBody: `{"id":{records.notification.id},"read":11}`,
		IDs:     map[string]string{"body.id": "records.notification.id"},
		Typical: Call{Body: `{"id": {records.notification.id}, "read": 10}`, HasBody: true}},
	{ID: QS, Profile: ProfileQuizzes, ChangesState: true, Alias: "updateQuizSection", Name: "Update quiz section", Statuses: []int{200}, Input: "QuizSectionInput",
		PermissionOn: "body.id",
		NotShown:     "quiz sections are read by no operation but the update itself",
		Method:       "PUT", Path: "/quiz/section", AltMethod: "PATCH", AltPath: "/quiz/sections",
		Record: "QuizSection", JSONBody: true, RequiredMembers: true, UUIDInput: true, Destructive: true, Group: "quiz",
		Records: []string{"quizSection"}, Subject: "quizSection.id",
		IDs:     map[string]string{"body.id": "records.quizSection.id"},
		Typical: Call{Body: `{"id": "{records.quizSection.id}", "name": "Section one"}`, HasBody: true}},
}

var byID = func() map[string]*Operation {
	m := make(map[string]*Operation, 2*len(all))
	for i := range all {
		op := &all[i]
		if _, dup := m[string(op.ID)]; dup {
			panic("registry: operation " + string(op.ID) + " given twice")
		}
		m[string(op.ID)] = op
		if op.Alias != "" {
			m[op.Alias] = op
		}
	}
	return m
}()

// profiles are the profiles in report order, each with its operations,
// read from the operations' rows.
var profiles = func() []ProfileOps {
	var out []ProfileOps
	at := map[Profile]int{}
	for _, op := range all {
		if op.Profile == "" {
			panic("registry: operation " + string(op.ID) + " has no profile")
		}
		i, ok := at[op.Profile]
		if !ok {
			i = len(out)
			at[op.Profile] = i
			out = append(out, ProfileOps{Name: op.Profile})
		}
		out[i].Operations = append(out[i].Operations, op.ID)
	}
	return out
}()

// ProfileOps is a profile with its operations, in report order.
type ProfileOps struct {
	Name       Profile
	Operations []OpID
}

// Profiles returns every profile with its operations, in report order
// (that of each profile's first operation).
func Profiles() []ProfileOps {
	out := slices.Clone(profiles)
	for i := range out {
		out[i].Operations = slices.Clone(out[i].Operations)
	}
	return out
}

// ProfileNames returns the name of every profile, in report order.
func ProfileNames() []Profile {
	out := make([]Profile, len(profiles))
	for i, p := range profiles {
		out[i] = p.Name
	}
	return out
}

// LookupProfile returns the profile called name.
func LookupProfile(name string) (Profile, bool) {
	for _, p := range profiles {
		if string(p.Name) == name {
			return p.Name, true
		}
	}
	return "", false
}

// ProfileOf returns the profile of the operation named by its id or its
// alias; ok is false for any other name (a cross-cutting "ALL", "").
func ProfileOf(name string) (p Profile, ok bool) {
	op, ok := Lookup(name)
	return op.Profile, ok
}

// All returns every operation in report order: the placed ones by number,
// then the unplaced ones in the order the specification lists them.
func All() []Operation { return slices.Clone(all) }

// IDs returns the id of every operation, in report order.
func IDs() []OpID {
	return Select(func(Operation) bool { return true })
}

// Lookup returns the operation named by its id or its alias.
func Lookup(name string) (Operation, bool) {
	op, ok := byID[name]
	if !ok {
		return Operation{}, false
	}
	return *op, true
}

// Must returns the operation id names; it panics on an id that is not an
// operation's (only a conversion from a string can make one).
func Must(id OpID) Operation {
	op, ok := Lookup(string(id))
	if !ok {
		panic(fmt.Sprintf("registry: no operation %q", id))
	}
	return op
}

// ID returns the id of an operation named by its id or its alias, and any
// other name unchanged.
func ID(name string) string {
	if op, ok := byID[name]; ok {
		return string(op.ID)
	}
	return name
}

// Aliases maps each alias to its operation's id.
func Aliases() map[string]OpID {
	m := map[string]OpID{}
	for _, op := range all {
		if op.Alias != "" {
			m[op.Alias] = op.ID
		}
	}
	return m
}

// Unplaced returns the ids of the operations the specification does not
// place, in report order.
func Unplaced() []OpID {
	return Select(Operation.Unplaced)
}

// Select returns the ids of the operations keep accepts, in report order.
func Select(keep func(Operation) bool) []OpID {
	var out []OpID
	for _, op := range all {
		if keep(op) {
			out = append(out, op.ID)
		}
	}
	return out
}

// Requirements returns, for each operation keep accepts, its id followed
// by suffix: the requirement ids of a rule every such operation has
// (".400.uuid" on the operations taking uuids, …).
func Requirements(suffix string, keep func(Operation) bool) []string {
	var out []string
	for _, id := range Select(keep) {
		out = append(out, id.Requirement(suffix))
	}
	return out
}

// Requirement returns the id of the requirement of the operation with
// suffix: E7.Requirement(".400.json") is "E7.400.json".
func (id OpID) Requirement(suffix string) string { return string(id) + suffix }

// Addresses returns the input of the operation's calls that names the one
// record it reads or changes ("path.id", "body.id") and the fixture key
// of that record: its one IDs entry, where that is a path parameter or a
// body member naming one id. ok is false where the operation names no
// record by an id, several, or a list of them ("body.iDs").
func (o Operation) Addresses() (input, key string, ok bool) {
	if len(o.IDs) != 1 {
		return "", "", false
	}
	for in, key := range o.IDs {
		kind, name, _ := strings.Cut(in, ".")
		one := !strings.Contains(name, ".") && !strings.HasSuffix(strings.ToLower(name), "ids")
		if kind == "path" || kind == "body" && one {
			return in, key, true
		}
	}
	return "", "", false
}

// Documented returns every status the interface documents for the
// operation: its own (Statuses) and 400, 403 and 500, which every
// operation has, sorted.
func (o Operation) Documented() []int {
	out := append([]int{400, 403, 500}, o.Statuses...)
	slices.Sort(out)
	return slices.Compact(out)
}

// RecordUsers returns, for each fixture record key, the operations needing
// it, in report order.
func RecordUsers() map[string][]OpID {
	m := map[string][]OpID{}
	for _, op := range all {
		for _, k := range op.Records {
			m[k] = append(m[k], op.ID)
		}
	}
	return m
}

// Strings returns ids as strings, for messages and name lists.
func Strings(ids []OpID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// placeholder matches a placeholder of a Call: {records.folder},
// {operations.ES.body}, {secondFactor.userid}, {absent}, and the suite's
// own ({saved.x}, {otp}, ...).
var placeholder = regexp.MustCompile(`\{(records|saved|secondFactor|users|operations|conventions|absentNumber|absent|otp|wrongOtp|sortby)(\.[^{}\s"]*)?\}`)

// Fill replaces each placeholder of text by what lookup gives for its key
// (the placeholder without its braces: "records.folder", "absent"). It
// stops at the first error lookup returns. The suite, the load generator
// and any producer that sends a registry call fill it so.
func Fill(text string, lookup func(key string) (string, error)) (string, error) {
	var firstErr error
	out := placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if firstErr != nil {
			return m
		}
		v, err := lookup(strings.Trim(m, "{}"))
		if err != nil {
			firstErr = err
			return m
		}
		return v
	})
	return out, firstErr
}

// Span names every operation for a message, each with prefix: the placed
// ones as a range, then the unplaced ones ("E1..E21, GB, ES, NG, NR, QS",
// or with prefix "@", "@E1..@E21, @GB, ...").
func Span(prefix string) string {
	return span(prefix, Select(func(o Operation) bool { return o.Placed }), Unplaced())
}

func span(prefix string, placed, unplaced []OpID) string {
	var parts []string
	if len(placed) > 0 {
		parts = append(parts, prefix+string(placed[0])+".."+prefix+string(placed[len(placed)-1]))
	}
	for _, id := range unplaced {
		parts = append(parts, prefix+string(id))
	}
	return strings.Join(parts, ", ")
}
