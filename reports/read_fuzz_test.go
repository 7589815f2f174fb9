package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadJSON: whatever report.json holds, ReadJSON returns a report or
// an error, never panics, and a report it accepts is written again by
// WriteJSON into a file it reads back to the same bytes. Plain `go test`
// runs the seeds; to fuzz:
//
//	go test ./reports -run '^$' -fuzz '^FuzzReadJSON$' -fuzztime 20s
func FuzzReadJSON(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "report.json.golden"))
	if err != nil {
		f.Fatal(err)
	}
	var sample bytes.Buffer
	if err := WriteJSON(&sample, sampleReport()); err != nil {
		f.Fatal(err)
	}
	for _, s := range [][]byte{
		golden, sample.Bytes(),
		[]byte(`{"schema":"campusconf.report/v1"}`),
		[]byte(`{"schema":"campusconf.report/v2"}`),
		[]byte(`{"schema":"campusconf.report/v1","durationMs":1e300}`),
		[]byte(`{"schema":"campusconf.report/v1","durationMs":null}`),
		[]byte(`{"schema":"campusconf.report/v1","durationMs":"5"}`),
		[]byte(`{"schema":"campusconf.report/v1","started":"2025-01-06T08:00:00+23:59"}`),
		[]byte(`{"schema":"campusconf.report/v1","scenarios":[{"exchanges":[{}]}],"counts":{"scenarios":-1}}`),
		[]byte(`{"schema":"campusconf.report/v1","options":{"a":"\ud800"}}`),
		[]byte(`{`), []byte(`null`), []byte(`[]`), []byte("\xff"), {},
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "report.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := ReadJSON(path)
		if err != nil {
			if r != nil {
				t.Fatalf("ReadJSON returned a report and the error %v", err)
			}
			return
		}
		var once bytes.Buffer
		if err := WriteJSON(&once, r); err != nil {
			t.Fatalf("a report ReadJSON accepts cannot be written: %v", err)
		}
		again, err := DecodeJSON(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("a written report does not read back: %v\n%s", err, once.Bytes())
		}
		twice := written(t, WriteJSON, again)
		if !bytes.Equal(once.Bytes(), twice) {
			t.Fatalf("a second round trip changed the report:\n%s\n%s", once.Bytes(), twice)
		}
	})
}
