package steps

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
)

// Before the scenarios, the run checks the fixture against the target
// with calls that change nothing: that it takes the credentials of every
// fixture user (the credentials check), that the operations the fixture
// places are there (the placement check), and that the records the
// fixture names are there (the record check). None judges the
// implementation; each keeps a mistake of the fixture from reading as
// failures of the implementation: a problem stops the run (SetupError).
// (They are not the input checks of `campusconf run`, which look at the
// options and files before anything is sent.)

// SetupError is returned by Run, before any scenario runs, when the
// checks before the suite find that the fixture does not fit the target:
// the run's verdict is then inconclusive (setup), its exit code 2. Each
// problem is one line saying what to fix.
type SetupError struct {
	Problems []string
}

func (e *SetupError) Error() string { return strings.Join(e.Problems, "\n") }

// Preflight runs only the checks before the suite against cfg's target
// (`campusconf fixtures --check FILE --target URL`): nil when the fixture
// fits the target, a *SetupError naming each problem when it does not,
// another error when the checks could not run. It returns the number of
// requests the checks made.
func Preflight(ctx context.Context, cfg Config) (int, error) {
	cfg.Tags = "@E1 and not @E1" // no scenario: the checks alone
	cfg.NoCredentialsCheck = false
	b, err := BoundOf(cfg, nil)
	if err != nil {
		return 0, err
	}
	_, err = Run(ctx, cfg)
	if errors.Is(err, ErrNoScenarios) {
		err = nil
	}
	return b.PreflightRequests, err
}

// preflightConcurrency is how many requests the checks before the suite
// make at once.
const preflightConcurrency = 8

// checkProbe is one request of the checks before the suite: the call, its
// caller ("": the default one), and what a problem of its answer is.
type checkProbe struct {
	call call
	user string
	// problem says what to fix given the answer's status and the
	// exchange ("" when the answer is no problem).
	problem func(status int, ex reports.Exchange) string
}

// preflight runs the checks before the suite (probes), at most
// preflightConcurrency requests at once, and returns a *SetupError naming
// every problem found, in the order of the checks. A transport error is
// no setup problem: the suite reports those.
func (e *env) preflight(ctx context.Context) error {
	if e.cfg.NoCredentialsCheck {
		return nil
	}
	probes := e.probes()
	problems := make([]string, len(probes))
	sem := make(chan struct{}, preflightConcurrency)
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if ctx.Err() != nil {
				return
			}
			s := e.checkState()
			s.user = p.user
			if err := s.do(ctx, p.call); err != nil && s.status == 0 {
				return
			}
			if len(s.exchanges) == 0 {
				return
			}
			problems[i] = p.problem(s.status, s.exchanges[len(s.exchanges)-1])
		}()
	}
	wg.Wait()
	var out []string
	for _, p := range problems {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if len(out) > 0 {
		return &SetupError{Problems: out}
	}
	return nil
}

// probes are the requests of the checks before the suite, in order: the
// credentials check (a read per fixture user), the placement check (a
// call that changes nothing per operation the fixture places; none in a
// read-only run) and the record check (a read per fixture record an
// operation can read).
func (e *env) probes() []checkProbe {
	var out []checkProbe
	for _, name := range slices.Sorted(maps.Keys(e.cfg.Fixture.Users)) {
		out = append(out, e.credentialsProbe(name))
	}
	out = append(out, e.placementProbes()...)
	for _, rc := range e.recordChecks() {
		out = append(out, checkProbe{call: rc.call, user: rc.user, problem: func(status int, ex reports.Exchange) string {
			if status != http.StatusNotFound && status != http.StatusGone {
				return ""
			}
			return fmt.Sprintf("record check: fixture record %s is gone (%s %s answered %d): restore it or name another in the fixture",
				strings.Join(rc.keys, ", "), ex.Method, ex.URL, status)
		}})
	}
	return out
}

// expectedUsers are the fixture users the suite calls expecting success:
// the default caller, the typical caller of an operation, and the second
// factor's approving and denying users. A read refused to them with 401 or
// 403 is a credentials problem; to another user only a 401 is (a 403 may be
// the implementation's choice of roles).
func (e *env) expectedUsers() map[string]bool {
	out := map[string]bool{defaultUser: true}
	for _, o := range registry.All() {
		if o.TypicalUser != "" {
			out[o.TypicalUser] = true
		}
	}
	sf := e.cfg.Fixture.SecondFactor
	for _, u := range []string{sf.ApprovingUser, sf.DenyingUser} {
		if u != "" {
			out[u] = true
		}
	}
	return out
}

