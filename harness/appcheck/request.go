package appcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/tidwall/gjson"
)

// absentID is the uuid the probes name where a record must not exist: a
// version-4 uuid no implementation has, fixed so a probe replays.
const absentID = "5f0c9a4e-3b1d-4c7e-9a2f-6d8e1b4c0a44"

// call is one probe request, in the fixture's terms.
type call struct {
	method, path string
	query        url.Values
	body         string
	// user is the fixture user it is sent as ("" the default caller);
	// anonymous sends neither a key nor a user's headers.
	user      string
	anonymous bool
}

// String is the request as a report shows it: method and target, with
// its body when it has one, never a header.
func (c call) String() string {
	s := c.method + " " + c.target()
	if c.body != "" {
		s += " " + c.body
	}
	if c.anonymous {
		s += " (without credentials)"
	} else if c.user != "" && c.user != "owner" {
		s += " (as " + c.user + ")"
	}
	return s
}

func (c call) target() string {
	if q := c.query.Encode(); q != "" {
		return c.path + "?" + q
	}
	return c.path
}

// with returns c with the query parameter name set to value ("" removes
// it).
func (c call) with(name, value string) call {
	q := url.Values{}
	for k, v := range c.query {
		q[k] = append([]string(nil), v...)
	}
	if value == "" {
		q.Del(name)
	} else {
		q.Set(name, value)
	}
	c.query = q
	return c
}

// answer is what the target answered a call; err when it did not.
type answer struct {
	status int
	body   []byte
	err    error
}

// String says the answer in a few words: its status, or why none came.
func (a answer) String() string {
	if a.err != nil {
		return "no answer (" + a.err.Error() + ")"
	}
	return fmt.Sprintf("status %d", a.status)
}

func (a answer) ok() bool { return a.err == nil && a.status >= 200 && a.status < 300 }

// entries are the answer's list entries, or false when its body is not a
// JSON array.
func (a answer) entries() ([]gjson.Result, bool) {
	v := gjson.ParseBytes(a.body)
	if !v.IsArray() {
		return nil, false
	}
	return v.Array(), true
}

// prober sends the probes of one target.
type prober struct {
	t   Target
	doc []byte // the fixture as JSON, for its placeholders
}

var errMissing = errors.New("missing in the fixture")

// fill replaces the placeholders of text with the fixture's values
// ({absent} with absentID); the error names the first key missing.
func (p *prober) fill(text string) (string, error) {
	return registry.Fill(text, func(key string) (string, error) {
		if key == "absent" {
			return absentID, nil
		}
		v := gjson.GetBytes(p.doc, key)
		if !v.Exists() || v.String() == "" {
			return "", fmt.Errorf("%w: %s", errMissing, key)
		}
		if v.Type == gjson.String {
			return v.String(), nil
		}
		return v.Raw, nil
	})
}

var pathParam = regexp.MustCompile(`\{[^{}/]+\}`)

// typical is op's typical call (registry.Operation.Typical) where the
// fixture places op, filled from the fixture; params override path
// parameters by name (values not filled). ex, the app's example, gives the
// query and the body when it has one.
func (p *prober) typical(op registry.Operation, params map[string]string, ex *wire.Example) (call, error) {
	f := p.t.Fixture
	method, tmpl, ok := f.Placement(op)
	if !ok {
		return call{}, fmt.Errorf("the fixture places no %s (operations.%s)", op.ID, op.ID)
	}
	var ferr error
	path := pathParam.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := m[1 : len(m)-1]
		for k, v := range params {
			if strings.EqualFold(k, name) {
				return url.PathEscape(v)
			}
		}
		for k, v := range op.Typical.Params {
			if strings.EqualFold(k, name) {
				if fx, named := op.IDs["path."+k]; named && ex != nil && strings.Contains(v, "{absent}") {
					// the app's call named a record: name the fixture's
					v = "{" + fx + "}"
				}
				val, err := p.fill(v)
				if err != nil && ferr == nil {
					ferr = err
				}
				return url.PathEscape(val)
			}
		}
		if ferr == nil {
			ferr = fmt.Errorf("no value for the path parameter %s of %s", name, op.ID)
		}
		return ""
	})
	if ferr != nil {
		return call{}, ferr
	}
	c := call{method: method, path: path, query: url.Values{}, user: op.TypicalUser}
	for k, v := range op.Typical.Query {
		val, err := p.fill(v)
		if err != nil {
			return call{}, err
		}
		c.query.Set(k, val)
	}
	if op.Typical.HasBody {
		body, err := p.fill(op.Typical.Body)
		if err != nil {
			return call{}, err
		}
		c.body = body
	}
	if ex != nil {
		// the app's own query and body, its ids written as fixture
		// placeholders; an example this fixture cannot fill is left out
		if _, q, _ := strings.Cut(ex.Target, "?"); q != "" {
			if filled, err := p.fill(q); err == nil {
				if v, err := url.ParseQuery(filled); err == nil {
					c.query = v
				}
			}
		}
		if ex.Body != "" && !ex.BodyCut {
			if filled, err := p.fill(ex.Body); err == nil && json.Valid([]byte(filled)) {
				c.body = filled
			}
		}
	}
	return c, nil
}

// send sends c to the target and reads its answer within the bounds.
func (p *prober) send(ctx context.Context, c call) answer {
	timeout := p.t.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequestWithContext(ctx, c.method, strings.TrimRight(p.t.BaseURL, "/")+c.target(), body)
	if err != nil {
		return answer{err: err}
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json-patch+json") // the suite's default (steps)
	}
	req.Header.Set("Accept", "application/json")
	if !c.anonymous {
		setCredentials(req.Header, p.t.Fixture, c.user)
	}
	resp, err := p.t.Client.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	limit := p.t.MaxBody
	if limit <= 0 {
		limit = wire.MaxResponseBodyBytes
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("answer longer than %d bytes (--max-body)", limit)
	}
	return answer{status: resp.StatusCode, body: b, err: err}
}

// setCredentials sets the subscription key and the headers of the fixture
// user (the default caller, owner, when user is "").
func setCredentials(h http.Header, f *fixtures.File, user string) {
	if user == "" {
		user = "owner"
	}
	u := f.Users[user]
	key := f.SubscriptionKey
	if u.SubscriptionKey != "" {
		key = u.SubscriptionKey
	}
	if key != "" {
		h.Set(wire.KeyHeader, key)
	}
	for k, v := range u.Headers {
		h.Set(k, v)
	}
}
