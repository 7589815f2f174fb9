package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File names WriteAll uses inside the report directory.
const (
	JSONFile     = "report.json"
	JUnitFile    = "junit.xml"
	HTMLFile     = "report.html"
	MarkdownFile = "summary.md"
)

// WriteAll finalizes r, creates dir if needed and writes the four report
// files into it: report.json, junit.xml, report.html and summary.md. It
// returns the absolute path of report.html, for the command to print.
// Each file is rendered in memory first, so a writer error leaves no
// half-written file.
func WriteAll(dir string, r *Report) (htmlPath string, err error) {
	if r == nil {
		return "", fmt.Errorf("write reports: no report")
	}
	Finalize(r)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("write reports: %w", err)
	}
	writers := []struct {
		name  string
		write func(io.Writer, *Report) error
	}{
		{JSONFile, WriteJSON},
		{JUnitFile, WriteJUnit},
		{HTMLFile, WriteHTML},
		{MarkdownFile, WriteMarkdown},
	}
	for _, w := range writers {
		var buf bytes.Buffer
		if err := w.write(&buf, r); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, w.name), buf.Bytes(), 0o644); err != nil {
			return "", fmt.Errorf("write reports: %w", err)
		}
	}
	htmlPath = filepath.Join(dir, HTMLFile)
	if abs, err := filepath.Abs(htmlPath); err == nil {
		htmlPath = abs
	}
	return htmlPath, nil
}
