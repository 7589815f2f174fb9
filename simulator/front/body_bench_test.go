package front

import (
	"fmt"
	"strings"
	"testing"
)

// largeBody is a body of a thousand objects of four fields, about 100 KB.
func largeBody() string {
	var large strings.Builder
	large.WriteString(`{"questions":[`)
	for i := range 1000 {
		if i > 0 {
			large.WriteByte(',')
		}
		fmt.Fprintf(&large, `{"id":"%08d-0000-4000-8000-000000000000","text":"question %d","mark":%d,"publish":true}`, i, i, i)
	}
	large.WriteString(`]}`)
	return large.String()
}

// BenchmarkParseBody decodes a small body and a large one (largeBody)
// without HTTP around it.
func BenchmarkParseBody(b *testing.B) {
	for _, tt := range []struct{ name, body string }{
		{"small", `{"resourceID":"0f8fad5b-d9cb-469f-a165-70867728950e","publish":true}`},
		{"large", largeBody()},
	} {
		b.Run(tt.name, func(b *testing.B) {
			data := []byte(tt.body)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parseBody(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDuplicateKey is the duplicate-name check alone on the large
// body of BenchmarkParseBody.
func BenchmarkDuplicateKey(b *testing.B) {
	data := []byte(largeBody())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, dup := duplicateKey(data); dup {
			b.Fatal("duplicate")
		}
	}
}
