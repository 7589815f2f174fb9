package world

import (
	"fmt"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/store"
)

// List volumes at scale 1: the first parent of each kind (the one the
// fixture names) gets fixtureN entries per unit of scale, the others otherN.
const (
	fixtureN = 40
	otherN   = 8
)

var fileActions = []string{"Download File", "Download File", "Download File", "Upload File", "Delete File", "Create File", "Create Folder", "Delete Folder", "Update Folder"}

func count(i, scale int) int {
	if i == 0 {
		return fixtureN * scale
	}
	return otherN * scale
}

// While the read-only lists of one world hold more than ListThreshold
// (estimated bytes, see entryBytes), a list not wanted for ListIdle (or
// store.IdleFactor times what generating it took, if longer) is dropped,
// to be generated again, equal, when next wanted, and its memory is
// returned to the operating system (store.ListBudget). Since lists longer
// than keptWhole are generated a chunk at a time (walk), the lists of a
// world hold a few megabytes up to --scale 1000 (the channels, held whole,
// about 13 MB there) and are seldom dropped (issue 30).
const (
	ListThreshold = 32 << 20
	ListIdle      = 2 * time.Second
)

// entryBytes estimates the heap one entry of each kind of list holds (its
// struct, its own strings and slices, its share of the list's order
// indexes), measured from a heap profile at --scale 1000.
var entryBytes = struct{ fileLog, annotation, weblinkLog, channelUser, capture, surveyResponse, pollResponse, student int }{
	fileLog: 190, annotation: 310, weblinkLog: 160, channelUser: 310,
	capture: 540, surveyResponse: 320, pollResponse: 280, student: 330,
}

// pollByID is the estimated bytes of a poll response's entry in
// Polls.ByID (its id and where it stands), held for every response.
const pollByID = 90

// cost is the estimated bytes a kind of list with the given parents holds
// as walk keeps its lists: every entry of a list up to keptWhole, beyond
// that the chunks a generated list keeps.
func cost(parents, scale, perEntry int) int {
	n := 0
	for i := range parents {
		c := count(i, scale)
		if c > keptWhole {
			c = listing.KeptChunks * listing.ChunkLen
		}
		n += c
	}
	return n * perEntry
}

// entries is how many entries the lists of a kind with the given parents
// have.
func entries(parents, scale int) int {
	n := 0
	for i := range parents {
		n += count(i, scale)
	}
	return n
}

// newLists returns the generators of the read-only lists. Each kind has its
// own faker, so generating one never changes another, and generating one
// again gives it anew, equal. Every list is a history that ends shortly
// before now: its entries are placed walking back from now, newest first,
// and kept oldest first.
func newLists(now time.Time, seed int64, scale int, pool []person, faculties []store.Faculty, resources []string, p parents) *store.Lists {
	b := store.NewListBudget(ListThreshold, ListIdle)
	eb := entryBytes
	return &store.Lists{
		Budget: b,
		FileLogs: store.NewBudgeted(b, cost(len(p.folders), scale, eb.fileLog), func() map[string]*listing.List[store.FileLog] {
			return fileLogs(now, seed, scale, pool, p.folders)
		}),
		Annotations: store.NewBudgeted(b, cost(len(p.files), scale, eb.annotation), func() map[string]*listing.List[store.Annotation] {
			return annotations(seed, scale, pool, p.files)
		}),
		WeblinkLogs: store.NewBudgeted(b, cost(len(p.weblinks), scale, eb.weblinkLog), func() map[string]*listing.List[store.WeblinkLog] {
			return weblinkLogs(now, seed, scale, pool, p.weblinks)
		}),
		Channels: store.NewBudgeted(b, cost(len(p.channels), scale, eb.channelUser), func() map[string]*store.Channel {
			return channels(now, seed, scale, pool, p.channels)
		}),
		Captures: store.NewBudgeted(b, cost(len(p.captures), scale, eb.capture), func() map[string]*listing.List[store.CaptureSession] {
			return captures(now, seed, scale, p.captures)
		}),
		SurveyResponses: store.NewBudgeted(b, cost(len(p.surveys), scale, eb.surveyResponse), func() map[string]*listing.List[store.SurveyResponse] {
			return surveys(now, seed, scale, pool, p.surveys)
		}),
		Polls: store.NewBudgeted(b, cost(len(p.polls), scale, eb.pollResponse)+entries(len(p.polls), scale)*pollByID, func() *store.Polls {
			return polls(now, seed, scale, pool, p.polls, p.firstPollResponse)
		}),
		Students: store.NewBudgeted(b, cost(len(resources), scale, eb.student), func() map[string]*listing.List[store.Student] {
			return students(seed, scale, faculties, resources)
		}),
	}
}

// perParent makes the list of each parent from one faker named name, in
// the parents' order: the i-th holds count(i, scale) entries, made by list.
func perParent[T any](seed int64, name string, scale int, parents []string, list func(f *gofakeit.Faker, i int, parent string, n int) *listing.List[T]) map[string]*listing.List[T] {
	f := faker(seed, name)
	out := make(map[string]*listing.List[T], len(parents))
	for i, p := range parents {
		out[p] = list(f, i, p, count(i, scale))
	}
	return out
}

