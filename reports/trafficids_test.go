package reports

import (
	"maps"
	"testing"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/wire"
)

// TestMapFixtureIDs: the ids an example names in its path, query and body
// are mapped to the fixture keys they stand for (a list's element by
// index, the registry's key preferred where one id sits under two keys);
// an id the fixture does not hold, a number that is no id's location, and
// the second factor's secret are not.
func TestMapFixtureIDs(t *testing.T) {
	f := &fixtures.File{Records: fixtures.Records{
		Folder:         "fold-1",
		File:           "fold-1", // the same id under a second key
		DeletableSlots: []string{"slot-a", "slot-b"},
		Notification:   &fixtures.Notification{ID: 77, GroupID: "grp-9"},
	}}
	tr := &TrafficReport{Traffic: wire.Traffic{
		Operations: []TrafficOperation{
			{Op: "E10", Path: "/files/{id}/downloaded", Example: &TrafficExample{Method: "GET", Target: "/files/fold-1/downloaded?limit=77"}},
			{Op: "NR", Path: "/notification/read", Example: &TrafficExample{Method: "PUT", Target: "/notification/read", Body: `{"id":77,"read":11}`}},
			{Op: "E19", Path: "/users/{id}", Example: &TrafficExample{Method: "GET", Target: "/users/created-by-the-app"}},
		},
		Relies: []TrafficReliance{{ID: "D-x", Example: &TrafficExample{Op: "NG", Method: "GET", Target: "/notification/groups/grp-9"}}},
	}}
	tr.Operations = append(tr.Operations, TrafficOperation{Op: "NG", Path: "/notification/groups/{id}"})
	tr.MapFixtureIDs(f)
	for _, tt := range []struct {
		name string
		got  map[string]string
		want map[string]string
	}{
		{"E10 (path; limit=77 is no id's place)", tr.Operations[0].Example.FixtureIDs, map[string]string{"fold-1": "records.folder"}},
		{"NR (a number in the body)", tr.Operations[1].Example.FixtureIDs, map[string]string{"77": "records.notification.id"}},
		{"an id the app created", tr.Operations[2].Example.FixtureIDs, nil},
		{"a reliance's example (its op's path)", tr.Relies[0].Example.FixtureIDs, map[string]string{"grp-9": "records.notification.groupId"}},
	} {
		if !maps.Equal(tt.got, tt.want) {
			t.Errorf("%s: fixtureIds: expected %v, got %v", tt.name, tt.want, tt.got)
		}
	}
}
