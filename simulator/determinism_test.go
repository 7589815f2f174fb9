package simulator

import (
	"bytes"
	"strings"
	"testing"
)

// reads are GET requests covering every read operation with the fixture's ids.
func reads(e *env) []string {
	rec := e.fx.Records
	_, group := e.opPath("getNotificationByGroup", rec.Notification.GroupID)
	return []string{
		"/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion,
		"/files/" + rec.Folder + "/downloaded?sortby=name",
		"/files/FileAnnotation/" + rec.File + "/all",
		"/module/Weblink/" + rec.Weblink + "/Log",
		"/multimedia/" + rec.Media + "/downloadlog",
		"/multimedia/statistics/channel/" + rec.Channel + "/users?startDate=2025-01-06T00:00:00Z",
		"/multimedia/capture/" + rec.Capture + "/medias",
		"/survey/question/" + rec.SurveyQuestion + "/response?populate=Creator",
		"/poll/Question/" + rec.PollQuestion + "/Response?populate=photo",
		"/poll/Response/" + rec.PollResponse,
		"/resource/" + rec.Resource + "/students?populate=photo",
		group + "?populate=ancestor",
	}
}

func TestSameSeedSameBytes(t *testing.T) {
	a, b := newEnv(t, Options{Seed: 42}), newEnv(t, Options{Seed: 42})
	if ja, jb := a.sim.Fixtures().JSON(), b.sim.Fixtures().JSON(); !bytes.Equal(ja, jb) {
		t.Fatalf("fixtures differ for the same seed:\n%s\n%s", ja, jb)
	}
	// Read in opposite orders: lists generated on first use must not
	// depend on which is used first.
	pa, pb := reads(a), reads(b)
	got := map[string][]byte{}
	for _, p := range pa {
		got[p] = a.do("owner", "GET", p, "").want(t, 200).body
	}
	for i := len(pb) - 1; i >= 0; i-- {
		if body := b.do("owner", "GET", pb[i], "").want(t, 200).body; !bytes.Equal(body, got[pb[i]]) {
			t.Errorf("GET %s differs between two simulators of seed 42", pb[i])
		}
	}
	fa := a.do("admin", "POST", "/campus/Faculty", "").want(t, 200).body
	if fb := b.do("admin", "POST", "/campus/Faculty", "").want(t, 200).body; !bytes.Equal(fa, fb) {
		t.Error("E4 differs between two simulators of seed 42")
	}
}

func TestOtherSeedOtherWorld(t *testing.T) {
	a, b := newEnv(t, Options{Seed: 1}), newEnv(t, Options{Seed: 2})
	if a.fx.Records.Folder == b.fx.Records.Folder || a.fx.SubscriptionKey == b.fx.SubscriptionKey {
		t.Error("seeds 1 and 2 share ids or keys")
	}
	if zero := newEnv(t, Options{Seed: 0}); zero.fx.Records.Folder != a.fx.Records.Folder {
		t.Error("seed 0 is not the default seed 1")
	}
}

func TestResetRestoresSeed(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	rec := e.fx.Records
	path := "/multimedia/" + rec.DeletableMedia[0] + "/downloadlog"
	before := e.do("owner", "GET", path, "").want(t, 200).body
	e.do("owner", "DELETE", "/multimedia/media", `{"iDs":["`+rec.DeletableMedia[0]+`"]}`).want(t, 200)
	e.do("owner", "GET", path, "").want(t, 404)
	e.do("", "POST", e.fx.Control+"/reset", "").want(t, 204)
	if after := e.do("owner", "GET", path, "").want(t, 200).body; !bytes.Equal(before, after) {
		t.Errorf("after reset: %s, want %s", after, before)
	}
	e.sim.Reset()
	if got := e.sim.Fixtures().JSON(); !bytes.Equal(got, e.fx.JSON()) {
		t.Error("fixtures changed after Reset")
	}
}

func TestScaleMultipliesLists(t *testing.T) {
	one, three := newEnv(t, Options{}), newEnv(t, Options{Scale: 3})
	count := func(e *env) int {
		return len(e.do("owner", "GET", "/files/FileAnnotation/"+e.fx.Records.File+"/all", "").want(t, 200).list(t))
	}
	if c1, c3 := count(one), count(three); c3 != 3*c1 {
		t.Errorf("annotations: %d at scale 1, %d at scale 3, want three times as many", c1, c3)
	}
	if !strings.Contains(three.fx.Description, "scale 3") {
		t.Errorf("description %q does not name the scale", three.fx.Description)
	}
}
