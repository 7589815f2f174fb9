package registry

// What each write sets and where it is read back: the facts the suite's
// round trips, refusal read-backs and neighbour checks read (steps/writes.go,
// features/common.feature's outlines over the writes). A write the
// interface gives no way to observe beyond its status (E5, E6, E8, E21's
// count, ES's body the specification does not show) has no row.

// Kind is the type the specification states for a member a write sets; it
// says how a value that comes back is compared with the one sent.
type Kind string

// The kinds of member.
const (
	// KindText is a string: it comes back the same, code point for code
	// point (non-ASCII text and characters beyond the Basic Multilingual
	// Plane included).
	KindText Kind = "text"
	// KindBool is a boolean.
	KindBool Kind = "boolean"
	// KindInt is an integer (int32, int64): it comes back exactly.
	KindInt Kind = "integer"
	// KindFloat is a number (float): it may come back at float (32-bit)
	// precision.
	KindFloat Kind = "float"
	// KindUUID is a uuid: it comes back naming the same record, in either
	// case (RFC 4122: case-insensitive on input).
	KindUUID Kind = "uuid"
)

// Member is one member a write sets: where it is in the request body,
// in the write's answer and in the read of the record, each a gjson path
// that may hold placeholders (a query on a list's item:
// `iD_Weightage.#(key=="{records.gradebookModule.gradeItems.0}").value`).
type Member struct {
	// Sent is its path in the request body; an edge that does not send
	// it does not compare it.
	Sent string
	// Answer is its path in the write's answer, Read in the answer of the
	// write's Read ("" where that read does not show it).
	Answer, Read string
	Kind         Kind
	// Required says the answer's record must show it (a required member
	// of the record, or of a list item the answer shows); an optional one
	// left out is not judged.
	Required bool
}

// Edge is one request of a write's round trip, with values at the edges
// the specification states.
type Edge struct {
	// What says which edges the body holds, for messages.
	What string
	// Body is the request body, in placeholders.
	Body string
	// MayRefuse says the body holds a value the specification does not
	// bound (an empty required string, an int32 extreme where a count is
	// meant): a refusal in the stated error form is faithful, and an
	// acceptance must still give back what was sent.
	MayRefuse bool
	// Rest, when set, completes a list of the body with an item for each
	// record of a fixture list the body does not name yet.
	Rest *Rest
}

// Rest completes the list at the body's member List with Item (whose
// {item} is the id) for each id of the fixture list Of the list's items do
// not name in their member Key: a gradebook update naming every grade
// item of the module, so the module's total is the request's.
type Rest struct {
	List, Key, Of, Item string
}

// Read is a call that reads a record a write changes.
type Read struct {
	Op   OpID
	Call Call
}

// Flip is the member of a Change call that takes, of Values, one the
// record does not hold: Read is its path in the answer of the read made
// before, and the call names the value as {saved.flip}.
type Flip struct {
	Read   string
	Values []string
}

// Write is what one write sets and where it is read back.
type Write struct {
	Op OpID
	// Params are the path parameters of its calls.
	Params map[string]string
	// Sets are the members it sets, Edges the bodies of its round trip.
	Sets  []Member
	Edges []Edge
	// Read reads back the record its Change call addresses (nil when the
	// interface has no such read).
	Read *Read
	// Change is a call that changes the record Read reads, Flip (when set)
	// choosing the value it sets from what a read shows.
	Change *Call
	Flip   *Flip
	// Neighbour reads another record of the same kind and user, named by
	// the optional fixture key NeighbourKey (a records.* key), which a
	// Change call must leave as it was.
	Neighbour    *Read
	NeighbourKey string
}

// ReadsBack reports whether a refused call of the write can be read
// back: the registry declares a call changing the record and the read of
// it (the key refusal's and the refusal check's read-backs).
func (w Write) ReadsBack() bool { return w.Read != nil && w.Change != nil }

// Edge values the round trips send: text beyond ASCII (Latin-1, CJK and
// characters outside the Basic Multilingual Plane: an emoji and a musical
// symbol, which UTF-16 writes as surrogate pairs), and the int32 extremes.
const (
	EdgeText       = "Sección ünïcødé 日本語 😀 𝄞"
	EdgeShortText  = "Ä😀"
	EdgeInt32Max   = "2147483647"
	EdgeInt32Min   = "-2147483648"
	EdgeFloatPrecs = "33.3" // not exact in binary: comes back at float precision
)

// gradeItemsAtZero names every other grade item of the module at 0.
var gradeItemsAtZero = &Rest{List: "iD_Weightage", Key: "key", Of: "records.gradebookModule.gradeItems", Item: `{"key": "{item}", "value": 0}`}

