package steps

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/pace"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/campusconf/campusconf/internal/totp"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
)

// call is one request a step wants to make, before interpolation.
type call struct {
	op          registry.OpID
	params      map[string]string // path parameters, else query parameters
	order       []string          // params in the order given, for a stable URL
	body        string
	hasBody     bool
	contentType string
	// rawBody is sent as is, without interpolation (malformed JSON).
	rawBody bool
}

const jsonPatch = rules.MediaJSONPatch

// interpolate replaces placeholders: {records.x} and the other fixture
// roots (looked up in the fixture), {saved.name[.path]} (saved earlier),
// {absent} (a uuid no implementation has), {absentNumber} (an int64 id no
// implementation has issued), {otp} (a valid one-time password
// now), {wrongOtp} (one of its form that is not valid now),
// {sortby.FIELD.ascending} and {sortby.FIELD.descending} (the sort key in
// the syntax conventions.sortby declares). A string value is inserted
// without quotes, anything else as raw JSON.
func (s *state) interpolate(text string) (string, error) {
	return registry.Fill(text, s.lookup)
}

// savedAs is what an earlier step saved as name; an error naming it where
// nothing was (a mistake of the feature, not of the target).
func (s *state) savedAs(name string) (gjson.Result, error) {
	v, ok := s.saved[name]
	if !ok {
		return gjson.Result{}, fmt.Errorf("nothing was saved as %q before this step", name)
	}
	return v, nil
}

func (s *state) lookup(key string) (string, error) {
	root, rest, _ := strings.Cut(key, ".")
	switch root {
	case "absent":
		return s.absentID(), nil
	case "absentNumber":
		return s.absentNumber(), nil
	case "otp":
		return s.otp()
	case "wrongOtp":
		return s.wrongOTP()
	case "sortby":
		field, dir, _ := strings.Cut(rest, ".")
		conv := s.env.cfg.Fixture.Conventions.Sortby
		if !conv.Declared() {
			return "", missing("conventions.sortby")
		}
		if field == "" || (dir != "ascending" && dir != "descending") {
			return "", fmt.Errorf("placeholder {sortby.%s}: want {sortby.FIELD.ascending} or {sortby.FIELD.descending}", rest)
		}
		return conv.Key(field, dir == "descending"), nil
	case "saved":
		name, path, _ := strings.Cut(rest, ".")
		v, err := s.savedAs(name)
		if err != nil {
			return "", err
		}
		if path != "" {
			v = gjson.Parse(v.Raw).Get(path)
			if !v.Exists() {
				return "", fmt.Errorf("saved value %q has no %q: %s", name, path, s.clip(v.Raw))
			}
		}
		return value(v), nil
	}
	if err := s.env.goneRecord(key); err != nil {
		return "", err
	}
	v := s.env.fixture.Get(key)
	if !v.Exists() || (v.Type == gjson.String && v.Str == "") || (v.IsArray() && len(v.Array()) == 0) {
		return "", missing(key)
	}
	return value(v), nil
}

func value(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	return v.Raw
}

