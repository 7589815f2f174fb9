package registry

import (
	"strings"
	"testing"
)

// TestEveryListDeclared holds the list declarations to the rows: every
// operation answering a list declares its ListFacts, and none other does.
func TestEveryListDeclared(t *testing.T) {
	for _, op := range all {
		if declared := op.ListFacts != nil; declared != op.List {
			t.Errorf("%s: List is %v, expected ListFacts in its row (registry.go; &ListFacts{} for a list with no filter or sort key) exactly when List is true, got ListFacts: %v", op.ID, op.List, declared)
		}
		if _, ok := List(op.ID); ok != (op.ListFacts != nil) {
			t.Errorf("%s: List(%s) reports %v, expected it to follow the row's ListFacts", op.ID, op.ID, ok)
		}
		l, ok := List(op.ID)
		if !ok {
			continue
		}
		if l.Op != op.ID {
			t.Errorf("%s: List gives Op %q, expected %q", op.ID, l.Op, op.ID)
		}
		if len(l.Identity) == 0 {
			t.Errorf("%s: expected the members identifying an entry, got none", l.Op)
		}
		if len(l.SortKeys) > 0 && !op.Paged {
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
	if _, ok := List("E99"); ok {
		t.Error("List(E99): expected no declaration for an unknown operation")
	}
}

// TestDeclarationsNameOperations holds the populate and reference
// declarations of each row to what they must say and to inputs of its
// typical call.
func TestDeclarationsNameOperations(t *testing.T) {
	for _, op := range all {
		id := op.ID
		for _, p := range op.Populates {
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
				t.Errorf("%s populate %s: expected exactly one of Member, Fills (the members it fills, which the optional-absent variant keeps) and FillsNothing (why it fills none), got %d: declare it in the row's Populates (registry.go)", id, p.Entity, declared)
			}
		}
		for _, r := range op.References {
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
		if op.ListFacts != nil {
			for _, d := range op.ListFacts.Distinct {
				if d.Member == "" || !strings.HasPrefix(d.Requirement, string(id)+".") {
					t.Errorf("%s distinct %q: expected a member and a requirement of %s, got %q", id, d.Member, id, d.Requirement)
				}
			}
		}
		if got := Populates(id); len(got) != len(op.Populates) {
			t.Errorf("Populates(%s): expected the row's %d entities, got %d", id, len(op.Populates), len(got))
		}
		if got := References(id); len(got) != len(op.References) {
			t.Errorf("References(%s): expected the row's %d references, got %d", id, len(op.References), len(got))
		}
	}
	if Populates("E99") != nil || References("E99") != nil {
		t.Error("Populates, References(E99): expected nothing for an unknown operation")
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
