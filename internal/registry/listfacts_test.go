package registry

import (
	"strings"
	"testing"
)

// TestEveryListDeclared holds the list declarations to the rows: every
// operation answering a list has one, and none other has.
func TestEveryListDeclared(t *testing.T) {
	for _, op := range all {
		_, ok := List(op.ID)
		if ok != op.List {
			t.Errorf("%s: List is %v, expected a list declaration (lists.go) exactly when List is true, got one: %v", op.ID, op.List, ok)
		}
	}
	seen := map[OpID]bool{}
	for _, decl := range lists {
		l, _ := List(decl.Op)
		if seen[l.Op] {
			t.Errorf("%s: declared twice in lists", l.Op)
		}
		seen[l.Op] = true
		if len(l.Identity) == 0 {
			t.Errorf("%s: expected the members identifying an entry, got none", l.Op)
		}
		if len(l.SortKeys) > 0 && !Must(l.Op).Paged {
			t.Errorf("%s: sort keys on an operation that takes no sortby (not Paged)", l.Op)
		}
		for _, f := range l.Filters {
			if f.Param == "" || len(f.Members) == 0 && f.Open == "" || f.Section == "" {
				t.Errorf("%s: filter %+v: expected a parameter, the members it reads and its section", l.Op, f)
			}
			if f.Open == "" && !strings.HasPrefix(f.Requirement, string(l.Op)+".") {
				t.Errorf("%s: filter %s: expected a requirement of %s, got %q", l.Op, f.Param, l.Op, f.Requirement)
			}
		}
	}
}

// TestDeclarationsNameOperations holds the populate and reference
// declarations to real operations and inputs of their typical calls.
func TestDeclarationsNameOperations(t *testing.T) {
	for id, ps := range populates {
		if _, ok := Lookup(string(id)); !ok {
			t.Errorf("populates: unknown operation %s", id)
		}
		for _, p := range ps {
			if p.NonEmpty && p.Member == "" {
				t.Errorf("%s populate %s: promised non-empty but names no member", id, p.Entity)
			}
			declared := 0
			for _, d := range []bool{p.Member != "", len(p.Fills) > 0, p.FillsNothing != ""} {
				if d {
					declared++
				}
			}
			if declared != 1 {
				t.Errorf("%s populate %s: expected exactly one of Member, Fills (the members it fills, which the optional-absent variant keeps) and FillsNothing (why it fills none), got %d: declare it in populates (listfacts.go)", id, p.Entity, declared)
			}
		}
	}
	for id, rs := range references {
		op, ok := Lookup(string(id))
		if !ok {
			t.Errorf("references: unknown operation %s", id)
			continue
		}
		for _, r := range rs {
			kind, name, _ := strings.Cut(r.Input, ".")
			switch kind {
			case "path":
				if _, ok := op.Typical.Params[name]; !ok {
					t.Errorf("%s reference %s: expected the typical call to have path parameter %q, got %v", id, r.Member, name, op.Typical.Params)
				}
			case "body":
				if !op.Typical.HasBody || !strings.Contains(op.Typical.Body, `"`+name+`"`) {
					t.Errorf("%s reference %s: expected the typical call's body to carry %q, got %q", id, r.Member, name, op.Typical.Body)
				}
			default:
				t.Errorf("%s reference %s: input %q is neither path.NAME nor body.NAME", id, r.Member, r.Input)
			}
			if r.Requirement == "" || r.Section == "" || !strings.HasPrefix(r.Requirement, string(id)+".") {
				t.Errorf("%s reference %s: expected a requirement of %s and a section, got %q, %q", id, r.Member, id, r.Requirement, r.Section)
			}
		}
	}
}

func TestRelations(t *testing.T) {
	tests := []struct {
		kind RelationKind
		want []string
	}{
		{CheckFilter, []string{"E10 SearchText E10.search-exact", "E10 StartDate E10.dates-exact", "E10 EndDate E10.dates-exact"}},
		{CheckCombined, []string{"E10  E10.combined"}},
		{CheckPopulateFilled, []string{"NG ancestor NG.ancestor-filled"}},
		{CheckPopulate, []string{"E17 Creator E17.populate-only", "E18 photo E18.populate-only", "E20 photo E20.populate-only", "NG ancestor NG.populate-only"}},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range Relations(tt.kind) {
			got = append(got, string(r.Op)+" "+r.Param+" "+r.Requirement)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Relations(%s): expected %q, got %q", tt.kind, tt.want, got)
		}
	}
	if n := len(Relations(CheckPages)); n != len(Select(func(o Operation) bool { return o.Paged })) {
		t.Errorf("Relations(pages): expected one per paged operation, got %d", n)
	}
}