// credentialsProbe is the read the credentials check makes as user name:
// the typical call of the first read the registry places, of a profile
// the fixture claims, whose records the fixture names and which the
// fixture does not forbid the user, else a read of a record no
// implementation has (a refused key or token is refused before the
// lookup).
func (e *env) credentialsProbe(name string) checkProbe {
	c := call{op: registry.E19, params: map[string]string{"id": "{absent}"}, order: []string{"id"}}
	for _, o := range registry.All() {
		if !o.Placed || o.Method != http.MethodGet || o.ChangesState || !e.cfg.Fixture.Supports(string(o.ID)) || e.forbids(name, o.ID) {
			continue
		}
		oc := callOf(o.ID, o.Typical)
		resolvable := true
		for _, v := range oc.params {
			if e.fixture.Get(strings.Trim(v, "{}")).Str == "" {
				resolvable = false
			}
		}
		if resolvable {
			c = oc
			break
		}
	}
	expected := e.expectedUsers()[name]
	return checkProbe{call: c, user: name, problem: func(status int, ex reports.Exchange) string {
		if status != http.StatusUnauthorized && (status != http.StatusForbidden || !expected) {
			return ""
		}
		var sent, headers []string
		for _, h := range slices.Sorted(maps.Keys(ex.RequestHeaders)) {
			if h == wire.KeyHeader || e.cfg.Fixture.Users[name].Headers[h] != "" {
				sent = append(sent, h+": "+ex.RequestHeaders[h])
				headers = append(headers, h)
			}
		}
		if len(sent) == 0 {
			sent, headers = []string{"no credential header"}, []string{"its headers"}
		}
		return fmt.Sprintf("credentials check: the target refused the credentials of fixture user %q with %d (%s %s; sent %s): correct users.%s (%s) or subscriptionKey in the fixture, or run with --no-preflight",
			name, status, ex.Method, ex.URL, strings.Join(sent, ", "), name, strings.Join(headers, ", "))
	}}
}

// forbids says whether the fixture's forbidden table refuses user op.
func (e *env) forbids(user string, op registry.OpID) bool {
	for _, f := range e.cfg.Fixture.Forbidden {
		if f.User == user && f.Operation == string(op) {
			return true
		}
	}
	return false
}

// placementProbes are the calls of the placement check: for each
// operation the specification leaves unplaced and the fixture places, a
// call that changes nothing (its typical read; for a write, a body that
// is not JSON, which any implementation refuses before acting). A 404 or
// 405 says no such route: the fixture's method or path is wrong. None in
// a read-only run.
func (e *env) placementProbes() []checkProbe {
	if e.cfg.ReadOnly {
		return nil
	}
	var out []checkProbe
	for _, o := range registry.All() {
		placed, ok := e.cfg.Fixture.Operations[string(o.ID)]
		if o.Placed || !ok || !e.cfg.Fixture.Supports(string(o.ID)) {
			continue
		}
		c := callOf(o.ID, o.Typical)
		if o.ChangesState {
			c.body, c.hasBody, c.rawBody, c.contentType = "{", true, true, "application/json"
		}
		user := ""
		if u, ok := typicalUser(o.ID); ok {
			user = u
		}
		out = append(out, checkProbe{call: c, user: user, problem: func(status int, ex reports.Exchange) string {
			if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
				return ""
			}
			return fmt.Sprintf("placement check: operations.%s (%s %s) answered %d to %s %s, a call that changes nothing: the target has no such route; correct operations.%s's method and path in the fixture",
				o.ID, strings.ToUpper(placed.Method), placed.Path, status, ex.Method, ex.URL, o.ID)
		}})
	}
	return out
}

// recordCheck is one read of the record check: the call, its caller ("":
// the default one) and the fixture records it names.
type recordCheck struct {
	call call
	user string
	keys []string
}

// recordChecks are the reads the record check makes, in registry order.
func (e *env) recordChecks() []recordCheck {
	var out []recordCheck
	for _, o := range registry.All() {
		if o.ChangesState || !o.Placed || o.Method != http.MethodGet || len(o.Typical.Params) == 0 || !e.cfg.Fixture.Supports(string(o.ID)) {
			continue
		}
		c := callOf(o.ID, o.Typical)
		var keys []string
		for _, k := range c.order {
			v := strings.Trim(c.params[k], "{}")
			if !strings.HasPrefix(v, "records.") || !e.fixture.Get(v).Exists() {
				keys = nil
				break
			}
			keys = append(keys, recordKey(v))
		}
		if len(keys) == 0 {
			continue
		}
		rc := recordCheck{call: c, keys: keys}
		if u, ok := typicalUser(o.ID); ok {
			if _, has := e.cfg.Fixture.Users[u]; !has {
				continue
			}
			rc.user = u
		}
		out = append(out, rc)
	}
	return out
}

// preflightRequests is the number of requests the checks before the
// suite make (probes).
func (e *env) preflightRequests() int {
	if e.cfg.NoCredentialsCheck {
		return 0
	}
	return len(e.probes())
}

// preflightChain is the number of round trips the checks before the
// suite take, preflightConcurrency requests at once: what the schedule's
// bound (Bound) adds before the first scenario (TestPreflightChain holds
// the two together).
func (e *env) preflightChain() int {
	n := e.preflightRequests()
	return (n + preflightConcurrency - 1) / preflightConcurrency
}

// recordKey is the fixture record a placeholder key names:
// "records.notification.groupId" names "records.notification".
func recordKey(key string) string {
	parts := strings.SplitN(key, ".", 3)
	return strings.Join(parts[:min(2, len(parts))], ".")
}

// goneRecord returns the skip of a scenario that needs the fixture record
// key names when the record check found it gone, else nil.
func (e *env) goneRecord(key string) error {
	if !strings.HasPrefix(key, "records.") {
		return nil
	}
	if why, ok := e.gone[recordKey(key)]; ok {
		return &skip{cause: reports.CauseFixture, reason: fmt.Sprintf("fixture record %s is gone (%s): restore it or name another", recordKey(key), why)}
	}
	return nil
}

// checkState is a state for the checks before the suite: its exchanges
// are kept nowhere.
func (e *env) checkState() *state {
	return &state{env: e, saved: map[string]gjson.Result{}, started: time.Now()}
}
