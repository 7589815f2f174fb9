// Command harness decodes recorded answers with the clients ogen and
// oapi-codegen generated (packages ogenapi and oapiapi, next to it in the
// temporary module the campusconf test writes) and prints, as JSON, what
// each made of each answer. It is copied there by the test; it is not
// built as part of the campusconf module.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"

	"campusconf.test/harness/oapiapi"
	"campusconf.test/harness/ogenapi"
)

type answer struct {
	Op          string `json:"op"`
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
}

type result struct {
	Generator string          `json:"generator"`
	Op        string          `json:"op"`
	Status    int             `json:"status"`
	Type      string          `json:"type,omitempty"`
	Error     string          `json:"error,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

var generators = []struct {
	name   string
	decode func(string, *http.Response) (any, error)
}{
	{"ogen", ogenapi.Decode},
	{"oapi-codegen", oapiapi.Decode},
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	var answers []answer
	if err := json.Unmarshal(data, &answers); err != nil {
		fail(err)
	}
	var out []result
	for _, a := range answers {
		for _, g := range generators {
			out = append(out, decode(g.name, g.decode, a))
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

// decode gives a to one generated client and re-encodes what it decoded.
func decode(gen string, dec func(string, *http.Response) (any, error), a answer) (r result) {
	r = result{Generator: gen, Op: a.Op, Status: a.Status}
	defer func() {
		if p := recover(); p != nil {
			r.Error = fmt.Sprintf("panic: %v", p)
		}
	}()
	resp := &http.Response{
		StatusCode:    a.Status,
		Status:        strconv.Itoa(a.Status) + " " + http.StatusText(a.Status),
		Header:        http.Header{},
		Body:          io.NopCloser(strings.NewReader(a.Body)),
		ContentLength: int64(len(a.Body)),
	}
	if a.ContentType != "" {
		resp.Header.Set("Content-Type", a.ContentType)
	}
	v, err := dec(a.Op, resp)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if gen == "oapi-codegen" {
		// ParseXResponse keeps a typed body in the field JSON<status>
		// when the document lists the status; else only the raw bytes.
		f := reflect.ValueOf(v).Elem().FieldByName("JSON" + strconv.Itoa(a.Status))
		switch {
		case !f.IsValid() && a.Body == "":
			v = nil
		case !f.IsValid():
			r.Error = fmt.Sprintf("no typed body for status %d (only the raw response)", a.Status)
			return r
		case f.IsNil():
			r.Error = fmt.Sprintf("the typed body of status %d was left empty", a.Status)
			return r
		default:
			v = f.Interface()
		}
	}
	if v == nil && a.Body != "" {
		r.Error = "decoded to nothing"
		return r
	}
	r.Type = fmt.Sprintf("%T", v)
	if a.Body == "" {
		return r
	}
	b, err := json.Marshal(v)
	if err != nil {
		r.Error = "decoded, but not encodable again: " + err.Error()
		return r
	}
	r.Value = b
	return r
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "harness:", err)
	os.Exit(1)
}