// absentID is a random version-4 uuid, the same for the whole scenario.
func (s *state) absentID() string {
	if v, ok := s.saved["\x00absent"]; ok {
		return v.Str
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	id := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	s.saved["\x00absent"] = gjson.Result{Type: gjson.String, Str: id}
	return id
}

// absentNumber is a random int64 id between 2^62 and 2^62+2^56, the same
// for the whole scenario: far beyond the ids an implementation issues one
// after another, and clear of the int64 maximum.
func (s *state) absentNumber() string {
	if v, ok := s.saved["\x00absentNumber"]; ok {
		return v.Raw
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	n := int64(1) << 62
	for i, c := range b[:7] { // 56 random bits below bit 61
		n |= int64(c) << (8 * i)
	}
	v := fmt.Sprint(n)
	s.saved["\x00absentNumber"] = gjson.Result{Type: gjson.Number, Raw: v, Num: float64(n)}
	return v
}

func (s *state) otp() (string, error) {
	sf := s.env.cfg.Fixture.SecondFactor
	if sf.OTP != "" {
		return sf.OTP, nil
	}
	if sf.TOTPSecret == "" {
		return "", missing("secondFactor.totpSecret (or secondFactor.otp)")
	}
	code, err := totp.Generate(sf.TOTPSecret, time.Now())
	if err != nil {
		return "", fmt.Errorf("fixture secondFactor.totpSecret: %w", err)
	}
	// a code made from the TOTP secret is a credential too, for as long as
	// it is valid: the scenario's records redact it from now on
	secrets := maps.Clone(s.env.secrets)
	secrets[code] = "<OTP>"
	s.red = redact.With(secrets)
	return code, nil
}

// wrongOTP is a one-time password of the valid one's form (as many
// digits) that is not valid now: the first of 000000, 111111, ... 999999
// that is neither the fixture's static code nor one its TOTP secret makes
// within five minutes either side. It is chosen apart from the valid code,
// so that a report showing it tells nothing of that code.
func (s *state) wrongOTP() (string, error) {
	sf := s.env.cfg.Fixture.SecondFactor
	code, err := s.otp()
	if err != nil {
		return "", err
	}
	now := time.Now()
	for d := '0'; d <= '9'; d++ {
		c := strings.Repeat(string(d), len(code))
		if c != code && (sf.OTP != "" || !totp.Verify(sf.TOTPSecret, c, now, 10)) {
			return c, nil
		}
	}
	return "", fixtureShort("no code of %d repeated digits is wrong now for secondFactor", len(code))
}

// redactor is the scenario's redactor: the run's, or one that also knows
// the one-time passwords the scenario made.
func (s *state) redactor() *redact.Redactor {
	if s.red != nil {
		return s.red
	}
	return s.env.redactor
}

var pathParam = regexp.MustCompile(`\{([^{}]+)\}`)

// resolve finds the method and path template of an operation: from the
// catalogue for the placed operations, from the fixture for the others.
func (s *state) resolve(opID registry.OpID) (method, path string, fixtureBody map[string]any, err error) {
	op, ok := s.env.cat.Operation(string(opID))
	if !ok {
		return "", "", nil, fmt.Errorf("unknown operation %q (known: %s)", opID, strings.Join(s.env.cat.OperationIDs(), ", "))
	}
	if op.Path != "" {
		return op.Method, op.Path, nil, nil
	}
	placed, ok := s.env.cfg.Fixture.Operations[op.FixtureKey]
	if !ok {
		return "", "", nil, notPlaced(opID, op.FixtureKey)
	}
	return strings.ToUpper(placed.Method), placed.Path, placed.Body, nil
}

// do sends c and records the exchange as the scenario's last response.
func (s *state) do(ctx context.Context, c call) error {
	if s.skipped != nil {
		return s.skipped
	}
	if !s.env.cfg.Fixture.Supports(string(c.op)) {
		if s.op == "" {
			// the scenario's first operation is of a profile not claimed
			return unsupportedSkip(c.op, s.env.cfg.Fixture)
		}
		p := registry.Must(c.op).Profile
		return &skip{reason: fmt.Sprintf("%s needs %s, of profile %s, which the fixture does not claim", s.op, c.op, p)}
	}
	method, tmpl, _, err := s.resolve(c.op)
	if err != nil {
		return err
	}
	if s.op == "" {
		s.op = c.op
	}
	params := map[string]string{}
	for k, v := range c.params {
		if params[k], err = s.interpolate(v); err != nil {
			return err
		}
	}
	var missingParam error
	used := map[string]bool{}
	path := pathParam.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := strings.Trim(m, "{}")
		v, ok := params[name]
		if !ok {
			// a path's last parameter also takes the value given as "id"
			name = "id"
			v, ok = params[name]
		}
		if !ok {
			missingParam = fmt.Errorf("%s needs path parameter %s", c.op, m)
			return m
		}
		used[name] = true
		return url.PathEscape(v)
	})
	if missingParam != nil {
		return missingParam
	}
	for name := range used {
		delete(params, name)
	}
	q := url.Values{}
	for _, k := range c.order {
		if v, ok := params[k]; ok {
			q.Add(k, v)
		}
	}
	u := s.env.cfg.BaseURL + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var body []byte
	if c.hasBody {
		text := c.body
		if !c.rawBody {
			if text, err = s.interpolate(text); err != nil {
				return err
			}
		}
		body = []byte(text)
	}
	return s.send(ctx, c.op, method, u, body, c.hasBody, c.contentType)
}

