package simulator

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/simulator/ops"
)

// TestAllowedHostsRefused: New refuses what wire.CheckAllowedHosts
// refuses (its own test lists the forms).
func TestAllowedHostsRefused(t *testing.T) {
	if _, err := New(Options{AllowedHosts: []string{"api:8080"}}); err == nil || !strings.Contains(err.Error(), "expected a host name") {
		t.Errorf(`New with AllowedHosts ["api:8080"]: %v, want an error saying what is expected`, err)
	}
}

// TestRebindingRefused is the DNS rebinding case: a page of
// evil.example, its name resolved to the simulator's address, sends
// requests whose Host and Origin are its own. The docs (which hold the
// admin's token), the self-reset, the control API and the interface all
// answer 421 with a JSON string, nothing changes and no world is created;
// the same requests sent to localhost are answered.
func TestRebindingRefused(t *testing.T) {
	e := newEnv(t, Options{Docs: true, SelfReset: true, Control: true, AllowedHosts: []string{"campus-api", testHost}})
	admin := e.fx.Users["admin"].Headers["Authorization"]
	adminToken := strings.TrimPrefix(admin, "Bearer ")
	e.do("owner", "DELETE", "/multimedia/media", `{"iDs":["`+e.fx.Records.DeletableMedia[0]+`"]}`).want(t, http.StatusOK)
	media := "/multimedia/" + e.fx.Records.DeletableMedia[0] + "/downloadlog"
	for _, host := range []string{"evil.example:8080", "evil.example"} {
		origin := map[string]string{"Host": host, "Origin": "http://" + host, "Sec-Fetch-Site": "same-origin", "Authorization": admin}
		for _, c := range []struct{ method, path string }{
			{"GET", "/docs/?user=admin"},
			{"GET", "/docs/openapi.json"},
			{"POST", ops.SelfResetPath},
			{"POST", e.fx.Control + "/reset"},
			{"GET", e.fx.Control + "/fixtures"},
			{"GET", "/files/" + e.fx.Records.Folder + "/downloaded"},
			{"GET", "/_w/stolen/files/" + e.fx.Records.Folder + "/downloaded"},
			{"GET", "/healthz"},
		} {
			r := e.doWith("", c.method, c.path, "", origin)
			if r.status != http.StatusMisdirectedRequest {
				t.Errorf("%s %s with Host %s: expected 421, got %d: %.80s", c.method, c.path, host, r.status, r.body)
				continue
			}
			msg := r.errorString(t)
			if !strings.Contains(msg, "evil.example") || !strings.Contains(msg, "--allowed-hosts") {
				t.Errorf("%s %s: message %q, want the host named and how to allow one", c.method, c.path, msg)
			}
			if strings.Contains(string(r.body), adminToken) || strings.Contains(string(r.body), e.fx.SubscriptionKey) {
				t.Errorf("%s %s: the 421 answer carries a credential", c.method, c.path)
			}
		}
	}
	e.doWith("owner", "GET", media, "", map[string]string{"Host": "evil.example"}).want(t, http.StatusMisdirectedRequest)
	e.do("owner", "GET", media, "").want(t, http.StatusNotFound) // the reset above did not happen
	if names := e.sim.WorldNames(); len(names) != 0 {
		t.Errorf("named worlds after refused requests: %v, want none created", names)
	}
	for _, host := range []string{"localhost:8080", "127.0.0.1:8080", "[::1]:8080", "campus-api:8080"} {
		e.doWith("", "GET", "/docs/?user=admin", "", map[string]string{"Host": host}).want(t, http.StatusOK)
		e.doWith("owner", "GET", "/files/"+e.fx.Records.Folder+"/downloaded", "", map[string]string{"Host": host}).want(t, http.StatusOK)
	}
	e.doWith("", "POST", ops.SelfResetPath, "", map[string]string{"Host": "localhost:8080", "Origin": "http://localhost:8080", "Authorization": admin}).want(t, http.StatusNoContent)
	e.do("owner", "GET", media, "").want(t, http.StatusOK)
}
