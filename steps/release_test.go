package steps

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/version"
)

// TestReleaseScenarioCounts holds the counts `campusconf report verify`
// holds a full run's conformance report to: features.ScenarioCounts, read
// from the feature files, must be the scenarios per profile godog runs,
// as this package places them (operationOf); and once this build's suite
// is cut, its row of version.Releases must be them too (a scenario added
// or removed after the cut fails here until Suite is raised). While the
// suite is in development it prints the row to write when cutting.
func TestReleaseScenarioCounts(t *testing.T) {
	suite := godog.TestSuite{Name: "count", Options: &godog.Options{FS: features.FS, Paths: []string{"."}, Strict: true}}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := features.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{cat: cat}
	got, unplaced := map[string]int{}, 0
	for _, ft := range feats {
		for _, sc := range ft.Pickles {
			if p, ok := registry.ProfileOf(string(e.operationOf(sc))); ok {
				got[string(p)]++
			} else {
				unplaced++
			}
		}
	}
	counts, err := features.ScenarioCounts()
	if err != nil {
		t.Fatal(err)
	}
	holdCounts(t, "features.ScenarioCounts", counts.Profiles, counts.Unplaced, got, unplaced)
	rel, cut := version.ReleaseOf(version.Suite, version.SpecDigest)
	if !cut {
		t.Logf("suite %s is in development; its row of version.Releases when cut: Scenarios: %#v, Unplaced: %d", version.Suite, got, unplaced)
		return
	}
	holdCounts(t, "version.Releases, suite "+version.Suite+" (cut: raise version.Suite for a scenario added or removed)", rel.Scenarios, rel.Unplaced, got, unplaced)
}

// holdCounts fails naming each profile whose count in what differs from
// the scenarios godog runs (got, unplaced).
func holdCounts(t *testing.T, what string, counts map[string]int, n int, got map[string]int, unplaced int) {
	t.Helper()
	if n != unplaced {
		t.Errorf("%s: expected Unplaced to be the catalogue's %d scenarios of no fixed operation, got %d", what, unplaced, n)
	}
	if maps.Equal(got, counts) {
		return
	}
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if got[name] != counts[name] {
			lines = append(lines, fmt.Sprintf("%s: %d in the catalogue, %d here", name, got[name], counts[name]))
		}
	}
	for name := range counts {
		if _, ok := got[name]; !ok {
			lines = append(lines, fmt.Sprintf("%s: none in the catalogue, %d here", name, counts[name]))
		}
	}
	t.Errorf("%s: expected the scenarios per profile godog runs, got another count:\n  %s\n  the catalogue's: %#v", what, strings.Join(lines, "\n  "), got)
}
