package simulator

import (
	"fmt"
	"testing"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
)

// TestStorePolicy checks that each defect living in the store's rules
// fills its one field of the store's Policy, and that no defect fills
// none.
func TestStorePolicy(t *testing.T) {
	tests := []struct {
		defect defects.Name
		want   store.Policy
	}{
		{"", store.Policy{}},
		{defects.GradebookTotalPerRequest, store.Policy{GradebookTotalOfRequest: true}},
		{defects.GradebookTotalRounded, store.Policy{GradebookTotalRounded: true}},
		{defects.Gradebook100Refused, store.Policy{GradebookTotalBelow100: true}},
		{defects.GradebookRefusedApplied, store.Policy{GradebookRefusedStored: true}},
		{defects.NotifyReadIgnored, store.Policy{NotifyStatusKept: true}},
		{defects.NotifyReadOneWay, store.Policy{}},
	}
	for _, tt := range tests {
		t.Run(string(tt.defect), func(t *testing.T) {
			var names []string
			if tt.defect != "" {
				names = []string{string(tt.defect)}
			}
			set, err := defects.New(names)
			if err != nil {
				t.Fatal(err)
			}
			var d switches.Defects
			d.Store(set)
			if got := storePolicy(&d); got != tt.want {
				t.Errorf("storePolicy() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestStorePolicySwitched switches a defect of the store's rules on and
// off while the simulator serves: the store follows from the next request.
func TestStorePolicySwitched(t *testing.T) {
	e := newEnv(t, Options{Control: true})
	n := e.fx.Records.Notification
	method, path := e.opPath("NR", "")
	for _, step := range []struct {
		settings string
		read     int
		want     float64
	}{
		{`{"defects":["notify-read-ignored"]}`, 11, 10},
		{`{"defects":[]}`, 11, 11},
	} {
		e.do("", "PUT", e.fx.Control+"/settings", step.settings).want(t, 200)
		e.do("owner", method, path, fmt.Sprintf(`{"id":%d,"read":%d}`, n.ID, step.read)).want(t, 200)
		if got, err := e.notifyStatus("", false); err != nil || got != step.want {
			t.Errorf("with %s, read=%d: stored status %v (%v), want %v", step.settings, step.read, got, err, step.want)
		}
	}
}