// fileLogs are the folders' activity: an entry every hour on average, the
// newest within two hours before now (the fixture's folder) or an hour
// more per folder after it.
func fileLogs(now time.Time, seed int64, scale int, pool []person, folders []string) map[string]*listing.List[store.FileLog] {
	return perParent(seed, "filelogs", scale, folders, func(f *gofakeit.Faker, i int, folder string, n int) *listing.List[store.FileLog] {
		folderName := f.BookTitle()
		type file struct{ id, name string }
		files := make([]file, 6)
		for j := range files {
			files[j] = file{f.UUID(), f.Noun() + "-" + f.Word() + "." + []string{"pdf", "docx", "pptx", "xlsx"}[j%4]}
		}
		return walk(f, n, true, minutes(now, -60*i), func(f *gofakeit.Faker, at *time.Time, _ int) store.FileLog {
			*at = minutes(*at, -1-f.IntN(120)) // strictly decreasing: stored oldest first
			who := pool[f.IntN(len(pool))]
			action := fileActions[f.IntN(len(fileActions))]
			target := files[f.IntN(len(files))]
			e := store.FileLog{
				Action: action, TargetID: target.id, UserGUID: who.ID, UserID: who.UserID, Name: who.Name,
				UserMatricNo: who.MatricNo, Email: who.Email, FileName: target.name, FolderName: folderName,
				FolderID: folder, LogDate: *at,
			}
			if action == "Create Folder" || action == "Delete Folder" || action == "Update Folder" {
				e.TargetID, e.FileName = folder, ""
			}
			return e
		}, nil)
	})
}

