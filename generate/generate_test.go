package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/internal/inproc"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/simulator/defects"
	"github.com/campusconf/campusconf/simulator/variants"
)

// counting records the method of every request it carries.
type counting struct {
	next    http.RoundTripper
	mu      sync.Mutex
	methods map[string]int
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.methods[r.Method]++
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

// target is a fresh simulator with defects and a client that counts.
func target(t *testing.T, defs ...defects.Name) (*simulator.Simulator, *http.Client, *counting) {
	t.Helper()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = string(d)
	}
	sim, err := simulator.New(simulator.Options{Defects: names})
	if err != nil {
		t.Fatal(err)
	}
	c := &counting{next: inproc.Transport{Handler: sim}, methods: map[string]int{}}
	return sim, &http.Client{Transport: c}, c
}

func runAgainst(t *testing.T, cfg Config, defs ...defects.Name) ([]reports.Scenario, Stats) {
	t.Helper()
	sim, client, _ := target(t, defs...)
	cfg.BaseURL, cfg.Client, cfg.Fixture = "http://127.0.0.1:8080", client, sim.Fixtures()
	scs, st, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return scs, st
}

func findings(scs []reports.Scenario) []string {
	var out []string
	for _, sc := range scs {
		if sc.Outcome == reports.Failed {
			out = append(out, fmt.Sprintf("%s\n    expected: %s\n    got: %s\n    %s", sc.Name, sc.Failure.Expected, sc.Failure.Got, sc.Failure.Curl))
		}
	}
	return out
}

// TestSimulatorHasNoFindings: the simulator answers any number of
// generated requests without a finding, whatever the seed.
func TestSimulatorHasNoFindings(t *testing.T) {
	n, seeds := 200, []int64{1, 2, 3, 1234}
	if testing.Short() {
		n, seeds = 50, seeds[:2] // the race run: fewer, same code paths
	}
	for _, seed := range seeds {
		start := time.Now()
		scs, st := runAgainst(t, Config{N: n, Seed: seed})
		took := time.Since(start)
		t.Logf("seed %d: %d requests in %s (%.0f per second)", seed, st.Requests, took.Round(time.Millisecond), float64(st.Requests)/took.Seconds())
		if f := findings(scs); len(f) > 0 {
			t.Errorf("seed %d: expected no finding, got %d:\n  %s", seed, len(f), strings.Join(f, "\n  "))
		}
		var passed []string
		for _, sc := range scs {
			passed = append(passed, sc.Requirements...)
		}
		for _, p := range Properties {
			if !slices.Contains(passed, string(p)) {
				t.Errorf("seed %d: expected a passed scenario for %s, got none (the property was never checked)", seed, p)
			}
		}
	}
}

// TestFindingIsShrunkAndGrouped: a defect that crashes on limit=1000 gives
// one finding per list operation, whatever the number of failing
// requests, each shrunk to the one parameter that matters and carrying
// the seed and a curl line.
func TestFindingIsShrunkAndGrouped(t *testing.T) {
	scs, _ := runAgainst(t, Config{N: 100, Seed: DefaultSeed}, defects.GenLimitMax500)
	seen := map[string]bool{}
	for _, sc := range scs {
		if sc.Outcome != reports.Failed {
			continue
		}
		if got, want := sc.Requirements, []string{string(NoServerError)}; !slices.Equal(got, want) {
			t.Errorf("%s: requirements: expected %v, got %v", sc.Name, want, got)
		}
		if seen[sc.Operation] {
			t.Errorf("%s: expected one finding per operation, got a second one", sc.Name)
		}
		seen[sc.Operation] = true
		f := sc.Failure
		if !strings.Contains(sc.Exchanges[0].URL, "limit=1000") {
			t.Errorf("%s: expected the shrunk request to carry only limit=1000, got %s", sc.Name, sc.Exchanges[0].URL)
		}
		if !strings.Contains(f.Curl, "limit=1000") || !strings.Contains(f.Message, "--generate-seed 1") || !strings.Contains(sc.Name, "(seed 1)") {
			t.Errorf("%s: expected a curl line with limit=1000 and the seed in name and message, got curl %q, message %q", sc.Name, f.Curl, f.Message)
		}
	}
	if len(seen) < 2 {
		t.Errorf("expected findings on several list operations, got %v", seen)
	}
}

