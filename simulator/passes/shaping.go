package passes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/uuid"
	"github.com/campusconf/campusconf/simulator/listing"
	"github.com/campusconf/campusconf/simulator/switches"
	"github.com/campusconf/campusconf/simulator/variants"
)

// The variants that change how values are written, not which: a pass over
// every 2xx JSON answer, and the fixture file's records written as the
// variants write ids.

// shaper is the response-shaping pass of the variants that change how
// values are written, not which: each field keeps its meaning.
type shaper struct {
	omitFalse bool
	upper     bool
	offsets   bool
	extra     bool
	charset   bool
	nulls     bool
	absent    bool
	lowerDate bool
	signed    bool
}

// shaperOf is the shaping pass of the variants in force.
func shaperOf(v *switches.Variants) shaper {
	return shaper{omitFalse: v.Has(variants.OmitFalse), upper: v.Has(variants.UUIDUpper),
		offsets: v.Has(variants.LocalOffsets), extra: v.Has(variants.ExtraFields), charset: v.Has(variants.Charset),
		nulls: v.Has(variants.Nulls), absent: v.Has(variants.OptionalAbsent),
		lowerDate: v.Has(variants.DateLowerCase), signed: v.Has(variants.SignedLinks)}
}

func (sh shaper) any() bool {
	return sh.omitFalse || sh.upper || sh.offsets || sh.extra || sh.charset || sh.nulls || sh.absent || sh.lowerDate || sh.signed
}

// shapeAnswer is the shaping pass over an answer of op (answering): a
// non-empty 2xx JSON body is shaped, and a JSON answer declares its charset
// with the charset variant. It returns the body, shaped or not.
func (sh shaper) shapeAnswer(op registry.OpID, r *http.Request, h http.Header, status int, body []byte) []byte {
	isJSON := strings.HasPrefix(h.Get("Content-Type"), "application/json")
	if isJSON && status >= 200 && status < 300 && len(bytes.TrimSpace(body)) > 0 {
		body = shapeValue(body, sh)
		if sh.absent {
			body = withoutOptional(body, registry.Must(op).Record, populated(op, r))
		}
		if sh.extra {
			body = withExtraFields(body, r.URL.Path)
		}
		if sh.nulls {
			body = withNulls(body, registry.Must(op).Record)
		}
		if sh.signed {
			body = withSignedLinks(body)
		}
	}
	if isJSON && sh.charset {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	return body
}

// shapeValue rewrites a JSON text: false members left out, uuids in upper
// case, date-times at +08:00 with milliseconds. Text it cannot read is
// returned as it is.
func shapeValue(data []byte, sh shaper) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return data
	}
	out, err := marshal(sh.walk(v))
	if err != nil {
		return data
	}
	return out
}

var plus8 = time.FixedZone("+08:00", 8*3600)

func (sh shaper) walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if b, ok := e.(bool); ok && !b && sh.omitFalse {
				delete(x, k)
				continue
			}
			x[k] = sh.walk(e)
		}
	case []any:
		for i, e := range x {
			x[i] = sh.walk(e)
		}
	case string:
		if sh.upper && uuid.Valid(x) {
			return strings.ToUpper(x)
		}
		if (sh.offsets || sh.lowerDate) && len(x) >= 20 && x[4] == '-' && x[10] == 'T' {
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
				out := x
				if sh.offsets {
					out = t.In(plus8).Format("2006-01-02T15:04:05.000-07:00")
				}
				if sh.lowerDate {
					out = strings.ToLower(out) // t and z: RFC 3339 section 5.6
				}
				return out
			}
		}
	}
	return v
}

// withExtraFields adds "etag" and "links" to the record, or to each record
// of the list, the body holds. The etag depends on the record alone, so
// two pages of one list carry the same entries.
func withExtraFields(body []byte, path string) []byte {
	return editRecords(body, func(rec map[string]any) {
		raw, _ := marshal(rec)
		h := fnv.New64a()
		h.Write(raw)
		rec["etag"] = fmt.Sprintf("W/\"%016x\"", h.Sum64())
		rec["links"] = map[string]any{"collection": path}
	})
}