var writes = []Write{
	{Op: QS,
		Sets: []Member{
			{Sent: "id", Answer: "id", Kind: KindUUID},
			{Sent: "name", Answer: "name", Kind: KindText, Required: true},
			{Sent: "description", Answer: "description", Kind: KindText},
			{Sent: "displayQuestionMark", Answer: "displayQuestionMark", Kind: KindBool},
			{Sent: "displayedRandomQuestions", Answer: "displayedRandomQuestions", Kind: KindInt},
			{Sent: "randomizeQuestions", Answer: "randomizeQuestions", Kind: KindBool},
			{Sent: "randomizeOptions", Answer: "randomizeOptions", Kind: KindBool},
			{Sent: "requireRational", Answer: "requireRational", Kind: KindBool},
		},
		Edges: []Edge{
			{What: "text beyond ASCII, every boolean false (zero)",
				Body: `{"id": "{records.quizSection.id}", "name": "` + EdgeText + `", "description": "` + EdgeShortText + `", "displayQuestionMark": false, "randomizeQuestions": false, "randomizeOptions": false, "requireRational": false}`},
			{What: "the booleans mixed, so that two members answered crosswise show",
				Body: `{"id": "{records.quizSection.id}", "name": "Section one", "displayQuestionMark": true, "randomizeQuestions": false, "randomizeOptions": true, "requireRational": false}`},
			{What: "the booleans mixed the other way",
				Body: `{"id": "{records.quizSection.id}", "name": "Section one", "displayQuestionMark": false, "randomizeQuestions": true, "randomizeOptions": false, "requireRational": true}`},
			{What: "every boolean true, displayedRandomQuestions 0",
				Body: `{"id": "{records.quizSection.id}", "name": "Section one", "displayQuestionMark": true, "randomizeQuestions": true, "randomizeOptions": true, "requireRational": true, "displayedRandomQuestions": 0}`},
			{What: "the required name empty", MayRefuse: true,
				Body: `{"id": "{records.quizSection.id}", "name": "", "description": ""}`},
			{What: "displayedRandomQuestions at the int32 maximum", MayRefuse: true,
				Body: `{"id": "{records.quizSection.id}", "name": "Section one", "randomizeQuestions": true, "displayedRandomQuestions": ` + EdgeInt32Max + `}`},
			{What: "displayedRandomQuestions at the int32 minimum", MayRefuse: true,
				Body: `{"id": "{records.quizSection.id}", "name": "Section one", "randomizeQuestions": true, "displayedRandomQuestions": ` + EdgeInt32Min + `}`},
		}},
	{Op: GB, Params: map[string]string{"id": "{records.gradebookModule.id}"},
		Sets: []Member{
			{Sent: `iD_Weightage.#(key=="{records.gradebookModule.gradeItems.0}").value`, Answer: `iD_Weightage.#(key=="{records.gradebookModule.gradeItems.0}").value`, Kind: KindFloat},
			{Sent: `iD_Weightage.#(key=="{records.gradebookModule.gradeItems.1}").value`, Answer: `iD_Weightage.#(key=="{records.gradebookModule.gradeItems.1}").value`, Kind: KindFloat},
			{Sent: `gradingSchema.#(letterGrade=="` + EdgeShortText + `").maxMark`, Answer: `gradingSchema.#(letterGrade=="` + EdgeShortText + `").maxMark`, Kind: KindFloat, Required: true},
			{Sent: `gradingSchema.#(letterGrade=="B").maxMark`, Answer: `gradingSchema.#(letterGrade=="B").maxMark`, Kind: KindFloat, Required: true},
			{Sent: `gradingSchema.#(letterGrade=="").maxMark`, Answer: `gradingSchema.#(letterGrade=="").maxMark`, Kind: KindFloat, Required: true},
		},
		Edges: []Edge{
			{What: "a weightage 0 and one at float precision, a letter grade beyond ASCII with maxMark 0",
				Body: `{"iD_Weightage": [{"key": "{records.gradebookModule.gradeItems.0}", "value": 0}, {"key": "{records.gradebookModule.gradeItems.1}", "value": ` + EdgeFloatPrecs + `}], "gradingSchema": [{"letterGrade": "` + EdgeShortText + `", "maxMark": 0}, {"letterGrade": "B", "maxMark": ` + EdgeFloatPrecs + `}]}`,
				Rest: gradeItemsAtZero},
			{What: "an empty letter grade (a required member) with maxMark at the float maximum", MayRefuse: true,
				Body: `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "", "maxMark": 3.4028234663852886e+38}]}`},
		}},
	{Op: E7,
		Sets: []Member{
			{Sent: "resourceID", Answer: "resourceID", Kind: KindUUID},
			{Sent: "publish", Answer: "publish", Kind: KindBool},
		},
		Edges: []Edge{
			{What: "publish false (zero)", Body: `{"resourceID": "{records.attendanceResource}", "publish": false}`},
		}},
	{Op: NR,
		Sets:         []Member{{Sent: "read", Answer: "notifyStatus", Read: "notifyStatus", Kind: KindInt}},
		Read:         &Read{Op: NG, Call: Call{Params: map[string]string{"id": "{records.notification.groupId}"}}},
		Change:       &Call{Body: `{"id": {records.notification.id}, "read": {saved.flip}}`, HasBody: true},
		Flip:         &Flip{Read: "notifyStatus", Values: []string{"10", "11"}},
		Neighbour:    &Read{Op: NG, Call: Call{Params: map[string]string{"id": "{records.otherNotification.groupId}"}}},
		NeighbourKey: "otherNotification"},
	{Op: E14,
		Read:   &Read{Op: E13, Call: Call{Params: map[string]string{"id": "{records.deletableMedia.1}"}}},
		Change: &Call{Body: `{"iDs": ["{records.deletableMedia.1}"]}`, HasBody: true},
		// the media the suite never deletes: a delete of another leaves
		// its download log as it was
		Neighbour:    &Read{Op: E13, Call: Call{Params: map[string]string{"id": "{records.media}"}}},
		NeighbourKey: "media"},
}

// Writes returns what each write sets and where it is read back, in
// report order of the writes.
func Writes() []Write {
	out := make([]Write, 0, len(writes))
	for _, id := range IDs() {
		if w, ok := WriteOf(id); ok {
			out = append(out, w)
		}
	}
	return out
}

// WriteOf returns what the write op sets and where it is read back.
func WriteOf(op OpID) (Write, bool) {
	for _, w := range writes {
		if w.Op == op {
			return w, true
		}
	}
	return Write{}, false
}
