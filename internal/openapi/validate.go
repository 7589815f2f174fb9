package openapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/campusconf/campusconf/internal/rules"
)

// Problem is one way a response body departs from the document.
type Problem struct {
	// Pointer is the JSON pointer (RFC 6901) of the failing value in the
	// body, e.g. "/0/userMatricNo"; "" is the whole body. For a missing
	// required field it points where the field should be.
	Pointer string
	// Record is the component name of the innermost named record that holds
	// the failing value, e.g. "Attendance"; "" when the value is the body
	// itself or sits directly in an unnamed top-level array.
	Record string
	// Field is the name of the record property the failing value belongs to
	// (the array property for an item of an array); "" at the root.
	Field string
	// Rule is one of the Rule* constants.
	Rule string
	// Message says what was expected and what came back.
	Message string
}

func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(body)"
	}
	return fmt.Sprintf("%s [%s]: %s", ptr, p.Rule, p.Message)
}

// Validator checks response bodies against the responses the document gives
// each operation. It is immutable once built and safe for concurrent use.
type Validator struct {
	ops     map[string]*operation
	opIDs   []string
	records map[*openapi3.Schema]*record
	opts    []openapi3.SchemaValidationOption
	reqs    map[string]*requestSpec // by operation id (IDExtension), for CheckRequest
}

type operation struct {
	id        string
	responses map[string]*response // keyed as in the document: "200", "2XX", "default"
	statuses  []string             // document order is lost in kin-openapi's map: sorted
}

type response struct {
	schema *openapi3.Schema // nil: the response has no body
}

// record is a named object component of the document.
type record struct {
	name   string
	props  map[string]bool
	schema map[string]*openapi3.Schema // property name -> its schema
	lower  map[string]string           // lower-cased property name -> property name
	names  []string                    // sorted property names
}

// NewValidator builds a Validator over the embedded document (see Load).
func NewValidator() (*Validator, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	v := &Validator{
		ops:     make(map[string]*operation),
		records: make(map[*openapi3.Schema]*record),
		opts: append([]openapi3.SchemaValidationOption{
			openapi3.MultiErrors(),
			// VisitAsResponse is left out on purpose: the document declares
			// no writeOnly property, which is all it would check, and it
			// costs a sorted copy of the property names of every object.
		}, formatOptions()...),
	}
	if doc.Components != nil {
		for name, ref := range doc.Components.Schemas {
			s := ref.Value
			if s == nil || !s.Type.Is(openapi3.TypeObject) {
				continue
			}
			r := &record{name: name, props: make(map[string]bool), lower: make(map[string]string), schema: make(map[string]*openapi3.Schema)}
			for p, ps := range s.Properties {
				r.props[p] = true
				r.schema[p] = ps.Value
				r.lower[strings.ToLower(p)] = p
				r.names = append(r.names, p)
			}
			slices.Sort(r.names)
			v.records[s] = r
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			id := IDOf(op)
			if id == "" {
				return nil, fmt.Errorf("openapi: %s %s has no %s", method, path, IDExtension)
			}
			if _, dup := v.ops[id]; dup {
				return nil, fmt.Errorf("openapi: %s %q is used twice", IDExtension, id)
			}
			o := &operation{id: id, responses: make(map[string]*response)}
			for status, rr := range op.Responses.Map() {
				if Unlisted(rr) {
					continue // the simulator's answer, not the specification's
				}
				o.responses[status] = &response{schema: jsonSchema(rr.Value)}
				o.statuses = append(o.statuses, status)
			}
			slices.Sort(o.statuses)
			v.ops[id] = o
			v.opIDs = append(v.opIDs, id)
		}
	}
	slices.SortFunc(v.opIDs, compareNatural)
	v.reqs = buildRequests(doc)
	return v, nil
}

// jsonSchema returns the schema of a response's JSON body, or nil if the
// response has no body.
func jsonSchema(r *openapi3.Response) *openapi3.Schema {
	if r == nil {
		return nil
	}
	if mt := r.Content.Get("application/json"); mt != nil && mt.Schema != nil {
		return mt.Schema.Value
	}
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range r.Content {
			if !yield(k) {
				return
			}
		}
	}) {
		if mt := r.Content[key]; mt.Schema != nil && strings.Contains(key, "json") {
			return mt.Schema.Value
		}
	}
	return nil
}

