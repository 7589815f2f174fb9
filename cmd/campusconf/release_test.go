package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestGoReleaserConfig holds .goreleaser.yaml to what the release
// promises and what the Action's download.sh asks for: the six platforms,
// a static binary of ./cmd/campusconf built with its revision, archives
// named campusconf_VERSION_OS_ARCH (zip on windows), checksums.txt, and a
// repository named so that `goreleaser check` passes without a git remote.
// (`goreleaser check` itself runs in .ci/run; .ci/release-snapshot builds
// and runs a snapshot.)
func TestGoReleaserConfig(t *testing.T) {
	data, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main   string   `yaml:"main"`
			Binary string   `yaml:"binary"`
			Env    []string `yaml:"env"`
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
			Flags  []string `yaml:"flags"`
		} `yaml:"builds"`
		Archives []struct {
			Formats         []string `yaml:"formats"`
			NameTemplate    string   `yaml:"name_template"`
			FormatOverrides []struct {
				Goos    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
		Release struct {
			GitHub struct{ Owner, Name string } `yaml:"github"`
		} `yaml:"release"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if c.Version != 2 || len(c.Builds) != 1 || len(c.Archives) != 1 {
		t.Fatalf(".goreleaser.yaml: expected version 2, one build and one archive, got %d, %d, %d", c.Version, len(c.Builds), len(c.Archives))
	}
	b, a := c.Builds[0], c.Archives[0]
	checks := []struct {
		what      string
		got, want any
	}{
		{"builds[0].main", b.Main, "./cmd/campusconf"},
		{"builds[0].binary", b.Binary, "campusconf"},
		{"builds[0].env has CGO_ENABLED=0", slices.Contains(b.Env, "CGO_ENABLED=0"), true},
		{"builds[0].goos", strings.Join(b.Goos, ","), "linux,darwin,windows"},
		{"builds[0].goarch", strings.Join(b.Goarch, ","), "amd64,arm64"},
		{"builds[0].flags has -buildvcs=true", slices.Contains(b.Flags, "-buildvcs=true"), true},
		{"archives[0].formats", strings.Join(a.Formats, ","), "tar.gz"},
		{"archives[0].name_template (action/download.sh's name)", a.NameTemplate, "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}"},
		{"archives[0].format_overrides", len(a.FormatOverrides) == 1 && a.FormatOverrides[0].Goos == "windows" && slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}), true},
		{"checksum.name_template", c.Checksum.NameTemplate, "checksums.txt"},
		{"release.github", c.Release.GitHub.Owner + "/" + c.Release.GitHub.Name, "campusconf/campusconf"},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf(".goreleaser.yaml %s: expected %v, got %v", ck.what, ck.want, ck.got)
		}
	}
	script, err := os.ReadFile("../../action/download.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), `archive="campusconf_${ref#v}_${os}_${arch}.${ext}"`) || !strings.Contains(string(script), "checksums.txt") {
		t.Errorf("action/download.sh: expected it to ask for campusconf_VERSION_OS_ARCH.EXT and checksums.txt, as .goreleaser.yaml names them")
	}
	wf, err := os.ReadFile("../../.github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		On struct {
			Push struct {
				Tags []string `yaml:"tags"`
			} `yaml:"push"`
		} `yaml:"on"`
	}
	if err := yaml.Unmarshal(wf, &w); err != nil || len(w.On.Push.Tags) == 0 {
		t.Errorf("release.yml: expected it to run on pushed tags, got %+v (%v)", w.On, err)
	}
	for _, s := range []string{".ci/goreleaser release --clean", ".ci/release-image"} {
		if !strings.Contains(string(wf), s) {
			t.Errorf("release.yml: expected it to run %s", s)
		}
	}
}
