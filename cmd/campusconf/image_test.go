package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/container"
	"github.com/campusconf/campusconf/harness/container/containertest"
)

// These tests build the simulator's binary and its image here (FROM
// scratch: nothing is pulled) and go through the same code path as
// `campusconf run --image`. They need a Docker engine: without one they
// skip, except under CI=true, where a missing engine is a failure.

func TestImageEndToEnd(t *testing.T) {
	cli := containertest.RequireDocker(t)
	dir := t.TempDir()
	start := time.Now()
	containertest.BuildBinary(t, dir)
	copyFile(t, filepath.Join("..", "..", "Dockerfile"), filepath.Join(dir, "Dockerfile"))
	image := containertest.BuildImage(t, cli, dir)
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
	img := container.Options{Image: image, WaitPath: "/healthz", StartupTimeout: 30 * time.Second}
	var stdout, stderr bytes.Buffer
	start = time.Now()
	code := runWithImage(context.Background(), o, img, &stdout, &stderr)
	t.Logf("suite against the image took %s: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(stdout.String()))
	if code != exitOK {
		t.Fatalf("runWithImage: expected exit %d (every scenario passes across the container boundary), got %d\nstdout:\n%s\nstderr:\n%s", exitOK, code, stdout.String(), stderr.String())
	}
	log, err := os.ReadFile(filepath.Join(reportDir, container.LogFile))
	if err != nil {
		t.Fatalf("expected the container log in the report directory: %v", err)
	}
	if !bytes.Contains(log, []byte("listening")) {
		t.Errorf("expected %s to hold what the simulator logged from its start, got:\n%s", container.LogFile, log)
	}
	containertest.AssertNoContainers(t, cli, image)
}

func TestImageBroken(t *testing.T) {
	cli := containertest.RequireDocker(t)
	dir := t.TempDir()
	// The real binary, started with a command it does not know: it prints
	// its usage and exits 2 at once.
	image := containertest.BuildWithDockerfile(t, cli, dir,
		"FROM scratch\nCOPY campusconf /campusconf\nENTRYPOINT [\"/campusconf\"]\nCMD [\"nonexistent-command\"]\n")

	reportDir := filepath.Join(dir, "report")
	o := runOptions{fixtureFile: filepath.Join(dir, "unused-fixtures.json"), reportDir: reportDir, concurrency: 1, timeout: 5 * time.Second}
	img := container.Options{Image: image, StartupTimeout: 60 * time.Second}
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
	if _, err := os.Stat(filepath.Join(reportDir, container.LogFile)); err != nil {
		t.Errorf("expected the container log in the report directory after a failed start: %v", err)
	}
	containertest.AssertNoContainers(t, cli, image)
}

func TestRunWithImageRefusesBadOptionsBeforeStarting(t *testing.T) {
	tests := []struct {
		name string
		o    runOptions
		img  container.Options
		want string
	}{
		{"target and image", runOptions{target: "http://x", fixtureFile: "f"}, container.Options{Image: "x"}, "exclude each other"},
		{"no fixtures", runOptions{}, container.Options{Image: "x"}, "--fixtures"},
		{"bad port", runOptions{fixtureFile: "f"}, container.Options{Image: "x", Port: "0"}, "--port"},
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
