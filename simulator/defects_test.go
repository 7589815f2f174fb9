package simulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
)

// TestEachDefectBreaksItsRule checks every defect: the rule holds without
// it and breaks with it.
func TestEachDefectBreaksItsRule(t *testing.T) {
	tests := []struct {
		defect defects.Name
		// holds reports whether the rule holds in e.
		holds func(t *testing.T, e *env) bool
	}{
		{defects.E6Status200, func(t *testing.T, e *env) bool {
			return e.do("owner", "POST", "/bank/"+e.fx.Records.BankFolder+"/copy", "").status == http.StatusCreated
		}},
		{defects.E7PublishDefaultFalse, func(t *testing.T, e *env) bool {
			return e.do("owner", "POST", "/Attendance/Default", `{"resourceID":"`+e.fx.Records.AttendanceResource+`"}`).object(t)["publish"] == true
		}},
		{defects.ErrorBodyObject, func(t *testing.T, e *env) bool {
			return strings.HasPrefix(string(e.do("owner", "GET", "/nowhere", "").body), `"`)
		}},
		{defects.GradebookTotalPerRequest, func(t *testing.T, e *env) bool {
			mod := e.fx.Records.GradebookModule
			method, path := e.opPath("GB", mod.ID)
			return e.do("owner", method, path, weightBody(map[string]float64{mod.GradeItems[0]: 70}, "[]")).status == http.StatusBadRequest
		}},
		{defects.MissingKeyAccepted, func(t *testing.T, e *env) bool {
			return e.doWith("owner", "GET", "/healthz", "", nil).status == 200 &&
				e.doWith("owner", "POST", "/campus/2FA/Push", "", map[string]string{"Ocp-Apim-Subscription-Key": ""}).status == http.StatusUnauthorized
		}},
		{defects.NotifyReadIgnored, func(t *testing.T, e *env) bool {
			method, path := e.opPath("NR", "")
			n := e.fx.Records.Notification
			return e.do("owner", method, path, fmt.Sprintf(`{"id":%d,"read":11}`, n.ID)).object(t)["notifyStatus"] == 11.0
		}},
		{defects.PollAlways7002, func(t *testing.T, e *env) bool {
			tx := e.do("owner", "POST", "/campus/2FA/Push", "").object(t)["transactionId"].(string)
			return e.do("owner", "POST", "/campus/2FA/Poll", `{"transactionId":"`+tx+`"}`).object(t)["status"] == "0000"
		}},
	}
	covered := map[defects.Name]bool{}
	for _, tt := range tests {
		covered[tt.defect] = true
		t.Run(string(tt.defect), func(t *testing.T) {
			if !tt.holds(t, newEnv(t, Options{})) {
				t.Fatal("the rule does not hold without the defect")
			}
			if tt.holds(t, newEnv(t, Options{Defects: []string{string(tt.defect)}})) {
				t.Error("the rule still holds with the defect")
			}
		})
	}
	// Every defect, these included, is also run end to end against the
	// whole suite by the kill matrix (harness/killmatrix).
	for name := range covered {
		if _, ok := defects.Lookup(string(name)); !ok {
			t.Errorf("defect %s is tested here but unknown", name)
		}
	}
	if _, err := New(Options{Defects: []string{"no-such-defect"}}); err == nil {
		t.Error("New accepted an unknown defect")
	}
}

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
