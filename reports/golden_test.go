package reports

import (
	"bytes"
	"io"
	"testing"
)

func TestWritersGolden(t *testing.T) {
	tests := []struct {
		file  string
		write func(io.Writer, *Report) error
	}{
		{"report.json.golden", WriteJSON},
		{"junit.xml.golden", WriteJUnit},
		{"report.html.golden", WriteHTML},
		{"summary.md.golden", WriteMarkdown},
		{"ctrf.json.golden", WriteCTRF},
		{"conformance-report.yaml.golden", WriteConformanceYAML},
		{"badge.svg.golden", WriteBadge},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.write(&buf, sampleReport()); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.file, buf.Bytes())
		})
	}
}
