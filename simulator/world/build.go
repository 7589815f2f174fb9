package world

import (
	"fmt"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/campusconf/campusconf/simulator/store"
)

// Sizes of the parts of the world that do not grow with the scale.
const (
	poolSize          = 200
	modules           = 3
	gradeItemsPerMod  = 4
	slotsPerModule    = 10
	bankFolders       = 30
	attendancesPerMod = 3
	evaluations       = 3
	questionsPerEval  = 8
	mediaCount        = 12
	deletableMedia    = 4
	lectureSessions   = 30
	notifications     = 40
	assessments       = 3
	sectionsPerAssess = 4
)

// parents holds the ids of the parents of the read-only lists, generated
// eagerly so that the lists can be generated later, independently.
type parents struct {
	folders, files, weblinks, channels, captures, surveys, polls []string
	firstPollResponse                                            string
}

// Refs are the ids of the world the fixture file names.
type Refs struct {
	BankFolder         string
	AttendanceResource string
	Evaluation         string
	EvaluationQuestion string
	// OtherEvaluationQuestion is a question of another evaluation than
	// Evaluation.
	OtherEvaluationQuestion string
	Folder                  string
	File                    string
	Weblink                 string
	Media                   string
	DeletableMedia          []string
	Channel                 string
	Capture                 string
	SurveyQuestion          string
	PollQuestion            string
	PollResponse            string
	Resource                string
	DeletableSlots          []string
	LectureSessions         []string
	GradebookModule         string
	GradeItems              []string
	Notification            int64
	NotificationGroup       string
	// OtherNotification is another notification of the same user (the
	// fixture's optional neighbour of Notification).
	OtherNotification      int64
	OtherNotificationGroup string
	QuizSection            string
	QuizSectionName        string
}

// Build generates the world of seed at scale (at least 1) and the ids the
// fixture file names. It is deterministic: two calls give equal worlds.
func Build(seed int64, scale int) (*store.World, Refs) { return BuildAt(seed, scale, Now) }

// BuildAt is Build with the world's clock starting at now (zero: Now).
// Every seeded date is counted from it: the history (logs, responses,
// statistics, lecture captures, notifications) ends shortly before now,
// so "the last 7 days" holds data at any clock, and the same seed has the
// same history relative to its clock.
func BuildAt(seed int64, scale int, now time.Time) (*store.World, Refs) {
	if now.IsZero() {
		now = Now
	}
	now = now.UTC()
	if scale < 1 {
		scale = 1
	}
	f := faker(seed, "world")
	var refs Refs
	w := &store.World{
		Clock:   now,
		Seeded:  now,
		Runtime: faker(seed, "runtime"),
		Records: store.Records{
			SubscriptionKey: hex(f, 16),
			Modules:         map[string]*store.Module{},
			Slots:           map[string]string{},
			BankFolders:     map[string]store.BankFolder{},
			Attendances:     map[string]store.Attendance{},
			Evaluations:     map[string]store.Evaluation{},
			Questions:       map[string]store.Question{},
			Media:           map[string]store.MediaLog{},
			Sessions:        map[string]bool{},
			Gradebooks:      map[string]store.Gradebook{},
			Notifications:   map[int64]store.Notification{},
			Ancestors:       map[string][]store.Target{},
			QuizSections:    map[string]store.QuizSection{},
			Pushes:          map[string]store.Push{},
		},
	}
	w.Faculties = newFaculties(now, f)
	w.Users = newUsers(f, w.Faculties)
	owner := w.Users[1]
	pool := make([]person, poolSize)
	for i := range pool {
		pool[i] = newPerson(f, w.Faculties)
	}

	modIDs := buildModules(f, w, owner, &refs)
	buildBank(now, f, w, owner, pool, &refs)
	buildAttendance(now, f, w, owner, modIDs)
	buildEvaluations(now, f, w, owner, modIDs, &refs)
	buildMedia(now, f, w, pool, &refs)
	for i := range lectureSessions {
		id := f.UUID()
		w.Sessions[id] = i%2 == 0
		if i < 4 {
			refs.LectureSessions = append(refs.LectureSessions, id)
		}
	}
	buildNotifications(now, f, w, modIDs, &refs)
	buildQuiz(f, w, &refs)

	var p parents
	ids := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = f.UUID()
		}
		return out
	}
	p.folders, p.files, p.weblinks = ids(4), ids(4), ids(3)
	p.channels, p.captures, p.surveys, p.polls = ids(3), ids(3), ids(3), ids(3)
	p.firstPollResponse = f.UUID()
	refs.Folder, refs.File, refs.Weblink = p.folders[0], p.files[0], p.weblinks[0]
	refs.Channel, refs.Capture = p.channels[0], p.captures[0]
	refs.SurveyQuestion, refs.PollQuestion, refs.PollResponse = p.surveys[0], p.polls[0], p.firstPollResponse
	refs.Resource = modIDs[0]
	w.Lists = newLists(now, seed, scale, pool, w.Faculties, modIDs, p)
	return w, refs
}