func annotations(seed int64, scale int, pool []person, files []string) map[string]*listing.List[store.Annotation] {
	return perParent(seed, "annotations", scale, files, func(f *gofakeit.Faker, _ int, file string, n int) *listing.List[store.Annotation] {
		return walk(f, n, false, struct{}{}, func(f *gofakeit.Faker, _ *struct{}, _ int) store.Annotation {
			who := pool[f.IntN(len(pool))]
			return store.Annotation{
				AnnotationID: f.UUID(), DocumentID: file,
				//nolint:gocritic // an XML attribute: %q would quote it the Go way
				XfdfString: fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><highlight page="%d" title="%s" rect="%d,%d,%d,%d"><contents>%s</contents></highlight></annots></xfdf>`,
					f.IntN(40), who.Name, f.IntN(300), f.IntN(500), 300+f.IntN(200), 500+f.IntN(200), f.Word()),
			}
		}, nil)
	})
}

// weblinkLogs are the views of each weblink, one every two hours on
// average up to now.
func weblinkLogs(now time.Time, seed int64, scale int, pool []person, weblinks []string) map[string]*listing.List[store.WeblinkLog] {
	return perParent(seed, "weblinklogs", scale, weblinks, func(f *gofakeit.Faker, _ int, link string, n int) *listing.List[store.WeblinkLog] {
		return walk(f, n, true, now, func(f *gofakeit.Faker, at *time.Time, _ int) store.WeblinkLog {
			*at = minutes(*at, -1-f.IntN(240))
			who := pool[f.IntN(len(pool))]
			return store.WeblinkLog{
				TargetID: link, LogDate: *at, IP: f.IPv4Address(), UserGUID: who.ID,
				CreatorUserMatricNo: who.MatricNo, CreatorUserID: who.UserID, CreatorName: who.Name, CreatorEmail: who.Email,
			}
		}, nil)
	})
}

// channels are the members' activity on each channel: one to four days of
// it, one in each of the weeks before now, the first in the last week.
func channels(now time.Time, seed int64, scale int, pool []person, ids []string) map[string]*store.Channel {
	f := faker(seed, "channels")
	out := map[string]*store.Channel{}
	for i, id := range ids {
		order := shuffled(f, len(pool))
		members := walk(f, count(i, scale), false, struct{}{}, func(f *gofakeit.Faker, _ *struct{}, j int) store.ChannelMember {
			p := pool[order[j%len(order)]]
			m := store.ChannelMember{User: store.ChannelUser{Name: p.Name, MatrixNo: p.MatricNo, PhotoURL: p.Photo}}
			days := 1 + f.IntN(4)
			m.Days = make([]store.DayActivity, 0, days)
			for d := range days {
				m.Days = append(m.Days, store.DayActivity{
					Day: now.AddDate(0, 0, -1-7*d-f.IntN(7)), Plays: int32(f.IntN(10)), Downloads: int32(f.IntN(3)),
					Comments: int32(f.IntN(3)), MinutesViewed: float64(f.IntN(900)) / 10,
				})
			}
			return m
		}, nil)
		out[id] = &store.Channel{Members: members, Totals: totalsOf(members)}
	}
	return out
}

// totalsOf is each member's activity summed over its days, as a list held
// or generated as the members are.
func totalsOf(members *listing.List[store.ChannelMember]) *listing.List[store.ChannelUser] {
	sum := func(ms []store.ChannelMember) []store.ChannelUser {
		out := make([]store.ChannelUser, len(ms))
		for j, m := range ms {
			t := m.User
			for _, d := range m.Days {
				t.Plays += d.Plays
				t.Downloads += d.Downloads
				t.Comments += d.Comments
				t.MinutesViewed += d.MinutesViewed
			}
			out[j] = t
		}
		return out
	}
	if members.Len() <= keptWhole {
		return listing.New(sum(members.Items()))
	}
	return listing.Generated(members.Len(), func(c int) []store.ChannelUser {
		ms, _ := members.Page(listing.Query{Offset: c * listing.ChunkLen, Limit: listing.ChunkLen}, nil)
		return sum(ms)
	})
}

// captures are the recorded lectures of each channel, one a day, the
// newest the day before now.
func captures(now time.Time, seed int64, scale int, ids []string) map[string]*listing.List[store.CaptureSession] {
	return perParent(seed, "captures", scale, ids, func(f *gofakeit.Faker, _ int, _ string, n int) *listing.List[store.CaptureSession] {
		return walk(f, n, false, struct{}{}, func(f *gofakeit.Faker, _ *struct{}, j int) store.CaptureSession {
			at := now.AddDate(0, 0, j-n)
			sid := f.UUID()
			dur := 30 + f.IntN(90)
			base := "https://capture.campus.example/sessions/" + sid
			return store.CaptureSession{
				SessionID: sid, URLID: f.UUID(), MP4URL: base + ".mp4", MP3URL: base + ".mp3", ViewerURL: base + "/viewer",
				SessionName: fmt.Sprintf("Lecture %d: %s", j+1, f.BookTitle()), StartTime: at, EndTime: minutes(at, dur),
				Duration: float64(dur),
			}
		}, nil)
	})
}

// surveys are the responses to each survey question, one every five hours
// on average up to now.
func surveys(now time.Time, seed int64, scale int, pool []person, questions []string) map[string]*listing.List[store.SurveyResponse] {
	return perParent(seed, "surveys", scale, questions, func(f *gofakeit.Faker, _ int, q string, n int) *listing.List[store.SurveyResponse] {
		return walk(f, n, true, now, func(f *gofakeit.Faker, at *time.Time, _ int) store.SurveyResponse {
			*at = minutes(*at, -1-f.IntN(600))
			who := pool[f.IntN(len(pool))]
			return store.SurveyResponse{
				ID: f.UUID(), CreatedDate: *at, CreatorID: who.ID, UserID: who.UserID, UserName: who.Name,
				UserMatrixNo: who.MatricNo, QuestionID: q, Options: []int32{int32(f.IntN(4)), int32(f.IntN(4))},
				Text: f.Sentence(5), Tof: f.Bool(), Blank: []string{f.Word()},
			}
		}, nil)
	})
}

// polls are the responses to each poll question, one every five hours on
// average up to now; the fixture's response is the oldest of the first
// question's.
func polls(now time.Time, seed int64, scale int, pool []person, questions []string, first string) *store.Polls {
	f := faker(seed, "polls")
	out := &store.Polls{ByQuestion: map[string]*listing.List[store.PollResponse]{}, ByID: map[string]store.PollAt{}}
	for i, q := range questions {
		out.ByQuestion[q] = walk(f, count(i, scale), true, now, func(f *gofakeit.Faker, at *time.Time, j int) store.PollResponse {
			*at = minutes(*at, -1-f.IntN(600))
			who := pool[f.IntN(len(pool))]
			id := f.UUID()
			if i == 0 && j == 0 {
				id = first
			}
			return store.PollResponse{
				ID: id, QuestionID: q, CreatedDate: *at, CreatorID: who.ID, UserID: who.UserID, UserName: who.Name,
				UserMatrixNo: who.MatricNo, Photo: who.Photo, SelectedOptions: []int32{int32(f.IntN(5))}, Text: f.Sentence(4),
			}
		}, func(j int, r *store.PollResponse) { out.ByID[r.ID] = store.PollAt{Question: q, Index: int32(j)} })
	}
	return out
}

func students(seed int64, scale int, faculties []store.Faculty, resources []string) map[string]*listing.List[store.Student] {
	return perParent(seed, "students", scale, resources, func(f *gofakeit.Faker, _ int, _ string, n int) *listing.List[store.Student] {
		return walk(f, n, false, struct{}{}, func(f *gofakeit.Faker, _ *struct{}, _ int) store.Student {
			p := newPerson(f, faculties)
			return store.Student{
				ID: p.ID, UserID: p.UserID, UserName: p.Name, UserMatricNo: p.MatricNo,
				OfficialEmail: p.UserID + "@u.campus.example", Email: p.Email, UserFaculty: p.Faculty,
				LoginDomain: "CAMPUS", Photo: p.Photo,
			}
		}, nil)
	})
}