// TestSameSeedSameRequests: a seed replays the same requests; another seed
// sends others.
func TestSameSeedSameRequests(t *testing.T) {
	sim, _, _ := target(t)
	specs := specsFor(t, sim.Fixtures())
	ids := idSources(sim.Fixtures())
	draw := func(seed int64) []string {
		var out []string
		for _, s := range specs {
			g := requests(s, ids)
			for i := range 20 {
				out = append(out, g.Example(seedFor(seed, s.id, i)).key(s))
			}
		}
		return out
	}
	a, b, c := draw(7), draw(7), draw(8)
	if !slices.Equal(a, b) {
		t.Error("seed 7 twice: expected the same requests, got different ones")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 7 and 8: expected different requests, got the same")
	}
}

func specsFor(t *testing.T, f *fixtures.File) []*opSpec {
	t.Helper()
	_, _, specs, err := loadSpecs(f)
	if err != nil {
		t.Fatal(err)
	}
	return specs
}

// TestEveryOperationIsGenerated: every operation of the catalogue gets
// requests (the fixture places the unplaced ones), with both valid and
// invalid ones where a rule can be broken.
func TestEveryOperationIsGenerated(t *testing.T) {
	sim, _, _ := target(t)
	cat, _ := features.Load()
	specs := specsFor(t, sim.Fixtures())
	ids := idSources(sim.Fixtures())
	var got []string
	for _, s := range specs {
		got = append(got, string(s.id))
		valid, invalid := 0, 0
		g := requests(s, ids)
		for i := range 100 {
			if g.Example(seedFor(1, s.id, i)).Bad == nil {
				valid++
			} else {
				invalid++
			}
		}
		canBreak := len(s.pathParams) > 0 || len(s.query) > 0 || (s.body != nil && s.fixedBody == nil)
		if valid == 0 || (canBreak && invalid == 0) {
			t.Errorf("%s: expected valid and invalid requests, got %d valid, %d invalid", s.id, valid, invalid)
		}
	}
	if want := cat.OperationIDs(); !slices.Equal(got, want) {
		t.Errorf("operations: expected %v, got %v", want, got)
	}
}

