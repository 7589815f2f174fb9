package devserver

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// Examples of the docs' document: every path, query and body parameter
// of an operation's typical call (registry.Operation.Typical) and every
// input that names a record (registry.Operation.IDs) gets an example from
// this world's fixture, so "Try it out" addresses records that exist. The
// document `campusconf openapi` prints, and /openapi.json, keep their
// neutral form: these examples are this seed's.

// errNoExample is a placeholder with no value in the fixture (the
// suite's own: a saved answer, a one-time password, an absent id).
var errNoExample = errors.New("no example")

// withExamples sets the examples of f's world in doc, the parsed
// document, in place. A parameter or request body given by reference is
// copied inline first, so that a shared component keeps no world's value.
func withExamples(doc map[string]any, f *fixtures.File) {
	data := f.JSON()
	lookup := func(key string) (string, error) {
		if !strings.HasPrefix(key, "records.") && !strings.HasPrefix(key, "secondFactor.userid") && !strings.HasPrefix(key, "operations.") {
			return "", errNoExample
		}
		v := gjson.GetBytes(data, key)
		switch {
		case !v.Exists():
			return "", errNoExample
		case v.IsArray():
			first := v.Get("0")
			if !first.Exists() {
				return "", errNoExample
			}
			return first.String(), nil
		case v.IsObject():
			return v.Raw, nil
		}
		return v.String(), nil
	}
	components, _ := doc["components"].(map[string]any)
	sharedParams, _ := components["parameters"].(map[string]any)
	sharedBodies, _ := components["requestBodies"].(map[string]any)
	paths, _ := doc["paths"].(map[string]any)
	for _, item := range paths {
		item, _ := item.(map[string]any)
		for method, o := range item {
			o, ok := o.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			id, _ := o[openapi.IDExtension].(string)
			op, ok := registry.Lookup(id)
			if !ok {
				continue
			}
			values := exampleValues(op, lookup)
			setParamExamples(o, values, sharedParams)
			setParamExamples(item, values, sharedParams) // the path's own, shared by its operations
			if op.Typical.HasBody {
				body, err := registry.Fill(op.Typical.Body, lookup)
				var example any
				if err != nil || json.Unmarshal([]byte(body), &example) != nil {
					continue
				}
				rb, _ := o["requestBody"].(map[string]any)
				if ref, ok := rb["$ref"].(string); ok {
					rb, _ = sharedBodies[strings.TrimPrefix(ref, "#/components/requestBodies/")].(map[string]any)
				}
				if rb == nil {
					continue
				}
				rb = cloneMap(rb)
				content, _ := rb["content"].(map[string]any)
				content = cloneMap(content)
				for mt, m := range content {
					m, _ := m.(map[string]any)
					m = cloneMap(m)
					delete(m, "examples")
					m["example"] = example
					content[mt] = m
				}
				rb["content"] = content
				o["requestBody"] = rb
			}
		}
	}
}

// setParamExamples sets the example of each parameter of holder (an
// operation or a path item) that values has, on an inline copy.
func setParamExamples(holder map[string]any, values map[string]string, shared map[string]any) {
	params, _ := holder["parameters"].([]any)
	for i, p := range params {
		p, _ := p.(map[string]any)
		if ref, ok := p["$ref"].(string); ok {
			p, _ = shared[strings.TrimPrefix(ref, "#/components/parameters/")].(map[string]any)
		}
		name, _ := p["name"].(string)
		in, _ := p["in"].(string)
		v, ok := values[in+"."+strings.ToLower(name)]
		if !ok {
			continue
		}
		c := cloneMap(p)
		c["example"] = typed(v, c)
		params[i] = c
	}
}

// exampleValues are the values of op's typical call and of its inputs
// that name records, by "path.name", "query.name" (lower case).
func exampleValues(op registry.Operation, lookup func(string) (string, error)) map[string]string {
	out := map[string]string{}
	for where, key := range op.IDs {
		in, name, _ := strings.Cut(where, ".")
		if in != "path" && in != "query" {
			continue
		}
		if v, err := lookup(key); err == nil {
			out[in+"."+strings.ToLower(name)] = v
		}
	}
	for in, m := range map[string]map[string]string{"path": op.Typical.Params, "query": op.Typical.Query} {
		for name, text := range m {
			if v, err := registry.Fill(text, lookup); err == nil {
				out[in+"."+strings.ToLower(name)] = v
			}
		}
	}
	return out
}

// typed is v as the parameter's schema types it: a number for a numeric
// parameter, else the string.
func typed(v string, param map[string]any) any {
	schema, _ := param["schema"].(map[string]any)
	switch schema["type"] {
	case "integer", "number":
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	}
	return v
}

// cloneMap is a shallow copy of m (nil for nil).
func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
