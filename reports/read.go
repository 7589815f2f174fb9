package reports

import (
	"errors"
	"fmt"

	"github.com/campusconf/campusconf/internal/boundedfile"
)

// DefaultMaxReport bounds the report.json a reader of reports reads
// (ReadJSON: `campusconf diff`, `campusconf baseline`, `campusconf report
// verify`): twice the largest file WriteAll writes (MaxReportFile), so
// every report this project writes is read, and a file of hundreds of
// megabytes is refused before it is decoded. Their --max-report flag
// raises it.
const DefaultMaxReport = 2 * MaxReportFile

// MaxBaselineFile bounds a baseline file (ReadBaseline): an entry per
// requirement of the catalogue is a few tens of KiB.
const MaxBaselineFile = 4 << 20

// ErrTooLarge is wrapped by the error of a reader for a file larger than
// its bound.
var ErrTooLarge = errors.New("file too large")

// ReadFileWithin reads the file at path whole when it is a regular file
// of at most max bytes (readBounded): a report file read for its bytes,
// such as the report.json `campusconf report verify` digests.
func ReadFileWithin(path string, max int64, raise string) ([]byte, error) {
	return readBounded(path, max, raise)
}

// readBounded reads the file at path whole when it is a regular file
// of at most max bytes (internal/boundedfile): a FIFO or a device would
// block or never end. A larger one is refused unread past max+1 bytes,
// with an error wrapping ErrTooLarge that names the bound and, when raise
// is not "", the flag that raises it.
func readBounded(path string, max int64, raise string) ([]byte, error) {
	data, err := boundedfile.Read(path, max)
	var tl *boundedfile.TooLargeError
	if errors.As(err, &tl) {
		how := ""
		if raise != "" {
			how = "; " + raise + " raises the bound"
		}
		return nil, fmt.Errorf("%s: %w: %s, larger than the %s read%s", path, ErrTooLarge, byteCount(tl.Size), byteCount(max), how)
	}
	return data, err
}

// byteCount writes a size in the largest binary unit that keeps it whole
// or near.
func byteCount(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
