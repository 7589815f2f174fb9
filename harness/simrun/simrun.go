// Package simrun runs the conformance suite in process against fresh
// simulators, many at once: the harness of the kill matrix (one defect per
// run) and of the faithful-variant test (one variant set per run), and the
// embedded target of `campusconf run`. It is the one place that joins the
// suite and the simulator; harness/suiterun, below it, links neither the
// simulator nor its seeded world.
package simrun

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/campusconf/campusconf/generate"
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
)

// Simulator returns cfg pointed at a fresh simulator built with opts,
// served in process at suiterun.ReplayURL, with the simulator's own
// fixture.
func Simulator(cfg steps.Config, opts simulator.Options) (steps.Config, error) {
	sim, err := simulator.New(opts)
	if err != nil {
		return cfg, err
	}
	cfg = suiterun.InProcess(cfg, sim, suiterun.ReplayURL)
	cfg.Fixture = sim.Fixtures()
	return cfg, nil
}

// Run runs the whole suite against a fresh simulator built with opts, as
// `campusconf run` does against the embedded one.
func Run(ctx context.Context, opts simulator.Options) (*reports.Report, error) {
	return RunAt(ctx, opts, 1)
}

// RunAt is Run with concurrency scenarios at once.
func RunAt(ctx context.Context, opts simulator.Options, concurrency int) (*reports.Report, error) {
	return run(ctx, opts, concurrency, 0)
}

// RunGenerating runs the suite as Run does, then n generated requests per
// operation with the default seed, as `campusconf run --generate n` does.
func RunGenerating(ctx context.Context, opts simulator.Options, n int) (*reports.Report, error) {
	return run(ctx, opts, 1, n)
}

func run(ctx context.Context, opts simulator.Options, concurrency, n int) (*reports.Report, error) {
	cfg, err := Simulator(steps.Config{
		Concurrency: concurrency,
		// Pushes left pending (by a defect or a variant) are polled their
		// full count of attempts; in-process they need not be far apart.
		PollInterval: time.Millisecond,
	}, opts)
	if err != nil {
		return nil, err
	}
	return suiterun.Run(ctx, cfg, suiterun.Generation{N: n, Seed: generate.DefaultSeed})
}

// Result is one run of All.
type Result struct {
	Report *reports.Report
	Err    error
	Took   time.Duration
}

// All runs the suite once per entry of opts on GOMAXPROCS workers and
// returns the results in the order of opts.
func All(ctx context.Context, opts []simulator.Options) []Result {
	return AllGenerating(ctx, opts, 0)
}

// AllGenerating is All with n generated requests per operation after the
// scenarios of each run.
func AllGenerating(ctx context.Context, opts []simulator.Options, n int) []Result {
	return all(ctx, opts, 1, n)
}

// AllAt is All with concurrency scenarios at once in each run.
func AllAt(ctx context.Context, opts []simulator.Options, concurrency int) []Result {
	return all(ctx, opts, concurrency, 0)
}

func all(ctx context.Context, opts []simulator.Options, concurrency, n int) []Result {
	out := make([]Result, len(opts))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				start := time.Now()
				out[i].Report, out[i].Err = run(ctx, opts[i], concurrency, n)
				out[i].Took = time.Since(start)
			}
		}()
	}
	for i := range opts {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