var subjects = []string{
	"Computer Science", "Mathematics", "Physics", "Chemistry", "Biology", "History",
	"Philosophy", "Economics", "Geography", "Linguistics", "Psychology", "Sociology",
	"Architecture", "Civil Engineering", "Mechanical Engineering", "Electrical Engineering",
	"Law", "Medicine", "Nursing", "Pharmacy", "Music", "Fine Arts", "Statistics",
	"Political Science", "Chemical Engineering", "Business", "Accounting", "Marketing",
	"Environmental Studies", "Communications",
}

// newFaculties are the departments: created nine to ten years before now,
// updated in the last 90 days.
func newFaculties(now time.Time, f *gofakeit.Faker) []store.Faculty {
	out := make([]store.Faculty, len(subjects))
	for i, s := range subjects {
		created := minutes(now.AddDate(-10, 0, 0), f.IntN(60*24*365))
		code := fmt.Sprintf("D%03d", 100+i)
		fac := fmt.Sprintf("F%02d", 1+i%8)
		defunct := "N"
		if i == len(subjects)-1 {
			defunct = "Y"
		}
		out[i] = store.Faculty{
			DeptC: code, DeptT1: "Department of " + s, DeptT2: s, FacC: fac,
			DefunctF: defunct, SapDeptT2: s, SapDeptC: "S" + code, SapDeptT1: "Dept. " + s,
			DeptClstrC: fmt.Sprintf("C%d", 1+i%4), IsisAcadorgnunitN: fmt.Sprintf("%08d", 10000000+i*37),
			DeptCreateD: created, DeptStD: created.AddDate(0, 1, 0), DeptUpdD: minutes(now, -1-f.IntN(60*24*90)),
		}
	}
	return out
}

func buildModules(f *gofakeit.Faker, w *store.World, owner store.User, refs *Refs) []string {
	weights := []float64{10, 20, 15, 15}
	schema := []store.Grade{
		{LetterGrade: "A", MaxMark: 100}, {LetterGrade: "B", MaxMark: 79.9}, {LetterGrade: "C", MaxMark: 64.9},
		{LetterGrade: "D", MaxMark: 49.9}, {LetterGrade: "F", MaxMark: 39.9},
	}
	var out []string
	for i := range modules {
		m := &store.Module{ID: f.UUID(), OwnerID: owner.ID}
		g := store.Gradebook{ResourceID: m.ID, GradingSchema: append([]store.Grade(nil), schema...)}
		for j := range gradeItemsPerMod {
			id := f.UUID()
			m.GradeItems = append(m.GradeItems, id)
			g.IDWeightage = append(g.IDWeightage, store.Weightage{Key: id, Value: weights[j]})
		}
		w.Modules[m.ID] = m
		w.Gradebooks[m.ID] = g
		for j := range slotsPerModule {
			id := f.UUID()
			w.Slots[id] = m.ID
			if i == 0 && j < 4 {
				refs.DeletableSlots = append(refs.DeletableSlots, id)
			}
		}
		out = append(out, m.ID)
	}
	refs.AttendanceResource = out[0]
	refs.GradebookModule = out[0]
	refs.GradeItems = append([]string(nil), w.Modules[out[0]].GradeItems...)
	return out
}

