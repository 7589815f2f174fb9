// Package loadgen is `campusconf load`'s side of the interface: the one
// request of an operation built from the registry and a fixture
// (NewRequest, this file), as a vegeta target, and a bounded
// run of it on vegeta (attack.go): at an open-model rate or with a fixed
// number in flight, results in vegeta's own format and an HTML latency
// plot. Its bounds make every run stop by itself; which targets it may be
// pointed at (loopback only, unless allowed) is decided with IsLoopback.
package loadgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
)

// pathParam is a parameter of a path template.
var pathParam = regexp.MustCompile(`\{[^{}]+\}`)

// Bounds of a load run: it always stops by itself.
const (
	// MaxDuration is the longest a run may send requests.
	MaxDuration = 10 * time.Minute
	// MaxConcurrency is the most requests a run may keep in flight.
	MaxConcurrency = 256
)

// FixtureError is returned by NewRequest when the fixture lacks a record
// or an operation entry that Op needs.
type FixtureError struct{ Op string }

// Error names the operation and where the fixture should give it.
func (e *FixtureError) Error() string {
	return fmt.Sprintf("the fixture does not give what %s needs (records or operations.%s)", e.Op, e.Op)
}

// OperationIDs returns, sorted, the ids of the operations the generator
// can send: those the registry marks for load (reads, and the one
// idempotent write, the notification read status).
func OperationIDs() []string {
	out := registry.Strings(registry.Select(func(o registry.Operation) bool { return o.Load }))
	sort.Strings(out)
	return out
}

// fill replaces the placeholders of text with the fixture's values (doc is
// the fixture as JSON); ok is false when one is missing.
func fill(text string, doc []byte) (string, bool) {
	out, err := registry.Fill(text, func(key string) (string, error) {
		v := gjson.GetBytes(doc, key)
		if !v.Exists() || v.String() == "" {
			return "", errMissing
		}
		if v.Type == gjson.String {
			return v.String(), nil
		}
		return v.Raw, nil
	})
	return out, err == nil
}

var errMissing = errors.New("missing in the fixture")

// IsLoopback reports whether host is localhost or a loopback IP literal;
// names are not resolved, so nothing leaves the machine to decide.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Request is the one request a run sends over and over, as the fixture's
// owner.
type Request struct {
	Method string
	URL    string
	Body   string // empty: none
	Header http.Header
}

// NewRequest builds the request of operation op (one of OperationIDs, or
// its alias) against base from fixture f, sent as f's owner with the
// subscription key. It fails with a *FixtureError when f lacks what op needs.
func NewRequest(op, base string, f *fixtures.File) (Request, error) {
	o, known := registry.Lookup(op)
	if !known || !o.Load {
		return Request{}, fmt.Errorf("unknown operation %q: expected one of %s", op, strings.Join(OperationIDs(), ", "))
	}
	op = string(o.ID)
	doc, err := json.Marshal(f)
	if err != nil {
		return Request{}, err
	}
	method, tmpl := o.Method, o.Path
	if !o.Placed {
		method, tmpl = f.Operations[op].Method, f.Operations[op].Path
	}
	complete := method != "" && tmpl != ""
	path := pathParam.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := m[1 : len(m)-1]
		for k, v := range o.Typical.Params {
			if strings.EqualFold(k, name) {
				val, ok := fill(v, doc)
				complete = complete && ok
				return url.PathEscape(val)
			}
		}
		complete = false
		return ""
	})
	query := url.Values{}
	for k, v := range o.Typical.Query {
		val, ok := fill(v, doc)
		complete = complete && ok
		query.Set(k, val)
	}
	parts := []string{query.Encode()}
	if o.LoadQuery != "" {
		more, ok := fill(o.LoadQuery, doc)
		complete = complete && ok
		parts = append(parts, more)
	}
	if q := strings.Trim(strings.Join(parts, "&"), "&"); q != "" {
		path += "?" + q
	}
	body, ok := fill(o.LoadBody, doc)
	if !complete || !ok {
		return Request{}, &FixtureError{Op: op}
	}
	user := f.Users["owner"]
	key := f.SubscriptionKey
	if user.SubscriptionKey != "" {
		key = user.SubscriptionKey
	}
	h := http.Header{}
	if key != "" {
		h.Set(wire.KeyHeader, key)
	}
	for k, v := range user.Headers {
		h.Set(k, v)
	}
	if body != "" {
		h.Set("Content-Type", "application/json")
	}
	return Request{Method: method, URL: strings.TrimRight(base, "/") + path, Body: body, Header: h}, nil
}
