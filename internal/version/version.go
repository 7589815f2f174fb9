// Package version says which build of campusconf is running, which suite
// it carries and which specification text that suite was written from, so
// that a report, a CTRF file and `campusconf version` can name all three
// and two reports can be told comparable or not.
//
// The package imports nothing of the project, so every side may import it.
package version

import (
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// Suite is the version of the conformance suite: its requirement
// catalogue, scenarios and verdict rules. Raise the major number when a
// requirement is removed or changes meaning, the minor number when
// requirements or scenarios are added, the patch number for fixes that
// change no requirement. Two reports of the same Suite checked the same
// rules. While Releases has no row of it, it is in development: the
// suite version the next release carries, whose catalogue may still
// grow (a report of it is held to this build's catalogue).
const Suite = "3.1.0"

// SpecDigest is the SHA-256 digest of the specification text the
// requirement catalogue was written from (the interface specification,
// kept beside the project as ../shared/spec/*.txt). A test compares it with
// that text where the text is present; a new text means a new digest and a
// review of the catalogue.
const SpecDigest = "sha256:4546cceab299c988cea769220a0a74d2f95bf8a6fcb0b5f1482492b7b4bfe2eb"

// Release is one released suite version, the specification digest its
// requirements were written from, and how many scenarios each profile has
// in a run of the whole suite.
type Release struct {
	Suite      string
	SpecDigest string
	// Scenarios is the number of scenarios of each profile (by name) in
	// a run of the whole suite (no tag selection, not read-only) that
	// has a fixed operation: a conformance report of mode full counts
	// these, the Unplaced ones, and with generated requests their
	// findings (failed and skipped ones). `campusconf report verify` holds a report's profile counts to
	// them, so a failing run's counts cannot be edited into a pass.
	Scenarios map[string]int
	// Unplaced is the number of scenarios of no fixed operation (the
	// refusals a fixture declares, ALL.forbidden): each counts in the
	// profile of the first operation it calls, which the fixture decides,
	// or in none. A full run's profiles hold at most this many scenarios
	// more than Scenarios in all.
	Unplaced int
}

// Releases are the suite versions cut so far, oldest first, each with
// the scenarios of its catalogue per profile, written when the version
// is cut (docs/releases.md) and never changed after: `campusconf report
// verify` accepts a conformance report written by any of them, so a
// report a vendor submitted stays verifiable after the suite moves on.
// This build's Suite has a row only once cut; until then (development)
// the reports package holds a report of it to this build's own catalogue
// (features.ScenarioCounts), so a scenario or an operation added during
// development edits no row. TestReleases holds the rows in order;
// steps' TestReleaseScenarioCounts holds a cut Suite's row to the
// catalogue, and prints the row to write when cutting.
var Releases = []Release{
	{Suite: "3.0.0", SpecDigest: "sha256:4546cceab299c988cea769220a0a74d2f95bf8a6fcb0b5f1482492b7b4bfe2eb",
		Scenarios: map[string]int{
			"second-factor": 32, "faculty": 7, "consultation": 13, "bank": 11, "attendance": 29,
			"evaluation": 35, "files": 34, "modules": 7, "multimedia": 43, "survey": 21, "poll": 30,
			"resources": 20, "web-lectures": 14, "gradebook": 21, "notifications": 32, "quizzes": 18,
		},
		Unplaced: 1},
}

// ReleaseOf returns the release of suite and digest, and false when this
// build lists none (Releases).
func ReleaseOf(suite, digest string) (Release, bool) {
	for _, r := range Releases {
		if r.Suite == suite && r.SpecDigest == digest {
			return r, true
		}
	}
	return Release{}, false
}

// Released reports whether suite and digest are those of a release this
// build lists (Releases).
func Released(suite, digest string) bool {
	_, ok := ReleaseOf(suite, digest)
	return ok
}

// InDevelopment reports whether this build's suite is not cut yet: no
// row of Releases is its Suite and SpecDigest.
func InDevelopment() bool { return !Released(Suite, SpecDigest) }

// Unknown is what Info says of what the build did not record, where
// there is no build information at all (a binary that is not a Go
// program's, never one of ours built by the go command).
const Unknown = "unknown"

// Devel is the version of a build of a checkout that recorded no version
// control data (GOFLAGS=-buildvcs=false, or a source tree without .git)
// and was given none with -ldflags.
const Devel = "devel"

// GoRun is the version of a binary built by `go run`, which embeds no
// version control data: it says so plainly rather than "unknown".
const GoRun = "devel, built by go run"

// NotRecorded is the commit of a build that recorded no revision.
const NotRecorded = "not recorded"

// modulePath is the project's module: the main module of the campusconf
// command, a dependency of a service whose tests import the conformance
// package.
const modulePath = "github.com/campusconf/campusconf"

// Set with -ldflags at build time by the release (.goreleaser.yaml), the
// GitHub Action and the container recipe, where the build information has
// no version control data (a source archive has no .git):
//
//	go build -ldflags "-X github.com/campusconf/campusconf/internal/version.version=v1.2.3 -X github.com/campusconf/campusconf/internal/version.commit=0123abc" ./cmd/campusconf
var version, commit string

// Info is what a build knows of itself.
type Info struct {
	// Version is the module version: the one `go install …@v1.2.3` or a
	// build in a checkout recorded (a tag, or a pseudo-version such as
	// v0.0.0-20261129100151-06703ca3fe64+dirty), else the one set with
	// -ldflags, else GoRun for a `go run` build, else Devel.
	Version string
	// Commit is the version control revision the build recorded, else the
	// one set with -ldflags, else NotRecorded.
	Commit string
	// Modified is true when the build recorded uncommitted changes.
	Modified bool
	// Suite is the constant Suite; SpecDigest the constant SpecDigest.
	Suite      string
	SpecDigest string
}

// Get returns the Info of the running binary.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	exe, _ := os.Executable()
	return fromBuild(bi, version, commit, builtByGoRun(exe))
}

