package simrun

import (
	"testing"

	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
)

func TestSimulatorBringsItsFixture(t *testing.T) {
	cfg, err := Simulator(steps.Config{Tags: "@E7"}, simulator.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL != suiterun.ReplayURL {
		t.Errorf("BaseURL: expected %q, got %q", suiterun.ReplayURL, cfg.BaseURL)
	}
	if cfg.Tags != "@E7" {
		t.Errorf("Tags: expected the caller's %q kept, got %q", "@E7", cfg.Tags)
	}
	if cfg.Client == nil {
		t.Fatal("Client: expected one, got nil")
	}
	if cfg.Fixture == nil || cfg.Fixture.Check() != nil {
		t.Errorf("expected the simulator's valid fixture, got %+v", cfg.Fixture)
	}
}
