package simulator

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

func TestCredentials(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/files/" + e.fx.Records.Folder + "/downloaded"
	tests := []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"valid", nil, http.StatusOK},
		{"missing key", map[string]string{"Ocp-Apim-Subscription-Key": ""}, http.StatusUnauthorized},
		{"unknown key", map[string]string{"Ocp-Apim-Subscription-Key": "nope"}, http.StatusUnauthorized},
		{"missing token", map[string]string{"Authorization": ""}, http.StatusUnauthorized},
		{"unknown token", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"basic scheme", map[string]string{"Authorization": "Basic b3duZXI6eA=="}, http.StatusUnauthorized},
		{"lower-case scheme", map[string]string{"Authorization": strings.Replace(e.fx.Users["owner"].Headers["Authorization"], "Bearer", "bearer", 1)}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.doWith("owner", "GET", path, "", tt.header)
			if r.status != tt.want {
				t.Fatalf("status = %d, want %d; body %s", r.status, tt.want, r.body)
			}
			if tt.want != http.StatusOK {
				r.errorString(t)
			}
		})
	}
}

// TestStatedPermissions covers the two permissions the specification
// states: E4 needs Super Admin, E5 needs Access_Delete on the module.
func TestStatedPermissions(t *testing.T) {
	slot := `{"iDs":["` + newEnv(t, Options{}).fx.Records.DeletableSlots[0] + `"]}`
	tests := []struct {
		user, method, path, body string
		want                     int
	}{
		{"admin", "POST", "/campus/Faculty", "", http.StatusOK},
		{"owner", "POST", "/campus/Faculty", "", http.StatusForbidden},
		{"staff", "POST", "/campus/Faculty", "", http.StatusForbidden},
		{"student", "POST", "/campus/Faculty", "", http.StatusForbidden},
		{"owner", "DELETE", "/consultation/Slot", slot, http.StatusNoContent},
		{"admin", "DELETE", "/consultation/Slot", slot, http.StatusNoContent},
		{"staff", "DELETE", "/consultation/Slot", slot, http.StatusForbidden},
		{"student", "DELETE", "/consultation/Slot", slot, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.user+" "+tt.path, func(t *testing.T) {
			e := newEnv(t, Options{})
			r := e.do(tt.user, tt.method, tt.path, tt.body).want(t, tt.want)
			if tt.want == http.StatusForbidden {
				if msg := r.errorString(t); !strings.Contains(msg, "not authorized") {
					t.Errorf("403 message = %q, want one saying the login user is not authorized", msg)
				}
			}
		})
	}
}

// TestForbiddenTableMatchesBehaviour checks that the fixture's forbidden
// table lists exactly the refusals of the role model beyond E4 and E5.
func TestForbiddenTableMatchesBehaviour(t *testing.T) {
	e := newEnv(t, Options{})
	listed := map[string]bool{}
	for _, f := range e.fx.Forbidden {
		listed[f.Operation+"/"+f.User] = true
	}
	for _, op := range registry.All() {
		if op.ID == "E4" || op.ID == "E5" {
			continue
		}
		for _, user := range []string{"admin", "owner", "staff", "student"} {
			fresh := newEnv(t, Options{})
			path := strings.NewReplacer("{id}", fresh.fx.Records.Evaluation, "{evaluationid}", fresh.fx.Records.Evaluation, "{ID}", fresh.fx.Records.Weblink, "{$}", "").Replace(op.Path)
			r := fresh.do(user, op.Method, path, "{}")
			got := r.status == http.StatusForbidden
			if want := listed[string(op.ID)+"/"+user]; got != want {
				t.Errorf("%s as %s: 403 = %v, fixture lists it = %v (status %d, body %s)", op.ID, user, got, want, r.status, r.body)
			}
		}
	}
	if len(e.fx.Forbidden) == 0 {
		t.Error("forbidden table is empty, want the student refusals")
	}
}
