package registry_test

import (
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// The registry is the one place an operation is named; the catalogue, the
// OpenAPI document and docs/fixtures.md are separate artefacts, and these
// tests keep them in step with it. A failure names the operation, what the
// registry says and what the artefact says; fix whichever is wrong.

func catalogue(t *testing.T) *features.Catalogue {
	t.Helper()
	c, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCatalogueAgrees(t *testing.T) {
	c := catalogue(t)
	if got, want := c.OperationIDs(), registry.Strings(registry.IDs()); !slices.Equal(got, want) {
		t.Fatalf("features/requirements.json operations = %v, registry = %v (same ids, same order)", got, want)
	}
	for _, op := range registry.All() {
		co, _ := c.Operation(string(op.ID))
		if co.Name != op.Name {
			t.Errorf("%s: catalogue name %q, registry %q", op.ID, co.Name, op.Name)
		}
		if op.Placed {
			if co.Method != op.Method || co.Path != op.Path {
				t.Errorf("%s: catalogue places it at %s %s, registry at %s %s", op.ID, co.Method, co.Path, op.Method, op.Path)
			}
			if op.Alias != "" || op.AltPath != "" {
				t.Errorf("%s: a placed operation has no alias or alternative path", op.ID)
			}
		} else if co.Path != "" || co.FixtureKey != string(op.ID) {
			t.Errorf("%s: catalogue path %q fixtureKey %q, want no path and fixtureKey %q", op.ID, co.Path, co.FixtureKey, op.ID)
		}
		// The flags the defect lists read stand for a requirement each.
		for _, f := range []struct {
			suffix string
			flag   bool
		}{
			{".400.json", op.JSONBody}, {".400.required", op.RequiredMembers}, {".400.uuid", op.UUIDInput},
			{".limit", op.Paged}, {".offset", op.Paged},
		} {
			if _, has := c.Requirement(op.ID.Requirement(f.suffix)); has != f.flag {
				t.Errorf("%s: registry flag for %s is %v, the catalogue has the requirement %s: %v", op.ID, f.suffix, f.flag, op.ID.Requirement(f.suffix), has)
			}
		}
		if op.List {
			if _, has := c.Requirement(op.ID.Requirement(".200")); !has {
				t.Errorf("%s answers a list, but the catalogue has no %s.200 for its entries", op.ID, op.ID)
			}
		}
	}
}

func TestOpenAPIAgrees(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	v, err := openapi.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			id := openapi.IDOf(o)
			seen[id] = true
			op, ok := registry.Lookup(id)
			if !ok || string(op.ID) != id {
				t.Errorf("openapi.yaml: %s %s has %s %q, which the registry does not know", method, path, openapi.IDExtension, id)
				continue
			}
			if o.OperationID != op.OperationID() {
				t.Errorf("%s: openapi.yaml has operationId %q, the registry %q (registry.Operation.OperationID)", op.ID, o.OperationID, op.OperationID())
			}
			if op.Method != method || op.Path != path {
				t.Errorf("%s: openapi.yaml has it at %s %s, the registry at %s %s", op.ID, method, path, op.Method, op.Path)
			}
			success, content := 0, false
			for code, r := range o.Responses.Map() {
				n, err := strconv.Atoi(code)
				if err != nil || n < 200 || n >= 300 {
					continue
				}
				if success == 0 || n < success {
					success = n
				}
				content = content || len(r.Value.Content) > 0
			}
			if op.EmptyAnswer == content {
				t.Errorf("%s: openapi.yaml gives a success body: %v, the registry's EmptyAnswer is %v", op.ID, content, op.EmptyAnswer)
			}
			record, list := v.RecordOf(string(op.ID), success)
			if record != op.Record || (record != "" && list != op.List) {
				t.Errorf("%s: openapi.yaml answers %d with record %q (list %v), the registry says %q (list %v)", op.ID, success, record, list, op.Record, op.List)
			}
		}
	}
	for _, id := range registry.IDs() {
		if !seen[string(id)] {
			t.Errorf("%s: not in openapi.yaml", id)
		}
	}
}

func TestRecordKeysAreFixtureKeys(t *testing.T) {
	keys := map[string]bool{}
	rt := reflect.TypeOf(fixtures.Records{})
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	for _, op := range registry.All() {
		for _, k := range op.Records {
			if !keys[k] {
				t.Errorf("%s needs records.%s, which the fixture format does not have", op.ID, k)
			}
		}
	}
}

