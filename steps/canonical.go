package steps

// typical is, per operation, a request that a conforming implementation
// answers without refusing it for its content: the scenarios that vary one
// thing (no subscription key, a forbidden user, the body's media type) start
// from it. Deleting operations name an absent id, so a typical call never
// removes a fixture record; the answers they get (404, a count of 0) are
// still told apart from a refusal. Scenarios run concurrently one feature
// per worker, so a typical call must not disturb another feature's records:
// the notification update sets "unread", the only state a scenario reads
// back across calls.
var typical = map[string]call{
	"E1":  {body: `{"userid": "{secondFactor.userid}", "otp": "000000"}`, hasBody: true},
	"E2":  {body: `{"transactionId": "{absent}"}`, hasBody: true},
	"E3":  {},
	"E4":  {},
	"E5":  {body: `{"iDs": ["{absent}"]}`, hasBody: true},
	"E6":  {params: map[string]string{"id": "{absent}"}},
	"E7":  {body: `{"resourceID": "{records.attendanceResource}"}`, hasBody: true},
	"E8":  {body: `{"resourceID": "{records.attendanceResource}", "iDs": ["{absent}"]}`, hasBody: true},
	"E9":  {params: map[string]string{"evaluationid": "{records.evaluation}", "id": "{records.evaluationQuestion}"}},
	"E10": {params: map[string]string{"id": "{records.folder}"}},
	"E11": {params: map[string]string{"id": "{records.file}"}},
	"E12": {params: map[string]string{"id": "{records.weblink}"}},
	"E13": {params: map[string]string{"id": "{records.media}"}},
	"E14": {body: `{"iDs": ["{absent}"]}`, hasBody: true},
	"E15": {params: map[string]string{"id": "{records.channel}"}},
	"E16": {params: map[string]string{"id": "{records.capture}"}},
	"E17": {params: map[string]string{"id": "{records.surveyQuestion}"}},
	"E18": {params: map[string]string{"id": "{records.pollQuestion}"}},
	"E19": {params: map[string]string{"id": "{records.pollResponse}"}},
	"E20": {params: map[string]string{"id": "{records.resource}"}},
	"E21": {body: `{"iDs": ["{absent}"], "publish": true}`, hasBody: true},
	"GB": {params: map[string]string{"id": "{absent}"},
		body: `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}`, hasBody: true},
	"ES": {params: map[string]string{"id": "{records.evaluation}"}, hasBody: true, body: "{operations.ES.body}"},
	"NG": {params: map[string]string{"id": "{records.notification.groupId}"}},
	"NR": {body: `{"id": {records.notification.id}, "read": 10}`, hasBody: true},
	"QS": {body: `{"id": "{records.quizSection.id}", "name": "Section one"}`, hasBody: true},
}

// forbiddenCalls replace typical calls that name an absent record when the
// point is a permission: an implementation may look a record up before it
// checks who asks, and answer 404 where 403 is meant, so these name real
// records. A conforming implementation refuses them without changing
// anything.
var forbiddenCalls = map[string]call{
	"E5": {body: `{"iDs": ["{records.deletableSlots.0}"]}`, hasBody: true},
	"E6": {params: map[string]string{"id": "{records.bankFolder}"}},
	"GB": {params: map[string]string{"id": "{records.gradebookModule.id}"},
		body: `{"iD_Weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}`, hasBody: true},
}

// forbiddenCall returns the call that checks a refusal of op.
func forbiddenCall(op string) (call, bool) {
	c, ok := forbiddenCalls[op]
	if !ok {
		return typicalCall(op)
	}
	c.op = op
	for k := range c.params {
		c.order = append(c.order, k)
	}
	return c, true
}

// typicalUser is the caller of a typical call where the default caller
// would be refused.
var typicalUser = map[string]string{"E4": "admin"}

// typicalCall returns the typical call of op.
func typicalCall(op string) (call, bool) {
	c, ok := typical[op]
	if !ok {
		return call{}, false
	}
	c.op = op
	for k := range c.params {
		c.order = append(c.order, k)
	}
	return c, true
}
