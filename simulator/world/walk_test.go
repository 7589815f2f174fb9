package world

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/campusconf/campusconf/simulator/listing"
)

// TestWalkGeneratesAsHeld: a list walked into chunks answers with the
// entries of the same walk held whole, forwards and back, at lengths
// around a chunk's, sees each entry once, and leaves the faker where the
// held walk leaves it, so the next list of the same faker is unchanged.
func TestWalkGeneratesAsHeld(t *testing.T) {
	type entry struct {
		J    int
		ID   string
		At   time.Time
		Text string
	}
	step := func(f *gofakeit.Faker, at *time.Time, j int) entry {
		*at = minutes(*at, -1-f.IntN(600))
		return entry{J: j, ID: f.UUID(), At: *at, Text: f.Sentence(3)}
	}
	for _, n := range []int{0, 1, listing.ChunkLen - 1, listing.ChunkLen, listing.ChunkLen + 1, 3*listing.ChunkLen + 7} {
		for _, back := range []bool{false, true} {
			name := fmt.Sprintf("n=%d back=%v", n, back)
			walkOne := func(kept int) ([]entry, map[int]string, uint64) {
				f := faker(3, "walk")
				seen := map[int]string{}
				l := walkKeeping(kept, f, n, back, Now, step, func(j int, e *entry) {
					if _, twice := seen[j]; twice {
						t.Errorf("%s: entry %d seen twice", name, j)
					}
					seen[j] = e.ID
				})
				items := l.Items()
				if again := l.Items(); !reflect.DeepEqual(again, items) {
					t.Errorf("%s: made again, the entries differ", name)
				}
				return items, seen, f.Uint64()
			}
			held, heldSeen, heldNext := walkOne(n + 1)
			got, gotSeen, gotNext := walkOne(0)
			if !reflect.DeepEqual(got, held) {
				t.Errorf("%s: generated entries differ from the held ones", name)
			}
			if !reflect.DeepEqual(gotSeen, heldSeen) || len(gotSeen) != n {
				t.Errorf("%s: seen %d entries, the held walk %d; expected each of the %d once, alike", name, len(gotSeen), len(heldSeen), n)
			}
			if gotNext != heldNext {
				t.Errorf("%s: the faker is left elsewhere than the held walk leaves it: the next list would change", name)
			}
			for j, e := range got {
				if e.J != j {
					t.Errorf("%s: entry %d is the one made for %d", name, j, e.J)
					break
				}
			}
		}
	}
}

// TestGeneratedWorldLists: at a scale where the fixture's lists are
// generated, each is as long as its count, made again equal, and the
// fixture's poll response is found by id at the place ByID gives.
func TestGeneratedWorldLists(t *testing.T) {
	const scale = 110 // 4400 entries for the fixture's lists, over keptWhole
	w, r := Build(7, scale)
	l := w.Lists
	type list interface{ Len() int }
	lists := map[string]list{
		"file log":        l.FileLogs.Get()[r.Folder],
		"annotations":     l.Annotations.Get()[r.File],
		"weblink log":     l.WeblinkLogs.Get()[r.Weblink],
		"captures":        l.Captures.Get()[r.Capture],
		"survey":          l.SurveyResponses.Get()[r.SurveyQuestion],
		"poll":            l.Polls.Get().ByQuestion[r.PollQuestion],
		"students":        l.Students.Get()[r.Resource],
		"channel members": l.Channels.Get()[r.Channel].Members,
		"channel totals":  l.Channels.Get()[r.Channel].Totals,
	}
	for name, got := range lists {
		if got.Len() != fixtureN*scale || got.Len() <= keptWhole {
			t.Errorf("%s: %d entries; expected %d, more than %d (generated)", name, got.Len(), fixtureN*scale, keptWhole)
		}
	}
	polls := l.Polls.Get()
	at, ok := polls.ByID[r.PollResponse]
	resp, found := polls.Response(r.PollResponse)
	if !ok || !found || resp.ID != r.PollResponse || !reflect.DeepEqual(polls.ByQuestion[at.Question].At(int(at.Index)), resp) {
		t.Errorf("fixture poll response %s: by id %v %v, found %v with id %s; expected it found at its place", r.PollResponse, at, ok, found, resp.ID)
	}
	c := l.Channels.Get()[r.Channel]
	totals, members := c.Totals.Items(), c.Members.Items()
	var plays, days int32
	for j, m := range members {
		if totals[j].Name != m.User.Name || totals[j].MatrixNo != m.User.MatrixNo {
			t.Errorf("channel totals %d are %s's; expected member %d's, %s's", j, totals[j].Name, j, m.User.Name)
			break
		}
		plays += totals[j].Plays
		for _, d := range m.Days {
			days += d.Plays
		}
	}
	if plays != days || len(totals) != len(members) {
		t.Errorf("channel totals: %d entries, %d plays; expected %d entries and the members' days' %d plays", len(totals), plays, len(members), days)
	}
	students := l.Students.Get()[r.Resource]
	if a, b := students.Items(), students.Items(); !reflect.DeepEqual(a, b) || len(a) != students.Len() {
		t.Error("the fixture's students, made twice, differ")
	}
}
