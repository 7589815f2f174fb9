// Package containertest builds the images the container tests run: the
// campusconf binary, and a Dockerfile FROM scratch around it (nothing is
// pulled). Its helpers skip a test when no Docker engine answers, except
// under CI=true, where a missing engine is a failure.
package containertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/container"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
)

// Command is the package of the campusconf binary BuildBinary builds.
const Command = "github.com/campusconf/campusconf/cmd/campusconf"

// RequireDocker skips the test when no Docker engine answers, unless
// CI=true: there the engine is part of the contract, and its absence fails.
// It skips with -short too: the container tests build images.
func RequireDocker(t *testing.T) *testcontainers.DockerClient {
	t.Helper()
	if testing.Short() {
		// CI runs these in its plain pass; its -race -short pass skips them
		t.Skip("container tests skipped with -short (they build images)")
	}
	container.DisableReaper() // before the first testcontainers call
	if os.Getenv("CI") != "true" {
		testcontainers.SkipIfProviderIsNotHealthy(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		t.Fatalf("no Docker engine answers (CI=%q: the image tests must run): %v", os.Getenv("CI"), err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	return cli
}

// BuildBinary builds the static campusconf binary (Command) into
// dir/campusconf, where the Dockerfiles of the tests copy it from.
//
// The builds of all test binaries take turns (a lock file in the temporary
// folder): `go test ./...` runs two packages that build it at once, and on
// a fresh machine each would compile every package with its static flags;
// in turn, the second finds the first's work in the build cache.
func BuildBinary(t *testing.T, dir string) {
	t.Helper()
	unlock := lockBuilds(t)
	defer unlock()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(dir, "campusconf"), Command)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// BuildImage builds the Dockerfile in dir under a unique tag, and removes
// the image when the test ends. The engine's build does not pull: the
// Dockerfiles here start FROM scratch.
func BuildImage(t *testing.T, cli *testcontainers.DockerClient, dir string) string {
	t.Helper()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var buildLog bytes.Buffer
	req := &testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context:        dir,
		Repo:           "campusconf-test",
		Tag:            RandomHex(t),
		KeepImage:      true,
		BuildLogWriter: &buildLog,
	}}
	image, err := p.BuildImage(ctx, req)
	if err != nil {
		t.Fatalf("docker build: %v\n%s", err, buildLog.String())
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// A failed test may have left containers behind: remove them first,
		// or the image cannot go.
		list, err := cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: make(client.Filters).Add("ancestor", image)})
		if err == nil {
			for _, c := range list.Items {
				_, _ = cli.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
			}
		}
		if _, err := cli.ImageRemove(ctx, image, client.ImageRemoveOptions{Force: true, PruneChildren: true}); err != nil {
			t.Errorf("removing test image %s: %v", image, err)
		}
	})
	return image
}

// BuildWithDockerfile builds the campusconf binary into dir, writes
// dockerfile there and builds it with BuildImage.
func BuildWithDockerfile(t *testing.T, cli *testcontainers.DockerClient, dir, dockerfile string) string {
	t.Helper()
	BuildBinary(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(dockerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	return BuildImage(t, cli, dir)
}

// AssertNoContainers checks that no container of image is left, running or
// not (docker ps -a --filter ancestor=IMAGE).
func AssertNoContainers(t *testing.T, cli *testcontainers.DockerClient, image string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: make(client.Filters).Add("ancestor", image)})
	if err != nil {
		t.Fatalf("listing containers: %v", err)
	}
	for _, c := range list.Items {
		t.Errorf("expected no container of %s left behind, got %s (%s, %s)", image, c.ID[:12], c.State, c.Status)
	}
}

// RandomHex is 12 random hex digits, for unique image tags.
func RandomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// lockBuilds takes the lock the binary's builds share, waiting for a build
// under way in another test binary; the returned function releases it.
func lockBuilds(t *testing.T) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "campusconf-containertest-build.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatalf("the build lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		t.Fatalf("the build lock %s: %v", f.Name(), err)
	}
	return func() {
		// closing the file releases the lock too; an error leaves nothing held
		_ = f.Close()
	}
}
