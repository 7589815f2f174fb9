package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/campusconf/campusconf/fixtures"
	"github.com/campusconf/campusconf/harness/suiterun"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/reports"
	"github.com/campusconf/campusconf/reports/redact"
	"github.com/campusconf/campusconf/simulator"
	"github.com/campusconf/campusconf/steps"
)

func fixturesCmd(args []string, stdout, stderr io.Writer) int {
	var opts simulator.Options
	var baseURL string
	var variants stringList
	fs := newFlags("fixtures", "Usage: campusconf fixtures [flags]\n       campusconf fixtures --check FILE [--target URL]\n\nPrints the fixture file (fixtures/schema.json) of the simulator's world: the\ncredentials of each role, the record ids the suite uses, the paths of the\nunplaced operations. The file holds secrets.\n\nFlags:", stderr)
	fs.Int64Var(&opts.Seed, "seed", 1, "`N`, the seed of the world")
	fs.IntVar(&opts.Scale, "scale", 1, "`K`, the scale of the world")
	fs.BoolVar(&opts.Control, "control", false, "the simulator serves the control API (sets \"control\"; needs --control-token)")
	fs.StringVar(&opts.ControlToken, "control-token", os.Getenv("CAMPUSCONF_CONTROL_TOKEN"), "the `TOKEN` the simulator's control API was started with (serve --control prints it; default $CAMPUSCONF_CONTROL_TOKEN)")
	fs.StringVar(&baseURL, "base-url", "", "`URL` the simulator is served at, recorded in the description")
	fs.Var(&variants, "variant", "the simulator is served with the variant `NAME` (repeatable; see campusconf variants)")
	fs.BoolVar(&opts.SelfReset, "self-reset", true, "the simulator serves POST /_campusconf/reset (serve does on loopback): sets \"reset\"")
	check := fs.String("check", "", "check a fixture `FILE` instead: report errors, and the keys it lacks whose scenarios will be skipped")
	target := fs.String("target", "", "with --check: also check the fixture against the implementation at `URL`, with the checks before the suite alone (credentials per user, placed operations, records; calls that change nothing); a problem exits 2")
	readOnly := fs.Bool("read-only", false, "with --target: leave out the placement check (its calls go to operations that change state)")
	insecure := fs.Bool("insecure", false, "with --target: accept a self-signed TLS certificate")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if opts.Scale < 1 {
		fmt.Fprintf(stderr, "campusconf fixtures: --scale: expected a positive integer, got %d\n", opts.Scale)
		return exitUsage
	}
	if baseURL != "" && !strings.HasPrefix(baseURL, "http://") && !strings.HasPrefix(baseURL, "https://") {
		fmt.Fprintf(stderr, "campusconf fixtures: --base-url: expected an http:// or https:// URL, got %q\n", baseURL)
		return exitUsage
	}
	if *target != "" && *check == "" {
		fmt.Fprintln(stderr, "campusconf fixtures: --target needs --check FILE, the fixture to check against it")
		return exitUsage
	}
	if *check != "" {
		code := checkFixture(*check, stdout, stderr)
		if code != exitOK || *target == "" {
			return code
		}
		return checkAgainst(*check, *target, *readOnly, *insecure, stdout, stderr)
	}
	if !opts.Control {
		opts.ControlToken = ""
	} else if opts.ControlToken == "" {
		// a token drawn here would not be the served simulator's
		fmt.Fprintln(stderr, "campusconf fixtures: --control needs --control-token TOKEN, the token `campusconf serve --control` printed (or GET /_sim/TOKEN/fixtures on the simulator)")
		return exitUsage
	}
	opts.Variants = variants
	sim, err := simulator.New(opts)
	if err != nil {
		fmt.Fprintln(stderr, "campusconf fixtures:", err)
		return exitUsage
	}
	f := sim.Fixtures()
	if baseURL != "" {
		f.Description += " at " + strings.TrimRight(baseURL, "/")
	}
	return printJSON("fixtures", f, stdout, stderr)
}

