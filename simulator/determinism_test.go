package simulator

import (
	"bytes"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// reads are GET requests covering every read operation with the fixture's
// ids, reaching a list's sorting and dates and every populate.
func reads(e *env) []string {
	return recordReads(e, map[registry.OpID]string{
		registry.E10: "sortby=name", registry.E15: "startDate=2025-01-06T00:00:00Z", registry.E17: "populate=Creator",
		registry.E18: "populate=photo", registry.E20: "populate=photo", registry.NG: "populate=ancestor",
	})
}

// recordReads are the paths of recordPaths, each with the query query
// holds for its operation, if any.
func recordReads(e *env, query map[registry.OpID]string) []string {
	var out []string
	for _, r := range recordPaths(e) {
		p := r.path
		if q := query[r.op]; q != "" {
			p += "?" + q
		}
		out = append(out, p)
	}
	return out
}

// recordRead is the read of one record the fixture names.
type recordRead struct {
	op   registry.OpID
	path string
}

// recordPaths are the reads of each record the fixture names, one per
// read operation (E9 to E20, and NG where the fixture places it).
func recordPaths(e *env) []recordRead {
	rec := e.fx.Records
	_, group := e.opPath("NG", rec.Notification.GroupID)
	return []recordRead{
		{registry.E9, "/evaluation/" + rec.Evaluation + "/Question/" + rec.EvaluationQuestion},
		{registry.E10, "/files/" + rec.Folder + "/downloaded"},
		{registry.E11, "/files/FileAnnotation/" + rec.File + "/all"},
		{registry.E12, "/module/Weblink/" + rec.Weblink + "/Log"},
		{registry.E13, "/multimedia/" + rec.Media + "/downloadlog"},
		{registry.E15, "/multimedia/statistics/channel/" + rec.Channel + "/users"},
		{registry.E16, "/multimedia/capture/" + rec.Capture + "/medias"},
		{registry.E17, "/survey/question/" + rec.SurveyQuestion + "/response"},
		{registry.E18, "/poll/Question/" + rec.PollQuestion + "/Response"},
		{registry.E19, "/poll/Response/" + rec.PollResponse},
		{registry.E20, "/resource/" + rec.Resource + "/students"},
		{registry.NG, group},
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