// send sends one request and records the exchange as the scenario's last
// response. It sends nothing to an operation that changes state in a
// read-only run. A request that gets no HTTP answer is sent once more when
// it is a read (GET, or the E2 poll), the retry recorded; when it still
// gets none, the step ends with noAnswer, which makes the scenario an
// error. An answer past a bound of the runner ends the step with a skip
// naming the flag that raises the bound.
func (s *state) send(ctx context.Context, op registry.OpID, method, u string, body []byte, hasBody bool, contentType string) error {
	if !s.sentBefore(op, method, u, body) {
		// a request other than one the scenario sent before and a check
		// sends again: the step must have declared its operation
		if err := s.turn.mayCall(op, s.step); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return &ended{why: context.Cause(ctx).Error()}
	}
	if s.env.cfg.ReadOnly && changesState(op) {
		return readOnlySkip(op)
	}
	write := !isRead(op, method)
	documents503 := slices.Contains(registry.Must(op).Statuses, http.StatusServiceUnavailable)
	for attempt := 0; ; attempt++ {
		// the pace waits out a rate-limited answer and sends the request
		// again; the scenario sees the answer that was not limited
		err := s.env.pace.Do(ctx, write, documents503, func() (int, http.Header, error) {
			if err := s.exchange(ctx, op, method, u, body, hasBody, contentType); err != nil {
				return 0, nil, err
			}
			return s.status, s.header, nil
		})
		if errors.Is(err, pace.ErrWaitsRanOut) {
			return &waitedOut{what: method + " " + s.redactor().String(u), err: err}
		}
		if err != nil && ctx.Err() != nil && errors.Is(err, context.Cause(ctx)) {
			return &ended{why: context.Cause(ctx).Error()}
		}
		if err == nil {
			if s.unshaped {
				return nil
			}
			return s.checkShape()
		}
		var na *noAnswer
		if !errors.As(err, &na) || ctx.Err() != nil {
			return err
		}
		if attempt == 0 && isRead(op, method) {
			s.retries++
			continue
		}
		na.retried = attempt > 0
		// only a request that got no answer at all, retry included,
		// counts towards taking the target for dead: a read dropped once
		// and answered on its retry is a flaky target, not a dead one
		s.env.watch.NoAnswer()
		return na
	}
}

// sentBefore reports whether the request is one a check may send again
// without declaring it: the scenario's last, or a read whose answer it
// saved, whose step declared it.
func (s *state) sentBefore(op registry.OpID, method, u string, body []byte) bool {
	if s.lastSent.is(op, method, u, body) {
		return true
	}
	for _, l := range s.savedSent {
		if l.is(op, method, u, body) {
			return true
		}
	}
	return false
}

// again sends a request of the scenario once more (its last, or a read
// whose answer it saved), under the Content-Type contentType: it touches
// what that request touched, so a step sending it again declares nothing
// new (send lets it through).
func (s *state) again(ctx context.Context, l sent, contentType string) error {
	return s.send(ctx, l.op, l.method, l.url, l.body, l.hasBody, contentType)
}

// isRead reports whether a request only reads, so that it may be sent
// again after a transport error: a GET, or a call of an operation the
// registry says changes nothing (the E2 poll, a POST).
func isRead(op registry.OpID, method string) bool {
	if method == http.MethodGet {
		return true
	}
	o, ok := registry.Lookup(string(op))
	return ok && !o.ChangesState
}

