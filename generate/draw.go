package generate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"pgregory.net/rapid"
)

// The values below are where implementations break: the limits of a type,
// empty and long text, text beyond ASCII, case variants a format allows.
var (
	oddStrings = []string{
		"", "a", "Zoë Ångström", "東京大学 講義", "🎓📚", "  spaced  ", "a&b=c?d#e%f/g+h",
		"'; DROP TABLE x; --", "<b>bold</b>", "line\nbreak", "tab\tquote\"back\\slash", "nul\x00byte", "%00%2F..%5C",
		strings.Repeat("x", 1000), strings.Repeat("é", 300),
	}
	boundaryInts = []int64{0, 1, 2, 10, 100, 999, 1000, 1001, math.MaxInt32, -1, math.MinInt32}
	oddFloats    = []float64{0, 0.5, 1, 99.99, 100, 1e-9, 1e6, -1, 3.4e38, 1e-45, math.Copysign(0, -1)}
	// validDates are RFC 3339 date-times at the edges of what the format allows.
	validDates = []string{
		"2024-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"2024-02-29T12:00:00Z", "2024-06-30T23:59:59.999999999Z", "2024-06-01T08:00:00+14:00", "2024-06-01T08:00:00-12:00",
		"2024-06-01t08:00:00z", // RFC 3339 allows lower case
	}
	// badDates are no RFC 3339 date-time: no parser reads them as one.
	badDates = []string{"2024-02-30T10:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T25:00:00Z", "yesterday", "2024-06-01T08:00:00+25:00"}
	// badUUIDs are no uuid in any spelling.
	badUUIDs = []string{"not-a-uuid", "12345", "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz", "0f8fad5b-d9cb-469f-a165-70867728950",
		"0f8fad5b-d9cb-469f-a165-70867728950ez", "0f8fad5b-d9cb-469f-a165-70867728950é", "a/b"}
	// badInts are no int32.
	badInts = []string{"abc", "1.5", "2147483648", "-2147483649", "1e3", "0x10"}
	// unknownEntities are no populate entity of any operation.
	unknownEntities = []string{"Unknown", "all", "*"}
	nilUUID         = "00000000-0000-0000-0000-000000000000"
)

// uuidFrom draws a uuid: mostly one of ids, some of them in upper case,
// and some no record has (the nil uuid among them).
func uuidFrom(t *rapid.T, ids []string, label string) string {
	n := rapid.IntRange(0, 9).Draw(t, label+".kind")
	if len(ids) > 0 && n < 6 {
		id := rapid.SampledFrom(ids).Draw(t, label+".id")
		if n == 5 {
			id = strings.ToUpper(id)
		}
		return id
	}
	if n == 9 {
		return nilUUID
	}
	b := rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, label+".bytes")
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	id := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	if n == 8 {
		id = strings.ToUpper(id)
	}
	return id
}

func drawString(t *rapid.T, label string) string {
	if rapid.IntRange(0, 3).Draw(t, label+".kind") == 0 {
		return rapid.StringN(0, 40, -1).Draw(t, label)
	}
	return rapid.SampledFrom(oddStrings).Draw(t, label)
}

func drawDate(t *rapid.T, label string) string {
	if rapid.Bool().Draw(t, label+".kind") {
		return rapid.SampledFrom(validDates).Draw(t, label)
	}
	// a fixed epoch, so the same seed gives the same date on any day
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	secs := rapid.Int64Range(0, 10*365*24*3600).Draw(t, label)
	return base.Add(time.Duration(secs) * time.Second).Format(time.RFC3339)
}

func drawInt32(t *rapid.T, label string) int64 {
	if rapid.IntRange(0, 2).Draw(t, label+".kind") > 0 {
		return rapid.SampledFrom(boundaryInts).Draw(t, label)
	}
	return int64(rapid.IntRange(0, 5000).Draw(t, label))
}

// drawValue draws a valid JSON value for schema s at path (a body member
// such as "iD_Weightage.key"); ids gives the fixture ids for a path.
func drawValue(t *rapid.T, s *openapi3.Schema, ids func(path string) []string, path string) any {
	label := path
	switch {
	case s.Type.Is(openapi3.TypeString):
		if len(s.Enum) > 0 {
			return rapid.SampledFrom(s.Enum).Draw(t, label)
		}
		switch s.Format {
		case "uuid":
			return uuidFrom(t, ids(path), label)
		case "date-time":
			return drawDate(t, label)
		}
		if pool := ids(path); len(pool) > 0 && rapid.Bool().Draw(t, label+".fixture") {
			return rapid.SampledFrom(pool).Draw(t, label)
		}
		return drawString(t, label)
	case s.Type.Is(openapi3.TypeInteger):
		if len(s.Enum) > 0 {
			return rapid.SampledFrom(s.Enum).Draw(t, label)
		}
		if s.Min != nil || s.Max != nil {
			lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
			if s.Min != nil {
				lo = int64(*s.Min)
			}
			if s.Max != nil {
				hi = int64(*s.Max)
			}
			return rapid.OneOf(rapid.Just(lo), rapid.Just(hi), rapid.Int64Range(lo, hi)).Draw(t, label)
		}
		if pool := ids(path); len(pool) > 0 && rapid.IntRange(0, 3).Draw(t, label+".kind") > 0 {
			n, _ := strconv.ParseInt(rapid.SampledFrom(pool).Draw(t, label), 10, 64)
			return n
		}
		if s.Format == "int64" {
			return rapid.SampledFrom([]int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 40}).Draw(t, label)
		}
		return drawInt32(t, label)
	case s.Type.Is(openapi3.TypeNumber):
		if rapid.Bool().Draw(t, label+".kind") {
			return rapid.SampledFrom(oddFloats).Draw(t, label)
		}
		return math.Round(rapid.Float64Range(0, 100).Draw(t, label)*100) / 100
	case s.Type.Is(openapi3.TypeBoolean):
		return rapid.Bool().Draw(t, label)
	case s.Type.Is(openapi3.TypeArray):
		item := s.Items.Value
		n := rapid.SampledFrom([]int{0, 1, 1, 2, 3, 5, 0, 1, 2, 200}).Draw(t, label+".len")
		out := make([]any, 0, n)
		for i := range n {
			if i > 0 && rapid.IntRange(0, 5).Draw(t, label+".repeat") == 0 {
				out = append(out, out[i-1]) // the same entry twice
				continue
			}
			out = append(out, drawValue(t, item, ids, path))
		}
		return out
	case s.Type.Is(openapi3.TypeObject):
		out := map[string]any{}
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[name].Value
			if p.ReadOnly {
				continue
			}
			if !slices.Contains(s.Required, name) {
				switch rapid.IntRange(0, 9).Draw(t, join(label, name)+".present") {
				case 0, 1, 2, 3:
					continue
				case 4:
					// null for an optional member: as good as absent,
					// and a classic crash
					out[name] = nil
					continue
				}
			}
			out[name] = drawValue(t, p, ids, join(path, name))
		}
		return out
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// wrongType returns a JSON value of another type than s wants.
func wrongType(s *openapi3.Schema) any {
	switch {
	case s.Type.Is(openapi3.TypeString):
		return 12345
	case s.Type.Is(openapi3.TypeInteger), s.Type.Is(openapi3.TypeNumber):
		return "12"
	case s.Type.Is(openapi3.TypeBoolean):
		return "yes"
	case s.Type.Is(openapi3.TypeArray):
		return "not-a-list"
	}
	return []any{}
}
