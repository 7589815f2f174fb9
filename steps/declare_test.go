package steps

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/registry"
)

// The schedule is as right as the declarations it reads: a step that
// sends a request its definition does not declare would run beside
// scenarios touching the same records. Three nets hold the declarations:
// TestStepsDeclareWhatTheySend (no step sends without declaring, none
// declares without sending), turn.mayCall on every request of every run
// (a step calls only what it declares; the suite's runs against the
// simulator in the kill matrix and the faithful variants fail on the
// first call that breaks it) and TestDestructiveScenariosChange (a
// scenario tagged @destructive changes a record group in the plan).

// TestStepsDeclareWhatTheySend reads this package's source: every step
// definition whose function can reach a request (a call of do or send,
// directly or through the package's own functions, closures included)
// declares what it calls (stepDef.calls), and every step declaring calls
// can reach one. Sending the last request again (again) declares nothing
// new.
func TestStepsDeclareWhatTheySend(t *testing.T) {
	fset := token.NewFileSet()
	names, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string][]string{} // function or method name → names it calls
	var table *ast.CompositeLit
	for _, n := range names {
		if !strings.HasSuffix(n.Name(), ".go") || strings.HasSuffix(n.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					calls[d.Name.Name] = append(calls[d.Name.Name], calledNames(d.Body)...)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					vs, ok := sp.(*ast.ValueSpec)
					if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "stepDefs" {
						continue
					}
					table, _ = vs.Values[0].(*ast.CompositeLit)
				}
			}
		}
	}
	if table == nil {
		t.Fatal("no stepDefs table found in the package's source")
	}
	memo := map[string]bool{}
	var sends func(name string, seen map[string]bool) bool
	sends = func(name string, seen map[string]bool) bool {
		if v, ok := memo[name]; ok {
			return v
		}
		if seen[name] || name == "again" {
			return false
		}
		seen[name] = true
		v := slices.ContainsFunc(calls[name], func(c string) bool {
			return c == "do" || c == "send" || sends(c, seen)
		})
		memo[name] = v
		return v
	}
	if !sends("typicalPlain", map[string]bool{}) || sends("statusIs", map[string]bool{}) {
		t.Fatal("the reading of the source is off: typicalPlain should send and statusIs should not")
	}
	for _, el := range table.Elts {
		row, ok := el.(*ast.CompositeLit)
		if !ok || len(row.Elts) != 3 {
			t.Errorf("%s: expected a step definition {pattern, function, calls}", fset.Position(el.Pos()))
			continue
		}
		fn, ok := row.Elts[1].(*ast.Ident)
		if !ok {
			t.Errorf("%s: expected the step's function by name", fset.Position(row.Pos()))
			continue
		}
		declares := !isNil(row.Elts[2])
		switch s := sends(fn.Name, map[string]bool{}); {
		case s && !declares:
			t.Errorf("%s: step %s sends requests but its definition declares no calls: declare the operations it calls (CONTRIBUTING.md, \"What a check touches\")", fset.Position(row.Pos()), fn.Name)
		case !s && declares:
			t.Errorf("%s: step %s declares calls but sends no request: the schedule would keep its scenarios apart for nothing", fset.Position(row.Pos()), fn.Name)
		}
	}
}

// calledNames are the names of the functions and methods body calls.
func calledNames(body ast.Node) []string {
	var out []string
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch f := c.Fun.(type) {
		case *ast.Ident:
			out = append(out, f.Name)
		case *ast.SelectorExpr:
			out = append(out, f.Sel.Name)
		}
		// a function passed as a value is called by whoever takes it
		for _, a := range c.Args {
			if id, ok := a.(*ast.Ident); ok {
				out = append(out, id.Name)
			}
		}
		return true
	})
	return out
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// TestDestructiveScenariosChange holds the @destructive tag to the plan:
// a scenario that says it changes records changes a record group, or its
// steps do not declare the change.
func TestDestructiveScenariosChange(t *testing.T) {
	e, scs := plannedSuite(t, scheduleFixture)
	n := 0
	for _, sc := range scs {
		destructive := false
		for _, tg := range sc.Tags {
			destructive = destructive || tg.Name == "@destructive"
		}
		if !destructive {
			continue
		}
		n++
		if tn := e.schedule.turns[sc.Id]; tn.kind() == 0 {
			t.Errorf("%s: tagged @destructive, but the plan has it change no record group (%s): its steps do not declare the operation that changes", sc.Name, tn)
		}
	}
	if n == 0 {
		t.Error("expected scenarios tagged @destructive, got none")
	}
}

// TestOpNamed holds the one conversion of a step's text to an operation:
// an operation's id gives it, any other name is an error naming it, and
// what a step declares leaves such a name out (the step refuses it before
// it sends anything).
func TestOpNamed(t *testing.T) {
	tests := []struct {
		name    string
		want    registry.OpID
		wantErr bool
	}{
		{"E7", registry.E7, false},
		{"NR", registry.NR, false},
		{"E99", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		got, err := opNamed(tt.name)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("opNamed(%q): expected %q (error: %v), got %q, %v", tt.name, tt.want, tt.wantErr, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), `"`+tt.name+`"`) {
			t.Errorf("opNamed(%q): expected the error to name %q, got %v", tt.name, tt.name, err)
		}
	}
	if got, want := opsNamed("E7", "E99", "NG"), []registry.OpID{registry.E7, registry.NG}; !slices.Equal(got, want) {
		t.Errorf("opsNamed: expected %v, got %v", want, got)
	}
}
