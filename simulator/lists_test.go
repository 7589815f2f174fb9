package simulator

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/devserver"
	"github.com/campusconf/campusconf/simulator/variants"
	"github.com/campusconf/campusconf/simulator/world"
)

// TestListPaging covers offset, limit, sortby and where on every list
// operation that declares them.
func TestListPaging(t *testing.T) {
	e := newEnv(t, Options{})
	rec := e.fx.Records
	lists := []struct {
		op, path, sortField string
	}{
		{"E10", "/files/" + rec.Folder + "/downloaded", "name"},
		{"E15", "/multimedia/statistics/channel/" + rec.Channel + "/users", "plays"},
		{"E17", "/survey/question/" + rec.SurveyQuestion + "/response", "createdDate"},
		{"E18", "/poll/Question/" + rec.PollQuestion + "/Response", "userName"},
		{"E20", "/resource/" + rec.Resource + "/students", "userName"},
	}
	for _, l := range lists {
		t.Run(l.op, func(t *testing.T) {
			get := func(q string) []map[string]any {
				return e.do("owner", "GET", l.path+q, "").want(t, http.StatusOK).list(t)
			}
			all := get("")
			if len(all) < 25 {
				t.Fatalf("default page has %d items, want at least 25 to page through", len(all))
			}
			if got := get("?limit=5"); len(got) != 5 {
				t.Errorf("limit=5 gave %d items", len(got))
			}
			if got := get("?limit=0"); len(got) != 0 {
				t.Errorf("limit=0 gave %d items", len(got))
			}
			if got := get("?offset=3&limit=2"); mustJSON(t, got) != mustJSON(t, all[3:5]) {
				t.Errorf("offset=3&limit=2 gave %v, want items 3 and 4 of the default order", got)
			}
			if got := get("?offset=100000"); len(got) != 0 {
				t.Errorf("offset past the end gave %d items", len(got))
			}
			asc := get("?sortby=" + l.sortField)
			desc := get("?sortby=" + url.QueryEscape(l.sortField+" desc"))
			if !slices.IsSortedFunc(asc, func(a, b map[string]any) int { return compareJSON(a[l.sortField], b[l.sortField]) }) {
				t.Errorf("sortby=%s is not ascending", l.sortField)
			}
			if !slices.IsSortedFunc(desc, func(a, b map[string]any) int { return compareJSON(b[l.sortField], a[l.sortField]) }) {
				t.Errorf("sortby=%s desc is not descending", l.sortField)
			}
			if got := get("?sortby=" + url.QueryEscape(l.sortField+" asc")); mustJSON(t, got) != mustJSON(t, asc) {
				t.Errorf("sortby=%s asc differs from sortby=%s", l.sortField, l.sortField)
			}
			first := all[0]
			var whereField string
			for k, v := range first {
				if _, ok := v.(string); ok && k != "photoUrl" {
					whereField = k
					break
				}
			}
			want := strings.ToUpper(first[whereField].(string))
			for _, m := range get("?where=" + url.QueryEscape(whereField+":"+want)) {
				if !strings.EqualFold(m[whereField].(string), want) {
					t.Errorf("where=%s:%s kept %v", whereField, want, m[whereField])
				}
			}
			for _, bad := range []string{"?limit=-1", "?limit=1001", "?limit=x", "?offset=-1", "?offset=2147483648", "?sortby=nope", "?sortby=" + url.QueryEscape(l.sortField+" up"), "?where=nope:x", "?where=novalue"} {
				e.do("owner", "GET", l.path+bad, "").want(t, http.StatusBadRequest).errorString(t)
			}
			if got := get("?limit=1000"); len(got) != len(all) {
				t.Errorf("limit=1000 gave %d items, want all %d", len(got), len(all))
			}
		})
	}
}

