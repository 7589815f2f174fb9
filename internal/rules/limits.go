package rules

import "strconv"

// Range is a closed interval of numbers the specification states for a
// field or an input.
type Range struct {
	Min, Max float64
}

// Contains reports whether v lies in the range, ends included.
func (r Range) Contains(v float64) bool { return v >= r.Min && v <= r.Max }

// String writes the range as "min..max".
func (r Range) String() string {
	return strconv.FormatFloat(r.Min, 'f', -1, 64) + ".." + strconv.FormatFloat(r.Max, 'f', -1, 64)
}

// The limits the specification states (section Limits, and the records'
// constraints). Nothing else is a limit: the maximum and default of limit
// and offset, string lengths and rate limits are open (see Open).
var (
	// Mark is the range of an evaluation question's mark.
	Mark = Range{0, 10000}
	// VideoTimeStamp is the range of an evaluation question's
	// videoTimeStamp.
	VideoTimeStamp = Range{0, 2147483647}
	// DifficultyLevel is the range of an evaluation question's
	// difficultyLevel, an integer: one of 0, 1, 2, 3.
	DifficultyLevel = Range{0, 3}
	// NotificationRead is the range of the notification update's read
	// input (and of a notification's notifyStatus): ReadUnread or ReadRead.
	NotificationRead = Range{ReadUnread, ReadRead}
)

// QuestionLimits are the evaluation question fields with a stated range,
// by field name: what a body carrying questions must keep, wherever in it
// they appear.
var QuestionLimits = map[string]Range{
	"mark":            Mark,
	"difficultyLevel": DifficultyLevel,
	"videoTimeStamp":  VideoTimeStamp,
}

// The two states of a notification (section States and transitions): the
// values of notifyStatus and of the read input.
const (
	ReadUnread = 10
	ReadRead   = 11
)

// MaxWeightageTotal is the most the weightages of one module's grade items
// may add up to, in percent (Limits; Update gradebook settings).
const MaxWeightageTotal = 100

// Tolerances of a weightage total compared with MaxWeightageTotal: the
// suite, which sends totals it built exactly, allows float rounding only;
// the proxy, judging totals a client wrote with two decimals, compares to
// a hundredth.
const (
	RoundingTolerance  = 1e-9
	HundredthTolerance = 0.005
)

// WeightageOver reports whether a module's weightage total exceeds
// MaxWeightageTotal by more than tolerance.
func WeightageOver(total, tolerance float64) bool { return total > MaxWeightageTotal+tolerance }

// Defaults the specification states for a member left out of a request.
const (
	// DefaultAttendancePublish is the publish flag of a default attendance
	// added without one (E7).
	DefaultAttendancePublish = true
	// DefaultDisplayQuestionMark is a quiz section's displayQuestionMark
	// when not given (QS).
	DefaultDisplayQuestionMark = false
)
