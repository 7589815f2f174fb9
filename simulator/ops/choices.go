package ops

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator/front"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/passes"
	"github.com/campusconf/campusconf/simulator/store"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
)

// This file holds the faithful variants (simulator/variants) that are not a
// small switch at one decision point: where the unplaced operations live,
// how the user is conveyed, and what the fixture says of each; the
// response-shaping pass is simulator/passes's.

// Place returns where op lives as the variants in force v choose: the
// registry's place, or its alternative with alt-paths.
func Place(op registry.Operation, v *switches.Variants) (method, path string) {
	if op.AltPath != "" && v.Has(variants.AltPaths) {
		return op.AltMethod, op.AltPath
	}
	return op.Method, op.Path
}

// place returns where op lives in this simulator (Place).
func (env *Env) place(op operation) (method, path string) { return Place(op.Operation, env.variants) }

// populate reads the populate query parameter (populateIn), matching the
// entities exactly as spelled with populate-exact.
func (env *Env) populate(r *http.Request, accepted ...string) (map[string]bool, error) {
	return env.populateFrom(queryOf(r), accepted...)
}

// populateFrom is populate on a query already parsed.
func (env *Env) populateFrom(q listing.RawQuery, accepted ...string) (map[string]bool, error) {
	return populateIn(q, env.variants.Has(variants.PopulateExact), accepted...)
}

// userToken returns the token identifying the login user, and the message
// of a refusal when there is none.
func (env *Env) userToken(r *http.Request) (string, string) {
	if env.variants.Has(variants.UserHeader) {
		token := strings.TrimSpace(front.HeaderValue(r.Header, variants.UserTokenHeader))
		if token == "" {
			return "", variants.UserTokenHeader + ": expected a token identifying the login user"
		}
		return token, ""
	}
	scheme, token, found := strings.Cut(front.HeaderValue(r.Header, "Authorization"), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", "Authorization: expected \"Bearer <token>\" identifying the login user"
	}
	return strings.TrimSpace(token), ""
}

// unknownToken is the message of a refusal for a token of no user.
func (env *Env) unknownToken() string {
	if env.variants.Has(variants.UserHeader) {
		return variants.UserTokenHeader + ": the token does not identify a user"
	}
	return "Authorization: the bearer token does not identify a user"
}

// keyRefusal is the status of a call without a valid subscription key.
func (env *Env) keyRefusal() int {
	switch {
	case env.variants.Has(variants.Key403):
		return http.StatusForbidden
	case env.variants.Has(variants.Key400):
		return http.StatusBadRequest
	case env.variants.Has(variants.Key404):
		return http.StatusNotFound
	}
	return http.StatusUnauthorized
}

// tokenRefusal is the status of a call without a known bearer token.
func (env *Env) tokenRefusal() int {
	if env.variants.Has(variants.Token403) {
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// variantAccess is the access rule of op as the variants choose it.
func (env *Env) variantAccess(a access) access {
	if a == notStudent && env.variants.Has(variants.NoForbiddenTable) {
		return anyone
	}
	return a
}

// pendingPolls is how many polls of a transaction answer 7001 with
// push-pending-first.
const pendingPolls = 2

// stillPending counts a poll of transaction id and reports whether the
// variant keeps it pending.
func (env *Env) stillPending(id string) bool {
	first, forTime := env.variants.Has(variants.PushPendingFirst), env.variants.Has(variants.PushPendingFor)
	if !first && !forTime {
		return false
	}
	env.pollMu.Lock()
	defer env.pollMu.Unlock()
	env.polls[id]++
	if _, seen := env.firstPoll[id]; !seen {
		env.firstPoll[id] = time.Now()
	}
	// push-pending-for counts real time, not polls: a person on a phone
	return (first && env.polls[id] <= pendingPolls) ||
		(forTime && time.Since(env.firstPoll[id]) < variants.PushPendingSeconds*time.Second)
}

// limited answers 429 when the rate-limit variant's window is spent: a
// window of one second per world, RateLimitPerSecond requests in it, and
// Retry-After the whole seconds to the next window.
func (env *Env) limited(w http.ResponseWriter) bool {
	if !env.variants.Has(variants.RateLimit) {
		return false
	}
	env.rateMu.Lock()
	now := time.Now()
	if now.Sub(env.window) >= time.Second {
		env.window, env.inWindow = now, 0
	}
	env.inWindow++
	over := env.inWindow > variants.RateLimitPerSecond
	left := time.Second - now.Sub(env.window)
	env.rateMu.Unlock()
	if !over {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(left.Seconds()))))
	front.WriteJSON(w, http.StatusTooManyRequests, "rate limit exceeded: try again after the time Retry-After gives")
	return true
}

// staticOTP reports whether otp is the otp-static code of u.
func (env *Env) staticOTP(u store.User, otp string) bool {
	return env.variants.Has(variants.OTPStatic) && u.Fixture == "owner" && otp == variants.StaticOTP
}

// varyFixtures adapts the fixture file to the variants that it conveys.
func (env *Env) varyFixtures(f *fixtures.File) {
	v := env.variants
	if v.Has(variants.UserHeader) {
		for name, u := range f.Users {
			token := strings.TrimPrefix(u.Headers["Authorization"], "Bearer ")
			u.Headers = map[string]string{variants.UserTokenHeader: token}
			f.Users[name] = u
		}
	}
	if v.Has(variants.NoSortbySyntax) {
		f.Conventions.Sortby = fixtures.Sortby{}
	}
	if v.Has(variants.SortbyDash) {
		f.Conventions.Sortby = fixtures.Sortby{Ascending: "{field}", Descending: "-{field}", Separator: listing.SortSeparator}
	}
	if v.Has(variants.PermissionPerRecord) {
		// The refusals hold per record: name, for two of them, another
		// record than the one the suite's probe would take.
		for i, fb := range f.Forbidden {
			switch fb.Operation {
			case string(registry.E14):
				f.Forbidden[i].Record = "deletableMedia.1"
			case string(registry.E21):
				f.Forbidden[i].Record = "lectureSessions.1"
			}
		}
	}
	if v.Has(variants.OTPStatic) {
		f.SecondFactor.TOTPSecret, f.SecondFactor.OTP = "", variants.StaticOTP
	}
	if v.Has(variants.NoForbiddenTable) {
		f.Forbidden = nil
	}
	if v.Has(variants.UUIDUpper) {
		// The records are ids as the implementation writes them.
		raw, _ := json.Marshal(f.Records)
		var recs fixtures.Records
		if err := json.Unmarshal(passes.UpperUUIDs(raw), &recs); err == nil {
			f.Records = recs
		}
	}
}
