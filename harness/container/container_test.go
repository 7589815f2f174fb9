package container_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campusconf/campusconf/harness/container"
	"github.com/campusconf/campusconf/harness/container/containertest"
)

// These tests build the campusconf binary and an image around it here
// (FROM scratch: nothing is pulled). They need a Docker engine: without
// one they skip, except under CI=true, where a missing engine is a failure.

func TestStartNeverReady(t *testing.T) {
	cli := containertest.RequireDocker(t)
	// The simulator listening on the container's loopback only: it runs,
	// but nothing outside the container ever gets an answer.
	image := containertest.BuildWithDockerfile(t, cli, t.TempDir(),
		"FROM scratch\nCOPY campusconf /campusconf\nENTRYPOINT [\"/campusconf\"]\nCMD [\"serve\", \"--addr\", \"127.0.0.1:8080\"]\n")

	t.Run("startup timeout", func(t *testing.T) {
		logDir := t.TempDir()
		start := time.Now()
		_, err := container.Start(context.Background(), container.Options{Image: image, StartupTimeout: 2 * time.Second, LogDir: logDir})
		took := time.Since(start)
		if !errors.Is(err, container.ErrNotReady) {
			t.Fatalf("expected ErrNotReady, got %v", err)
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
		if _, err := os.Stat(filepath.Join(logDir, container.LogFile)); err != nil {
			t.Errorf("expected the container log written after a failed start: %v", err)
		}
		containertest.AssertNoContainers(t, cli, image)
	})

	t.Run("interrupted", func(t *testing.T) {
		// What Ctrl-C does: `campusconf run` cancels the context on SIGINT.
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		_, err := container.Start(ctx, container.Options{Image: image, StartupTimeout: time.Minute})
		took := time.Since(start)
		if !errors.Is(err, container.ErrInterrupted) {
			t.Fatalf("expected ErrInterrupted, got %v", err)
		}
		if took > 15*time.Second {
			t.Errorf("expected the interrupt to end the wait at once, took %s", took)
		}
		containertest.AssertNoContainers(t, cli, image)
	})
}

func TestStartImageNotFoundIsNotPulled(t *testing.T) {
	containertest.RequireDocker(t)
	image := "campusconf-test-absent:" + containertest.RandomHex(t)
	start := time.Now()
	_, err := container.Start(context.Background(), container.Options{Image: image})
	if !errors.Is(err, container.ErrImageNotFound) {
		t.Fatalf("Start(%s): expected ErrImageNotFound, got %v", image, err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("expected an absent image to be refused at once, without a pull attempt; took %s", took)
	}
	if !strings.Contains(err.Error(), "docker build") {
		t.Errorf("expected the error to say how to build the image, got %q", err)
	}
}

func TestOptionsWithDefaults(t *testing.T) {
	tests := []struct {
		name    string
		in      container.Options
		want    container.Options
		wantErr string
	}{
		{"defaults", container.Options{Image: "x"}, container.Options{Image: "x", Port: "8080", WaitPath: "/", StartupTimeout: 60 * time.Second}, ""},
		{"port with protocol", container.Options{Image: "x", Port: "9000/tcp", WaitPath: "/healthz", StartupTimeout: time.Second}, container.Options{Image: "x", Port: "9000", WaitPath: "/healthz", StartupTimeout: time.Second}, ""},
		{"no image", container.Options{}, container.Options{}, "--image"},
		{"bad port", container.Options{Image: "x", Port: "http"}, container.Options{}, "--port"},
		{"udp port", container.Options{Image: "x", Port: "53/udp"}, container.Options{}, "--port"},
		{"relative wait path", container.Options{Image: "x", WaitPath: "healthz"}, container.Options{}, "--wait-path"},
		{"negative timeout", container.Options{Image: "x", StartupTimeout: -time.Second}, container.Options{}, "--startup-timeout"},
		{"bad env name", container.Options{Image: "x", Env: map[string]string{"A=B": "c"}}, container.Options{}, "--env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.WithDefaults()
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
