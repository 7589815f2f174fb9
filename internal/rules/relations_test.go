package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func entries(js string) []gjson.Result { return gjson.Parse(js).Array() }

const logs = `[
 {"id":"A","name":"Ann Lee","fileName":"week1.pdf","folderName":"Lee archive","logDate":"2025-01-01T00:00:00Z"},
 {"id":"B","name":"Bob Tan","fileName":"week2.pdf","folderName":"Main","logDate":"2025-01-02T00:00:00Z"},
 {"id":"C","name":"Cy Ong","fileName":"notes.txt","folderName":"Main","logDate":"2025-01-03T00:00:00Z"},
 {"id":"D","name":"Di lee","fileName":"plan.doc","folderName":"Main","logDate":"2025-01-04T00:00:00Z"}]`

func TestSearchMatch(t *testing.T) {
	all := entries(logs)
	members := []string{"name", "fileName"}
	tests := []struct {
		text string
		want []Match
	}{
		{"Lee", []Match{Keep, Drop, Drop, Either}},
		{"week", []Match{Keep, Keep, Drop, Drop}},
	}
	for _, tt := range tests {
		for i, e := range all {
			if got := SearchMatch(e, members, tt.text); got != tt.want[i] {
				t.Errorf("SearchMatch(%s, %q): expected %s, got %s", e.Get("id"), tt.text, tt.want[i], got)
			}
		}
	}
}

func TestSearchProbeShowsOverMatching(t *testing.T) {
	// "Lee" is in a searched member of A and only in folderName of none
	// else but A; "Main" is in no searched member. The probe should be a
	// text some entries hold outside the searched members.
	all := entries(`[
 {"name":"Ann","fileName":"Main.pdf","folderName":"x"},
 {"name":"Bob","fileName":"b.pdf","folderName":"Main"},
 {"name":"Cy","fileName":"c.pdf","folderName":"y"}]`)
	got, ok := SearchProbe(all, []string{"name", "fileName"})
	if !ok || got != "Main" {
		t.Errorf("SearchProbe: expected \"Main\", got %q (ok %v)", got, ok)
	}
	if _, ok := SearchProbe(entries(`[{"name":"Ann"},{"name":"Ann"}]`), []string{"name"}); ok {
		t.Errorf("SearchProbe of alike entries: expected no probe, got one")
	}
}

func TestExactly(t *testing.T) {
	all := entries(logs)
	id := []string{"id"}
	match := func(e gjson.Result) Match { return SearchMatch(e, []string{"name", "fileName"}, "Lee") }
	tests := []struct {
		name, got string
		want      int
	}{
		{"exact", `[{"id":"A"}]`, 0},
		{"either kept too", `[{"id":"A"},{"id":"D"}]`, 0},
		{"over-matching", `[{"id":"A"},{"id":"B"}]`, 1},
		{"keep missing", `[]`, 1},
		{"foreign", `[{"id":"A"},{"id":"Z"}]`, 1},
		{"repeated", `[{"id":"A"},{"id":"A"}]`, 1},
	}
	for _, tt := range tests {
		if got := Exactly(all, entries(tt.got), id, match, true); len(got) != tt.want {
			t.Errorf("%s: expected %d problems, got %q", tt.name, tt.want, got)
		}
	}
	if got := Exactly(all, entries(`[]`), id, match, false); len(got) != 0 {
		t.Errorf("incomplete answer: expected no missing entry judged, got %q", got)
	}
}

func TestDateProbeAndMatch(t *testing.T) {
	all := entries(logs)
	text, at, ok := BoundProbe(all, "logDate", 0.5)
	if !ok || text != "2025-01-03T00:00:00Z" {
		t.Fatalf("BoundProbe: expected the third instant, got %q %v", text, ok)
	}
	var got []Match
	for _, e := range all {
		got = append(got, DateMatch(e, "logDate", true, at))
	}
	if want := []Match{Drop, Drop, Either, Keep}; !equalMatches(got, want) {
		t.Errorf("DateMatch from %s: expected %v, got %v", text, want, got)
	}
	if _, ok := ReadTime(gjson.Parse(`"2025-01-03t00:00:00z"`)); !ok {
		t.Errorf("ReadTime of a lower-case t and z: expected an instant (RFC 3339 allows them), got none")
	}
	if _, _, ok := BoundProbe(all[:2], "logDate", 0.5); ok {
		t.Errorf("BoundProbe of two instants: expected none, got one")
	}
	if All(Keep, Either) != Either || All(Keep, Drop) != Drop || All(Keep, Keep) != Keep {
		t.Errorf("All: wrong combination")
	}
	_ = time.Second
}

