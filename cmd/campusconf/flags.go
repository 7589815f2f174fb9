package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/reports"
)

// stringList is a string flag that may be given more than once, each value
// kept in order: --defect A --defect B gives [A B]. It is the one
// repeatable flag type of the commands.
type stringList []string

// String joins the values with commas, for flag's defaults and messages.
func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set appends one value.
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// byteSize is a flag holding a number of bytes, written as a count with an
// optional unit: 4194304, 4MiB, 512KiB, 16MB (decimal units: kB, MB, GB;
// binary: KiB, MiB, GiB). It refuses zero and negative sizes.
type byteSize int64

// String writes the size with the largest binary unit that divides it.
func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// Set parses a size.
func (b *byteSize) Set(v string) error {
	s := strings.TrimSpace(v)
	num := strings.TrimRightFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.TrimSpace(s[len(num):])
	units := map[string]int64{"": 1, "B": 1, "kB": 1000, "KB": 1000, "MB": 1000 * 1000, "GB": 1000 * 1000 * 1000,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
	mult, ok := units[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > (1<<40)/mult {
		return fmt.Errorf("want a size such as 4MiB, 512KiB or 1048576, got %q", v)
	}
	*b = byteSize(n * mult)
	return nil
}

// maxReportFlag adds --max-report, the bound of a report.json read, to
// fs (diff, baseline, report verify).
func maxReportFlag(fs *flag.FlagSet) *byteSize {
	b := byteSize(reports.DefaultMaxReport)
	fs.Var(&b, "max-report", "`SIZE` of the largest report.json read; a larger one is refused unread")
	return &b
}