// builtByGoRun reports whether exe is where `go run` puts the binary it
// builds: a work directory ($TMPDIR/go-buildNNN/b001/exe/NAME) or, since
// Go 1.24, the build cache ($GOCACHE/xx/HASH-d/NAME, GOCACHE being
// …/go-build by default).
func builtByGoRun(exe string) bool {
	exe = filepath.ToSlash(exe)
	dir := path.Dir(exe)
	if strings.HasSuffix(dir, "/exe") && strings.Contains(exe, "/go-build") {
		return true
	}
	return strings.HasSuffix(dir, "-d") && strings.Contains(exe, "/go-build/")
}

// fromBuild reads Info from build information (nil when there is none),
// the values set with -ldflags (the build information first) and whether
// `go run` built the binary.
func fromBuild(bi *debug.BuildInfo, ldVersion, ldCommit string, goRun bool) Info {
	i := Info{Version: ldVersion, Commit: ldCommit, Suite: Suite, SpecDigest: SpecDigest}
	if bi == nil {
		if strings.TrimSpace(i.Version) == "" {
			i.Version = Unknown
		}
		if strings.TrimSpace(i.Commit) == "" {
			i.Commit = Unknown
		}
		return i
	}
	mod := bi.Main
	for _, d := range bi.Deps {
		if bi.Main.Path != modulePath && d.Path == modulePath {
			mod = *d // imported by another module's build
		}
	}
	// "(devel)" is what a build outside version control records
	if v := mod.Version; mod.Path == modulePath && v != "" && v != "(devel)" {
		i.Version = v
	}
	// the version control data is of the main module only
	for _, s := range bi.Settings {
		switch {
		case bi.Main.Path != modulePath:
		case s.Key == "vcs.revision" && s.Value != "":
			i.Commit = s.Value
		case s.Key == "vcs.modified":
			i.Modified = s.Value == "true"
		}
	}
	if strings.TrimSpace(i.Version) == "" {
		i.Version = Devel
		if goRun {
			i.Version = GoRun
		}
	}
	if strings.TrimSpace(i.Commit) == "" {
		i.Commit = NotRecorded
	}
	return i
}

// String is the one line `campusconf version` starts with: version,
// commit (short) and whether the tree was modified.
func (i Info) String() string {
	c := i.Commit
	if len(c) > 12 && c != Unknown && c != NotRecorded {
		c = c[:12]
	}
	s := i.Version + " (commit " + c
	if i.Modified {
		s += ", modified"
	}
	return s + ")"
}
