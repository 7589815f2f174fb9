package steps

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
)

// Before the scenarios, the run checks two things of the target with
// reads only: that it takes the credentials of every fixture user (the
// credentials check), and that the records the fixture names are there
// (the record check). Neither judges the implementation; each keeps a
// mistake of the fixture from reading as failures of the implementation.
// (They are not the input checks of `campusconf run`, which look at the
// options and files before anything is sent.)

// CredentialsError is returned by Run, before any scenario runs, when the
// target refuses the credentials of a fixture user with 401.
type CredentialsError struct {
	// User is the fixture user, Request the read made as that user.
	User, Request string
	// Sent names the credential headers sent, values redacted.
	Sent string
}

func (e *CredentialsError) Error() string {
	return fmt.Sprintf("credentials check: the target refused the credentials of fixture user %q with 401 (%s; sent %s): correct them in the fixture, or run with --no-credentials-check",
		e.User, e.Request, e.Sent)
}

// checkRead is the read the credentials check makes as each user: the
// typical call of the first read the registry places, of a profile the
// fixture claims, whose records the fixture names, else a read of a record no implementation has (a refused
// key or token is refused before the lookup).
func (e *env) checkRead() call {
	for _, o := range registry.All() {
		if !o.Placed || o.Method != http.MethodGet || !e.cfg.Fixture.Supports(string(o.ID)) {
			continue
		}
		c := callOf(string(o.ID), o.Typical)
		resolvable := true
		for _, v := range c.params {
			if e.fixture.Get(strings.Trim(v, "{}")).Str == "" {
				resolvable = false
			}
		}
		if resolvable {
			return c
		}
	}
	return call{op: string(registry.E19), params: map[string]string{"id": "{absent}"}, order: []string{"id"}}
}

// checkCredentials makes one authenticated read as each fixture user and
// returns a *CredentialsError for the first one the target refuses with
// 401. Any other answer passes: a 403 is the implementation's choice of
// roles, and a transport error is the suite's to report.
func (e *env) checkCredentials(ctx context.Context) error {
	if e.cfg.NoCredentialsCheck {
		return nil
	}
	c := e.checkRead()
	for _, name := range slices.Sorted(maps.Keys(e.cfg.Fixture.Users)) {
		s := e.checkState()
		s.user = name
		if err := s.do(ctx, c); err != nil && s.status == 0 {
			continue
		}
		if s.status != http.StatusUnauthorized {
			continue
		}
		ex := s.exchanges[len(s.exchanges)-1]
		var sent []string
		for _, h := range slices.Sorted(maps.Keys(ex.RequestHeaders)) {
			if h == wire.KeyHeader || e.cfg.Fixture.Users[name].Headers[h] != "" {
				sent = append(sent, h+": "+ex.RequestHeaders[h])
			}
		}
		if len(sent) == 0 {
			sent = []string{"no credential header"}
		}
		return &CredentialsError{User: name, Request: ex.Method + " " + ex.URL, Sent: strings.Join(sent, ", ")}
	}
	return nil
}

// checkRecords reads each fixture record an operation can read (the
// typical call of every read whose call names fixture records) and
// returns the record keys found gone, each with why: the read answered
// 404. The scenarios that need such a record are skipped (cause fixture,
// see goneRecord), never failed. Any other answer leaves the records to
// the scenarios.
func (e *env) checkRecords(ctx context.Context) map[string]string {
	gone := map[string]string{}
	for _, rc := range e.recordChecks() {
		if ctx.Err() != nil {
			break
		}
		s := e.checkState()
		s.user = rc.user
		_ = s.do(ctx, rc.call)
		if s.status != http.StatusNotFound {
			continue
		}
		why := fmt.Sprintf("%s answered 404 when the run began", rc.call.op)
		for _, k := range rc.keys {
			if _, seen := gone[k]; !seen {
				gone[k] = why
			}
		}
	}
	return gone
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
		c := callOf(string(o.ID), o.Typical)
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
		if u, ok := typicalUser(string(o.ID)); ok {
			if _, has := e.cfg.Fixture.Users[u]; !has {
				continue
			}
			rc.user = u
		}
		out = append(out, rc)
	}
	return out
}

// preflightChain is the number of requests the checks before the suite
// make one after another (the credentials check's read per user, then
// the record check's reads): what the schedule's bound (Bound) adds
// before the first scenario. Whoever changes those checks, to make their
// reads at once for instance, changes this count with them
// (TestPreflightChain holds the two together).
func (e *env) preflightChain() int {
	n := len(e.recordChecks())
	if !e.cfg.NoCredentialsCheck {
		n += len(e.cfg.Fixture.Users)
	}
	return n
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