// TestFixtureDocAgrees checks the tables of docs/fixtures.md: a row per
// record an operation needs, and one row per unplaced operation with its
// old name.
func TestFixtureDocAgrees(t *testing.T) {
	data, err := os.ReadFile("../../docs/fixtures.md")
	if err != nil {
		t.Fatal(err)
	}
	users := registry.RecordUsers()
	documented := map[string]bool{}
	key := regexp.MustCompile("`([A-Za-z]+)`")
	section := ""
	for line := range strings.Lines(string(data)) {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSpace(h)
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if section == "Records" && len(cells) == 2 && strings.HasPrefix(strings.TrimSpace(cells[0]), "`") {
			for _, m := range key.FindAllStringSubmatch(cells[0], -1) {
				documented[m[1]] = true
			}
			continue
		}
		if len(cells) != 3 {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(cells[0]), "`operations.") {
			id := strings.TrimSuffix(strings.TrimPrefix(key.FindString(strings.ReplaceAll(cells[0], "operations.", "")), "`"), "`")
			op, ok := registry.Lookup(id)
			if !ok || op.Placed {
				t.Errorf("docs/fixtures.md: operations.%s is not an unplaced operation", id)
				continue
			}
			documented["operations."+id] = true
			if !strings.Contains(cells[0], "`"+op.Alias+"`") {
				t.Errorf("docs/fixtures.md: the row of operations.%s does not give its old name %s", id, op.Alias)
			}
			continue
		}
	}
	for k := range users {
		if !documented[k] {
			t.Errorf("docs/fixtures.md: records.%s (needed by %v) has no row", k, users[k])
		}
	}
	for _, id := range registry.Unplaced() {
		if !documented["operations."+string(id)] {
			t.Errorf("docs/fixtures.md: operations.%s has no row", id)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		want registry.OpID
		ok   bool
	}{
		{"E10", "E10", true},
		{"QS", "QS", true},
		{"updateQuizSection", "QS", true},
		{"updateGradebookSettings", "GB", true},
		{"E99", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		op, ok := registry.Lookup(tt.name)
		if op.ID != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.name, op.ID, ok, tt.want, tt.ok)
		}
		wantID := string(tt.want)
		if !tt.ok {
			wantID = tt.name
		}
		if got := registry.ID(tt.name); got != wantID {
			t.Errorf("ID(%q) = %q, want %q", tt.name, got, wantID)
		}
	}
}

// TestCallsNameTheirPathParameters: a typical or forbidden call gives
// exactly the parameters its path has (names compared without case, as
// the suite fills them in), and a body only with HasBody.
func TestCallsNameTheirPathParameters(t *testing.T) {
	param := regexp.MustCompile(`\{([^{}$]+)\}`)
	for _, op := range registry.All() {
		var want []string
		for _, m := range param.FindAllStringSubmatch(op.Path, -1) {
			want = append(want, strings.ToLower(m[1]))
		}
		slices.Sort(want)
		calls := []registry.Call{op.Typical}
		if op.Forbidden != nil {
			calls = append(calls, *op.Forbidden)
		}
		for _, c := range calls {
			var got []string
			for k := range c.Params {
				got = append(got, strings.ToLower(k))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s: call parameters %v, path %s has %v", op.ID, got, op.Path, want)
			}
			if c.Body != "" && !c.HasBody {
				t.Errorf("%s: a call with a body that is not sent", op.ID)
			}
		}
		if op.Load && op.Destructive && op.LoadBody == "" {
			t.Errorf("%s: the load command may call only reads and idempotent writes with a body of their own", op.ID)
		}
		if op.Placed == (op.AltPath != "") {
			t.Errorf("%s: an alternative path is given exactly for the unplaced operations", op.ID)
		}
	}
}

func TestFill(t *testing.T) {
	lookup := func(key string) (string, error) {
		if key == "records.folder" {
			return "f-1", nil
		}
		return "", fmt.Errorf("no %s", key)
	}
	tests := []struct {
		text, want, wantErr string
	}{
		{"id={records.folder}&x={notaroot.y}", "id=f-1&x={notaroot.y}", ""},
		{`{"id": "{records.folder}"}`, `{"id": "f-1"}`, ""},
		{"{records.file}", "", "no records.file"},
	}
	for _, tt := range tests {
		got, err := registry.Fill(tt.text, lookup)
		switch {
		case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
			t.Errorf("Fill(%q): expected error %q, got %v", tt.text, tt.wantErr, err)
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("Fill(%q): expected %q, got %q, %v", tt.text, tt.want, got, err)
		}
	}
}

