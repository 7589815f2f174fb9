package store

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
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
	// oldest can be evicted beyond the bound of its kind; it holds the
	// default attendances created at run time (E7) themselves, compactly
	// (Attendances holds the others).
	created created
	// attendanceModules are the modules of the default attendances kept
	// compactly in created, indexed by attendanceSlot.module;
	// attendanceModuleIndex is the index of each.
	attendanceModules     []string
	attendanceModuleIndex map[string]uint32
}

// Lazy is a value computed on first use. One made with NewBudgeted counts
// in a ListBudget, which may drop it again when it is idle; the next Get
// computes it anew. So gen must be a pure function: each call returns an
// equal value.
type Lazy[T any] struct {
	mu     sync.Mutex // held while generating
	gen    func() T
	v      atomic.Pointer[T] // nil: not held
	budget *ListBudget
	cost   int
	// counted says the budget holds l: while it does and the budget is
	// under its threshold, Get need not tell the budget of each use.
	counted atomic.Bool
	// took is how long the last generation took (nanoseconds).
	took atomic.Int64
}

// NewLazy returns a Lazy computing its value with gen once, and keeping it.
func NewLazy[T any](gen func() T) *Lazy[T] { return &Lazy[T]{gen: gen} }

// NewBudgeted returns a Lazy computing its value with gen, a pure
// function, whose value costs cost (in the budget's unit) and may be
// dropped by b when idle.
func NewBudgeted[T any](b *ListBudget, cost int, gen func() T) *Lazy[T] {
	return &Lazy[T]{gen: gen, budget: b, cost: cost}
}

// Get returns the value, computing it when it is not held.
func (l *Lazy[T]) Get() T {
	if b := l.budget; b != nil && (b.over.Load() || !l.counted.Load()) {
		b.use(l)
	}
	if v := l.v.Load(); v != nil {
		return *v
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if v := l.v.Load(); v != nil {
		return *v
	}
	start := time.Now()
	v := l.gen()
	l.took.Store(int64(time.Since(start)))
	l.v.Store(&v)
	return v
}

// drop forgets the value; the next Get computes it again.
func (l *Lazy[T]) drop() {
	l.mu.Lock()
	l.v.Store(nil)
	l.counted.Store(false)
	l.mu.Unlock()
}

func (l *Lazy[T]) count() { l.counted.Store(true) }

func (l *Lazy[T]) size() int { return l.cost }

// keepFor is how long l is kept idle: the budget's idle period, or
// IdleFactor times what generating l took if that is longer, so that
// generating a list again costs at most about a tenth of the time it was
// left alone.
func (l *Lazy[T]) keepFor(idle time.Duration) time.Duration {
	return max(idle, IdleFactor*time.Duration(l.took.Load()))
}

// IdleFactor is how many times its generation time a list is kept idle at
// least (see ListBudget).
const IdleFactor = 10

type budgeted interface {
	drop()
	size() int
	count()
	keepFor(idle time.Duration) time.Duration
}

// ListBudget lets the budgeted lists of a world go when they are idle:
// while the lists held cost more than a threshold, a list not wanted for
// an idle period (or IdleFactor times what generating it took, if longer)
// is dropped (to be generated again, equal, when next
// wanted) and the memory it held is returned to the operating system.
// Lists are generated from the seed on first use; at a large --scale all
// of them together hold hundreds of MB, which would otherwise stay with
// the server for its whole life after one suite run (issue 30). A cap on
// the lists held at one time was tried and dropped: a suite's parallel
// scenarios want every kind of list in turn, so the lists were generated
// again on nearly every request.
type ListBudget struct {
	mu        sync.Mutex
	threshold int
	idle      time.Duration
	used      int
	over      atomic.Bool            // used > threshold
	held      map[budgeted]time.Time // the lists held, by their last use
	timer     *time.Timer
	// Dropped counts the lists dropped, for tests.
	Dropped int
}

// NewListBudget returns a budget that drops lists idle for idle while the
// lists held cost more than threshold (in the unit of the costs given to
// NewBudgeted).
func NewListBudget(threshold int, idle time.Duration) *ListBudget {
	return &ListBudget{threshold: threshold, idle: idle, held: map[budgeted]time.Time{}}
}

// use marks l as used now, counting it in if it was not held.
func (b *ListBudget) use(l budgeted) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.held[l]; !ok {
		b.used += l.size()
		l.count()
	}
	b.held[l] = now
	b.over.Store(b.used > b.threshold)
	if b.used > b.threshold && b.timer == nil {
		b.timer = time.AfterFunc(b.idle, b.sweep)
	}
}

// DropAll drops every list held, as if each had been idle, and returns
// how many it dropped; the next Get of each generates it again.
func (b *ListBudget) DropAll() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(b.held)
	for l := range b.held {
		delete(b.held, l)
		l.drop()
	}
	b.used = 0
	b.over.Store(false)
	b.Dropped += n
	return n
}

// sweep drops the lists idle for the idle period, and comes again while
// the lists held still cost more than the threshold.
func (b *ListBudget) sweep() {
	now := time.Now()
	dropped := 0
	b.mu.Lock()
	next := b.idle
	for l, last := range b.held {
		keep := l.keepFor(b.idle)
		if idle := now.Sub(last); idle >= keep {
			delete(b.held, l)
			b.used -= l.size()
			l.drop()
			dropped++
		} else if keep-idle < next {
			next = keep - idle
		}
	}
	b.Dropped += dropped
	b.over.Store(b.used > b.threshold)
	b.timer = nil
	if b.used > b.threshold {
		b.timer = time.AfterFunc(next, b.sweep)
	}
	b.mu.Unlock()
	if dropped > 0 {
		debug.FreeOSMemory()
	}
}

// Lists holds the read-only lists of the world by parent id. A parent with
// no entries is present with an empty list, so presence means existence.
type Lists struct {
	// Budget bounds what the lists hold at one time (nil: no bound).
	Budget          *ListBudget
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
	Members *listing.List[ChannelMember]
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
	// ByID is where each response stands in ByQuestion: the response is
	// kept once, in its list (at --scale 1000 a copy per id was about a
	// tenth of the lists' memory).
	ByID map[string]PollAt
}

// PollAt is where a poll response stands: its question and its index in
// the question's list, in stored order.
type PollAt struct {
	Question string
	Index    int32
}

// Response returns the poll response id.
func (p *Polls) Response(id string) (PollResponse, bool) {
	at, ok := p.ByID[id]
	if !ok {
		return PollResponse{}, false
	}
	return p.ByQuestion[at.Question].At(int(at.Index)), true
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
