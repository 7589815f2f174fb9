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

// TestReleaseScenarioCounts holds this build's row of version.Releases to
// the catalogue: the scenarios of each profile in a run of the whole
// suite, which `campusconf report verify` holds a full run's conformance
// report to. A scenario added or removed fails here until the row of the
// suite version it goes out in says so.
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
	rel, ok := version.ReleaseOf(version.Suite, version.SpecDigest)
	if !ok {
		t.Fatalf("version.Releases: expected a row for this build's suite %s, got none", version.Suite)
	}
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
	if unplaced != rel.Unplaced {
		t.Errorf("version.Releases, suite %s: expected Unplaced to be the catalogue's %d scenarios of no fixed operation, got %d", version.Suite, unplaced, rel.Unplaced)
	}
	if !maps.Equal(got, rel.Scenarios) {
		var lines []string
		for _, name := range slices.Sorted(maps.Keys(got)) {
			if got[name] != rel.Scenarios[name] {
				lines = append(lines, fmt.Sprintf("%s: %d in the catalogue, %d in the row", name, got[name], rel.Scenarios[name]))
			}
		}
		for name := range rel.Scenarios {
			if _, ok := got[name]; !ok {
				lines = append(lines, fmt.Sprintf("%s: none in the catalogue, %d in the row", name, rel.Scenarios[name]))
			}
		}
		t.Errorf("version.Releases, suite %s: expected the scenarios per profile of the catalogue, got another count (a scenario added or removed: if suite %s is released, raise version.Suite and add a row, else correct its row):\n  %s\n  the catalogue's row: %#v",
			version.Suite, version.Suite, strings.Join(lines, "\n  "), got)
	}
}