func equalMatches(a, b []Match) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPopulateOnlyAndPages(t *testing.T) {
	without := entries(`[{"id":"a","userName":"Ann"},{"id":"b","userName":"Bob"}]`)
	tests := []struct {
		name, with string
		want       int
	}{
		{"filled", `[{"id":"a","userName":"Ann","photo":"p"},{"id":"b","userName":"Bob","photo":"q"}]`, 0},
		{"unlisted member", `[{"id":"a","userName":"Ann","photo":"p","etag":"1"},{"id":"b","userName":"Bob"}]`, 0},
		{"changed", `[{"id":"a","userName":"ANN","photo":"p"},{"id":"b","userName":"Bob"}]`, 1},
		{"dropped member", `[{"id":"a","photo":"p"},{"id":"b","userName":"Bob"}]`, 1},
		{"entry gone", `[{"id":"a","userName":"Ann"}]`, 1},
	}
	for _, tt := range tests {
		if got := PopulateOnly(without, entries(tt.with), []string{"id"}, []string{"photo"}, func(m string) bool { return m != "etag" }); len(got) != tt.want {
			t.Errorf("PopulateOnly %s: expected %d problems, got %q", tt.name, tt.want, got)
		}
	}
	// several members filled (E17's Creator), and none (an entity that
	// fills nothing changes no member)
	creator := entries(`[{"id":"a","text":"t","userName":""}]`)
	for _, tt := range []struct {
		name, with string
		filled     []string
		want       int
	}{
		{"the creator's members filled", `[{"id":"a","text":"t","userName":"Ann","userId":"u"}]`, []string{"userId", "userName"}, 0},
		{"a member beside them changed", `[{"id":"a","text":"","userName":"Ann","userId":"u"}]`, []string{"userId", "userName"}, 1},
		{"an entity filling nothing changes a member", `[{"id":"a","text":"t","userName":"Ann"}]`, nil, 1},
	} {
		if got := PopulateOnly(creator, entries(tt.with), []string{"id"}, tt.filled, nil); len(got) != tt.want {
			t.Errorf("PopulateOnly %s: expected %d problems, got %q", tt.name, tt.want, got)
		}
	}
	alike := entries(`[{"v":1},{"v":1},{"v":2}]`)
	if got := Pages(alike, [][]gjson.Result{alike[:2], alike[2:]}, nil); len(got) != 0 {
		t.Errorf("Pages of alike entries: expected none, got %q", got)
	}
	if got := Pages(alike, [][]gjson.Result{alike[:2], alike[1:2]}, nil); len(got) != 2 || !strings.Contains(got[0], "repeated") {
		t.Errorf("Pages repeating: expected a repeat and a skip, got %q", got)
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		member, input string
		want          bool
	}{
		{`"ABC-d"`, `"abc-D"`, true},
		{`"abc"`, `"abd"`, false},
		{`12`, `12`, true},
		{`12`, `"12"`, false},
	}
	for _, tt := range tests {
		if got := Names(gjson.Parse(tt.member), gjson.Parse(tt.input)); got != tt.want {
			t.Errorf("Names(%s, %s): expected %v, got %v", tt.member, tt.input, tt.want, got)
		}
	}
}

// TestReferenceAnswer holds the records of an answer to the record their
// request named: a member left out is passed over only where optional.
func TestReferenceAnswer(t *testing.T) {
	const q = "0b6c8a52-1f3e-4d2a-9c1e-5a7b3c9d2e10"
	want := gjson.Parse(`"` + q + `"`)
	tests := []struct {
		name     string
		records  string
		optional bool
		wantKept bool
		wantSeen int
	}{
		{"each names it", `[{"questionID": "` + q + `"}, {"questionID": "` + q + `"}]`, false, true, 2},
		{"in upper case", `[{"questionID": "` + strings.ToUpper(q) + `"}]`, false, true, 1},
		{"another record", `[{"questionID": "` + q + `"}, {"questionID": "7f2d1c4b-8e9a-4b6c-a1d3-2e5f7a9b0c11"}]`, false, false, 2},
		{"optional, left out", `[{}, {"questionID": null}]`, true, true, 0},
		{"required, left out", `[{}]`, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, seen := ReferenceAnswer(gjson.Parse(tt.records).Array(), "questionID", "path.id", want, tt.optional, true)
			if (b == nil) != tt.wantKept || seen != tt.wantSeen {
				t.Errorf("ReferenceAnswer(%s): got breach %+v, seen %d; want kept %v, seen %d", tt.records, b, seen, tt.wantKept, tt.wantSeen)
			}
		})
	}
}

func TestDistinctAnswer(t *testing.T) {
	tests := []struct {
		records  string
		wantKept bool
	}{
		{`[{"id": "a"}, {"id": "b"}]`, true},
		{`[{"id": "a"}, {}, {"id": null}, {}]`, true},
		{`[{"id": "a"}, {"id": "b"}, {"id": "a"}]`, false},
		{`[]`, true},
	}
	for _, tt := range tests {
		if b := DistinctAnswer(gjson.Parse(tt.records).Array(), "id"); (b == nil) != tt.wantKept {
			t.Errorf("DistinctAnswer(%s): got breach %+v, want kept %v", tt.records, b, tt.wantKept)
		}
	}
}
