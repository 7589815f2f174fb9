package ops

import (
	"crypto/subtle"
	"net/http"

	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/store"
)

// SelfResetPath is where a simulator with Options.SelfReset restores its
// seeded world (the fixture's "reset", POST).
const SelfResetPath = "/_campusconf/reset"

// SelfReset restores the seeded world (Reset) for a caller holding the
// subscription key and a Super Admin token, sent by a client that is not a
// page of another origin. The interface's own calls need no more: anyone
// who may delete slots with these credentials may as well restore them.
func (env *Env) SelfReset(w http.ResponseWriter, r *http.Request) {
	if msg := front.CrossOrigin(r, false); msg != "" {
		env.fail(w, http.StatusForbidden, "reset: "+msg)
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("Ocp-Apim-Subscription-Key")), []byte(env.store.SubscriptionKey())) != 1 {
		env.fail(w, env.keyRefusal(), "Ocp-Apim-Subscription-Key: expected the subscription key of this world")
		return
	}
	token, msg := env.userToken(r)
	if msg != "" {
		env.fail(w, http.StatusUnauthorized, msg)
		return
	}
	u, ok := env.store.UserByToken(token)
	if !ok {
		env.fail(w, http.StatusUnauthorized, env.unknownToken())
		return
	}
	if u.Role != store.RoleSuperAdmin {
		env.fail(w, http.StatusForbidden, "reset: the login user is not authorized: the Super Admin role is required")
		return
	}
	env.Reset()
	front.NoContent(w)
}
