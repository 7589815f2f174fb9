package registry

import "slices"

// What a list answer means, per operation: the filters and search each
// list operation takes and the members they read, its sort keys, its
// paging, its populate entities and the member each fills, the members
// that identify an entry, and the members of any answer that the
// specification ties to a record the request names. Each operation
// declares them in its row (Operation.ListFacts, Populates, References);
// this file holds their types and what is derived from them. The
// relation and reference checks of the suite (steps, over internal/rules)
// are derived from these declarations for every operation; none is
// written operation by operation in a feature file.

// FilterKind is how a query parameter keeps entries.
type FilterKind string

// The filter kinds.
const (
	// SearchText keeps the entries one of whose Members contains the text.
	SearchText FilterKind = "search"
	// DateFrom keeps the entries whose Members[0] is at or after the
	// date-time (whether an entry at the instant stays is open).
	DateFrom FilterKind = "from"
	// DateTo keeps the entries whose Members[0] is at or before it.
	DateTo FilterKind = "to"
)

// Filter is a query parameter of a list operation that keeps the entries
// matching it.
type Filter struct {
	Param string
	Kind  FilterKind
	// Members are the members of an entry it reads, as the specification
	// names them.
	Members []string
	// Open, when set, is the id of the reading (rules.Readings) that
	// leaves open whether the parameter filters at all: no check is then
	// derived from it.
	Open string
	// Requirement is the catalogue id of its check.
	Requirement string
	// Section is the specification's sentence that states the filter.
	Section string
}

// Populate is a populate entity an operation accepts, and the member of
// its answer the specification says it fills ("" where it names none).
// Every entity declares what it fills: Member, Fills or FillsNothing.
type Populate struct {
	Entity string
	Member string
	// Fills, where the specification names no one Member, are the members
	// of the record its description ties to the entity (the creator's
	// login id, name and address): an answer carries them only on request
	// (docs/decisions.md, "Populate").
	Fills []string
	// FillsNothing says why the entity fills no member: the record has
	// none for it, so it is accepted and changes nothing.
	FillsNothing string
	// NonEmpty says the fixture promises the filled member is not empty
	// (docs/fixtures.md: the notification's target has an ancestor).
	NonEmpty bool
}

// Reference is a member of an operation's answer (of each entry of a
// list) that the specification ties to a record the request names: it
// must name that record, not merely be a uuid. Not every such member is
// declared: the gradebook update's resourceID ("the module") is not, as
// its typical call names no module the fixture gives to be changed, so
// nothing would observe it; nor are the ids of the notification read
// update (NR) and the quiz section update (QS), whose scenarios (NR.read,
// NR.unread, QS.200) already hold the answer's id to the body's, and the
// traffic proxy judges those.
type Reference struct {
	// Member is the member of the answer or of each entry.
	Member string
	// Input is the request input naming the record: "path.NAME" (a path
	// parameter of the typical call) or "body.PATH" (a member of its body).
	Input string
	// Requirement is the catalogue id of the check; Section the sentence
	// of the specification that ties the member to the input.
	Requirement string
	Section     string
}

// ListFacts is what the registry declares of a list operation
// (Operation.ListFacts).
type ListFacts struct {
	// Op is the operation; List fills it, as it fills Identity.
	Op OpID
	// Identity are the members that identify an entry between answers:
	// those Identity declares for the operation's record (identity.go).
	Identity []string
	Filters  []Filter
	// SortKeys are members the suite sorts by (where the fixture
	// declares the sortby syntax); any scalar member may be one.
	SortKeys []string
	// Distinct are the members no two entries of one answer share, where
	// the specification makes the list one entry per record.
	Distinct []Distinct
}

// Distinct is a member no two entries of one answer share (E20's
// students, E15's users), and the requirement that says so.
type Distinct struct {
	Member, Requirement string
}

// noMember is why an entity fills nothing.
const noMember = "the returned record has no member for it"

// List returns the declarations of a list operation; ok is false for an
// operation that answers no list. Paging is the row's Paged.
func List(id OpID) (ListFacts, bool) {
	op, ok := byID[string(id)]
	if !ok || op.ListFacts == nil {
		return ListFacts{}, false
	}
	l := *op.ListFacts
	l.Op = op.ID
	l.Identity = Identity(op.Record)
	l.Filters = slices.Clone(l.Filters)
	l.SortKeys = slices.Clone(l.SortKeys)
	l.Distinct = slices.Clone(l.Distinct)
	return l, true
}

// Populates returns the populate entities of an operation
// (Operation.Populates).
func Populates(id OpID) []Populate {
	if op, ok := byID[string(id)]; ok {
		return slices.Clone(op.Populates)
	}
	return nil
}

