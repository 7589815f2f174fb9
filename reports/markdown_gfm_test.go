package reports

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// The Markdown outputs are rendered with goldmark and its GFM extension
// (tables, strikethrough, autolinks, task lists), raw HTML let through as
// GitHub lets its safe part through: goldmark is a CommonMark-compliant,
// dependency-free renderer whose GFM extension follows GitHub's
// specification, so what it reads as an element is what a pull-request
// comment or a job summary would show.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))

// hostile is the i-th text an adversary chose: every Markdown and HTML
// construct that could add an element (a table cell, a link, an image, a
// heading, a list, raw HTML, an autolink, code, emphasis), and newlines.
func hostile(i int) string {
	return fmt.Sprintf("h%d | cell | `code` ``x`` [link](http://e.test/%d) ![img](http://e.test/i.png) <img src=x onerror=alert(1)> <a href=http://e.test>a</a>\n# heading\n- item\n| a | b |\n|---|---|\n*em* _em_ **b** ~~s~~ www.e.test https://e.test/x m@e.test $x^2$ &lt;img&gt; \\| \\\\| <script>x</script>\r\x1b[31m\u202e |", i, i)
}

// benign is the i-th text an honest run would hold.
func benign(i int) string { return fmt.Sprintf("plain text number %d", i) }

// setStrings replaces every string v holds (fields, elements, map keys and
// values, typed strings included) by text(i), i counting the strings in
// the order of the walk, so two walks of one value give strings that are
// equal exactly where the other walk's are.
func setStrings(v any, text func(int) string) {
	n := 0
	var walk func(reflect.Value) reflect.Value
	walk = func(v reflect.Value) reflect.Value {
		switch v.Kind() {
		case reflect.String:
			n++
			out := reflect.New(v.Type()).Elem()
			out.SetString(text(n))
			return out
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if f := v.Field(i); f.CanSet() {
					f.Set(walk(f))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				if e := v.Index(i); e.CanSet() {
					e.Set(walk(e))
				}
			}
		case reflect.Map:
			if v.IsNil() {
				return v
			}
			out := reflect.MakeMapWithSize(v.Type(), v.Len())
			keys := v.MapKeys()
			slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
			for _, k := range keys {
				val := reflect.New(v.Type().Elem()).Elem()
				val.Set(v.MapIndex(k))
				nk := reflect.New(k.Type()).Elem()
				nk.Set(k)
				out.SetMapIndex(walk(nk), walk(val))
			}
			return out
		}
		return v
	}
	walk(reflect.ValueOf(v))
}

var tagRE = regexp.MustCompile(`<(/?[a-zA-Z][a-zA-Z0-9]*)`)

// elements renders Markdown with GFM and lists its HTML elements, opening
// and closing, in order.
func elements(t *testing.T, md []byte) ([]string, string) {
	t.Helper()
	var out bytes.Buffer
	if err := gfm.Convert(md, &out); err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, m := range tagRE.FindAllStringSubmatch(out.String(), -1) {
		tags = append(tags, m[1])
	}
	return tags, out.String()
}

// TestMarkdownOutputsInjectNothing: every Markdown output (summary.md of
// a run, the diff of two reports, the traffic report's summary.md) renders,
// with every text it did not write itself made hostile, to exactly the
// elements it renders to with plain text there: no cell, link, image,
// heading, list or HTML element is added. The hostile texts come from a
// target's answers, a fixture's implementation section, and for the diff
// a report file anyone may have written.
func TestMarkdownOutputsInjectNothing(t *testing.T) {
	outputs := []struct {
		name  string
		write func(text func(int) string) []byte
	}{
		{"summary.md", func(text func(int) string) []byte {
			r := sampleReport()
			Finalize(r)
			r.Apps = sampleApps()
			setStrings(r, text)
			return written(t, WriteMarkdown, r)
		}},
		{"diff.md", func(text func(int) string) []byte {
			base := diffReport(diffTool, diffReqs, map[string]Outcome{"A": Passed, "B": Failed, "C": Passed, "D": Failed, "F": Passed, "H": Passed})
			head := diffReport(diffTool, map[string]Strictness{"A": Must, "B": Must, "C": Should, "D": Must, "E": Must, "G": Must, "H": Must},
				map[string]Outcome{"A": Failed, "B": Passed, "C": Failed, "D": Failed, "E": Failed, "G": Skipped, "H": Unsupported})
			head.Gate = sampleReport().Gate
			head.Apps = sampleApps()
			d := CompareReports(base, head)
			d.Base.File, d.Head.File = "base/report.json", "head/report.json"
			d.Warnings = append(d.Warnings, "a warning")
			setStrings(&d, text)
			return written(t, WriteDiffMarkdown, d)
		}},
		{"traffic summary.md", func(text func(int) string) []byte {
			tr := sampleTraffic()
			setStrings(tr, text)
			return written(t, WriteTrafficMarkdown, tr)
		}},
	}
	for _, o := range outputs {
		t.Run(o.name, func(t *testing.T) {
			want, plain := elements(t, o.write(benign))
			md := o.write(hostile)
			got, page := elements(t, md)
			if !slices.Equal(got, want) {
				t.Errorf("hostile texts changed the elements of %s:\n  with plain texts: %v\n  with hostile ones: %v\nMarkdown:\n%s\nHTML:\n%s", o.name, want, got, md, page)
			}
			for _, tag := range []string{"<img", "<a ", "<script", "<h1"} {
				if strings.Contains(page, tag) && !strings.Contains(plain, tag) {
					t.Errorf("%s: hostile texts rendered %s…>", o.name, tag)
				}
			}
			if !bytes.Contains(md, []byte("e.test")) {
				t.Errorf("%s: expected the hostile texts in the output, found none: the test proves nothing", o.name)
			}
		})
	}
}
