package registry_test

import (
	"regexp"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/simulator"
)

// placeholderRe finds the fixture placeholders of a call.
var placeholderRe = regexp.MustCompile(`\{((?:records|operations|secondFactor|users)(?:\.[^{}\s"]*)?)\}`)

// TestAnOperationIsComplete holds each operation's row to what the rest of
// the project needs of it, and names the step of CONTRIBUTING.md ("Adding
// an operation") a missing piece belongs to: an id parameter (path, or a
// uuid in the query) the generated requests cannot address, a required
// query parameter the typical call leaves out, a fixture value a call or
// an id names that the simulator's fixture does not give (a record kind
// whose fixture key was not added). The other steps fail where they are
// forgotten: the catalogue and OpenAPI tests above, the simulator's route
// check, the features test, the kill matrix, the generated pages.
func TestAnOperationIsComplete(t *testing.T) {
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatalf("the simulator does not start (step 5, a handler and its route entry?): %v", err)
	}
	fx := gjson.ParseBytes(sim.Fixtures().JSON())
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]*openapiOp{}
	for _, item := range doc.Paths.Map() {
		for _, o := range item.Operations() {
			op := &openapiOp{}
			for _, p := range append(item.Parameters, o.Parameters...) {
				if p == nil || p.Value == nil || p.Value.Schema == nil || p.Value.Schema.Value == nil {
					continue
				}
				v := p.Value
				switch {
				case v.In == "path", v.In == "query" && v.Schema.Value.Format == "uuid":
					op.ids = append(op.ids, v.In+"."+v.Name)
				}
				if v.In == "query" && v.Required {
					op.required = append(op.required, v.Name)
				}
			}
			ops[openapi.IDOf(o)] = op
		}
	}
	resolves := func(key string) bool {
		v := fx.Get(key)
		return v.Exists() && v.String() != "" && (!v.IsArray() || len(v.Array()) > 0)
	}
	for _, o := range registry.All() {
		spec := ops[string(o.ID)]
		if spec == nil {
			continue // TestOpenAPIAgrees names it (step 4)
		}
		for _, id := range spec.ids {
			if _, ok := o.IDs[id]; !ok {
				t.Errorf("%s: step 1, its registry row: IDs has no entry for %s, so generated requests never address a record there", o.ID, id)
			}
		}
		for where, key := range o.IDs {
			if !resolves(key) {
				t.Errorf("%s: IDs[%q] names %s, which the simulator's fixture does not give: a new record kind's fixture key (fixtures/fixtures.go, fixtures/schema.json, simulator/ops/fixturefile.go, docs/fixtures.md)", o.ID, where, key)
			}
		}
		for _, name := range spec.required {
			if _, ok := o.Typical.Query[name]; !ok {
				t.Errorf("%s: step 1, its registry row: the typical call leaves out the required query parameter %s", o.ID, name)
			}
		}
		texts := []string{o.Typical.Body, o.LoadQuery, o.LoadBody}
		for _, c := range []*registry.Call{&o.Typical, o.Forbidden} {
			if c == nil {
				continue
			}
			texts = append(texts, c.Body)
			for _, m := range []map[string]string{c.Params, c.Query} {
				for _, v := range m {
					texts = append(texts, v)
				}
			}
		}
		for _, text := range texts {
			for _, m := range placeholderRe.FindAllStringSubmatch(text, -1) {
				if key := m[1]; !resolves(key) {
					t.Errorf("%s: a call of its registry row names {%s}, which the simulator's fixture does not give: a new record kind's fixture key (fixtures/fixtures.go, fixtures/schema.json, simulator/ops/fixturefile.go, docs/fixtures.md)", o.ID, key)
				}
			}
		}
	}
}

// openapiOp is what the OpenAPI document says of an operation's inputs:
// the parameters that name records, and the required query parameters.
type openapiOp struct {
	ids, required []string
}