// TestChangesState holds the mark a read-only run relies on: every
// operation that changes fixture records changes state, every GET and the
// push poll (E2, a POST that only reads) do not, and every other write
// does.
func TestChangesState(t *testing.T) {
	for _, o := range registry.All() {
		want := o.Method != "GET" && o.ID != registry.E2
		if got := o.ChangesState; got != want {
			t.Errorf("%s (%s %s): ChangesState = %v, want %v", o.ID, o.Method, o.Path, got, want)
		}
		if o.Destructive && !o.ChangesState {
			t.Errorf("%s is Destructive but not ChangesState", o.ID)
		}
		if o.ChangesState && o.Group == "" {
			t.Errorf("%s changes state but names no record group: the scheduler could not keep its scenarios apart from those reading what it changes", o.ID)
		}
	}
}

// TestProbes holds every refusal probe to naming real records: a probe
// never sends an id that names nothing (an implementation checking
// permissions per record would have nothing to refuse), names its Subject
// where it has one, and names a record the run made where its setup makes
// one; a subject is a record the operation needs.
func TestProbes(t *testing.T) {
	for _, op := range registry.All() {
		c := op.Probe("")
		text := c.Body
		for _, v := range c.Params {
			text += " " + v
		}
		for _, v := range c.Query {
			text += " " + v
		}
		if strings.Contains(text, "{absent}") {
			t.Errorf("%s: expected a probe naming real records, got {absent} in %q", op.ID, text)
		}
		if op.Subject != "" {
			if !strings.Contains(text, "{records."+op.Subject+"}") {
				t.Errorf("%s: expected the probe to name its subject {records.%s}, got %q", op.ID, op.Subject, text)
			}
			root, _, _ := strings.Cut(op.Subject, ".")
			if !slices.Contains(op.Records, root) {
				t.Errorf("%s: subject %s is not among the records it needs %v", op.ID, op.Subject, op.Records)
			}
			other := op.Probe("other." + op.Subject)
			if o := other.Body + fmt.Sprint(other.Params, other.Query); strings.Contains(o, "{records."+op.Subject+"}") || !strings.Contains(o, "{records.other."+op.Subject+"}") {
				t.Errorf("%s: Probe(another record): expected the subject replaced, got %q", op.ID, o)
			}
		}
		if s := op.ProbeSetup; s != nil {
			if !strings.Contains(text, "{saved.probe}") || s.Save == "" {
				t.Errorf("%s: a probe setup saves a field the probe names as {saved.probe}; got %q saving %q", op.ID, text, s.Save)
			}
			if _, ok := registry.Lookup(string(s.Op)); !ok {
				t.Errorf("%s: probe setup of unknown operation %s", op.ID, s.Op)
			}
		}
	}
	if !registry.Must(registry.NR).SubjectIsNumber() || registry.Must(registry.E14).SubjectIsNumber() {
		t.Error("SubjectIsNumber: expected NR's notification id a number and E14's media a string")
	}
}

// TestProfiles holds the profiles to the grouping issue 27 gives (one per
// domain of the specification, /campus split between second factor and
// faculty). Their names and order are a public contract (conformance
// reports carry them), so they are pinned here; which operations each
// holds is the rows' Profile, which this test holds to the catalogue and
// the features rather than restating it: every operation in exactly one
// profile, the operations of one profile in one area, and each area in
// one profile (profileAreasAgree).
func TestProfiles(t *testing.T) {
	want := []registry.Profile{"second-factor", "faculty", "consultation", "bank", "attendance", "evaluation", "files", "modules",
		"multimedia", "survey", "poll", "resources", "web-lectures", "gradebook", "notifications", "quizzes"}
	if got := registry.ProfileNames(); !slices.Equal(got, want) {
		t.Errorf("registry.ProfileNames(): expected %v (names and order are in every conformance report), got %v", want, got)
	}
	name := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[registry.OpID]registry.Profile{}
	for _, g := range registry.Profiles() {
		if !name.MatchString(string(g.Name)) {
			t.Errorf("profile %q: expected lower-case words joined by hyphens", g.Name)
		}
		if p, ok := registry.LookupProfile(string(g.Name)); !ok || p != g.Name {
			t.Errorf("LookupProfile(%q) = %q, %v; expected %q, true", g.Name, p, ok, g.Name)
		}
		if len(g.Operations) == 0 {
			t.Errorf("profile %s: expected operations, got none", g.Name)
		}
		rows := registry.Select(func(o registry.Operation) bool { return o.Profile == g.Name })
		if !slices.Equal(g.Operations, rows) {
			t.Errorf("profile %s: expected the operations whose row names it, in report order, %v, got %v", g.Name, rows, g.Operations)
		}
		for _, id := range g.Operations {
			if other, dup := seen[id]; dup {
				t.Errorf("%s is in profiles %s and %s: expected exactly one", id, other, g.Name)
			}
			seen[id] = g.Name
			if p, ok := registry.ProfileOf(string(id)); !ok || p != g.Name {
				t.Errorf("ProfileOf(%s) = %q, %v; expected %q", id, p, ok, g.Name)
			}
		}
	}
	for _, id := range registry.IDs() {
		if _, ok := seen[id]; !ok {
			t.Errorf("%s is in no profile", id)
		}
	}
	profileAreasAgree(t)
	for _, alias := range []string{"updateGradebookSettings", "getNotificationByGroup"} {
		if _, ok := registry.ProfileOf(alias); !ok {
			t.Errorf("ProfileOf(%q): expected the profile of the aliased operation", alias)
		}
	}
	for _, bad := range []string{"", "ALL", "Attendance", "second factor"} {
		if _, ok := registry.LookupProfile(bad); ok {
			t.Errorf("LookupProfile(%q): expected no profile", bad)
		}
		if _, ok := registry.ProfileOf(bad); ok {
			t.Errorf("ProfileOf(%q): expected no profile", bad)
		}
	}
}

