package reports

import (
	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/version"
)

// releaseOf is the release a conformance report of suite and digest is
// held to: a cut one of version.Releases, or, for this build's suite in
// development, one made of this build's catalogue (features.ScenarioCounts),
// which a scenario or an operation added since the last cut changes
// without an edit to a row. False for any other suite.
func releaseOf(suite, digest string) (version.Release, bool) {
	if rel, ok := version.ReleaseOf(suite, digest); ok {
		return rel, true
	}
	if suite != version.Suite || digest != version.SpecDigest {
		return version.Release{}, false
	}
	n, err := features.ScenarioCounts()
	if err != nil {
		// the embedded catalogue is checked by the tests of every build:
		// a build whose own catalogue does not parse verifies nothing
		return version.Release{}, false
	}
	return version.Release{Suite: suite, SpecDigest: digest, Scenarios: n.Profiles, Unplaced: n.Unplaced}, true
}
