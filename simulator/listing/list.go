package listing

import (
	"reflect"
	"slices"
	"strings"
	"sync"
)

// List is an immutable list of records with a cache of sort orders. Its
// items are held (New) or generated a chunk at a time when wanted
// (Generated).
type List[T any] struct {
	items []T
	gen   *generated[T]

	mu     sync.Mutex
	orders map[string][]int32 // "field asc" / "field desc" -> item indexes
	// encoded are pages already encoded (Encoded).
	encoded *pageCache
}

// New returns a list holding items, which the caller must not change
// afterwards.
func New[T any](items []T) *List[T] {
	return &List[T]{items: items}
}

// Generated returns a list of n items that holds none of them: chunk(c)
// makes the items c*ChunkLen up to (c+1)*ChunkLen (fewer in the last
// chunk), in stored order, equal each time it is called. The list keeps
// the few chunks used last.
func Generated[T any](n int, chunk func(c int) []T) *List[T] {
	return &List[T]{gen: &generated[T]{n: n, chunk: chunk}}
}

// At returns the item i, in stored order.
func (l *List[T]) At(i int) T { return *l.view().at(i) }

// Len returns the number of items.
func (l *List[T]) Len() int { return l.view().len() }

// Items returns every item, in stored order: the list's own slice when
// it holds them (callers must not change it), else a new one.
func (l *List[T]) Items() []T {
	if l.gen == nil {
		return l.items
	}
	return l.gen.all()
}

// Page returns copies of the items selected by q among those keep accepts
// (nil keeps all). It touches only offset+limit accepted items unless a
// sort order has to be computed for the first time.
func (l *List[T]) Page(q Query, keep func(*T) bool) ([]T, error) {
	return pageOf(l, l.view(), q, keep)
}

func (l *List[T]) view() view[T] { return view[T]{l.items, l.gen} }