// Operations returns every operation id (IDExtension) of the document: the numbered ones
// in numeric order (E1, E2, ..., E21), then the others alphabetically.
func (v *Validator) Operations() []string { return slices.Clone(v.opIDs) }

// RecordOf names the record the response of opID with the given status
// carries, and whether the body is an array of it. Bodies that are not
// records (an integer count, an array of uuids, an error string, no body)
// give "" (with isArray true for an array).
func (v *Validator) RecordOf(opID string, status int) (name string, isArray bool) {
	op := v.ops[opID]
	if op == nil {
		return "", false
	}
	resp := op.lookup(status)
	if resp == nil || resp.schema == nil {
		return "", false
	}
	s := resp.schema
	if r := v.records[s]; r != nil {
		return r.name, false
	}
	if s.Type.Is(openapi3.TypeArray) {
		if s.Items != nil {
			if r := v.records[s.Items.Value]; r != nil {
				return r.name, true
			}
		}
		return "", true
	}
	return "", false
}

func (o *operation) lookup(status int) *response {
	code := strconv.Itoa(status)
	if r := o.responses[code]; r != nil {
		return r
	}
	if len(code) == 3 {
		if r := o.responses[code[:1]+"XX"]; r != nil {
			return r
		}
	}
	return o.responses["default"]
}

// Check validates body, the response of operation opID with HTTP status
// status, against the schema the document gives that response, and returns
// every problem found (nil when there is none), ordered by pointer.
//
// The operation is found by its id (IDExtension), never by a URL, so an
// implementation may place operations wherever it likes. An id the
// document does not have, or a status the operation does not document, gives
// a single Problem with Rule "status". A documented response without a body
// (204) accepts only an empty body.
func (v *Validator) Check(opID string, status int, body []byte) []Problem {
	op := v.ops[opID]
	if op == nil {
		return []Problem{{Rule: rules.RuleStatus, Message: fmt.Sprintf("expected an operation id of the document (E1..E21, GB, ES, NG, NR, QS), got %q", opID)}}
	}
	resp := op.lookup(status)
	if resp == nil {
		return []Problem{{Rule: rules.RuleStatus, Message: fmt.Sprintf("expected one of the statuses documented for %s (%s), got %d", opID, strings.Join(op.statuses, ", "), status)}}
	}
	trimmed := bytes.TrimSpace(body)
	if resp.schema == nil {
		if len(trimmed) > 0 {
			return []Problem{{Rule: rules.RuleType, Message: fmt.Sprintf("expected no body with status %d of %s, got %d bytes", status, opID, len(body))}}
		}
		return nil
	}
	if len(trimmed) == 0 {
		return []Problem{{Rule: rules.RuleType, Message: fmt.Sprintf("expected %s, got an empty body", v.describe(resp.schema))}}
	}
	value, err := decodeJSON(trimmed)
	if err != nil {
		return []Problem{{Rule: rules.RuleType, Message: fmt.Sprintf("expected %s, got a body that is not JSON (%v)", v.describe(resp.schema), err)}}
	}

	// An optional field may be absent, and many serialisers write an
	// absent value as null: a null member counts as absent, so it is
	// accepted where the field is optional and missing where required.
	value = dropNulls(value)
	var problems []Problem
	if err := resp.schema.VisitJSON(value, v.opts...); err != nil {
		problems = v.fromError(resp.schema, err, problems)
	}
	w := walker{v: v, path: make([]string, 0, 8)}
	w.walk(resp.schema, value, "", "")
	problems = append(problems, w.problems...)
	return tidy(problems)
}

// dropNulls removes object members whose value is null, at any depth.
func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = dropNulls(e)
		}
	case []any:
		for i, e := range t {
			t[i] = dropNulls(e)
		}
	}
	return v
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return value, nil
}

// tidy sorts problems by pointer (array indexes numerically) and rule, and
// drops repeats of the same rule at the same pointer.
func tidy(ps []Problem) []Problem {
	if len(ps) == 0 {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return cmp.Compare(a.Rule, b.Rule)
	})
	return slices.CompactFunc(ps, func(a, b Problem) bool {
		return a.Pointer == b.Pointer && a.Rule == b.Rule
	})
}

