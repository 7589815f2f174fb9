package listing

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// field reads one scalar field of a record, named by its JSON name.
type field struct {
	name  string
	index int
	kind  fieldKind
}

type fieldKind int

const (
	kindString fieldKind = iota
	kindNumber
	kindBool
	kindTime
)

var timeType = reflect.TypeFor[time.Time]()

// fieldSet is the scalar fields of one record type, by lower-cased JSON name.
type fieldSet map[string]field

var fieldCache sync.Map // reflect.Type -> fieldSet

func fieldsOf(t reflect.Type) fieldSet {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(fieldSet)
	}
	fs := fieldSet{}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		var k fieldKind
		switch {
		case sf.Type == timeType:
			k = kindTime
		case sf.Type.Kind() == reflect.String:
			k = kindString
		case sf.Type.Kind() == reflect.Bool:
			k = kindBool
		case sf.Type.Kind() >= reflect.Int && sf.Type.Kind() <= reflect.Float64:
			k = kindNumber
		default:
			continue // arrays and objects are neither sortable nor filterable
		}
		fs[strings.ToLower(name)] = field{name: name, index: i, kind: k}
	}
	fieldCache.Store(t, fs)
	return fs
}

func (fs fieldSet) lookup(what, name string) (field, error) {
	f, ok := fs[strings.ToLower(name)]
	if !ok {
		known := make([]string, 0, len(fs))
		for _, f := range fs {
			known = append(known, f.name)
		}
		slices.Sort(known)
		return field{}, fmt.Errorf("%s: unknown field %q (known: %s)", what, name, strings.Join(known, ", "))
	}
	return f, nil
}

// key is a comparable form of a field value.
type key struct {
	s string
	n float64
}

func (f field) key(v reflect.Value) key {
	fv := v.Field(f.index)
	switch f.kind {
	case kindString:
		return key{s: fv.String()}
	case kindBool:
		if fv.Bool() {
			return key{n: 1}
		}
		return key{}
	case kindTime:
		return key{n: float64(fv.Interface().(time.Time).UnixNano())}
	}
	switch {
	case fv.CanInt():
		return key{n: float64(fv.Int())}
	case fv.CanUint():
		return key{n: float64(fv.Uint())}
	}
	return key{n: fv.Float()}
}

func compareKeys(a, b key) int {
	if c := cmp.Compare(a.n, b.n); c != 0 {
		return c
	}
	return strings.Compare(a.s, b.s)
}

// text is the value as where compares it.
func (f field) text(v reflect.Value) string {
	fv := v.Field(f.index)
	switch f.kind {
	case kindString:
		return fv.String()
	case kindBool:
		return strconv.FormatBool(fv.Bool())
	case kindTime:
		return fv.Interface().(time.Time).UTC().Format(time.RFC3339)
	}
	switch {
	case fv.CanInt():
		return strconv.FormatInt(fv.Int(), 10)
	case fv.CanUint():
		return strconv.FormatUint(fv.Uint(), 10)
	}
	return strconv.FormatFloat(fv.Float(), 'g', -1, 64)
}
