package reports

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "conformance-report")
	r := sampleReport()
	r.Verdict, r.Counts = "", Counts{} // WriteAll finalizes
	htmlPath, err := WriteAll(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, HTMLFile); htmlPath != want {
		t.Errorf("html path: got %q, want %q", htmlPath, want)
	}
	if !filepath.IsAbs(htmlPath) {
		t.Errorf("html path %q is not absolute", htmlPath)
	}
	for _, name := range []string{JSONFile, JUnitFile, HTMLFile, MarkdownFile} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if st.Size() == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	if r.Verdict != VerdictNotConformant {
		t.Errorf("WriteAll did not finalize the report: verdict %q", r.Verdict)
	}
	back, err := ReadJSON(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if back.Counts != r.Counts {
		t.Errorf("counts in report.json: got %+v, want %+v", back.Counts, r.Counts)
	}
	if _, err := WriteAll(dir, nil); err == nil {
		t.Error("WriteAll(nil): got no error")
	}
}
