package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
)

// These tests build the simulator's binary and its image here (FROM
// scratch: nothing is pulled) and go through the same code path as
// `campusconf run --image`. They need a Docker engine: without one they
// skip, except under CI=true, where a missing engine is a failure.

func TestImageEndToEnd(t *testing.T) {
	cli := requireDocker(t)
	dir := t.TempDir()
	start := time.Now()
	buildBinary(t, dir)
	copyFile(t, filepath.Join("..", "..", "Dockerfile"), filepath.Join(dir, "Dockerfile"))
	image := buildImage(t, cli, dir)
	t.Logf("binary and image built in %s", time.Since(start).Round(time.Millisecond))

	var fx, fxErr bytes.Buffer
	if code := dispatch([]string{"fixtures", "--seed", "1"}, &fx, &fxErr); code != exitOK {
		t.Fatalf("campusconf fixtures --seed 1: expected exit %d, got %d: %s", exitOK, code, fxErr.String())
	}
	fixtureFile := filepath.Join(dir, "fixtures.json")
	if err := os.WriteFile(fixtureFile, fx.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	reportDir := filepath.Join(dir, "report")
	o := runOptions{fixtureFile: fixtureFile, reportDir: reportDir, concurrency: 1, timeout: 10 * time.Second, quiet: true}
	img := imageOptions{Image: image, WaitPath: "/healthz", StartupTimeout: 30 * time.Second}
	var stdout, stderr bytes.Buffer
	start = time.Now()
	code := runWithImage(context.Background(), o, img, &stdout, &stderr)
	t.Logf("suite against the image took %s: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(stdout.String()))
	if code != exitOK {
		t.Fatalf("runWithImage: expected exit %d (every scenario passes across the container boundary), got %d\nstdout:\n%s\nstderr:\n%s", exitOK, code, stdout.String(), stderr.String())
	}
	log, err := os.ReadFile(filepath.Join(reportDir, containerLogFile))
	if err != nil {
		t.Fatalf("expected the container log in the report directory: %v", err)
	}
	if !bytes.Contains(log, []byte("listening")) {
		t.Errorf("expected %s to hold what the simulator logged from its start, got:\n%s", containerLogFile, log)
	}
	assertNoContainers(t, cli, image)
}

func TestImageBroken(t *testing.T) {
	cli := requireDocker(t)
	dir := t.TempDir()
	buildBinary(t, dir)
	// The real binary, started with a command it does not know: it prints
	// its usage and exits 2 at once.
	dockerfile := "FROM scratch\nCOPY campusconf /campusconf\nENTRYPOINT [\"/campusconf\"]\nCMD [\"nonexistent-command\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(dockerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	image := buildImage(t, cli, dir)

	reportDir := filepath.Join(dir, "report")
	o := runOptions{fixtureFile: filepath.Join(dir, "unused-fixtures.json"), reportDir: reportDir, concurrency: 1, timeout: 5 * time.Second}
	img := imageOptions{Image: image, StartupTimeout: 60 * time.Second}
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := runWithImage(context.Background(), o, img, &stdout, &stderr)
	took := time.Since(start)
	first, _, _ := strings.Cut(stderr.String(), "\n")
	t.Logf("broken image failed in %s: %s", took.Round(time.Millisecond), first)
	if code != exitUnreachable {
		t.Errorf("runWithImage: expected exit %d, got %d\nstderr:\n%s", exitUnreachable, code, stderr.String())
	}
	if took > 20*time.Second {
		t.Errorf("expected a container that exits at once to fail fast (< 20s, startup timeout 60s), took %s", took)
	}
	checkNotRunReports(t, reportDir, "target unreachable: the image did not start")
	for _, want := range []string{"exited with code 2", "--- container log", `unknown command "nonexistent-command"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("expected the output to contain %q, got:\n%s", want, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(reportDir, containerLogFile)); err != nil {
		t.Errorf("expected the container log in the report directory after a failed start: %v", err)
	}
	assertNoContainers(t, cli, image)
}

func TestImageNeverReady(t *testing.T) {
	cli := requireDocker(t)
	dir := t.TempDir()
	buildBinary(t, dir)
	// The simulator listening on the container's loopback only: it runs,
	// but nothing outside the container ever gets an answer.
	dockerfile := "FROM scratch\nCOPY campusconf /campusconf\nENTRYPOINT [\"/campusconf\"]\nCMD [\"serve\", \"--addr\", \"127.0.0.1:8080\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(dockerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	image := buildImage(t, cli, dir)

	t.Run("startup timeout", func(t *testing.T) {
		logDir := t.TempDir()
		start := time.Now()
		_, err := startImage(context.Background(), imageOptions{Image: image, StartupTimeout: 2 * time.Second, LogDir: logDir})
		took := time.Since(start)
		if !errors.Is(err, errNotReady) {
			t.Fatalf("expected errNotReady, got %v", err)
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		t.Logf("never-ready image gave up in %s: %s", took.Round(time.Millisecond), first)
		if took > 15*time.Second {
			t.Errorf("expected to give up soon after the 2s startup timeout, took %s", took)
		}
		for _, want := range []string{"GET /", "within 2s", "listening on http://127.0.0.1:8080"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("expected the error to contain %q, got:\n%v", want, err)
			}
		}
		if _, err := os.Stat(filepath.Join(logDir, containerLogFile)); err != nil {
			t.Errorf("expected the container log written after a failed start: %v", err)
		}
		assertNoContainers(t, cli, image)
	})

	t.Run("interrupted", func(t *testing.T) {
		// What Ctrl-C does: run.go cancels the context on SIGINT.
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		_, err := startImage(ctx, imageOptions{Image: image, StartupTimeout: time.Minute})
		took := time.Since(start)
		if !errors.Is(err, errStartInterrupted) {
			t.Fatalf("expected errStartInterrupted, got %v", err)
		}
		if took > 15*time.Second {
			t.Errorf("expected the interrupt to end the wait at once, took %s", took)
		}
		assertNoContainers(t, cli, image)
	})
}

func TestImageNotFoundIsNotPulled(t *testing.T) {
	requireDocker(t)
	image := "campusconf-test-absent:" + randomHex(t)
	start := time.Now()
	_, err := startImage(context.Background(), imageOptions{Image: image})
	if !errors.Is(err, errImageNotFound) {
		t.Fatalf("startImage(%s): expected errImageNotFound, got %v", image, err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("expected an absent image to be refused at once, without a pull attempt; took %s", took)
	}
	if !strings.Contains(err.Error(), "docker build") {
		t.Errorf("expected the error to say how to build the image, got %q", err)
	}
}

func TestImageOptionsDefaults(t *testing.T) {
	tests := []struct {
		name    string
		in      imageOptions
		want    imageOptions
		wantErr string
	}{
		{"defaults", imageOptions{Image: "x"}, imageOptions{Image: "x", Port: "8080", WaitPath: "/", StartupTimeout: 60 * time.Second}, ""},
		{"port with protocol", imageOptions{Image: "x", Port: "9000/tcp", WaitPath: "/healthz", StartupTimeout: time.Second}, imageOptions{Image: "x", Port: "9000", WaitPath: "/healthz", StartupTimeout: time.Second}, ""},
		{"no image", imageOptions{}, imageOptions{}, "--image"},
		{"bad port", imageOptions{Image: "x", Port: "http"}, imageOptions{}, "--port"},
		{"udp port", imageOptions{Image: "x", Port: "53/udp"}, imageOptions{}, "--port"},
		{"relative wait path", imageOptions{Image: "x", WaitPath: "healthz"}, imageOptions{}, "--wait-path"},
		{"negative timeout", imageOptions{Image: "x", StartupTimeout: -time.Second}, imageOptions{}, "--startup-timeout"},
		{"bad env name", imageOptions{Image: "x", Env: map[string]string{"A=B": "c"}}, imageOptions{}, "--env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.withDefaults()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("expected an error about %s, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("expected no error, got %v", err)
			}
			if got.Image != tt.want.Image || got.Port != tt.want.Port || got.WaitPath != tt.want.WaitPath || got.StartupTimeout != tt.want.StartupTimeout {
				t.Errorf("expected %+v, got %+v", tt.want, got)
			}
		})
	}
}

func TestLogTail(t *testing.T) {
	tests := []struct {
		log  string
		n    int
		want string
	}{
		{"", 3, ""},
		{"\n\n", 3, ""},
		{"a\nb\n", 3, "a\nb\n"},
		{"a\nb\nc\nd", 2, "c\nd\n"},
		{"a\nb\nc\nd\n", 2, "c\nd\n"},
	}
	for _, tt := range tests {
		if got := logTail([]byte(tt.log), tt.n); got != tt.want {
			t.Errorf("logTail(%q, %d): expected %q, got %q", tt.log, tt.n, tt.want, got)
		}
	}
}

func TestRunWithImageRefusesBadOptionsBeforeStarting(t *testing.T) {
	tests := []struct {
		name string
		o    runOptions
		img  imageOptions
		want string
	}{
		{"target and image", runOptions{target: "http://x", fixtureFile: "f"}, imageOptions{Image: "x"}, "exclude each other"},
		{"no fixtures", runOptions{}, imageOptions{Image: "x"}, "--fixtures"},
		{"bad port", runOptions{fixtureFile: "f"}, imageOptions{Image: "x", Port: "0"}, "--port"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runWithImage(context.Background(), tt.o, tt.img, &stdout, &stderr); code != exitUsage {
				t.Errorf("expected exit %d, got %d", exitUsage, code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("expected stderr to mention %q, got %q", tt.want, stderr.String())
			}
		})
	}
}

// requireDocker skips the test when no Docker engine answers, unless
// CI=true: there the engine is part of the contract, and its absence fails.
func requireDocker(t *testing.T) *testcontainers.DockerClient {
	t.Helper()
	if testing.Short() {
		// CI runs these in its plain pass; its -race -short pass skips them
		t.Skip("container tests skipped with -short (they build images)")
	}
	disableReaper() // before the first testcontainers call
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

// buildBinary builds the static campusconf binary the Dockerfile copies.
func buildBinary(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(dir, "campusconf"), ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// buildImage builds the Dockerfile in dir under a unique tag, and removes
// the image when the test ends. The engine's build does not pull: the
// Dockerfiles here start FROM scratch.
func buildImage(t *testing.T, cli *testcontainers.DockerClient, dir string) string {
	t.Helper()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var buildLog bytes.Buffer
	req := &testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context:        dir,
		Repo:           "campusconf-test",
		Tag:            randomHex(t),
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

// assertNoContainers checks that no container of image is left, running or
// not (docker ps -a --filter ancestor=IMAGE).
func assertNoContainers(t *testing.T, cli *testcontainers.DockerClient, image string) {
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

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
