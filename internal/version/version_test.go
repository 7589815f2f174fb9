package version

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/internal/sharedref"
)

// TestSpecDigestIsTheSpecification holds the committed digest to the
// specification text beside the checkout (../shared/spec/*.txt): a new text
// fails here until the catalogue is reviewed against it and the digest
// raised.
func TestSpecDigestIsTheSpecification(t *testing.T) {
	dir, ok := sharedref.Dir("spec")
	if !ok {
		t.Skip("no ../shared/spec beside the checkout: the specification digest is not compared (CI has the folder)")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: expected the specification as *.txt, got %v (%v)", dir, files, err)
	}
	var got []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		d := "sha256:" + hex.EncodeToString(sum[:])
		if d == SpecDigest {
			return
		}
		got = append(got, filepath.Base(f)+" "+d)
	}
	t.Errorf("SpecDigest: expected the digest of a specification text in %s, got %s; the texts there: %s\n(review features/requirements.json against the new text, then set SpecDigest; reproduce: sha256sum %s/*.txt)",
		dir, SpecDigest, strings.Join(got, "; "), dir)
}

func TestFromBuild(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	devel := &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}
	tests := []struct {
		name                string
		bi                  *debug.BuildInfo
		ldVersion, ldCommit string
		goRun               bool
		want                Info
	}{
		{"no build information", nil, "", "", false, Info{Version: Unknown, Commit: Unknown}},
		{"go build with -buildvcs=false", devel, "", "", false, Info{Version: Devel, Commit: NotRecorded}},
		{"go run", devel, "", "", true, Info{Version: GoRun, Commit: NotRecorded}},
		{"ldflags only (the Action, a source archive)", devel, "v1.2.0", "abc123", false, Info{Version: "v1.2.0", Commit: "abc123"}},
		{"go install of a tag", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "", "", false, Info{Version: "v1.2.3", Commit: NotRecorded}},
		{"a build in a modified checkout", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261125120000-0123456789ab+dirty"}, Settings: vcs("0123456789abcdef", "true")}, "", "", false, Info{Version: "v0.0.0-20261125120000-0123456789ab+dirty", Commit: "0123456789abcdef", Modified: true}},
		{"a dependency of another module's build", &debug.BuildInfo{Main: debug.Module{Path: "example.edu/campus-api", Version: "v9.9.9"}, Settings: vcs("feed", "true"),
			Deps: []*debug.Module{{Path: modulePath, Version: "v1.4.0"}}}, "", "", false, Info{Version: "v1.4.0", Commit: NotRecorded}},
		{"another module's build without it", &debug.BuildInfo{Main: debug.Module{Path: "example.edu/campus-api", Version: "v9.9.9"}}, "", "", false, Info{Version: Devel, Commit: NotRecorded}},
		{"build information wins over ldflags", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}, Settings: vcs("fedcba", "false")}, "v9", "999", true, Info{Version: "v1.2.3", Commit: "fedcba"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Suite, tt.want.SpecDigest = Suite, SpecDigest
			if got := fromBuild(tt.bi, tt.ldVersion, tt.ldCommit, tt.goRun); got != tt.want {
				t.Errorf("fromBuild: expected %+v, got %+v", tt.want, got)
			}
		})
	}
}

func TestBuiltByGoRun(t *testing.T) {
	tests := []struct {
		exe  string
		want bool
	}{
		{"/tmp/go-build1666552109/b001/exe/campusconf", true},
		{"/root/.cache/go-build/2e/2ec1aa1b2bdeabd54ba9467f58933dfab701bb47d2de4fbf169155502fb4ac87-d/campusconf", true},
		{`C:\Users\a\AppData\Local\go-build\2e\2ec1-d\campusconf.exe`, false}, // backslashes stay on Linux
		{"/usr/local/bin/campusconf", false},
		{"/home/a/go/bin/campusconf", false},
		{"/home/a/src/campusconf/campusconf", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := builtByGoRun(tt.exe); got != tt.want {
			t.Errorf("builtByGoRun(%q): expected %v, got %v", tt.exe, tt.want, got)
		}
	}
}

func TestInfoString(t *testing.T) {
	tests := []struct {
		i    Info
		want string
	}{
		{Info{Version: Unknown, Commit: Unknown}, "unknown (commit unknown)"},
		{Info{Version: GoRun, Commit: NotRecorded}, "devel, built by go run (commit not recorded)"},
		{Info{Version: "v1.2.3", Commit: "0123456789abcdef0123", Modified: true}, "v1.2.3 (commit 0123456789ab, modified)"},
	}
	for _, tt := range tests {
		if got := tt.i.String(); got != tt.want {
			t.Errorf("%+v.String(): expected %q, got %q", tt.i, tt.want, got)
		}
	}
}

// TestReleases holds the list of releases to the constants: suite
// versions rise, and this build's suite is either the last row (cut) or
// above it (in development).
func TestReleases(t *testing.T) {
	last := Releases[len(Releases)-1]
	switch {
	case InDevelopment() && !semverLess(last.Suite, Suite):
		t.Errorf("Releases: expected this build's suite %s, in development, above the last cut %s (raise Suite past a cut version)", Suite, last.Suite)
	case !InDevelopment() && (last.Suite != Suite || last.SpecDigest != SpecDigest):
		t.Errorf("Releases: expected this build's cut suite {%s %s} as the last row, got {%s %s}", Suite, SpecDigest, last.Suite, last.SpecDigest)
	}
	for i := 1; i < len(Releases); i++ {
		if !semverLess(Releases[i-1].Suite, Releases[i].Suite) {
			t.Errorf("Releases: expected suite versions to rise, got %s then %s", Releases[i-1].Suite, Releases[i].Suite)
		}
	}
	for _, r := range Releases {
		if len(r.Scenarios) == 0 {
			t.Errorf("Releases: suite %s: expected its scenarios per profile, got none", r.Suite)
		}
		for name, n := range r.Scenarios {
			if n <= 0 {
				t.Errorf("Releases: suite %s, profile %s: expected a positive number of scenarios, got %d", r.Suite, name, n)
			}
		}
	}
	tests := []struct {
		suite, digest string
		want          bool
	}{
		{last.Suite, last.SpecDigest, true},
		{Suite, SpecDigest, !InDevelopment()},
		{last.Suite, "sha256:" + strings.Repeat("0", 64), false},
		{"9.9.9", SpecDigest, false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := Released(tt.suite, tt.digest); got != tt.want {
			t.Errorf("Released(%q, %q): expected %v, got %v", tt.suite, tt.digest, tt.want, got)
		}
	}
}

// semverLess compares two MAJOR.MINOR.PATCH versions.
func semverLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range min(len(pa), len(pb)) {
		na, _ := strconv.Atoi(pa[i])
		nb, _ := strconv.Atoi(pb[i])
		if na != nb {
			return na < nb
		}
	}
	return len(pa) < len(pb)
}