func comparePointers(a, b string) int {
	for a != "" && b != "" {
		var ta, tb string
		ta, a = nextToken(a)
		tb, b = nextToken(b)
		if c := compareNatural(ta, tb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func nextToken(p string) (tok, rest string) {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// compareNatural orders strings by their letters and then by the number
// that follows, so that "E2" < "E10" < "ES" and "/2" < "/10".
func compareNatural(a, b string) int {
	pa, na := splitNumber(a)
	pb, nb := splitNumber(b)
	if c := cmp.Compare(pa, pb); c != 0 {
		return c
	}
	if na >= 0 && nb >= 0 {
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
	}
	return cmp.Compare(a, b)
}

func splitNumber(s string) (prefix string, n int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return s, -1
	}
	n, _ = strconv.Atoi(s[i:])
	return s[:i], n
}

// fromError turns kin-openapi's errors into Problems.
func (v *Validator) fromError(root *openapi3.Schema, err error, out []Problem) []Problem {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			out = v.fromError(root, e, out)
		}
		return out
	}
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return append(out, Problem{Rule: rules.RuleType, Message: err.Error()})
	}
	path := se.JSONPointer()
	rec, field := v.locate(root, path)
	p := Problem{Pointer: pointer(path), Record: rec, Field: field}
	s := se.Schema
	switch se.SchemaField {
	case "type", "nullable":
		p.Rule = rules.RuleType
		p.Message = fmt.Sprintf("expected %s, got %s", v.describe(s), describeValue(se.Value))
	case "format":
		p.Rule = rules.RuleFormat
		reason := se.Reason
		if se.Origin != nil {
			if inner := errors.Unwrap(se.Origin); inner != nil {
				reason = inner.Error()
			}
		}
		p.Message = fmt.Sprintf("expected %s, got %s: %s", v.describe(s), describeValue(se.Value), reason)
	case "enum":
		if !typeMatches(s, se.Value) {
			p.Rule = rules.RuleType
			p.Message = fmt.Sprintf("expected %s, got %s", v.describe(s), describeValue(se.Value))
			break
		}
		p.Rule = rules.RuleEnum
		allowed, _ := json.Marshal(s.Enum)
		p.Message = fmt.Sprintf("expected one of %s, got %s", allowed, describeValue(se.Value))
	case "minimum", "exclusiveMinimum":
		p.Rule = rules.RuleMinimum
		p.Message = outOfBound(map[bool]string{false: "at least", true: "more than"}[s.ExclusiveMin.IsSet()], s.Min, se.Value)
	case "maximum", "exclusiveMaximum":
		p.Rule = rules.RuleMaximum
		p.Message = outOfBound(map[bool]string{false: "at most", true: "less than"}[s.ExclusiveMax.IsSet()], s.Max, se.Value)
	case "required":
		p.Rule = rules.RuleRequired
		name := ""
		if len(path) > 0 {
			name = path[len(path)-1]
		}
		holder := "the object"
		if r := v.records[s]; r != nil {
			holder = r.name
		}
		p.Message = fmt.Sprintf("expected field %q, which %s requires, got an object without it", name, holder)
	default:
		// The document uses none of the other keywords (pattern, minItems,
		// ...); should one appear, report it under the nearest rule.
		p.Rule = rules.RuleType
		switch {
		case strings.HasPrefix(se.SchemaField, "min"):
			p.Rule = rules.RuleMinimum
		case strings.HasPrefix(se.SchemaField, "max"):
			p.Rule = rules.RuleMaximum
		case se.SchemaField == "pattern":
			p.Rule = rules.RuleFormat
		}
		p.Message = fmt.Sprintf("expected a value satisfying %q, got %s: %s", se.SchemaField, describeValue(se.Value), se.Reason)
	}
	return append(out, p)
}

// outOfBound says a value broke a bound: "expected at most 3, got 4".
func outOfBound(bound string, b *float64, got any) string {
	return fmt.Sprintf("expected %s %s, got %s", bound, formatBound(b), describeValue(got))
}

func formatBound(b *float64) string {
	if b == nil {
		return "?"
	}
	return strconv.FormatFloat(*b, 'f', -1, 64)
}