// TestReadOnlySendsOnlyReads: with ReadOnly nothing but GET is sent.
func TestReadOnlySendsOnlyReads(t *testing.T) {
	sim, client, c := target(t)
	_, _, err := Run(t.Context(), Config{BaseURL: "http://127.0.0.1:8080", Client: client, Fixture: sim.Fixtures(), N: 10, Seed: 1, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.methods) != 1 || c.methods["GET"] == 0 {
		t.Errorf("expected only GET requests, got %v", c.methods)
	}
}

// TestEndedContextStops: a run whose budget is spent sends nothing more,
// and says so with a skipped scenario.
func TestEndedContextStops(t *testing.T) {
	sim, client, c := target(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	scs, st, err := Run(ctx, Config{BaseURL: "http://127.0.0.1:8080", Client: client, Fixture: sim.Fixtures(), N: 100, Seed: 1})
	if err != nil || len(scs) != 1 || scs[0].Outcome != reports.Skipped || st.Requests != 0 || len(c.methods) != 0 {
		t.Errorf("expected no request and one skipped scenario, got %d scenarios (%v), %d requests (%v), error %v", len(scs), scs, st.Requests, c.methods, err)
	}
}

// TestFindingsHoldNoSecret: credentials never reach a finding's exchanges.
func TestFindingsHoldNoSecret(t *testing.T) {
	sim, client, _ := target(t, defects.GenUpperUUID500)
	f := sim.Fixtures()
	secrets := map[string]string{f.SubscriptionKey: "<SUBSCRIPTION_KEY>"}
	for name, u := range f.Users {
		for h, v := range u.Headers {
			secrets[v] = "<" + h + "_" + name + ">"
		}
	}
	scs, _, err := Run(t.Context(), Config{BaseURL: "http://127.0.0.1:8080", Client: client, Fixture: f, N: 50, Seed: 1,
		Redactor: redact.With(secrets), Operations: []string{"E19"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(findings(scs)) == 0 {
		t.Fatal("expected a finding on E19, got none")
	}
	for _, sc := range scs {
		for _, ex := range sc.Exchanges {
			text := fmt.Sprint(ex)
			for secret := range secrets {
				if strings.Contains(text, secret) {
					t.Errorf("%s: expected no credential in the exchange, got one: %s", sc.Name, text)
				}
			}
		}
	}
}

// TestCandidatesKeepTheBrokenRule: shrinking never removes the part that
// makes a request invalid, and always makes the request smaller.
func TestCandidatesKeepTheBrokenRule(t *testing.T) {
	sim, _, _ := target(t)
	specs := specsFor(t, sim.Fixtures())
	ids := idSources(sim.Fixtures())
	for _, s := range specs {
		g := requests(s, ids)
		for i := range 50 {
			r := g.Example(seedFor(3, s.id, i))
			for _, c := range candidates(s, r) {
				if (c.Bad == nil) != (r.Bad == nil) || (r.Bad != nil && *c.Bad != *r.Bad) {
					t.Fatalf("%s: candidate changed the broken rule: %+v -> %+v", s.id, r.Bad, c.Bad)
				}
				if r.Bad != nil && strings.HasPrefix(r.Bad.Where, "query.") {
					name := strings.TrimPrefix(r.Bad.Where, "query.")
					if !slices.ContainsFunc(c.Query, func(kv KV) bool { return kv.Name == name }) {
						t.Fatalf("%s: candidate dropped the broken parameter %s: %s", s.id, name, c.key(s))
					}
				}
				if c.key(s) == r.key(s) {
					t.Fatalf("%s: candidate equals the request: %s", s.id, c.key(s))
				}
			}
		}
	}
}

// TestFaultsAreFound: injected failures are told apart: a documented
// outage (503 on the second-factor operations) is no finding, a 500 is.
func TestFaultsAreFound(t *testing.T) {
	tests := []struct {
		faults simulator.Faults
		want   []string // operations with a GEN.no-5xx finding
	}{
		{simulator.Faults{TwoFactorRate: 0.5}, nil},
		{simulator.Faults{Operation: "E20", OperationRate: 0.5}, []string{"E20"}},
	}
	for _, tt := range tests {
		sim, err := simulator.New(simulator.Options{Faults: tt.faults})
		if err != nil {
			t.Fatal(err)
		}
		scs, _, err := Run(t.Context(), Config{BaseURL: "http://127.0.0.1:8080", Client: inproc.Client(sim), Fixture: sim.Fixtures(),
			N: 30, Seed: 1, Operations: []string{"E1", "E2", "E3", "E20"}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, sc := range scs {
			if sc.Outcome == reports.Failed && slices.Contains(sc.Requirements, string(NoServerError)) {
				got = append(got, sc.Operation)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("faults %+v: expected GEN.no-5xx findings on %v, got %v (%s)", tt.faults, tt.want, got, strings.Join(findings(scs), "; "))
		}
	}
}

// TestFaithfulVariantsHaveNoFindings: the simulator's faithful variants
// (other choices where the specification is open) give no finding either:
// each alone at a small N, and as many together as their choices allow at
// N=100.
func TestFaithfulVariantsHaveNoFindings(t *testing.T) {
	var together []string
	runs := [][]string{}
	for _, v := range variants.All() {
		if !testing.Short() {
			runs = append(runs, []string{string(v.Name)})
		}
		if !slices.ContainsFunc(together, func(name string) bool {
			w, _ := variants.Lookup(name)
			return !variants.Compatible(w, v)
		}) {
			together = append(together, string(v.Name))
		}
	}
	runs = append(runs, together)
	for _, vs := range runs {
		n := 15
		if len(vs) > 1 && !testing.Short() {
			n = 100
		}
		sim, err := simulator.New(simulator.Options{Variants: vs})
		if err != nil {
			t.Fatal(err)
		}
		scs, _, err := Run(t.Context(), Config{BaseURL: "http://127.0.0.1:8080", Client: inproc.Client(sim), Fixture: sim.Fixtures(), N: n, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if f := findings(scs); len(f) > 0 {
			t.Errorf("variants %v: expected no finding, got %d:\n  %s", vs, len(f), strings.Join(f, "\n  "))
		}
	}
}

// TestDroppedConnectionIsFound: a server that drops the connection on one
// input (a crash that takes the request down) is listed, not silence: an
// error scenario per operation naming the request, never a failed
// property, since no HTTP answer came to judge.
func TestDroppedConnectionIsFound(t *testing.T) {
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("limit") == "1000" {
			panic(http.ErrAbortHandler) // the connection is closed, no answer
		}
		sim.ServeHTTP(w, r)
	}))
	defer srv.Close()
	scs, _, err := Run(t.Context(), Config{BaseURL: srv.URL, Client: srv.Client(), Fixture: sim.Fixtures(), N: 60, Seed: 1,
		RequestTimeout: 5 * time.Second, Operations: []string{"E17", "E20"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sc := range scs {
		switch sc.Outcome {
		case reports.Failed:
			t.Errorf("%s failed: a request with no answer is no finding of a property", sc.Name)
		case reports.Error:
			got = append(got, sc.Operation)
			if !strings.Contains(sc.Failure.Message, "no HTTP answer") || !strings.Contains(sc.Exchanges[0].URL, "limit=1000") || len(sc.Failure.Requirements) > 0 {
				t.Errorf("%s: expected no answer to a request with limit=1000 and no requirement failed, got %q for %s", sc.Name, sc.Failure.Message, sc.Exchanges[0].URL)
			}
		}
	}
	if want := []string{"E17", "E20"}; !slices.Equal(got, want) {
		t.Errorf("expected errors of %v, got %v", want, got)
	}
}

// TestIDSourcesNameRealPlaces: every place the fixture's ids go is a path
// parameter or body member the OpenAPI document gives the operation, so a
// renamed member cannot silently lose its ids.
func TestIDSourcesNameRealPlaces(t *testing.T) {
	sim, _, _ := target(t)
	specs := map[string]*opSpec{}
	for _, s := range specsFor(t, sim.Fixtures()) {
		specs[string(s.id)] = s
	}
	for key, ids := range idSources(sim.Fixtures()) {
		op, place, _ := strings.Cut(key, ".")
		s := specs[op]
		if s == nil {
			t.Errorf("%s: no operation %s", key, op)
			continue
		}
		if len(ids) == 0 {
			t.Errorf("%s: the simulator's fixture gives no id", key)
		}
		named := func(p param) bool { return p.name == place }
		found := slices.ContainsFunc(s.pathParams, named) || slices.ContainsFunc(s.query, named)
		if !found && s.body != nil {
			sc := s.body
			found = true
			for _, name := range strings.Split(place, ".") {
				if sc.Type.Is("array") {
					sc = sc.Items.Value
				}
				ref := sc.Properties[name]
				if ref == nil {
					found = false
					break
				}
				sc = ref.Value
			}
		}
		if !found {
			t.Errorf("%s: %s has no path or query parameter or body member %q", key, op, place)
		}
	}
}

// TestUnclaimedProfilesGetNoRequest: with a fixture claiming only the
// resources profile (E20), every generated request goes to E20, and a
// defect on an operation of another profile is no finding.
func TestUnclaimedProfilesGetNoRequest(t *testing.T) {
	sim, err := simulator.New(simulator.Options{Defects: []string{string(defects.GenEmptyIDs500)}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	paths := map[string]int{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.Method+" "+strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)[0]]++
		mu.Unlock()
		sim.ServeHTTP(w, r)
	})
	f := sim.Fixtures()
	f.Implements = []string{"resources"}
	scs, st, err := Run(t.Context(), Config{BaseURL: "http://127.0.0.1:8080", Client: inproc.Client(h), Fixture: f, N: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Requests == 0 {
		t.Fatal("expected generated requests to E20, got none")
	}
	for p := range paths {
		if p != "GET resource" {
			t.Errorf("expected requests to GET /resource/... (E20) only, got %v", paths)
			break
		}
	}
	for _, sc := range scs {
		if sc.Operation != "E20" && sc.Operation != features.AllOperations {
			t.Errorf("expected findings of E20 only, got %s on %s", sc.Name, sc.Operation)
		}
	}
}

// TestEdgesAreFound: a simulator defect answering 500 on each kind of edge
// input is found by the edge requests alone (N=0 draws nothing), so it
// is found at any N and any seed.
func TestEdgesAreFound(t *testing.T) {
	tests := []struct {
		defect defects.Name
		op     string
	}{
		{defects.GenLimitInt32Max500, "E20"},
		{defects.GenIDInt64Max500, "NR"},
		{defects.GenPopulateTwice500, "E9"},
		{defects.GenPopulateCombined500, "E6"},
		{defects.GenPopulateEmpty500, "E20"},
		{defects.GenSortbyTwice500, "E17"},
		{defects.GenSortbyCombined500, "E10"},
		{defects.GenSortbyEmpty500, "E18"},
		{defects.GenIDsMany500, "E8"},
		{defects.GenSchemaEmpty500, "GB"},
	}
	for _, tt := range tests {
		t.Run(string(tt.defect), func(t *testing.T) {
			scs, _ := runAgainst(t, Config{N: 0, Seed: 1, Operations: []string{tt.op}}, tt.defect)
			found := slices.ContainsFunc(scs, func(sc reports.Scenario) bool {
				return sc.Outcome == reports.Failed && sc.Operation == tt.op && slices.Contains(sc.Requirements, string(NoServerError))
			})
			if !found {
				t.Errorf("defect %s: expected a GEN.no-5xx finding on %s from the edge requests, got none; findings: %v", tt.defect, tt.op, findings(scs))
			}
		})
	}
}

// TestEdges lists the edge requests of a few operations: the range ends
// and one beyond, the type extremes and one beyond, list-like query
// parameters twice, combined and empty, arrays empty, of one and many.
func TestEdges(t *testing.T) {
	sim, _, _ := target(t)
	f := sim.Fixtures()
	specs := specsFor(t, f)
	describe := func(op registry.OpID) []string {
		var out []string
		for _, s := range specs {
			if s.id != op {
				continue
			}
			for _, r := range edges(s, idSources(f)) {
				d := r.url("", s)
				if r.HasBody {
					d += " " + summary(r.Body)
				}
				if r.Bad != nil {
					d += " [" + r.Bad.What + "]"
				}
				out = append(out, d)
			}
		}
		return out
	}
	must := map[registry.OpID][]string{
		"E20": {"limit=2147483647", "limit=-2147483648", "limit=2147483648 [integer beyond its format (int32)]",
			"offset=2147483647", "populate=photo&populate=photo", "populate=photo%2Cphoto", "populate= ",
			"sortby=email+asc&sortby=email+asc", "sortby=email+asc%2CuserName+desc", "sortby= "},
		"E6": {"populate=Creator%2CContentCount", "populate=Creator&populate=Creator", "populate= "},
		"NR": {"read:10", "read:11", "read:9 [outside the stated range by one]", "read:12 [outside the stated range by one]",
			"id:9223372036854775807 read:10", "id:-9223372036854775808 read:10", "id:9223372036854775808 read:10 [integer beyond its format (int64)]"},
		"E14": {"iDs:0", "iDs:1", "iDs:100"},
		"GB":  {"gradingSchema:0", "gradingSchema:1", "gradingSchema:100", "iD_Weightage:0", "iD_Weightage:100"},
	}
	for op, wants := range must {
		got := describe(op)
		for _, w := range wants {
			if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g+" ", w) }) {
				t.Errorf("%s: expected an edge request with %q, got:\n  %s", op, w, strings.Join(got, "\n  "))
			}
		}
	}
}

// summary describes a body by its members: a number as name:value, an
// array as name:length.
func summary(body any) string {
	m, _ := body.(map[string]any)
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch v := m[k].(type) {
		case []any:
			parts = append(parts, fmt.Sprintf("%s:%d", k, len(v)))
		case int64, float64, json.Number:
			parts = append(parts, fmt.Sprintf("%s:%v", k, v))
		}
	}
	return strings.Join(parts, " ")
}
