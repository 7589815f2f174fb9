package reports

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	for _, name := range []string{JSONFile, JUnitFile, HTMLFile, MarkdownFile, CTRFFile} {
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

// TestWriteAllReplacesAnEarlierRunWhole: files of an earlier run and
// temporary files of an interrupted write are gone; other files stay; no
// temporary file is left.
func TestWriteAllReplacesAnEarlierRunWhole(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		JUnitFile: "old", MarkdownFile: "old",
		tempPrefix + "report.json.123.tmp": "half", "container.log": "keep",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := WriteAll(dir, sampleReport()); err != nil {
		t.Fatal(err)
	}
	got := dirFiles(t, dir)
	want := map[string]bool{"container.log": true, JSONFile: true, JUnitFile: true, HTMLFile: true, MarkdownFile: true, CTRFFile: true,
		ConformanceFile: true, BadgeFile: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	for _, f := range ReportFiles {
		b, _ := os.ReadFile(filepath.Join(dir, f.Name))
		if string(b) == "old" {
			t.Errorf("%s still holds the earlier run", f.Name)
		}
	}
}

// TestWriteAllFailingMidwayMixesNoRuns: when writing stops after two files,
// the directory holds those two files of the new run and nothing of the
// earlier one, and no temporary file.
func TestWriteAllFailingMidwayMixesNoRuns(t *testing.T) {
	dir := t.TempDir()
	earlier := sampleReport()
	if _, err := WriteAll(dir, earlier); err != nil {
		t.Fatal(err)
	}
	n := 0
	rename = func(from, to string) error {
		if n++; n > 2 {
			return errors.New("killed")
		}
		return os.Rename(from, to)
	}
	defer func() { rename = os.Rename }()
	if _, err := WriteAll(dir, &Report{Tool: Tool{Name: "second"}}); err == nil {
		t.Fatal("WriteAll: expected the injected error, got none")
	}
	got := dirFiles(t, dir)
	want := map[string]bool{JSONFile: true, JUnitFile: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	back, err := ReadJSON(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if back.Tool.Name != "second" {
		t.Errorf("report.json: expected the second run, got tool %q", back.Tool.Name)
	}
}

func dirFiles(t *testing.T, dir string) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Name()] = true
	}
	return got
}

// TestWriteAllKeepsEachFileUnderTheCap: a report whose exchanges come to
// far more than MaxReportFile is written with its bodies cut, every file
// under the cap, and a note in report.json and summary.md saying so.
func TestWriteAllKeepsEachFileUnderTheCap(t *testing.T) {
	r := sampleReport()
	body := strings.Repeat("\x01<&>", MaxBody/4) // escapes make it grow in every format
	var many []Scenario
	for i := 0; i < 30; i++ {
		s := Scenario{ID: fmt.Sprintf("big.feature:%d", i), Name: fmt.Sprintf("big %d", i), Operation: "E7", Requirements: []string{}, Strictness: Must, Outcome: Failed,
			Failure: &Failure{Requirements: []string{}, Message: "expected 200, got 500", Exchange: MaxExchanges - 1}}
		for j := 0; j < MaxExchanges; j++ {
			s.Exchanges = append(s.Exchanges, Exchange{Method: "GET", URL: "/x", Status: 500, RequestBody: body, ResponseBody: body,
				ResponseHeaders: map[string]string{"X-Big": strings.Repeat("h", MaxHeaderValue)}})
		}
		many = append(many, s)
	}
	r.Scenarios = append(r.Scenarios, many...)
	dir := t.TempDir()
	if _, err := WriteAll(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, f := range ReportFiles {
		st, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > MaxReportFile {
			t.Errorf("%s: expected at most %d bytes, got %d", f.Name, MaxReportFile, st.Size())
		}
	}
	back, err := ReadJSON(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Notes) == 0 || !strings.Contains(back.Notes[0], "MiB") {
		t.Errorf("report.json: expected a note on the cut, got %q", back.Notes)
	}
	md, _ := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if !strings.Contains(string(md), "Note: a report file would have been larger") {
		t.Errorf("summary.md: expected the note, got:\n%s", md)
	}
}