// locate walks the raw (unescaped) path tokens through the schemas from root
// and returns the innermost named record holding the value at path and the
// property the value belongs to.
func (v *Validator) locate(root *openapi3.Schema, path []string) (rec, field string) {
	cur := root
	for _, tok := range path {
		if cur == nil {
			break
		}
		if r := v.records[cur]; r != nil {
			rec = r.name
		}
		var next *openapi3.SchemaRef
		switch {
		case cur.Type.Is(openapi3.TypeArray):
			next = cur.Items
		default:
			field = tok
			next = cur.Properties[tok]
		}
		cur = nil
		if next != nil {
			cur = next.Value
		}
	}
	return rec, field
}

// pointer renders raw path tokens as a JSON pointer.
func pointer(path []string) string {
	if len(path) == 0 {
		return ""
	}
	var b strings.Builder
	for _, tok := range path {
		b.WriteByte('/')
		b.WriteString(escapeToken(tok))
	}
	return b.String()
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escapeToken(tok string) string {
	if strings.ContainsAny(tok, "~/") {
		return tokenEscaper.Replace(tok)
	}
	return tok
}

// describe says in words what a schema expects.
func (v *Validator) describe(s *openapi3.Schema) string {
	if s == nil {
		return "a value"
	}
	if r := v.records[s]; r != nil {
		return "an object (" + r.name + ")"
	}
	var t string
	if s.Type != nil && len(*s.Type) > 0 {
		t = (*s.Type)[0]
	}
	switch t {
	case openapi3.TypeArray:
		if s.Items != nil && s.Items.Value != nil {
			if r := v.records[s.Items.Value]; r != nil {
				return "an array of " + r.name + " objects"
			}
			return "an array of " + strings.TrimPrefix(strings.TrimPrefix(v.describe(s.Items.Value), "an "), "a ")
		}
		return "an array"
	case "":
		return "a value"
	}
	d := t
	if s.Format != "" {
		d += " (" + s.Format + ")"
	}
	if t == openapi3.TypeInteger || t == openapi3.TypeObject {
		return "an " + d
	}
	return "a " + d
}

// describeValue says in words what came back.
func describeValue(x any) string {
	switch x := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case json.Number:
		return "number " + x.String()
	case float64:
		if math.Abs(x) >= 1e21 {
			return "number " + strconv.FormatFloat(x, 'g', -1, 64)
		}
		return "number " + strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		const max = 60
		if len(x) > max {
			return fmt.Sprintf("string %q...", x[:max])
		}
		return fmt.Sprintf("string %q", x)
	case []any:
		return fmt.Sprintf("an array of %d items", len(x))
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}

// typeMatches reports whether the JSON type of x is one s permits.
func typeMatches(s *openapi3.Schema, x any) bool {
	if s.Type == nil || len(*s.Type) == 0 {
		return true
	}
	switch x := x.(type) {
	case nil:
		return s.Nullable || s.Type.Permits(openapi3.TypeNull)
	case bool:
		return s.Type.Permits(openapi3.TypeBoolean)
	case json.Number:
		if s.Type.Permits(openapi3.TypeNumber) {
			return true
		}
		f, ok := new(big.Float).SetString(x.String())
		return ok && f.IsInt() && s.Type.Permits(openapi3.TypeInteger)
	case float64:
		return s.Type.Permits(openapi3.TypeNumber) || (s.Type.Permits(openapi3.TypeInteger) && x == math.Trunc(x))
	case string:
		return s.Type.Permits(openapi3.TypeString)
	case []any:
		return s.Type.Permits(openapi3.TypeArray)
	case map[string]any:
		return s.Type.Permits(openapi3.TypeObject)
	}
	return false
}

// walker goes through a body alongside its schema for what kin-openapi does
// not check: near-miss property names and integers beyond float64 precision.
// It keeps the path as a stack of raw tokens and renders a pointer only for
// a problem, since nearly every value it visits has none.
type walker struct {
	v        *Validator
	path     []string
	problems []Problem
}

func (w *walker) report(rec, field, rule, msg string) {
	w.problems = append(w.problems, Problem{
		Pointer: pointer(w.path), Record: rec, Field: field, Rule: rule, Message: msg,
	})
}

func (w *walker) walk(s *openapi3.Schema, x any, rec, field string) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		r := w.v.records[s]
		if r != nil {
			rec = r.name
			for key := range x {
				if r.props[key] {
					continue
				}
				if want, ok := r.nearMiss(key, x); ok {
					w.path = append(w.path, key)
					w.report(r.name, key, rules.RuleNearMiss,
						fmt.Sprintf("field %q is not a field of %s; did you mean %q?", key, r.name, want))
					w.path = w.path[:len(w.path)-1]
				}
			}
		}
		if len(s.Properties) == 0 {
			return
		}
		for key, val := range x {
			if p := s.Properties[key]; p != nil {
				w.path = append(w.path, key)
				w.walk(p.Value, val, rec, key)
				w.path = w.path[:len(w.path)-1]
			}
		}
	case []any:
		if s.Items == nil {
			return
		}
		for i, item := range x {
			w.path = append(w.path, strconv.Itoa(i))
			w.walk(s.Items.Value, item, rec, field)
			w.path = w.path[:len(w.path)-1]
		}
	case json.Number:
		if s.Type.Is(openapi3.TypeInteger) {
			if msg := checkIntegerText(s.Format, x.String()); msg != "" {
				w.report(rec, field, rules.RuleFormat,
					fmt.Sprintf("expected %s, got number %s: %s", w.v.describe(s), x, msg))
			}
		}
	}
}