// buildBank makes the bank folders, created in the 90 days before now.
func buildBank(now time.Time, f *gofakeit.Faker, w *store.World, owner store.User, pool []person, refs *Refs) {
	for i := range bankFolders {
		creator := owner
		if i%3 == 2 {
			creator = pool[f.IntN(len(pool))].asUser()
		}
		typ := "Personal"
		if i%4 == 3 {
			typ = "Shared"
		}
		b := store.BankFolder{
			ID: f.UUID(), Name: f.BookTitle(), Description: f.Sentence(8), Type: typ,
			Is2FaEnabled: i%5 == 1, CreatedDate: minutes(now, -1-f.IntN(60*24*90)),
			CreatorID: creator.ID, UserID: creator.UserID, UserName: creator.Name, Email: creator.Email,
			ReadonlyAccess: creator.ID != owner.ID,
		}
		w.BankFolders[b.ID] = b
		if i == 0 {
			refs.BankFolder = b.ID
		}
	}
}

// buildAttendance makes the attendances, created in the 60 days before now.
func buildAttendance(now time.Time, f *gofakeit.Faker, w *store.World, owner store.User, modIDs []string) {
	for _, m := range modIDs {
		for j := range attendancesPerMod {
			a := store.Attendance{
				ID: f.UUID(), Name: fmt.Sprintf("Week %d attendance", j+1), ResourceID: m, Publish: j != 2,
				CreatedDate: minutes(now, -1-f.IntN(60*24*60)), CreatorID: owner.ID, PhotoURL: owner.PhotoURL,
				UserName: owner.Name, UserID: owner.UserID, UserMatricNo: owner.MatricNo, Email: owner.Email,
				Description: f.Sentence(6), IsDefault: false,
			}
			w.Attendances[a.ID] = a
		}
	}
}

var questionTypes = []string{"MCQ", "MRQ", "Essay", "TrueFalse", "FillInBlank"}

// videoTimeStampTop is the highest videoTimeStamp seeded: the largest
// float32 not above the stated maximum 2147483647. The interface declares
// the field a float (32 bits), which rounds 2147483647 up to 2147483648,
// past the maximum, so a client decoding it as declared would refuse the
// record; this value it holds exactly.
const videoTimeStampTop = 2147483520

// buildEvaluations makes the evaluations and their questions, created in
// the 30 days before now (and updated an hour later): each opens a week
// after its creation and closes two weeks after that, so some are open at
// the clock and some are still to come.
func buildEvaluations(now time.Time, f *gofakeit.Faker, w *store.World, owner store.User, modIDs []string, refs *Refs) {
	for i := range evaluations {
		created := minutes(now, -60-f.IntN(60*24*30))
		e := store.Evaluation{
			ID: f.UUID(), ParentID: modIDs[i%len(modIDs)], Name: "Peer evaluation " + f.Noun(),
			StartDate: created.AddDate(0, 0, 7), EndDate: created.AddDate(0, 0, 21),
			InstructionalText: f.Sentence(12), EvaluationMethod: int32(1 + i%3), EvaluationType: int32(1 + i%5),
			MaximumScore: float64(10 * (i + 1)), IsTask: i%2 == 0, RubricID: f.UUID(),
			GroupIDs: []string{f.UUID(), f.UUID()}, Publish: i != 1, CreatorID: owner.ID, Updatedby: owner.ID,
			CreatedDate: created, UpdatedDate: created.Add(time.Hour), DisplayAnonymous: i == 0,
			PublishResultDate: created.AddDate(0, 0, 28), DisplayScore: true, DisplayAverageScore: i == 2,
			DisplayComment: true,
		}
		w.Evaluations[e.ID] = e
		for j := range questionsPerEval {
			q := store.Question{
				ID: f.UUID(), ResourceID: e.ParentID, ParentID: e.ID, Type: questionTypes[j%len(questionTypes)],
				ForAssessment: j%2 == 0, Text: f.Question(), Solution: f.Sentence(6), Publish: j%3 != 2,
				Mark: float64(f.IntRange(1, 100)), RequireRationale: j%4 == 1, DifficultyLevel: int32(f.IntN(4)),
				VideoTimeStamp: float64(f.IntN(3600)) + 0.5, CreatedDate: created, LastUpdatedDate: created.Add(time.Hour),
				LastUpdatedBy: owner.UserID, Kutags: []store.Tag{},
			}
			switch j { // boundary values of the stated limits
			case 0:
				q.Mark, q.DifficultyLevel, q.VideoTimeStamp = 0, 0, 0
			case 1:
				q.Mark, q.DifficultyLevel, q.VideoTimeStamp = 10000, 3, videoTimeStampTop
			}
			for k := range j % 3 {
				q.Kutags = append(q.Kutags, store.Tag{
					ID: f.UUID(), TagName: f.Adjective(), TargetID: q.ID, RootID: e.ParentID,
					TagType: int32(1 + k), UserID: owner.ID, OperationType: "Add",
				})
			}
			w.Questions[q.ID] = q
			if i == 0 && j == 1 {
				refs.Evaluation, refs.EvaluationQuestion = e.ID, q.ID
			}
			if i == 1 && j == 1 {
				refs.OtherEvaluationQuestion = q.ID
			}
		}
	}
}

