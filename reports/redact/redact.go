// Package redact is the one redactor of the project: it replaces every
// secret it is told of by a placeholder, in every encoding a target may
// echo it in (Redactor, redactor.go; the decoding it matches on,
// unescape.go), and builds the secrets of a run from its fixture: every
// credential the fixture holds (subscription keys, user headers and bearer
// tokens, the second factor's secret and password, the control API's
// token), and those of a target URL (redact.go). The scenarios, the proxy,
// the generated requests, the report writers, the simulator's request log
// and console and the command all redact through it, so they hide the same
// secrets the same way.
//
// It imports no package of the project but the fixture format, so every
// producer and the simulator may use it.
package redact

import (
	"maps"
	"net/url"
	"strings"

	"github.com/campusconf/campusconf/fixtures"
)

// New returns the redactor of a run with fixture f; nil f gives nil,
// which redacts only credential headers.
func New(f *fixtures.File) *Redactor {
	if f == nil {
		return nil
	}
	return With(Secrets(f))
}

// Secrets maps every credential in the fixture to the placeholder that
// replaces it.
func Secrets(f *fixtures.File) map[string]string {
	out := map[string]string{}
	put := func(v, name string) {
		if v != "" {
			out[v] = name
		}
	}
	put(f.SubscriptionKey, "<SUBSCRIPTION_KEY>")
	for name, u := range f.Users {
		put(u.SubscriptionKey, "<SUBSCRIPTION_KEY_"+name+">")
		for h, v := range u.Headers {
			placeholder := "<" + strings.ToUpper(h) + "_" + name + ">"
			put(v, placeholder)
			if tok, ok := strings.CutPrefix(v, "Bearer "); ok {
				put(tok, "<TOKEN_"+name+">")
			}
		}
	}
	put(f.SecondFactor.TOTPSecret, "<TOTP_SECRET>")
	put(f.SecondFactor.OTP, "<OTP>")
	// A value taken from the environment into a credential is a secret
	// of its own, also where it is only part of one ("Basic ${B64}").
	for _, r := range f.Env() {
		if r.Secret() {
			if _, ok := out[r.Value]; !ok {
				put(r.Value, "<"+r.Name+">")
			}
		}
	}
	// The control API's base path may carry a token (the simulator's
	// /_sim/TOKEN): a long segment of it is a secret too.
	for _, seg := range strings.Split(f.Control, "/") {
		if len(seg) >= 16 {
			put(seg, "<CONTROL_TOKEN>")
		}
	}
	return out
}

// NewWith returns the redactor of a run with fixture f and more secrets
// (TargetSecrets), each with its placeholder.
func NewWith(f *fixtures.File, more map[string]string) *Redactor {
	secrets := map[string]string{}
	if f != nil {
		secrets = Secrets(f)
	}
	maps.Copy(secrets, more)
	return With(secrets)
}

// TargetSecrets maps the secrets a target URL carries to their
// placeholders: its userinfo and password, its query, and each query value
// long enough to be a credential (a token in the query). A URL that does
// not parse carries none that can be told apart.
func TargetSecrets(target string) map[string]string {
	out := map[string]string{}
	u, err := url.Parse(target)
	if err != nil {
		return out
	}
	if u.User != nil {
		if info := u.User.String(); len(info) >= minSecret {
			out[info] = "<TARGET_USERINFO>"
		}
		if pw, ok := u.User.Password(); ok && len(pw) >= minSecret {
			out[pw] = "<TARGET_PASSWORD>"
		}
	}
	if len(u.RawQuery) >= minSecret {
		out[u.RawQuery] = "<TARGET_QUERY>"
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			if len(v) >= minSecret {
				out[v] = "<TARGET_QUERY_" + k + ">"
			}
		}
	}
	return out
}

// minSecret is the length from which a part of the target URL is taken
// for a secret: shorter ones ("v=1") would hide every such text of a
// report and are no credential.
const minSecret = 4