// checkIntegerText checks an integer against its format exactly, on the
// number's text: kin-openapi sees it as a float64, which cannot tell
// 9223372036854775808 (one past int64) from 9223372036854775807.
// Non-integers are left to kin-openapi's "type" rule.
func checkIntegerText(format, text string) string {
	var lo, hi int64
	switch format {
	case "int32":
		lo, hi = math.MinInt32, math.MaxInt32
	case "int64":
		lo, hi = math.MinInt64, math.MaxInt64
	default:
		return ""
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		if n < lo || n > hi {
			return fmt.Sprintf("outside %d..%d", lo, hi)
		}
		return ""
	}
	f, ok := new(big.Float).SetPrec(256).SetString(text)
	if !ok || !f.IsInt() {
		return ""
	}
	if f.Cmp(new(big.Float).SetInt64(lo)) < 0 || f.Cmp(new(big.Float).SetInt64(hi)) > 0 {
		return fmt.Sprintf("outside %d..%d", lo, hi)
	}
	return ""
}

// nearMiss reports the property of r that key looks like a misspelling of:
// one equal to it ignoring case, or, for names of at least 5 characters, one
// within Levenshtein distance 2 (ignoring case). A look-alike whose intended
// property is present in the same object is an extra field, not a miss; so
// is one whose value could not be the property's (an object such as a
// populated "creator" is no misspelling of the uuid "creatorID").
func (r *record) nearMiss(key string, obj map[string]any) (string, bool) {
	lk := strings.ToLower(key)
	if p, ok := r.lower[lk]; ok {
		if _, present := obj[p]; !present && r.couldBe(p, obj[key]) {
			return p, true
		}
		return "", false
	}
	if len(key) < 5 {
		return "", false
	}
	best, bestD := "", 3
	for _, p := range r.names {
		if len(p) < 5 || abs(len(p)-len(key)) >= bestD {
			continue
		}
		if d := levenshtein(lk, strings.ToLower(p)); d < bestD {
			best, bestD = p, d
		}
	}
	if best == "" {
		return "", false
	}
	if _, present := obj[best]; present || !r.couldBe(best, obj[key]) {
		return "", false
	}
	return best, true
}

// couldBe reports whether x has a JSON type property p permits: only then
// can a member holding x be a misspelt p. A null fits any property.
func (r *record) couldBe(p string, x any) bool {
	s := r.schema[p]
	if s == nil || x == nil {
		return true
	}
	return typeMatches(s, x)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// levenshtein is the edit distance between a and b, byte-wise (property
// names are ASCII).
func levenshtein(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	var buf [64]int
	row := buf[:0]
	if len(b)+1 > len(buf) {
		row = make([]int, 0, len(b)+1)
	}
	for j := 0; j <= len(b); j++ {
		row = append(row, j)
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}
