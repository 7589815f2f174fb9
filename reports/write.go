package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// File names WriteAll uses inside the report directory.
const (
	JSONFile     = "report.json"
	JUnitFile    = "junit.xml"
	HTMLFile     = "report.html"
	MarkdownFile = "summary.md"
	CTRFFile     = "ctrf.json"
	// ConformanceFile is the submittable conformance report, BadgeFile
	// its status as an image for a README.
	ConformanceFile = "conformance-report.yaml"
	BadgeFile       = "badge.svg"
)

// ReportFile is one file of the report directory: its name and the writer
// that renders it from a finalized report.
type ReportFile struct {
	Name  string
	Write func(io.Writer, *Report) error
}

// ReportFiles are the files WriteAll writes, in the order it writes them.
// This is the one list of report files: a new format is one more entry
// here, and WriteAll renders it, bounds it, replaces the earlier run's copy
// and writes it whole like the others.
var ReportFiles = []ReportFile{
	{JSONFile, WriteJSON},
	{JUnitFile, WriteJUnit},
	{HTMLFile, WriteHTML},
	{MarkdownFile, WriteMarkdown},
	{CTRFFile, WriteCTRF},
	{ConformanceFile, WriteConformanceYAML},
	{BadgeFile, WriteBadge},
}

// tempPrefix starts the name of every temporary file WriteAll makes, so
// that leftovers of an interrupted write can be found and removed.
const tempPrefix = ".campusconf-"

// rename is os.Rename; a test replaces it to fail in the middle of a write.
var rename = os.Rename

// WriteAll finalizes r, creates dir if needed and writes the report files
// (ReportFiles: report.json, junit.xml, report.html, summary.md,
// ctrf.json, conformance-report.yaml, badge.svg) into it. It returns the absolute path of report.html, for the command to print.
//
// The directory never mixes runs and never holds a half-written file: every
// file is rendered in memory first (a render error leaves the directory as
// it was); then the report files of an earlier run and any temporary file
// an interrupted write left are removed; then each file is written to a
// temporary file in dir, synced to disk and renamed into place. A kill
// during the writing leaves whole files of this run and no file of the
// earlier one.
func WriteAll(dir string, r *Report) (htmlPath string, err error) {
	if r == nil {
		return "", fmt.Errorf("write reports: no report")
	}
	Finalize(r)
	// every format gets valid UTF-8; each writer escapes the rest its own
	// way (JSON and HTML escaping, XML-invalid characters in JUnit,
	// control characters made visible in Markdown)
	rewriteStrings(r, validUTF8, true)
	// A report whose exchanges alone pass half the cap is cut before it
	// is rendered; one that still renders past the cap is cut further.
	level := 0
	for ; level < len(fitLevels) && exchangeBytes(r) > MaxReportFile/2; level++ {
		fit(r, level)
	}
	var rendered map[string][]byte
	for {
		var err error
		limit := MaxReportFile
		if level == len(fitLevels) {
			limit = 0 // nothing left to cut: write what there is
		}
		rendered, err = render(r, limit)
		if errors.Is(err, errTooBig) {
			fit(r, level)
			level++
			continue
		}
		if err != nil {
			return "", err
		}
		break
	}
	names := make([]string, len(ReportFiles))
	for i, f := range ReportFiles {
		names[i] = f.Name
	}
	return replaceFiles(dir, "write reports", names, rendered)
}

// replaceFiles puts the rendered files (by name, written in the order of
// names) into dir, created if needed: the report files of an earlier run
// (and leftovers of an interrupted write) are removed first, then each
// file is written whole (writeAtomic) and the directory synced. It
// returns the absolute path of report.html; what starts its errors.
func replaceFiles(dir, what string, names []string, rendered map[string][]byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if err := removeEarlierRun(dir); err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	for _, name := range names {
		if err := writeAtomic(dir, name, rendered[name]); err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
	}
	syncDir(dir)
	htmlPath := filepath.Join(dir, HTMLFile)
	if abs, err := filepath.Abs(htmlPath); err == nil {
		htmlPath = abs
	}
	return htmlPath, nil
}

// render renders every report file of r, each at most limit bytes (0: no
// limit); past it, it fails with errTooBig.
func render(r *Report, limit int) (map[string][]byte, error) {
	rendered := make(map[string][]byte, len(ReportFiles))
	for _, f := range ReportFiles {
		w := &capWriter{max: limit}
		write := f.Write
		if json, ok := rendered[JSONFile]; ok && f.Name == ConformanceFile {
			// the digest of the report.json just rendered, not rendered again
			write = func(w io.Writer, r *Report) error { return writeConformanceYAML(w, r, digestOf(json)) }
		}
		if err := write(w, r); err != nil {
			if errors.Is(err, errTooBig) {
				return nil, errTooBig
			}
			return nil, err
		}
		rendered[f.Name] = w.buf
	}
	return rendered, nil
}

// removeEarlierRun removes the report files and the temporary files of an
// earlier run from dir. Other files (a container log, the user's own)
// stay.
func removeEarlierRun(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		known := false
		for _, f := range ReportFiles {
			known = known || name == f.Name
		}
		if !known && !strings.HasPrefix(name, tempPrefix) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// writeAtomic writes data to dir/name through a synced temporary file in
// dir, renamed into place, so that dir/name is either absent or whole.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, tempPrefix+name+".*.tmp")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp.Name())
		done = true
		return err
	}
	done = true
	return nil
}

// syncDir makes the renames durable where the system allows it; a failure
// only weakens durability, not the files, so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// execute runs a template (html/template or text/template) with v and
// writes the result to w in one piece, so a template that fails half way
// leaves w untouched. Errors name file.
func execute(w io.Writer, t interface{ Execute(io.Writer, any) error }, v any, file string) error {
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}
