package store

import (
	"sync"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/campusconf/campusconf/simulator/listing"
)

// Role is what a caller may do; see docs/decisions.md.
type Role string

// The roles of the seeded world.
const (
	RoleSuperAdmin Role = "Super Admin"
	RoleOwner      Role = "Owner"
	RoleStaff      Role = "Staff"
	RoleStudent    Role = "Student"
)

// User is a caller of the interface: a person with credentials.
type User struct {
	// Fixture is the fixture role name (admin, owner, staff, student).
	Fixture string
	Role    Role
	// ID is the internal id (uuid); UserID the institutional login id.
	ID           string
	UserID       string
	Name         string
	Email        string
	MatricNo     string
	PhotoURL     string
	Token        string
	TOTPSecret   string
	CredentialID string
	// ApprovesPush is the user's standing answer to a push request.
	ApprovesPush bool
}

// Module is a module (resource) with the ids the operations need.
type Module struct {
	ID         string
	OwnerID    string // internal id of the owning staff member
	GradeItems []string
}

// Records are the records of a world, seeded and changed by the
// operations: a World holds them and its saved State carries them as they
// stand (one declaration for both, so the two cannot drift apart).
type Records struct {
	SubscriptionKey string
	Users           []User
	Faculties       []Faculty
	Modules         map[string]*Module
	// Slots maps a consultation slot id to its module id.
	Slots       map[string]string
	BankFolders map[string]BankFolder
	Attendances map[string]Attendance
	Evaluations map[string]Evaluation
	Questions   map[string]Question
	// Media maps a media id to its latest download log entry.
	Media map[string]MediaLog
	// Sessions maps a web lecture session id to its publish flag.
	Sessions      map[string]bool
	Gradebooks    map[string]Gradebook
	Notifications map[int64]Notification
	// Ancestors maps a notification target id to its ancestors.
	Ancestors    map[string][]Target
	QuizSections map[string]QuizSection
	// Pushes are the open second-factor push transactions by id.
	Pushes map[string]Push
}

// World is the whole state of one seeded world. The world package builds
// it; a Store owns it afterwards.
type World struct {
	// Clock is the world's current time: new records are dated from it and
	// it advances one second per write, so that runs are reproducible.
	Clock time.Time
	Records
	// Runtime draws the ids of records created at run time; RuntimeDraws
	// counts its draws, so a restored world goes on where it stopped.
	Runtime      *gofakeit.Faker
	RuntimeDraws int64
	// Seeded is the clock the world was seeded at: the seeded dates, the
	// lists' included, are counted back from it.
	Seeded time.Time
	// Lists are the read-only lists, generated on first use.
	Lists *Lists
	// created logs the records created at run time, oldest first, so the
	// oldest can be evicted beyond MaxCreated.
	created created
	// defaultAttendances are the default attendances created at run time
	// (E7), kept compactly: Attendances holds the others.
	defaultAttendances map[string]compactAttendance
}

// Lazy is a value computed on first use.
type Lazy[T any] struct {
	once sync.Once
	gen  func() T
	v    T
}

// NewLazy returns a Lazy computing its value with gen.
func NewLazy[T any](gen func() T) *Lazy[T] { return &Lazy[T]{gen: gen} }

// Get returns the value, computing it on the first call.
func (l *Lazy[T]) Get() T {
	l.once.Do(func() { l.v = l.gen() })
	return l.v
}

// Lists holds the read-only lists of the world by parent id. A parent with
// no entries is present with an empty list, so presence means existence.
type Lists struct {
	FileLogs        *Lazy[map[string]*listing.List[FileLog]]
	Annotations     *Lazy[map[string]*listing.List[Annotation]]
	WeblinkLogs     *Lazy[map[string]*listing.List[WeblinkLog]]
	Channels        *Lazy[map[string]*Channel]
	Captures        *Lazy[map[string]*listing.List[CaptureSession]]
	SurveyResponses *Lazy[map[string]*listing.List[SurveyResponse]]
	Polls           *Lazy[*Polls]
	Students        *Lazy[map[string]*listing.List[Student]]
}

// Channel is the user statistics of one multimedia channel: totals over
// all time, and each member's daily activity for date ranges.
type Channel struct {
	Totals  *listing.List[ChannelUser]
	Members []ChannelMember
}

// ChannelMember is one user's daily activity on a channel.
type ChannelMember struct {
	User ChannelUser // identity fields; counters are per day below
	Days []DayActivity
}

// DayActivity is one day of a member's activity.
type DayActivity struct {
	Day           time.Time
	Plays         int32
	Downloads     int32
	Comments      int32
	MinutesViewed float64
}

// Polls is the poll responses by question and by id.
type Polls struct {
	ByQuestion map[string]*listing.List[PollResponse]
	ByID       map[string]PollResponse
}

// Decision is the state of a push transaction.
type Decision string

// Push decisions.
const (
	Approve Decision = "approve"
	Deny    Decision = "deny"
	Pending Decision = "pending"
)

// Push is one second-factor push transaction.
type Push struct {
	ID       string
	UserID   string // internal id of the user who asked
	Decision Decision
}