// checkFixture validates a fixture file exactly as `campusconf run` does
// (fixtures.Load, whose error is printed as is) and lists the keys a
// complete fixture has that it lacks, so a vendor sees before a run which
// scenarios will be skipped or not configured.
func checkFixture(path string, stdout, stderr io.Writer) int {
	f, err := fixtures.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf fixtures: %v\n", err)
		return exitUsage
	}
	sim, err := simulator.New(simulator.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "campusconf fixtures:", err)
		return exitFailed
	}
	complete := gjson.ParseBytes(sim.Fixtures().JSON())
	have := gjson.ParseBytes(f.JSON())
	given := func(key string) bool {
		v := have.Get(key)
		return v.Exists() && v.String() != "" && (!v.IsArray() || len(v.Array()) > 0)
	}
	var lacking []string
	for _, key := range fixtureKeys(complete, "") {
		alt, hasAlt := alternativeKeys[key]
		switch {
		case !neededByClaim(f, key):
			// only the profiles the file does not claim read it
		case given(key) || (hasAlt && given(alt)):
		case hasAlt:
			if !slices.Contains(lacking, alt+" (or "+key+")") {
				lacking = append(lacking, key+" (or "+alt+")")
			}
		default:
			lacking = append(lacking, key)
		}
	}
	fmt.Fprintf(stdout, "%s: a valid version %d fixture file\n", path, fixtures.Version)
	if refs := f.Env(); len(refs) > 0 {
		fmt.Fprintf(stdout, "it reads %d environment variable(s), all set:\n", len(refs))
		for _, r := range refs {
			kind := ""
			if r.Secret() {
				kind = ", a secret (redacted in every report)"
			}
			fmt.Fprintf(stdout, "  ${%s} in %s (line %d)%s\n", r.Name, r.Path, r.Line, kind)
		}
	}
	if f.Implements != nil {
		fmt.Fprintf(stdout, "it claims %s; the scenarios of the other profiles will be unsupported\n", strings.Join(f.Implements, ", "))
	}
	if len(lacking) == 0 {
		fmt.Fprintln(stdout, "it has every key the suite uses")
		return exitOK
	}
	fmt.Fprintf(stdout, "it lacks %d key(s); scenarios needing them will be reported as skipped (or, for operations.*, not configured):\n", len(lacking))
	users := registry.RecordUsers()
	for _, k := range lacking {
		line := "  " + k
		record, _, _ := strings.Cut(strings.TrimPrefix(k, "records."), ".")
		if ops := users[record]; strings.HasPrefix(k, "records.") && len(ops) > 0 {
			line += " (needed by " + strings.Join(registry.Strings(ops), ", ") + ")"
		}
		fmt.Fprintln(stdout, line)
	}
	return exitOK
}

// neededByClaim reports whether a scenario of a profile f claims may read
// key: a record or an unplaced operation's place when an operation of a
// claimed profile needs it, the second-factor keys when f claims that
// profile, the sortby convention when it claims a paged list, every other
// key (users, the subscription key, forbidden) always.
func neededByClaim(f *fixtures.File, key string) bool {
	parts := strings.SplitN(key, ".", 3)
	if len(parts) < 2 {
		return true
	}
	switch parts[0] {
	case "records":
		for _, op := range registry.RecordUsers()[parts[1]] {
			if f.Supports(string(op)) {
				return true
			}
		}
		return false
	case "operations":
		return f.Supports(parts[1])
	case "secondFactor":
		return f.Supports(string(registry.E1))
	case "conventions":
		// the sortby convention is read by the paged lists' scenarios
		for _, op := range registry.Select(func(o registry.Operation) bool { return o.Paged }) {
			if f.Supports(string(op)) {
				return true
			}
		}
		return false
	}
	return true
}

// alternativeKeys pairs the keys either of which serves: a fixture gives
// a TOTP secret or a fixed one-time password, not necessarily both.
var alternativeKeys = map[string]string{
	"secondFactor.totpSecret": "secondFactor.otp",
	"secondFactor.otp":        "secondFactor.totpSecret",
}

// fixtureKeys lists the keys of a fixture a scenario may look up: the
// leaves of records, secondFactor, conventions and subscriptionKey, each
// user and each placed operation, and the forbidden table.
func fixtureKeys(v gjson.Result, prefix string) []string {
	var out []string
	v.ForEach(func(k, e gjson.Result) bool {
		key := prefix + k.String()
		switch {
		case key == "version" || key == "description" || key == "control":
		case prefix == "" && (key == "users" || key == "operations"):
			e.ForEach(func(name, _ gjson.Result) bool {
				out = append(out, key+"."+name.String())
				return true
			})
		case e.IsObject() && key != "forbidden":
			out = append(out, fixtureKeys(e, key+".")...)
		default:
			out = append(out, key)
		}
		return true
	})
	return out
}

// checkAgainst runs the checks before the suite alone: the fixture at
// path against the implementation at target. Exit 0 when it fits, 2 with a
// line per problem saying what to fix, 3 when the target cannot be
// reached.
func checkAgainst(path, target string, readOnly, insecure bool, stdout, stderr io.Writer) int {
	f, err := fixtures.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf fixtures: %v\n", err)
		return exitUsage
	}
	if !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") {
		fmt.Fprintln(stderr, "campusconf fixtures: --target: want an http:// or https:// URL")
		return exitUsage
	}
	cfg := suiterun.OverHTTP(steps.Config{Fixture: f, ReadOnly: readOnly, RequestTimeout: 10 * time.Second}, strings.TrimRight(target, "/"), insecure)
	secrets := redact.Secrets(f)
	maps.Copy(secrets, cfg.Secrets)
	red := redact.With(secrets)
	start := time.Now()
	n, err := steps.Preflight(context.Background(), cfg)
	var setup *steps.SetupError
	switch {
	case errors.As(err, &setup):
		for _, p := range setup.Problems {
			fmt.Fprintf(stderr, "campusconf fixtures: %s\n", consoleText(red.String(p)))
		}
		return reports.ExitSetup
	case err != nil:
		fmt.Fprintf(stderr, "campusconf fixtures: %s\n", consoleText(red.String(err.Error())))
		return exitUnreachable
	}
	fmt.Fprintf(stdout, "it fits %s: %d calls that change nothing (credentials, placements, records) in %s\n", red.String(cfg.BaseURL), n, time.Since(start).Round(time.Millisecond))
	return exitOK
}