// compareJSON orders decoded JSON scalars.
func compareJSON(a, b any) int {
	switch x := a.(type) {
	case float64:
		y := b.(float64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case string:
		return strings.Compare(x, b.(string))
	}
	return 0
}

func TestFileLogFilters(t *testing.T) {
	e := newEnv(t, Options{})
	path := e.fileLog()
	all := e.do("owner", "GET", path, "").want(t, 200).list(t)
	dates := map[string]bool{}
	for _, m := range all {
		dates[m["logDate"].(string)] = true
	}
	if len(all) < 4 || len(dates) < 2 {
		t.Fatalf("fixture folder has %d entries on %d dates, want at least 4 on 2", len(all), len(dates))
	}
	start, end := all[5]["logDate"].(string), all[9]["logDate"].(string)
	ranged := e.do("owner", "GET", path+"?StartDate="+url.QueryEscape(start)+"&EndDate="+url.QueryEscape(end), "").want(t, 200).list(t)
	if len(ranged) != 5 || ranged[0]["logDate"] != start || ranged[4]["logDate"] != end {
		t.Errorf("StartDate..EndDate gave %d entries, want the 5 from %s to %s inclusive", len(ranged), start, end)
	}
	name := all[0]["name"].(string)
	term := strings.ToUpper(name[1:4])
	for _, m := range e.do("owner", "GET", path+"?SearchText="+url.QueryEscape(term), "").want(t, 200).list(t) {
		if !strings.Contains(strings.ToLower(m["name"].(string)), strings.ToLower(term)) && !strings.Contains(strings.ToLower(m["fileName"].(string)), strings.ToLower(term)) {
			t.Errorf("SearchText=%s kept %v / %v", term, m["name"], m["fileName"])
		}
	}
	e.do("owner", "GET", path+"?StartDate=yesterday", "").want(t, 400)
	e.do("owner", "GET", path+"?EndDate=2025-01-06", "").want(t, 400)
	if got := e.do("owner", "GET", "/files/"+absent+"/downloaded", "").want(t, 200).list(t); len(got) != 0 {
		t.Errorf("unknown folder gave %d entries, want none", len(got))
	}
}

func TestChannelDateRange(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/multimedia/statistics/channel/" + e.fx.Records.Channel + "/users"
	all := e.do("owner", "GET", path, "").want(t, 200).list(t)
	// the week before the clock, then the one before it
	day := 24 * time.Hour
	for _, w := range []struct{ from, to time.Time }{{world.Now.Add(-7 * day), world.Now}, {world.Now.Add(-14 * day), world.Now.Add(-7 * day)}} {
		week := e.do("owner", "GET", path+"?startDate="+w.from.Format(time.RFC3339)+"&endDate="+w.to.Format(time.RFC3339)+"&limit=1000", "").want(t, 200).list(t)
		if len(week) == 0 || len(week) > len(all) {
			t.Fatalf("week %s..%s has %d active users of %d, want some", w.from, w.to, len(week), len(all))
		}
	}
	none := e.do("owner", "GET", path+"?startDate="+world.Now.Format(time.RFC3339), "").want(t, 200).list(t)
	if len(none) != 0 {
		t.Errorf("a range after all activity gave %d users", len(none))
	}
	e.do("owner", "GET", path+"?endDate=soon", "").want(t, 400)
}

func TestReadsWithoutPaging(t *testing.T) {
	e := newEnv(t, Options{})
	rec := e.fx.Records
	for _, path := range []string{
		"/files/FileAnnotation/" + rec.File + "/all",
		"/module/Weblink/" + rec.Weblink + "/Log",
		"/multimedia/capture/" + rec.Capture + "/medias",
	} {
		if got := e.do("owner", "GET", path, "").want(t, 200).list(t); len(got) < 25 {
			t.Errorf("%s: %d items, want at least 25", path, len(got))
		}
	}
	e.do("owner", "GET", "/module/Weblink/"+absent+"/Log", "").want(t, http.StatusNotFound).errorString(t)
	e.do("owner", "GET", "/survey/question/"+absent+"/response", "").want(t, http.StatusNotFound).errorString(t)
	for _, path := range []string{"/files/FileAnnotation/" + absent + "/all", "/multimedia/capture/" + absent + "/medias", "/poll/Question/" + absent + "/Response", "/resource/" + absent + "/students", "/multimedia/statistics/channel/" + absent + "/users"} {
		if got := e.do("owner", "GET", path, "").want(t, 200).list(t); len(got) != 0 {
			t.Errorf("%s: %d items for an unknown parent, want none", path, len(got))
		}
	}
}

func TestPopulate(t *testing.T) {
	e := newEnv(t, Options{})
	rec := e.fx.Records
	tests := []struct {
		path, populate string
		fields         []string
	}{
		{"/survey/question/" + rec.SurveyQuestion + "/response", "Creator", []string{"userId", "userName", "userMatrixNo"}},
		{"/poll/Question/" + rec.PollQuestion + "/Response", "photo", []string{"photo"}},
		{"/resource/" + rec.Resource + "/students", "photo", []string{"photo"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			plain := e.do("owner", "GET", tt.path, "").want(t, 200).list(t)
			full := e.do("owner", "GET", tt.path+"?populate="+tt.populate, "").want(t, 200).list(t)
			lower := e.do("owner", "GET", tt.path+"?populate="+strings.ToLower(tt.populate), "").want(t, 200).list(t)
			for _, f := range tt.fields {
				if _, ok := plain[0][f]; ok {
					t.Errorf("without populate, %s = %v, want absent", f, plain[0][f])
				}
				if s, _ := full[0][f].(string); s == "" {
					t.Errorf("populate=%s: %s = %v, want filled", tt.populate, f, full[0][f])
				}
				if lower[0][f] != full[0][f] {
					t.Errorf("populate is case-sensitive: %v vs %v", lower[0][f], full[0][f])
				}
			}
			e.do("owner", "GET", tt.path+"?populate=everything", "").want(t, http.StatusBadRequest).errorString(t)
		})
	}
	q := "/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion
	e.do("owner", "GET", q+"?populate=lastUpdatedUser,Response,ResponseWithCreator", "").want(t, 200)
	e.do("owner", "GET", q+"?populate=Creator", "").want(t, 400)
}

func TestQuestionAndPollResponse(t *testing.T) {
	e := newEnv(t, Options{})
	rec := e.fx.Records
	q := e.do("student", "GET", "/evaluation/"+rec.Evaluation+"/Question/"+rec.EvaluationQuestion, "").want(t, 200).object(t)
	// videoTimeStamp: the largest float32 not above 2147483647 (world.videoTimeStampTop)
	if q["mark"] != 10000.0 || q["difficultyLevel"] != 3.0 || q["videoTimeStamp"] != 2147483520.0 {
		t.Errorf("fixture question = mark %v difficulty %v videoTimeStamp %v, want the upper boundaries (videoTimeStamp the largest float32 within its limit)", q["mark"], q["difficultyLevel"], q["videoTimeStamp"])
	}
	e.do("owner", "GET", "/evaluation/"+absent+"/Question/"+rec.EvaluationQuestion, "").want(t, 404)
	e.do("owner", "GET", "/evaluation/"+rec.Evaluation+"/Question/"+absent, "").want(t, 404)
	p := e.do("owner", "GET", "/poll/Response/"+rec.PollResponse, "").want(t, 200).object(t)
	if p["id"] != rec.PollResponse || p["questionID"] != rec.PollQuestion {
		t.Errorf("E19 = %v, want response %s of question %s", p, rec.PollResponse, rec.PollQuestion)
	}
	e.do("owner", "GET", "/poll/Response/"+absent, "").want(t, 400).errorString(t)
	var m map[string]any
	e.do("owner", "GET", "/multimedia/"+rec.Media+"/downloadlog", "").want(t, 200).decode(t, &m)
}

// TestEncodedPagesAnswerAsFresh: a page answered from the encoded-page
// cache is byte for byte the page a fresh simulator of the same seed
// encodes, whatever the order of requests: with and without populate,
// and after defects and variants are switched while serving.
func TestEncodedPagesAnswerAsFresh(t *testing.T) {
	e := newEnv(t, Options{Seed: 7})
	rec := e.fx.Records
	paths := []string{
		"/resource/" + rec.Resource + "/students?limit=5",
		"/resource/" + rec.Resource + "/students?limit=5&populate=photo",
		"/poll/Question/" + rec.PollQuestion + "/Response?limit=5",
		"/poll/Question/" + rec.PollQuestion + "/Response?limit=5&populate=photo",
		"/survey/question/" + rec.SurveyQuestion + "/response?limit=5",
		"/survey/question/" + rec.SurveyQuestion + "/response?limit=5&populate=Creator",
		"/files/" + rec.Folder + "/downloaded?offset=3&limit=4",
		"/files/" + rec.Folder + "/downloaded?offset=3&limit=4&sortby=logDate%20desc",
		"/files/FileAnnotation/" + rec.File + "/all",
	}
	settings := []devserver.SettingsChange{
		{},
		{Defects: &[]string{string(defects.ResponsesOtherQuestion)}},
		{Defects: &[]string{}, Variants: &[]string{string(variants.NewestFirst)}},
		{Variants: &[]string{string(variants.FewEntries)}},
		{Variants: &[]string{}},
	}
	for i, c := range settings {
		if err := e.sim.ApplySettings(c); err != nil {
			t.Fatal(err)
		}
		// a fresh simulator answers each page once: from the encoder
		fresh := newEnv(t, Options{Seed: 7})
		if err := fresh.sim.ApplySettings(c); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			want := fresh.do("owner", "GET", p, "").want(t, http.StatusOK).body
			for round := range 2 { // the second from the cache
				got := e.do("owner", "GET", p, "").want(t, http.StatusOK).body
				if !bytes.Equal(got, want) {
					t.Errorf("settings %d, round %d, GET %s:\n got %s\nwant %s", i, round, p, got, want)
				}
			}
		}
	}
}