// exchange makes one request and records it. It returns nil with the
// answer in s.status, s.header and s.body (the run's watch told of the
// answer); a *noAnswer when no HTTP answer came; a skip for a refusal
// of the read-only guard or an answer past the runner's bounds; and a
// failure when the run's context ended.
func (s *state) exchange(ctx context.Context, op registry.OpID, method, u string, body []byte, hasBody bool, contentType string) error {
	runCtx := ctx
	ctx, cancel := context.WithTimeout(ctx, s.env.cfg.RequestTimeout)
	defer cancel()
	var rd io.Reader
	if hasBody {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("building %s %s: %w", method, s.redactor().String(u), err)
	}
	if err := s.authenticate(req); err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if hasBody && contentType != noContentType {
		if contentType == "" {
			contentType = jsonPatch
		}
		req.Header.Set("Content-Type", contentType)
	}
	s.lastOp, s.lastReq = op, req
	s.lastSent = sent{op: op, method: method, url: u, body: body, hasBody: hasBody}
	s.status, s.header, s.body = 0, nil, nil
	ex := reports.Exchange{Method: method, URL: s.redactor().String(u), RequestHeaders: s.redactor().Headers(req.Header)}
	ex.RequestBody, ex.Truncated = s.env.keep(s.redactor(), body)
	what := method + " " + ex.URL
	start := time.Now()
	resp, err := s.env.client.Do(req)
	if err != nil {
		ex.Error = s.redactor().String(err.Error())
		ex.Duration = reports.Duration(time.Since(start))
		s.record(ex)
		switch {
		case errors.Is(err, ErrReadOnly):
			return readOnlySkip(op)
		case runCtx.Err() != nil:
			return &ended{why: context.Cause(runCtx).Error()}
		case headersTooLong(err):
			return runnerLimit("the answer to %s has more header bytes than the runner reads (%s): --max-header raises the bound", what, sizeText(s.env.cfg.MaxResponseHeader))
		}
		return &noAnswer{what: what, err: ex.Error + timeoutHint(ctx, s.env.cfg.RequestTimeout)}
	}
	defer resp.Body.Close()
	data, err := s.env.readBody(resp.Body)
	ex.Duration = reports.Duration(time.Since(start))
	ex.Status = resp.StatusCode
	ex.ResponseHeaders, ex.ResponseHeadersDropped = s.env.keepHeaders(s.redactor(), resp.Header)
	var cut bool
	ex.ResponseBody, cut = s.env.keep(s.redactor(), data)
	ex.Truncated = ex.Truncated || cut
	if err != nil {
		// the answer broke off: no whole HTTP answer came
		ex.Error = s.redactor().String("the body broke off: " + err.Error())
		s.record(ex)
		if runCtx.Err() != nil {
			return &ended{why: context.Cause(runCtx).Error()}
		}
		return &noAnswer{what: what, err: ex.Error + timeoutHint(ctx, s.env.cfg.RequestTimeout)}
	}
	s.record(ex)
	s.env.watch.Answered()
	if int64(len(data)) > s.env.cfg.MaxResponseBody {
		return runnerLimit("the answer to %s is longer than the runner reads (%s): --max-body raises the bound", what, sizeText(s.env.cfg.MaxResponseBody))
	}
	s.status, s.header, s.body = resp.StatusCode, resp.Header, data
	s.answers = append(s.answers, heard{op: op, user: callerName(s.user), status: resp.StatusCode, ownKey: !s.noKey && s.fakeKey == ""})
	return nil
}

// sizeText writes a byte count as the flags take it: "4MiB", "64KiB",
// "1000".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprint(n)
}

// headersTooLong reports whether err is net/http's refusal of response
// headers longer than the transport's MaxResponseHeaderBytes. The standard
// library has no sentinel for it; its message is the only sign.
func headersTooLong(err error) bool {
	return strings.Contains(err.Error(), "server response headers exceeded")
}

// timeoutHint names --timeout when the exchange ran out of its time.
func timeoutHint(ctx context.Context, d time.Duration) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf(" (no answer within --timeout %s)", d)
	}
	return ""
}

