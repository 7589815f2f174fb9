package features

import (
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/campusconf/campusconf/internal/registry"
)

// A feature may leave an outline's per-operation Examples to the registry:
// a comment line
//
//	# examples: one per operation SELECTION
//
// stands for one Examples block per operation of the selection, tagged with
// the operation's id so --tags @E7 picks its rows, in the registry's order.
// A new operation thus gets the cross-cutting scenarios without an edit to
// the feature.
var examplesMarker = regexp.MustCompile(`(?m)^( *)# examples: one per operation (\S+)\n`)

// selections are the operation selections a marker may name.
var selections = map[string]func(registry.Operation) bool{
	// every operation
	"all": func(registry.Operation) bool { return true },
	// the operations whose typical call sends a body
	"with-body": func(o registry.Operation) bool { return o.Typical.HasBody },
	// the operations that answer success with a JSON body
	"answering-json": func(o registry.Operation) bool { return !o.EmptyAnswer },
	// the writes whose round trip the registry declares (writes.go)
	"with-round-trip": func(o registry.Operation) bool {
		w, ok := registry.WriteOf(o.ID)
		return ok && len(w.Edges) > 0
	},
	// the writes with a read of the record they change: a refusal of
	// them is read back
	"with-read-back": readBack,
	// every operation but those: their refusal for want of a key is
	// checked with its read-back, which replaces the plain check
	"without-read-back": func(o registry.Operation) bool { return !readBack(o) },
	// the reads whose typical call names fixture records by uuid in its
	// path: ALL.uuid-case reads them again in upper case
	"reading-by-path-uuid": func(o registry.Operation) bool {
		if o.ChangesState || !o.UUIDInput || len(o.Typical.Params) == 0 {
			return false
		}
		for _, v := range o.Typical.Params {
			if !strings.HasPrefix(v, "{records.") {
				return false
			}
		}
		return true
	},
	// the operations answering the one record they name by an id, or
	// listing its entries, where the specification lists no 404:
	// ALL.unknown-id names one that does not exist
	"naming-a-record-without-404": func(o registry.Operation) bool {
		_, _, ok := o.Addresses()
		return ok && o.Record != "" && o.Statuses[0] == 200 && !slices.Contains(o.Statuses, 404)
	},
	// the writes with a neighbour to read before and after
	"with-neighbour": func(o registry.Operation) bool {
		w, ok := registry.WriteOf(o.ID)
		return ok && w.Neighbour != nil && w.Change != nil
	},
}

func readBack(o registry.Operation) bool {
	w, ok := registry.WriteOf(o.ID)
	return ok && w.ReadsBack()
}

// A comment line
//
//	# examples: one per relation KIND
//
// stands for one Examples block per check of that kind the registry
// derives from its declarations (registry.Relations: a filter, a populate
// entity, a reference, ...), tagged with the operation's id and the
// check's requirement, with the columns op and param.
var relationMarker = regexp.MustCompile(`(?m)^( *)# examples: one per relation (\S+)\n`)

// expandRelations replaces the relation markers of one feature's text.
func expandRelations(name string, src []byte) ([]byte, error) {
	var err error
	out := relationMarker.ReplaceAllFunc(src, func(m []byte) []byte {
		sub := relationMarker.FindSubmatch(m)
		indent, kind := string(sub[1]), registry.RelationKind(sub[2])
		if !slices.Contains(registry.RelationKinds, kind) {
			if err == nil {
				err = fmt.Errorf("%s: unknown relation kind %q in %q", name, kind, strings.TrimSpace(string(m)))
			}
			return m
		}
		var b bytes.Buffer
		for i, r := range registry.Relations(kind) {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s@%s @%s\n%sExamples:\n%s  | op | param |\n%s  | %s | %s |\n", indent, r.Op, r.Requirement, indent, indent, indent, r.Op, r.Param)
		}
		return b.Bytes()
	})
	return out, err
}

// expand replaces the markers of one feature file's text.
func expand(name string, src []byte) ([]byte, error) {
	src, err := expandRelations(name, src)
	if err != nil {
		return nil, err
	}
	out := examplesMarker.ReplaceAllFunc(src, func(m []byte) []byte {
		sub := examplesMarker.FindSubmatch(m)
		indent, sel := string(sub[1]), string(sub[2])
		keep, ok := selections[sel]
		if !ok && err == nil {
			err = fmt.Errorf("%s: unknown operation selection %q in %q", name, sel, strings.TrimSpace(string(m)))
		}
		if !ok {
			return m
		}
		var b bytes.Buffer
		for i, id := range registry.Select(keep) {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s@%s\n%sExamples:\n%s  | op |\n%s  | %s |\n", indent, id, indent, indent, indent, id)
		}
		return b.Bytes()
	})
	return out, err
}

// expandedFS serves the embedded files with the feature files expanded.
type expandedFS struct{ fs.FS }

func (e expandedFS) Open(name string) (fs.File, error) {
	if !strings.HasSuffix(name, ".feature") {
		return e.FS.Open(name)
	}
	st, err := fs.Stat(e.FS, name)
	if err != nil {
		return nil, err
	}
	src, err := fs.ReadFile(e.FS, name)
	if err != nil {
		return nil, err
	}
	data, err := expand(name, src)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &memFile{Reader: bytes.NewReader(data), info: memInfo{FileInfo: st, size: int64(len(data))}}, nil
}

// ReadFile reads one file, expanded, so fs.ReadFile does not bypass Open.
func (e expandedFS) ReadFile(name string) ([]byte, error) {
	src, err := fs.ReadFile(e.FS, name)
	if err != nil || !strings.HasSuffix(name, ".feature") {
		return src, err
	}
	return expand(name, src)
}

type memFile struct {
	*bytes.Reader
	info memInfo
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m.info, nil }
func (m *memFile) Close() error               { return nil }

type memInfo struct {
	fs.FileInfo
	size int64
}

func (i memInfo) Size() int64 { return i.size }