// buildMedia makes the media and their latest download, in the 60 days
// before now.
func buildMedia(now time.Time, f *gofakeit.Faker, w *store.World, pool []person, refs *Refs) {
	for i := range mediaCount {
		id := f.UUID()
		p := pool[f.IntN(len(pool))]
		w.Media[id] = store.MediaLog{
			Title: "Lecture " + fmt.Sprint(i+1) + ": " + f.BookTitle(), UserID: p.UserID, Name: p.Name,
			Email: p.Email, Department: p.Dept, LogDate: minutes(now, -1-f.IntN(60*24*60)),
		}
		switch {
		case i == 0:
			refs.Media = id
		case i <= deletableMedia:
			refs.DeletableMedia = append(refs.DeletableMedia, id)
		}
	}
}

// targetTypes are typeIDs from the specification's allowed list with names.
var targetTypes = []struct {
	id       int32
	name     string
	resource bool
}{
	{1, "Module", true}, {2, "Community", true}, {6, "Folder", false}, {7, "File", false},
	{10, "Announcement", false}, {13, "Forum", false}, {22, "Survey", false}, {24, "Quiz", false},
}

// buildNotifications makes the notifications, one every half hour or so
// over the 20 hours before now, the fixture's (the first) the oldest.
func buildNotifications(now time.Time, f *gofakeit.Faker, w *store.World, modIDs []string, refs *Refs) {
	for i := range notifications {
		mod := modIDs[i%len(modIDs)]
		tt := targetTypes[2+i%(len(targetTypes)-2)]
		n := store.Notification{
			ID: 1000001 + int64(i), TargetID: f.UUID(), NotifyGroupID: f.UUID(), Type: tt.name,
			RecordDate: minutes(now, -30*(notifications-i)+f.IntN(30)), NotifyMessage: "New " + tt.name + ": " + f.Sentence(6),
			NotifyStatus: store.Unread,
		}
		if i%2 == 1 {
			n.NotifyStatus = store.Read
		}
		w.Notifications[n.ID] = n
		parent := targetTypes[2]
		w.Ancestors[n.TargetID] = []store.Target{
			{ID: mod, Name: "Module " + f.Noun(), TypeID: targetTypes[0].id, TypeName: targetTypes[0].name, IsResourceType: true},
			{ID: f.UUID(), Name: f.Noun(), TypeID: parent.id, TypeName: parent.name, IsResourceType: parent.resource},
		}
		switch i {
		case 0:
			refs.Notification, refs.NotificationGroup = n.ID, n.NotifyGroupID
		case 1:
			refs.OtherNotification, refs.OtherNotificationGroup = n.ID, n.NotifyGroupID
		}
	}
}

func buildQuiz(f *gofakeit.Faker, w *store.World, refs *Refs) {
	for i := range assessments {
		aid := f.UUID()
		for j := range sectionsPerAssess {
			s := store.QuizSection{
				ID: f.UUID(), AssessmentID: aid, Name: fmt.Sprintf("Section %c", 'A'+j), Description: f.Sentence(6),
				DisplayQuestionMark: j%2 == 0, DisplayedRandomQuestions: int32(j), RandomizeQuestions: j > 0,
				RandomizeOptions: j%2 == 1, RequireRational: j == 3,
			}
			w.QuizSections[s.ID] = s
			if i == 0 && j == 0 {
				refs.QuizSection, refs.QuizSectionName = s.ID, s.Name
			}
		}
	}
}