// editRecords applies edit to the record the body holds, or to each record
// of the list it holds. Text it cannot read is returned as it is.
func editRecords(body []byte, edit func(map[string]any)) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return body
	}
	switch x := v.(type) {
	case map[string]any:
		edit(x)
	case []any:
		for _, e := range x {
			if rec, ok := e.(map[string]any); ok {
				edit(rec)
			}
		}
	default:
		return body
	}
	out, err := marshal(v)
	if err != nil {
		return body
	}
	return out
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// withNulls writes every field of the record that the body leaves out as
// null, for the nulls variant: the way many serialisers write an absent
// optional value.
func withNulls(body []byte, record string) []byte {
	fields, _ := recordShape(record)
	if len(fields) == 0 {
		return body
	}
	return editRecords(body, func(rec map[string]any) {
		for _, f := range fields {
			if _, ok := rec[f]; !ok {
				rec[f] = nil
			}
		}
	})
}

// recordShape is what the project's OpenAPI document says of a record
// component: its properties, sorted, and those it marks required. A
// record it does not have has neither.
func recordShape(record string) (fields []string, required map[string]bool) {
	required = map[string]bool{}
	doc, err := openapi.Load()
	if err != nil || record == "" {
		return nil, required
	}
	ref := doc.Components.Schemas[record]
	if ref == nil || ref.Value == nil {
		return nil, required
	}
	for name := range ref.Value.Properties {
		fields = append(fields, name)
	}
	sort.Strings(fields)
	for _, f := range ref.Value.Required {
		required[f] = true
	}
	return fields, required
}

// withoutOptional leaves out of the record, or of each record of the list,
// the body holds every field the interface does not mark required, but
// those in keep, for the optional-absent variant.
func withoutOptional(body []byte, record string, keep map[string]bool) []byte {
	_, required := recordShape(record)
	if record == "" {
		return body
	}
	return editRecords(body, func(rec map[string]any) {
		for f := range rec {
			if !required[f] && !keep[f] {
				delete(rec, f)
			}
		}
	})
}

// populated are the fields the request's populate entities ask for: those
// a record keeps with optional-absent, as the registry declares what each
// entity of op fills.
func populated(op registry.OpID, r *http.Request) map[string]bool {
	asked := map[string]bool{}
	for _, e := range strings.Split(listing.RawQuery(r.URL.RawQuery).Get("populate"), ",") {
		asked[strings.ToLower(strings.TrimSpace(e))] = true
	}
	out := map[string]bool{}
	for _, p := range registry.Populates(op) {
		if asked[strings.ToLower(p.Entity)] {
			for _, m := range p.Filled() {
				out[m] = true
			}
		}
	}
	return out
}

// UpperUUIDs writes every uuid of a JSON text in upper case, as the
// uuid-upper variant answers them: text it cannot read is returned as it
// is.
func UpperUUIDs(data []byte) []byte { return shapeValue(data, shaper{upper: true}) }

// linkMembers are the members that hold links, which the signed-links
// variant signs.
var linkMembers = []string{"photo", "photoUrl", "mP4Url", "mP3Url", "viewerURL"}

// signature numbers the answers the signed-links variant signs: every
// answer's links carry another one.
var signature atomic.Uint64

// withSignedLinks adds a signature that differs in every answer to each
// link of the record or records the body holds, as pre-signed object-store
// links carry one (X-Signature and an expiry in the query).
func withSignedLinks(body []byte) []byte {
	sig := fmt.Sprintf("X-Signature=%016x&X-Expires=900", signature.Add(1)*0x9e3779b97f4a7c15)
	return editRecords(body, func(rec map[string]any) {
		for _, m := range linkMembers {
			if s, ok := rec[m].(string); ok && s != "" {
				sep := "?"
				if strings.Contains(s, "?") {
					sep = "&"
				}
				rec[m] = s + sep + sig
			}
		}
	})
}