// record keeps ex as the scenario's last exchange. Past
// reports.MaxExchanges, ex takes the last place, so the last exchange kept
// is the last made, the one a failure is most often about.
func (s *state) record(ex reports.Exchange) {
	if len(s.exchanges) >= reports.MaxExchanges {
		s.exchanges[len(s.exchanges)-1] = ex
		s.dropped++
		return
	}
	s.exchanges = append(s.exchanges, ex)
}

// authenticate adds the subscription key and the user's headers.
func (s *state) authenticate(req *http.Request) error {
	f := s.env.cfg.Fixture
	key := f.SubscriptionKey
	name := s.user
	if name == "" {
		name = defaultUser
	}
	u, ok := f.Users[name]
	if !ok && s.user != "" {
		return missing("users." + s.user)
	}
	if u.SubscriptionKey != "" {
		key = u.SubscriptionKey
	}
	for k, v := range u.Headers {
		switch s.identity {
		case identityLeftOut:
			continue
		case identityUnissued:
			// the scheme kept ("Bearer x"), the credential never issued
			scheme, _, found := strings.Cut(v, " ")
			v = "campusconf-unissued-" + s.absentID()[:8]
			if found {
				v = scheme + " " + v
			}
		}
		req.Header.Set(k, v)
	}
	if s.fakeKey != "" {
		key = s.fakeKey
	}
	if !s.noKey && key != "" {
		req.Header.Set(wire.KeyHeader, key)
	}
	return nil
}

// defaultUser is the fixture user every scenario calls as unless it says
// otherwise.
const defaultUser = "owner"

// clip returns text, secrets redacted, cut for a failure message. Secrets
// go first, so that no part of one survives the cut.
func (s *state) clip(text string) string {
	return clip(s.redactor().Prefix([]byte(text), 4096))
}

func clip(s string) string {
	const max = 300
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// readBody reads at most MaxResponseBody+1 bytes of body. The bytes go
// through a buffer reused across exchanges, so a target that sends an
// endless body or a gzip bomb every time leaves no garbage of megabytes per
// exchange; a body within the cap is copied out at its own size.
func (e *env) readBody(body io.Reader) ([]byte, error) {
	bp := e.bodies.Get().(*[]byte)
	defer e.bodies.Put(bp)
	buf := *bp
	n := 0
	var err error
	for n < len(buf) && err == nil {
		var k int
		k, err = body.Read(buf[n:])
		n += k
		if n == len(buf) && int64(len(buf)) < e.cfg.MaxResponseBody+1 {
			// grow towards the cap only for a body that needs it
			bigger := make([]byte, min(2*int64(len(buf)), e.cfg.MaxResponseBody+1))
			copy(bigger, buf[:n])
			buf, *bp = bigger, bigger
		}
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return bytes.Clone(buf[:n]), err
}

// keep returns the part of a body a report keeps: secrets replaced first,
// so that no part of one survives a cut, then cut at reports.MaxBody, or
// at reports.LeanBody once the run has kept reports.MaxKept bytes.
func (e *env) keep(red *redact.Redactor, body []byte) (string, bool) {
	limit := reports.MaxBody
	if e.kept.Load() > reports.MaxKept {
		limit = reports.LeanBody
	}
	// redacting all of a 4 MiB body to keep its first 16 KiB is waste
	kept, cut := reports.TruncateBodyAt([]byte(red.Prefix(body, 4*limit+4096)), limit)
	e.kept.Add(int64(len(kept)))
	return kept, cut || len(body) > 4*limit+4096
}

// keepHeaders returns the response headers a report keeps (see
// redact.Redactor.ResponseHeaders) and how many fields it dropped or cut.
func (e *env) keepHeaders(red *redact.Redactor, h http.Header) (map[string]string, int) {
	names := reports.MaxHeaders
	if e.kept.Load() > reports.MaxKept {
		names = reports.LeanHeaders
	}
	kept, dropped := reports.ResponseHeaders(red, h, names)
	for k, v := range kept {
		e.kept.Add(int64(len(k) + len(v)))
	}
	return kept, dropped
}