// area is where the catalogue and the features put an operation.
type area struct {
	op      registry.Operation
	feature string // the feature file tagging its success requirement
	path    string // the first segment of its path, lower-case; "" for an unplaced operation
}

func (a area) where() string {
	if a.path == "" {
		return "unplaced"
	}
	return "under /" + a.path
}

// splitArea is the one area of paths the profiles split: /campus, between
// its second-factor operations and the faculty synchronisation
// (registry.Profile).
const splitArea = "campus"

// profileAreasAgree holds each operation's profile to where the catalogue
// and the features put it, sources written apart from the rows: the
// feature file tagging its success requirement (requirements.json's
// "success") and, for an operation the specification places, the first
// segment of its path in requirements.json. The operations of one profile
// share their feature file and their area of paths; operations of two
// profiles share no area of paths (but /campus), and an unplaced one
// shares its feature file only with its profile's (the domain it serves).
// A feature file may hold several profiles whose paths differ
// (files.feature: /files and /module).
func profileAreasAgree(t *testing.T) {
	t.Helper()
	c := catalogue(t)
	tagged := map[string][]string{}
	files, err := fs.Glob(features.FS, "*.feature")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := fs.ReadFile(features.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "@") {
				for _, tag := range strings.Fields(l) {
					if id := strings.TrimPrefix(tag, "@"); !slices.Contains(tagged[id], f) {
						tagged[id] = append(tagged[id], f)
					}
				}
			}
		}
	}
	var areas []area
	for _, op := range registry.All() {
		co, ok := c.Operation(string(op.ID))
		if !ok {
			t.Errorf("%s: not in features/requirements.json", op.ID)
			continue
		}
		in := tagged[co.Success]
		if len(in) != 1 {
			t.Errorf("%s: expected its success requirement %s tagged in one feature file, got %v", op.ID, co.Success, in)
			continue
		}
		seg, _, _ := strings.Cut(strings.TrimPrefix(co.Path, "/"), "/")
		areas = append(areas, area{op, in[0], strings.ToLower(seg)})
	}
	for i, a := range areas {
		for _, b := range areas[i+1:] {
			placed := a.path != "" && b.path != ""
			pair := fmt.Sprintf("%s (profile %s, %s, %s) and %s (profile %s, %s, %s)",
				a.op.ID, a.op.Profile, a.feature, a.where(), b.op.ID, b.op.Profile, b.feature, b.where())
			switch {
			case a.op.Profile == b.op.Profile && a.feature != b.feature:
				t.Errorf("%s: expected one profile's success scenarios in one feature file, got two", pair)
			case a.op.Profile == b.op.Profile && placed && a.path != b.path:
				t.Errorf("%s: expected one profile's paths under one first segment, got /%s and /%s", pair, a.path, b.path)
			case a.op.Profile != b.op.Profile && placed && a.path == b.path && a.path != splitArea:
				t.Errorf("%s: expected the operations under /%s in one profile, got two", pair, a.path)
			case a.op.Profile != b.op.Profile && !placed && a.feature == b.feature:
				t.Errorf("%s: expected an unplaced operation in the profile of the operations whose feature file holds it, got two profiles", pair)
			}
		}
	}
}