// FilledBy returns every member a populate entity of the operations fills:
// an answer carries them only on request.
func FilledBy(ids ...OpID) map[string]bool {
	out := map[string]bool{}
	for _, id := range ids {
		for _, p := range Populates(id) {
			for _, m := range p.Filled() {
				out[m] = true
			}
		}
	}
	return out
}

// Listing ties a read of one record to the list that carries it too
// (E19's poll response, which E18 lists under its question): the list
// operation, the member of the record naming the list's parent, and the
// requirement that the two agree.
type Listing struct {
	Op          OpID
	Parent      string
	Requirement string
}

// Filled returns the members of an answer the entity fills: its Member,
// or its Fills.
func (p Populate) Filled() []string {
	if p.Member != "" {
		return []string{p.Member}
	}
	return slices.Clone(p.Fills)
}

// References returns the members of an operation's answer tied to a
// record its request names (Operation.References).
func References(id OpID) []Reference {
	if op, ok := byID[string(id)]; ok {
		return slices.Clone(op.References)
	}
	return nil
}

// Checked returns the filters of a list operation a check is derived
// from: those whose effect the specification states.
func (l ListFacts) Checked() []Filter {
	var out []Filter
	for _, f := range l.Filters {
		if f.Open == "" {
			out = append(out, f)
		}
	}
	return out
}

// RelationKind names a check derived from the declarations.
type RelationKind string

// The derived checks, and the suffix of each one's requirement id (but
// for filters and references, which name their own).
const (
	// CheckFilter: a filtered or searched answer holds exactly the
	// entries of the whole list that match (one per checked filter).
	CheckFilter RelationKind = "filter"
	// CheckCombined: the checked filters given together keep the entries
	// that match all of them.
	CheckCombined RelationKind = "combined"
	// CheckSorted: a sorted answer holds the same entries as the list.
	CheckSorted RelationKind = "sort-same"
	// CheckLimitOne: limit=1 answers an array of one entry.
	CheckLimitOne RelationKind = "limit-one"
	// CheckPages: pages of a fixed limit neither repeat nor skip an entry.
	CheckPages RelationKind = "pages"
	// CheckPopulate: populate changes no entry and no member but the one
	// it fills.
	CheckPopulate RelationKind = "populate-only"
	// CheckPopulateFilled: a populated member the fixture promises
	// non-empty is not empty.
	CheckPopulateFilled RelationKind = "populate-filled"
	// CheckReference: a member tied to a record the request names names
	// it (one per reference).
	CheckReference RelationKind = "reference"
)

// RelationKinds are the derived checks, in the order of their scenarios.
var RelationKinds = []RelationKind{CheckFilter, CheckCombined, CheckSorted, CheckLimitOne, CheckPages, CheckPopulate, CheckPopulateFilled, CheckReference}

// Relation is one derived check of one operation: the Examples row of
// its scenario.
type Relation struct {
	Op   OpID
	Kind RelationKind
	// Param is the filter's parameter, the populate entity or the
	// reference's member; "" for the others.
	Param       string
	Requirement string
}

// Relations returns the checks of kind derived from the declarations, in
// report order of their operations.
func Relations(kind RelationKind) []Relation {
	var out []Relation
	for _, op := range all {
		out = append(out, relationsOf(op, kind)...)
	}
	return out
}

func relationsOf(op Operation, kind RelationKind) []Relation {
	l, isList := List(op.ID)
	suffixed := func() []Relation {
		return []Relation{{Op: op.ID, Kind: kind, Requirement: op.ID.Requirement("." + string(kind))}}
	}
	var out []Relation
	switch kind {
	case CheckFilter:
		for _, f := range l.Checked() {
			out = append(out, Relation{Op: op.ID, Kind: kind, Param: f.Param, Requirement: f.Requirement})
		}
	case CheckCombined:
		if len(l.Checked()) > 1 {
			return suffixed()
		}
	case CheckSorted:
		if isList && op.Paged && len(l.SortKeys) > 0 {
			return suffixed()
		}
	case CheckLimitOne, CheckPages:
		if isList && op.Paged {
			return suffixed()
		}
	case CheckPopulate:
		for _, p := range op.Populates {
			// a write's populate is read on the record it makes, which no
			// second call can show without it
			if !op.ChangesState && (p.Member != "" || isList) {
				out = append(out, Relation{Op: op.ID, Kind: kind, Param: p.Entity, Requirement: op.ID.Requirement("." + string(kind))})
			}
		}
	case CheckPopulateFilled:
		for _, p := range op.Populates {
			if p.NonEmpty && p.Member != "" {
				out = append(out, Relation{Op: op.ID, Kind: kind, Param: p.Entity, Requirement: op.ID.Requirement("." + p.Member + "-filled")})
			}
		}
	case CheckReference:
		for _, r := range op.References {
			out = append(out, Relation{Op: op.ID, Kind: kind, Param: r.Member, Requirement: r.Requirement})
		}
	}
	return out
}
