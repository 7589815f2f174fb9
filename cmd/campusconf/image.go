package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/harness/container"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
)

// runWithImage runs the suite against a container of img: it starts it,
// points the suite at its published port, writes the container's log into
// the report directory, and removes the container whatever happens.
// A container that cannot be started is exitUnreachable.
func runWithImage(ctx context.Context, o runOptions, img container.Options, stdout, stderr io.Writer) int {
	if o.target != "" {
		fmt.Fprintln(stderr, "campusconf run: --image and --target exclude each other (--image starts the target)")
		return exitUsage
	}
	if o.fixtureFile == "" {
		fmt.Fprintln(stderr, "campusconf run: --image needs --fixtures FILE (credentials and record ids of the image's world; for the simulator's image: campusconf fixtures --seed N > fixtures.json)")
		return exitUsage
	}
	if len(o.defects) > 0 {
		fmt.Fprintln(stderr, "campusconf run: --defect applies to the embedded simulator only")
		return exitUsage
	}
	img, err := img.WithDefaults()
	if err != nil {
		fmt.Fprintf(stderr, "campusconf run: %v\n", err)
		return exitUsage
	}
	if img.LogDir == "" {
		img.LogDir = o.reportDir
	}
	// The CLI owns its stderr: testcontainers' connection banner is noise
	// here. Docker errors still reach the user through the errors returned.
	container.Quiet()
	if !o.quiet {
		fmt.Fprintf(stdout, "campusconf: starting image %s (container port %s, waiting up to %s for GET %s)\n", img.Image, img.Port, img.StartupTimeout, img.WaitPath)
	}
	r, err := container.Start(ctx, img)
	if err != nil {
		target := reports.Target{URL: "container of " + img.Image, Fixtures: filepath.Base(o.fixtureFile), Image: img.Image}
		var red *redact.Redactor
		f, ferr := fixtures.Load(o.fixtureFile)
		if ferr == nil {
			red = redact.New(f)
		}
		return writeNotRun(o, target, f, red, "target unreachable: the image did not start: "+err.Error(), stdout, stderr)
	}
	defer func() { _ = r.Stop(ctx) }() // also on a panic in the suite
	o.target = r.BaseURL()
	o.image = img.Image
	code := runSuite(ctx, o, stdout, stderr)
	if err := r.Stop(ctx); err != nil {
		fmt.Fprintf(stderr, "campusconf run: cleaning up the container of %s: %v\n", img.Image, err)
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "container log: %s\n", filepath.Join(img.LogDir, container.LogFile))
	}
	return code
}