func (l *List[T]) order(f field, desc bool) []int32 {
	name := f.name + " asc"
	if desc {
		name = f.name + " desc"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if o, ok := l.orders[name]; ok {
		return o
	}
	if l.orders == nil {
		l.orders = map[string][]int32{}
	}
	if l.gen != nil {
		// a generated list is made again to read its keys: both
		// directions from one making
		keys := keysOf(l.view(), []field{f})
		l.orders[f.name+" asc"] = sortByKeys(keys, 1, []bool{false})
		l.orders[f.name+" desc"] = sortByKeys(keys, 1, []bool{true})
		return l.orders[name]
	}
	o := sortOrder(l.view(), f, desc)
	l.orders[name] = o
	return o
}

// Page applies q to items without caching, for lists computed per request.
func Page[T any](items []T, q Query, keep func(*T) bool) ([]T, error) {
	return pageOf(nil, view[T]{items: items}, q, keep)
}

// Select returns the items of l that q selects among those keep accepts
// (nil keeps all), to be visited in place: Page without the copies, for
// answers too long to hold twice.
func (l *List[T]) Select(q Query, keep func(*T) bool) (Selection[T], error) {
	return selectOf(l, l.view(), q, keep)
}

// pageOf applies q to items, taking a sort order from l's cache, or
// computing it when l is nil.
func pageOf[T any](l *List[T], items view[T], q Query, keep func(*T) bool) ([]T, error) {
	sel, err := selectOf(l, items, q, keep)
	if err != nil {
		return nil, err
	}
	return sel.page(), nil
}

// selectOf checks q against T's fields and returns what it selects from
// items, taking a sort order from l's cache, or computing it when l is nil.
func selectOf[T any](l *List[T], items view[T], q Query, keep func(*T) bool) (Selection[T], error) {
	fs := fieldsOf(reflect.TypeFor[T]())
	var order []int32
	if q.Sort != "" {
		var by []field
		var desc []bool
		for _, k := range append([]SortKey{{q.Sort, q.Desc}}, q.Then...) {
			f, err := fs.lookup("sortby", k.Field)
			if err != nil {
				return Selection[T]{}, err
			}
			by, desc = append(by, f), append(desc, k.Desc)
		}
		switch {
		case l != nil && len(by) == 1:
			order = l.order(by[0], desc[0]) // one key: cached per list
		default:
			order = sortOrderBy(items, by, desc)
		}
	}
	sel := Selection[T]{items: items, order: order, q: q, keep: keep}
	if q.WhereField != "" {
		f, err := fs.lookup("where", q.WhereField)
		if err != nil {
			return Selection[T]{}, err
		}
		sel.where = &f
	}
	return sel, nil
}

// sortOrder returns item indexes sorted stably by f, so that equal keys
// keep the stored order in both directions.
func sortOrder[T any](items view[T], f field, desc bool) []int32 {
	return sortOrderBy(items, []field{f}, []bool{desc})
}

// sortOrderBy returns item indexes sorted stably by the fields in turn.
func sortOrderBy[T any](items view[T], by []field, desc []bool) []int32 {
	return sortByKeys(keysOf(items, by), len(by), desc)
}

// keysOf is the keys of each item for the fields by: item i's are
// keys[i*len(by) : (i+1)*len(by)].
func keysOf[T any](items view[T], by []field) []key {
	n, m := items.len(), len(by)
	keys := make([]key, n*m)
	for i := range n {
		v := reflect.ValueOf(items.at(i)).Elem()
		for j, f := range by {
			keys[i*m+j] = f.key(v)
		}
	}
	return keys
}

// sortByKeys returns item indexes sorted stably by keys, m to an item,
// each in its direction.
func sortByKeys(keys []key, m int, desc []bool) []int32 {
	o := make([]int32, len(keys)/m)
	for i := range o {
		o[i] = int32(i)
	}
	slices.SortStableFunc(o, func(a, b int32) int {
		for j := range m {
			c := compareKeys(keys[int(a)*m+j], keys[int(b)*m+j])
			if desc[j] {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return o
}

// Selection is what a query selects from a list: its items in the
// query's order, filtered and cut to its offset and limit when visited.
type Selection[T any] struct {
	items view[T]
	order []int32
	where *field
	q     Query
	keep  func(*T) bool
}

// at is the i-th item in the query's order, before filters.
func (s Selection[T]) at(i int) *T {
	switch {
	case s.order != nil:
		return s.items.at(int(s.order[i]))
	case s.q.Reverse:
		return s.items.at(s.items.len() - 1 - i)
	}
	return s.items.at(i)
}

// Each calls fn with each selected item in turn. The items are the
// list's own: fn must not change them.
func (s Selection[T]) Each(fn func(*T)) {
	s.EachWhile(func(it *T) bool { fn(it); return true })
}

// EachWhile is Each, stopping at the first item for which fn returns
// false (an answer whose client has gone).
func (s Selection[T]) EachWhile(fn func(*T) bool) {
	q, n := s.q, s.items.len()
	if s.items.gen != nil && s.order != nil && (s.keep != nil || s.where != nil || s.Len() > madeWhole) {
		// a walk in a sort order over many items of a generated list
		// would make each chunk again and again: make them all once
		s.items = view[T]{items: s.items.gen.all()}
	}
	if q.Limit == 0 {
		return
	}
	if s.keep == nil && s.where == nil {
		// The hot path: no filter, so the selection is a slice of the order.
		end := n
		if q.Limit > 0 && q.Offset+q.Limit < n {
			end = q.Offset + q.Limit
		}
		for i := q.Offset; i < end; i++ {
			if !fn(s.at(i)) {
				return
			}
		}
		return
	}
	skipped, taken := 0, 0
	for i := 0; i < n; i++ {
		it := s.at(i)
		if s.keep != nil && !s.keep(it) {
			continue
		}
		if s.where != nil && !strings.EqualFold(s.where.text(reflect.ValueOf(it).Elem()), q.WhereValue) {
			continue
		}
		if skipped < q.Offset {
			skipped++
			continue
		}
		if !fn(it) {
			return
		}
		if taken++; q.Limit > 0 && taken == q.Limit {
			return
		}
	}
}

// Len is how many items Each visits, counted without filters: exact
// when there are none, an upper bound otherwise.
func (s Selection[T]) Len() int {
	n := max(s.items.len()-s.q.Offset, 0)
	if s.q.Limit >= 0 {
		n = min(n, s.q.Limit)
	}
	return n
}

// page copies the selected items.
func (s Selection[T]) page() []T {
	out := []T{}
	if s.keep == nil && s.where == nil && s.Len() > 0 {
		out = make([]T, 0, s.Len())
	}
	s.Each(func(it *T) { out = append(out, *it) })
	return out
}
