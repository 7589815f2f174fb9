package version

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildRecipesStamp: every recipe the project gives for building the
// binary it ships (the Dockerfile, docs/containers.md, README.md) stamps the
// version and commit into this package's variables, so an image built by
// the recipe reports what it is; a renamed variable or package fails here.
// The Action's build is run, and its stamp checked, by
// cmd/campusconf's TestActionScripts.
func TestBuildRecipesStamp(t *testing.T) {
	_, _ = version, commit // the variables the flags set
	pkg := modulePath + "/internal/version"
	for _, file := range []string{"Dockerfile", "docs/containers.md", "README.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			t.Fatal(err)
		}
		builds := 0
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, "go build") || !strings.Contains(line, "-o campusconf") {
				continue
			}
			builds++
			for _, v := range []string{"version", "commit"} {
				if want := "-X " + pkg + "." + v + "="; !strings.Contains(line, want) {
					t.Errorf("%s:%d: expected the build to stamp %q, got: %s", file, i+1, want, strings.TrimSpace(line))
				}
			}
		}
		if builds == 0 {
			t.Errorf("%s: expected a go build recipe of the campusconf binary, found none", file)
		}
	}
}
