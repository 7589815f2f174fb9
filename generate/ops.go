package generate

import (
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/rules"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/tidwall/gjson"
)

// opSpec is what the generator knows about one operation: where it lives
// (the catalogue, or the fixture for the unplaced ones), its parameters and
// request body (the OpenAPI document) and the ids that address records
// (the fixture).
type opSpec struct {
	id     registry.OpID
	method string
	// path is the template, parameters in braces.
	path       string
	pathParams []param
	query      []param
	// body is the request body schema; nil when the operation takes none.
	body *openapi3.Schema
	// fixedBody, when set, is sent as is and never varied: the body of an
	// operation the specification does not describe (the evaluation
	// session update) comes from the fixture.
	fixedBody map[string]any
	// statuses are the statuses the operation lists.
	statuses []int
	// writes is true when the operation may change or delete data.
	writes bool
}

// param is one path or query parameter.
type param struct {
	name   string
	schema *openapi3.Schema
	// accepted are the accepted entities of a populate parameter, read
	// from its description.
	accepted []string
	// ids are existing record ids the fixture gives for the parameter.
	ids []string
	// required says a valid request always carries it.
	required bool
	// fields are the field names of the operation's records, for sortby
	// when the fixture declares its syntax (conventions.sortby), and
	// sortby is that syntax.
	fields []string
	sortby fixtures.Sortby
	// sortable are the fields of scalar type among them, which an edge
	// request sorts by.
	sortable []string
}

// idSources gives, per operation and parameter or body member ("E9.id",
// "GB.iD_Weightage.key"), the fixture ids a valid request may address: the
// registry's IDs of each operation, looked up in the fixture. A location
// not listed gets ids no record has (still valid requests). Write
// operations only ever address what the fixture gives to be changed or
// deleted, so a generated run consumes nothing the scenarios keep.
func idSources(f *fixtures.File) map[string][]string {
	doc := gjson.ParseBytes(f.JSON())
	m := map[string][]string{}
	for _, o := range registry.All() {
		for where, key := range o.IDs {
			_, name, _ := strings.Cut(where, ".")
			var ids []string
			for _, e := range doc.Get(key).Array() { // a list, or one value
				if e.String() != "" {
					ids = append(ids, e.String())
				}
			}
			if len(ids) > 0 {
				m[string(o.ID)+"."+name] = ids
			}
		}
	}
	return m
}

// loadSpecs is buildSpecs over the embedded document and catalogue, with
// the catalogue and the validator a run judges answers with.
func loadSpecs(f *fixtures.File) (*features.Catalogue, *openapi.Validator, []*opSpec, error) {
	doc, err := openapi.Load()
	if err != nil {
		return nil, nil, nil, err
	}
	cat, err := features.Load()
	if err != nil {
		return nil, nil, nil, err
	}
	v, err := openapi.NewValidator()
	if err != nil {
		return nil, nil, nil, err
	}
	specs, err := buildSpecs(doc, cat, f)
	return cat, v, specs, err
}

// buildSpecs reads every operation the run can reach: placed ones from the
// catalogue, unplaced ones from the fixture (an operation the fixture does
// not place is left out).
func buildSpecs(doc *openapi3.T, cat *features.Catalogue, f *fixtures.File) ([]*opSpec, error) {
	byID := map[string]*openapi3.Operation{}
	for _, path := range doc.Paths.InMatchingOrder() {
		for _, op := range doc.Paths.Value(path).Operations() {
			byID[openapi.IDOf(op)] = op
		}
	}
	ids := idSources(f)
	var out []*opSpec
	for _, c := range cat.Operations {
		o := byID[c.ID]
		if o == nil {
			return nil, fmt.Errorf("operation %s is in the catalogue but not in the OpenAPI document", c.ID)
		}
		ro, ok := registry.Lookup(c.ID)
		if !ok {
			return nil, fmt.Errorf("operation %s is in the catalogue but not in the registry", c.ID)
		}
		s := &opSpec{id: ro.ID, method: c.Method, path: c.Path}
		if c.Path == "" {
			placed, ok := f.Operations[c.FixtureKey]
			if !ok || placed.Path == "" {
				continue
			}
			s.method, s.path = strings.ToUpper(placed.Method), placed.Path
			if ro.FixtureBody() {
				s.fixedBody = placed.Body
				if s.fixedBody == nil {
					s.fixedBody = map[string]any{}
				}
			}
		}
		s.writes = s.method != http.MethodGet
		for _, pr := range o.Parameters {
			p := pr.Value
			q := param{name: p.Name, schema: p.Schema.Value, ids: ids[c.ID+"."+p.Name], required: p.Required}
			switch p.Name {
			case "populate":
				q.accepted = rules.AcceptedValues(p.Description)
			case "sortby":
				if f.Conventions.Sortby.Declared() {
					q.fields, q.sortby = recordFields(o), f.Conventions.Sortby
					q.sortable = scalarFields(o)
				}
			}
			switch p.In {
			case "path":
				s.pathParams = append(s.pathParams, q)
			case "query":
				s.query = append(s.query, q)
			}
		}
		if s.fixedBody == nil && o.RequestBody != nil && o.RequestBody.Value != nil {
			if mt := o.RequestBody.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
				s.body = mt.Schema.Value
			}
		}
		for code, r := range o.Responses.Map() {
			if openapi.Unlisted(r) {
				continue // the simulator's 401: the specification lists no such status
			}
			if n, err := strconv.Atoi(code); err == nil {
				s.statuses = append(s.statuses, n)
			}
		}
		sort.Ints(s.statuses)
		out = append(out, s)
	}
	return out, nil
}

// recordFields names the fields of the records a 200 answer lists.
func recordFields(o *openapi3.Operation) []string {
	sc := recordSchema(o)
	if sc == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(sc.Properties))
}

// scalarFields names the fields of scalar type (string, number, integer,
// boolean) of the records a 200 answer lists.
func scalarFields(o *openapi3.Operation) []string {
	var out []string
	for _, name := range recordFields(o) {
		if sc := recordSchema(o); sc != nil {
			if p := sc.Properties[name]; p != nil && p.Value != nil && !p.Value.Type.Is(openapi3.TypeArray) && !p.Value.Type.Is(openapi3.TypeObject) {
				out = append(out, name)
			}
		}
	}
	return out
}

// recordSchema is the schema of the records a 200 answer holds.
func recordSchema(o *openapi3.Operation) *openapi3.Schema {
	r := o.Responses.Value("200")
	if r == nil || r.Value == nil {
		return nil
	}
	mt := r.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	sc := mt.Schema.Value
	if sc.Type.Is(openapi3.TypeArray) && sc.Items != nil {
		sc = sc.Items.Value
	}
	return sc
}

// pathParamRe matches one parameter of a path template.
var pathParamRe = regexp.MustCompile(`\{([^{}]+)\}`)

// pathFor fills the template with values; a template parameter without a
// value takes the one given as "id" (the fixture places unplaced
// operations with "{id}").
func (s *opSpec) pathFor(values map[string]string) string {
	return pathParamRe.ReplaceAllStringFunc(s.path, func(m string) string {
		name := strings.Trim(m, "{}")
		v, ok := values[name]
		if !ok {
			v = values["id"]
		}
		return escapePath(v)
	})
}

func (s *opSpec) lists(status int) bool {
	return slices.Contains(s.statuses, status)
}
