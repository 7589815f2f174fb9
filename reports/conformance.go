package reports

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/campusconf/campusconf/features"
	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/version"
)

// ConformanceAPIVersion and ConformanceKind head every conformance report,
// as a Kubernetes-style document: they name the form, which changes
// version when a key is added, removed or changes meaning (a reader that
// refuses unknown keys, as ReadConformance does, could not read a report
// with a key it does not know). Version 2 added reportDigest, reproduce
// and generateSeed; ReadConformance still reads version 1
// (ConformanceAPIV1).
const (
	ConformanceAPIVersion = "campusconf.dev/v2"
	ConformanceKind       = "ConformanceReport"
)

// ConformanceAPIV1 is the first form of the conformance report, still
// read and verified (without the keys version 2 added).
const ConformanceAPIV1 = "campusconf.dev/v1"

// ConformanceStatus is the overall status of a conformance report: the
// run's verdict, the one model of every output.
//
// Deprecated: use Verdict.
type ConformanceStatus = Verdict

// The overall statuses are the verdicts.
//
// Deprecated: use the Verdict constants.
const (
	StatusConformant    = VerdictConformant
	StatusPartial       = VerdictPartial
	StatusNotConformant = VerdictNotConformant
	StatusInconclusive  = VerdictInconclusive
)

// ConformanceStatuses is the closed set of overall statuses: Verdicts.
//
// Deprecated: use Verdicts.
var ConformanceStatuses = Verdicts

// Modes of a conformance report: how much of the suite ran.
const (
	ModeFull     = "full"
	ModeReadOnly = "read-only"
	ModeTraffic  = "traffic"
)

// ConformanceReport is the submittable summary of a run
// (conformance-report.yaml), in the spirit of the Gateway API's
// ConformanceReport: who was tested, with which suite and specification,
// how, and each profile's result. A vendor hands it to the platform
// owner, who checks it with `campusconf report verify`. Every value
// follows from a finalized Report (ConformanceOf); nothing in it is
// secret.
type ConformanceReport struct {
	APIVersion     string         `yaml:"apiVersion"`
	Kind           string         `yaml:"kind"`
	Implementation Implementation `yaml:"implementation"`
	// Date is when the run started, RFC 3339 in UTC.
	Date string `yaml:"date"`
	// SuiteVersion and SpecDigest are those of `campusconf version`; Tool
	// is the build that ran ("campusconf v1.2.3 (commit 0123456789ab)").
	SuiteVersion string `yaml:"suiteVersion"`
	SpecDigest   string `yaml:"specDigest"`
	Tool         string `yaml:"tool"`
	// Mode is ModeFull, ModeReadOnly or ModeTraffic; Tags the tag
	// expression that selected the scenarios, when one did;
	// GeneratedRequests the generated requests per operation (0: none).
	Mode              string `yaml:"mode"`
	Tags              string `yaml:"tags,omitempty"`
	GeneratedRequests int    `yaml:"generatedRequests"`
	// GenerateSeed seeded the generated requests, when there were any.
	GenerateSeed int64 `yaml:"generateSeed,omitempty"`
	// Interrupted: a signal or the time budget cut the run short.
	Interrupted bool `yaml:"interrupted,omitempty"`
	// Reproduce is the command line that runs the same selection again
	// (Reproduction): the suite version, the mode, the tags, the profiles
	// claimed and the generated requests' seed; the target and fixture
	// are whoever has access to them.
	Reproduce string `yaml:"reproduce,omitempty"`
	// ReportDigest is the SHA-256 digest of the report.json written with
	// this file ("sha256:…"): `campusconf report verify` holds the two
	// together when report.json is beside it or given.
	ReportDigest string `yaml:"reportDigest,omitempty"`
	// Status is the run's verdict (the word every output of the run
	// gives), Cause why an inconclusive one is, and Reason why in a
	// phrase made from this file's keys (ConformanceStatusOf).
	Status Verdict           `yaml:"status"`
	Cause  InconclusiveCause `yaml:"cause,omitempty"`
	Reason string            `yaml:"reason"`
	// Excused are the failed MUST requirements the run's baseline excused
	// (the verdict is then conformant with warnings); Strict says the run
	// counted every scenario that judged nothing (--strict).
	Excused []string `yaml:"excused,omitempty,flow"`
	Strict  bool     `yaml:"strict,omitempty"`
	// Implements are the profiles the implementation claims, in report
	// order (every profile when its fixture names none).
	Implements []string `yaml:"implements,flow"`
	// Profiles are every profile's result, in report order.
	Profiles []ProfileResult `yaml:"profiles"`
}

// ConformanceOf returns the conformance report of a finalized report.
func ConformanceOf(r *Report) ConformanceReport {
	c := ConformanceReport{
		APIVersion:        ConformanceAPIVersion,
		Kind:              ConformanceKind,
		SuiteVersion:      r.Tool.SuiteVersion,
		SpecDigest:        r.Tool.SpecDigest,
		Tool:              strings.TrimSpace(r.Tool.Name + " " + toolBuild(r.Tool)),
		Mode:              modeName(r.Mode),
		Tags:              r.Mode.Tags,
		GeneratedRequests: r.Mode.Generated,
		Interrupted:       r.Interrupted,
		Implements:        []string{},
		Profiles:          r.Profiles,
	}
	if r.Mode.Generated > 0 {
		c.GenerateSeed = r.Mode.GenerateSeed
	}
	if r.Implementation != nil {
		c.Implementation = *r.Implementation
	}
	if !r.Started.IsZero() {
		c.Date = r.Started.UTC().Format(time.RFC3339)
	}
	for _, p := range r.Profiles {
		if p.Result != ProfileUnsupported {
			c.Implements = append(c.Implements, p.Name)
		}
	}
	c.Strict = r.Strict
	if r.Verdict == VerdictInconclusive {
		c.Cause = r.VerdictCause
	}
	if r.Gate != nil && r.Gate.Pass {
		for _, p := range r.Profiles {
			for _, id := range p.FailedRequirements {
				if slices.Contains(r.Gate.Known, id) && !slices.Contains(c.Excused, id) {
					c.Excused = append(c.Excused, id)
				}
			}
		}
	}
	// the status is the run's word; the reason what this file's keys make
	_, c.Reason = ConformanceStatusOf(&c)
	c.Status = r.Verdict
	c.Reproduce = Reproduction(&c)
	return c
}

// Reproduction is the command line that runs again what c reports: the
// same suite version, mode, tag selection, claimed profiles and generated
// requests, against a target and fixture whoever has access to them
// fills in. Live traffic cannot be replayed: its line says so and names
// the run that checks the same rules.
func Reproduction(c *ConformanceReport) string {
	if c.Mode == ModeTraffic {
		return "suite " + c.SuiteVersion + ": live traffic through campusconf proxy cannot be replayed; campusconf run --target URL --fixtures FILE checks the same rules"
	}
	args := []string{"campusconf", "run", "--target", "URL", "--fixtures", "FILE"}
	var all []string
	for _, p := range registry.Profiles() {
		all = append(all, string(p.Name))
	}
	if !slices.Equal(c.Implements, all) {
		args = append(args, "--implements", shellWord(strings.Join(c.Implements, ",")))
	}
	if c.Mode == ModeReadOnly {
		args = append(args, "--read-only")
	}
	if c.Tags != "" {
		args = append(args, "--tags", shellWord(c.Tags))
	}
	if c.GeneratedRequests > 0 {
		args = append(args, "--generate", fmt.Sprint(c.GeneratedRequests), "--generate-seed", fmt.Sprint(c.GenerateSeed))
	}
	return "suite " + c.SuiteVersion + ": " + strings.Join(args, " ")
}

// shellWord quotes s for a POSIX shell where it needs quoting.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// toolBuild is the build of a tool as `campusconf version` starts:
// "v1.2.3 (commit 0123456789ab)".
func toolBuild(t Tool) string {
	return version.Info{Version: t.Version, Commit: t.Commit, Modified: t.Modified}.String()
}

func modeName(m Mode) string {
	switch {
	case m.Traffic:
		return ModeTraffic
	case m.ReadOnly:
		return ModeReadOnly
	}
	return ModeFull
}

// ConformanceStatusOf is the verdict c's keys make, by the one rule of
// every verdict (VerdictRules), and its reason; Verify holds the status
// to it. Its facts are the claimed profiles' results, failed and excused
// requirements and warnings, the mode and tag selection, --strict, and
// the cause of an inconclusive run (which only ever makes the status
// worse: nothing in the file can be edited into a pass). A report of
// campusconf.dev/v1 is judged by that version's rule (statusV1).
func ConformanceStatusOf(c *ConformanceReport) (Verdict, string) {
	if c.APIVersion == ConformanceAPIV1 {
		return statusV1(c)
	}
	f := conformanceFacts(c)
	v, _, why := judge(f)
	if v == VerdictConformant {
		why = "every claimed profile succeeded: " + strings.Join(f.claimed, ", ")
	}
	return v, why
}

// conformanceFacts are the verdict facts of a conformance report.
func conformanceFacts(c *ConformanceReport) verdictFacts {
	var f verdictFacts
	switch c.Cause {
	case InconclusiveSetup:
		f.setup = []string{"a setup mistake: the fixture does not fit the target (report.json's setup says which)"}
	case InconclusiveUnreachable:
		f.unreachable = "the target could not be reached"
	case InconclusiveStopped:
		f.stopped = "the target stopped answering"
	case InconclusiveCutShort:
		f.cutShort = "the run was cut short"
	}
	var claimed, failed, partial []string
	var failedIDs, warnings []string
	var claimedResults []ProfileResult
	for _, p := range c.Profiles {
		if p.Result == ProfileUnsupported {
			continue
		}
		claimed = append(claimed, p.Name)
		f.judged = f.judged || p.Counts.Passed+p.Counts.Failed > 0
		counts := false
		for _, id := range p.FailedRequirements {
			if !slices.Contains(c.Excused, id) {
				counts = true
				if !slices.Contains(failedIDs, id) {
					failedIDs = append(failedIDs, id)
				}
			}
		}
		if counts {
			failed = append(failed, p.Name)
		}
		if p.Counts.Skipped > 0 || p.Counts.NotConfigured > 0 {
			// what --strict counts
			partial = append(partial, p.Name)
		}
		claimedResults = append(claimedResults, p)
		for _, id := range p.Warnings {
			if !slices.Contains(warnings, id) {
				warnings = append(warnings, id)
			}
		}
	}
	if len(failed) > 0 {
		f.failed = []string{fmt.Sprintf("%s failed %s", profilesPhrase(failed), plural(len(failedIDs), "MUST requirement", "MUST requirements")+": "+strings.Join(capIDs(failedIDs, 10), ", "))}
	}
	if c.Strict && len(partial) > 0 {
		f.strict = profilesPhrase(partial) + " had scenarios that judged nothing (--strict)"
	}
	switch {
	case len(claimed) == 0:
		f.judged, f.nothingWhy = false, "no profile is claimed"
	case !f.judged:
		f.nothingWhy = "no scenario of a claimed profile was judged"
	}
	f.partial = append(partialProfiles(claimedResults, c.Mode, c.Tags), modePartial(c.Mode, c.Tags)...)
	if n := len(c.Excused); n > 0 {
		f.warnings = append(f.warnings, "except "+plural(n, "known failure", "known failures")+" (baseline)")
	}
	if len(warnings) > 0 {
		f.warnings = append(f.warnings, plural(len(warnings), "failed SHOULD requirement", "failed SHOULD requirements"))
	}
	f.claimed = claimed
	return f
}

// statusV1 is the overall status of a report of campusconf.dev/v1, by that
// version's rule: not conformant when a claimed profile failed;
// inconclusive when none is claimed or judged; partial when a claimed
// profile is partial or the run was not of the whole suite; conformant
// otherwise.
func statusV1(c *ConformanceReport) (Verdict, string) {
	var claimed, failed, partial []string
	var failedIDs []string
	judged := false
	for _, p := range c.Profiles {
		switch p.Result {
		case ProfileUnsupported:
			continue
		case ProfileFailure:
			failed = append(failed, p.Name)
			for _, id := range p.FailedRequirements {
				if !slices.Contains(failedIDs, id) {
					failedIDs = append(failedIDs, id)
				}
			}
		case ProfilePartial:
			partial = append(partial, p.Name)
		}
		claimed = append(claimed, p.Name)
		judged = judged || p.Counts.Passed+p.Counts.Failed > 0
	}
	switch {
	case len(failed) > 0:
		return VerdictNotConformant, fmt.Sprintf("%s failed %s", profilesPhrase(failed), plural(len(failedIDs), "MUST requirement", "MUST requirements")+": "+strings.Join(capIDs(failedIDs, 10), ", "))
	case len(claimed) == 0:
		return VerdictInconclusive, "no profile is claimed"
	case !judged:
		return VerdictInconclusive, "no scenario of a claimed profile was judged"
	}
	var why []string
	if len(partial) > 0 {
		why = append(why, profilesPhrase(partial)+" had scenarios skipped or not configured")
	}
	why = append(why, modePartial(c.Mode, c.Tags)...)
	if c.Interrupted {
		why = append(why, "the run was cut short")
	}
	if len(why) > 0 {
		return VerdictPartial, strings.Join(why, "; ")
	}
	return VerdictConformant, "every claimed profile succeeded: " + strings.Join(claimed, ", ")
}

// profilesPhrase names profiles: "profile attendance", "profiles bank,
// files".
func profilesPhrase(names []string) string {
	if len(names) == 1 {
		return "profile " + names[0]
	}
	return "profiles " + strings.Join(names, ", ")
}

// capIDs keeps the first n ids, saying how many more there were.
func capIDs(ids []string, n int) []string {
	if len(ids) <= n {
		return ids
	}
	return append(slices.Clone(ids[:n]), fmt.Sprintf("and %d more", len(ids)-n))
}

// conformanceHeader opens conformance-report.yaml.
const conformanceHeader = `# campusconf conformance report: who was tested, with which suite and
# specification, and each profile's result. Check it with
#   campusconf report verify conformance-report.yaml
`

// WriteConformanceYAML writes r's conformance report
// (conformance-report.yaml), with the digest of r's report.json
// (WriteJSON). r should be finalized.
func WriteConformanceYAML(w io.Writer, r *Report) error {
	h := sha256.New()
	if err := WriteJSON(h, r); err != nil {
		return fmt.Errorf("write %s: %w", ConformanceFile, err)
	}
	return writeConformanceYAML(w, r, "sha256:"+hex.EncodeToString(h.Sum(nil)))
}

// writeConformanceYAML writes r's conformance report with digest, that of
// its report.json.
func writeConformanceYAML(w io.Writer, r *Report, digest string) error {
	var buf bytes.Buffer
	buf.WriteString(conformanceHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	c := ConformanceOf(r)
	c.ReportDigest = digest
	if err := enc.Encode(&c); err != nil {
		return fmt.Errorf("write %s: %w", ConformanceFile, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("write %s: %w", ConformanceFile, err)
	}
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("write %s: %w", ConformanceFile, err)
	}
	return nil
}

// ErrNotConformanceReport is wrapped by ReadConformance's error for a file
// that is not a conformance report at all (not YAML, another kind, an
// unknown key).
var ErrNotConformanceReport = errors.New("not a campusconf conformance report")

// MaxConformanceFile bounds what ReadConformance reads: a report of every
// profile with every requirement failed is a few tens of KiB.
const MaxConformanceFile = 1 << 20

// ReadConformance reads a conformance report file of version 2 or 1, at
// most MaxConformanceFile bytes. Unknown keys are refused, so a misspelt
// key does not pass unnoticed.
func ReadConformance(path string) (*ConformanceReport, error) {
	data, err := readBounded(path, MaxConformanceFile, "")
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("%w: %w", ErrNotConformanceReport, err)
	}
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c ConformanceReport
	if err := dec.Decode(&c); err != nil {
		msg := err.Error()
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			msg = te.Errors[0]
			if n := len(te.Errors) - 1; n > 0 {
				msg += fmt.Sprintf(" (and %d more)", n)
			}
		}
		return nil, fmt.Errorf("%s: %w: %s", path, ErrNotConformanceReport, oneLine(msg))
	}
	if c.APIVersion != ConformanceAPIVersion && c.APIVersion != ConformanceAPIV1 || c.Kind != ConformanceKind {
		return nil, fmt.Errorf("%s: %w: expected apiVersion %s (or %s) and kind %s, got %q and %q", path, ErrNotConformanceReport,
			ConformanceAPIVersion, ConformanceAPIV1, ConformanceKind, LineText(c.APIVersion), LineText(c.Kind))
	}
	return &c, nil
}

// Verify checks that c is internally consistent and was written by a
// suite this build knows, and returns each problem found, in the order of
// the file (none: it verifies):
//
//   - its suite version and specification digest are this build's or an
//     earlier release's (version.Releases);
//   - it names the implementation (organization and project) and a date;
//   - its profiles are the suite's, each once, in order, with their
//     operations; implements lists exactly the profiles not unsupported;
//   - each profile's result follows from its counts and failed
//     requirements (ProfileStatusOf), an unsupported one ran nothing, and
//     its failed requirements are in the catalogue, at the level they are
//     listed under, and named by a failed scenario;
//   - in a run of the whole suite (mode full, no tags), each profile
//     counts the scenarios the release has in it (version.Release's
//     Scenarios and Unplaced; generated requests add only failed and
//     skipped ones), so counts cannot be edited into a pass;
//   - the overall status and its reason follow from the profiles and the
//     mode (ConformanceStatusOf);
//   - version 2: it carries a report digest, and its reproduction line is
//     what its suite, mode, tags, claims and seed make (Reproduction).
//
// What Verify cannot see is whether the run took place, against that
// implementation: a file edited together with a matching report.json, or
// written by hand to agree with itself, passes. VerifyReportJSON holds it
// to the report.json written with it; provenance (an attestation of the
// file by the CI that ran it) is what shows where it came from.
func (c *ConformanceReport) Verify() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if _, ok := releaseOf(c.SuiteVersion, c.SpecDigest); !ok {
		var known []string
		if version.InDevelopment() {
			known = append(known, version.Suite+" "+version.SpecDigest+" (this build's, in development)")
		}
		for _, r := range version.Releases {
			known = append(known, r.Suite+" "+r.SpecDigest)
		}
		add("suiteVersion %q and specDigest %q: expected this build's or an earlier release's (%s)", c.SuiteVersion, c.SpecDigest, strings.Join(known, "; "))
	}
	if strings.TrimSpace(c.Implementation.Organization) == "" || strings.TrimSpace(c.Implementation.Project) == "" {
		add("implementation: expected an organization and a project (who was tested), got %q and %q", c.Implementation.Organization, c.Implementation.Project)
	}
	if _, err := time.Parse(time.RFC3339, c.Date); err != nil {
		add("date: expected an RFC 3339 time, got %q", c.Date)
	}
	if c.GeneratedRequests < 0 {
		add("generatedRequests: expected 0 or more, got %d", c.GeneratedRequests)
	}
	if !slices.Contains([]string{ModeFull, ModeReadOnly, ModeTraffic}, c.Mode) {
		add("mode: expected %s, %s or %s, got %q", ModeFull, ModeReadOnly, ModeTraffic, c.Mode)
	}
	if c.GeneratedRequests == 0 && c.GenerateSeed != 0 {
		add("generateSeed %d: expected none, as no request was generated", c.GenerateSeed)
	}
	switch c.APIVersion {
	case ConformanceAPIV1:
		if c.ReportDigest != "" || c.Reproduce != "" || c.GenerateSeed != 0 {
			add("reportDigest, reproduce, generateSeed: keys of %s, expected none in a report of %s", ConformanceAPIVersion, ConformanceAPIV1)
		}
		if c.Cause != "" || len(c.Excused) > 0 || c.Strict {
			add("cause, excused, strict: keys of %s, expected none in a report of %s", ConformanceAPIVersion, ConformanceAPIV1)
		}
	default:
		if !digestPattern.MatchString(c.ReportDigest) {
			add("reportDigest: expected the digest of the report.json written with this file (sha256: and 64 hex digits), got %q", c.ReportDigest)
		}
		if want := Reproduction(c); c.Reproduce != want {
			add("reproduce: expected %q, the line its suite, mode, tags, claimed profiles and seed make, got %q", want, c.Reproduce)
		}
	}

	suite := registry.Profiles()
	if len(c.Profiles) != len(suite) {
		add("profiles: expected the suite's %d profiles, got %d", len(suite), len(c.Profiles))
	}
	// A report of this build's suite lists each profile's operations as
	// the registry has them; one of an earlier release lists those of its
	// day, which this build does not record (an operation added since
	// must not make a submitted report fail): only the names are held.
	current := c.SuiteVersion == version.Suite
	var claimed []string
	for i, p := range c.Profiles {
		at := fmt.Sprintf("profiles[%d] (%s)", i, p.Name)
		if i < len(suite) {
			want := suite[i]
			switch {
			case p.Name != string(want.Name):
				add("%s: expected profile %s, got %s", at, want.Name, p.Name)
			case current && !slices.Equal(p.Operations, registry.Strings(want.Operations)):
				add("%s: expected profile %s with operations %v, got %s with %v", at, want.Name, want.Operations, p.Name, p.Operations)
			}
		}
		claim := p.Result != ProfileUnsupported
		if claim {
			claimed = append(claimed, p.Name)
		}
		if !slices.Contains(ProfileStatuses, p.Result) {
			add("%s: result %q is not one of %v", at, p.Result, ProfileStatuses)
			continue
		}
		if want := ProfileStatusOf(claim, p.Counts, len(p.FailedRequirements)); p.Result != want {
			add("%s: result %s, but its counts %s and %d failed MUST requirements make it %s", at, p.Result, describeCounts(p.Counts), len(p.FailedRequirements), want)
		}
		n := p.Counts
		if !claim && n.Passed+n.Failed+n.Skipped+n.Unobservable+n.NotConfigured > 0 {
			add("%s: unsupported, but scenarios of it ran (%s)", at, describeCounts(n))
		}
		if claim && n.Unsupported > 0 {
			add("%s: claimed, but %d of its scenarios are counted unsupported", at, n.Unsupported)
		}
		if len(p.FailedRequirements)+len(p.Warnings) > 0 && n.Failed == 0 {
			add("%s: lists failed requirements, but no failed scenario", at)
		}
		if n.Passed < 0 || n.Failed < 0 || n.Skipped < 0 || n.Unobservable < 0 || n.NotConfigured < 0 || n.Unsupported < 0 {
			add("%s: negative counts (%s)", at, describeCounts(n))
		}
		out = append(out, verifyRequirements(at, p)...)
	}
	if !slices.Equal(c.Implements, claimed) {
		add("implements %v: expected the profiles whose result is not unsupported, %v", c.Implements, claimed)
	}
	if rel, ok := releaseOf(c.SuiteVersion, c.SpecDigest); ok {
		out = append(out, verifyCounts(c, rel)...)
	}
	if c.Cause != "" && !slices.Contains(InconclusiveCauses, c.Cause) {
		add("cause %q: expected one of %v", c.Cause, InconclusiveCauses)
	}
	for _, id := range c.Excused {
		found := false
		for _, p := range c.Profiles {
			found = found || slices.Contains(p.FailedRequirements, id)
		}
		if !found {
			add("excused: lists %s, which no profile lists as a failed MUST requirement", id)
		}
	}
	st, why := ConformanceStatusOf(c)
	if c.Status != st {
		add("status %q: expected %q (%s)", c.Status, st, why)
	}
	if c.Reason != why {
		add("reason %q: expected %q, what the profiles and the mode make", c.Reason, why)
	}
	return out
}

var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// digestOf is the SHA-256 digest of data, as reportDigest writes it.
func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// verifyCounts holds the profile counts of a run of the whole suite (mode
// full, no tags) to the scenarios each profile has in the release: every
// scenario of a fixed operation counted in its profile, at most
// rel.Unplaced more in all (the refusals a fixture declares count in the
// profile of the operation they call first), and generated requests'
// findings, which are failed or skipped, on top.
func verifyCounts(c *ConformanceReport, rel version.Release) []string {
	if c.Mode != ModeFull || c.Tags != "" || len(rel.Scenarios) == 0 {
		return nil
	}
	var out []string
	more := 0
	for i, p := range c.Profiles {
		want, ok := rel.Scenarios[p.Name]
		if !ok {
			continue // not a profile of the suite: named above
		}
		n := p.Counts
		total := n.Passed + n.Failed + n.Skipped + n.Unobservable + n.NotConfigured + n.Unsupported
		// the outcomes a generated request's finding never has
		fixed := n.Passed + n.Unobservable + n.NotConfigured + n.Unsupported
		if total < want {
			out = append(out, fmt.Sprintf("profiles[%d] (%s): counts %d scenarios, but a run of the whole suite %s has %d in this profile (%s)",
				i, p.Name, total, c.SuiteVersion, want, describeCounts(n)))
			continue
		}
		if c.GeneratedRequests > 0 {
			more += max(0, fixed-want)
		} else {
			more += total - want
		}
	}
	if more > rel.Unplaced {
		out = append(out, fmt.Sprintf("profiles: count %d scenarios more than a run of the whole suite %s has (at most %d: the refusals a fixture declares; generated requests add only failed and skipped ones)",
			more, c.SuiteVersion, rel.Unplaced))
	}
	return out
}

// VerifyReportJSON holds c to report.json, the bytes of the report.json
// beside it (or given): that its digest is c's reportDigest (version 2),
// and that the conformance report it makes (ConformanceOf) is c, key for
// key. A conformance report edited alone fails here; one edited together
// with its report.json is what only provenance shows. It returns each
// problem found (none: the two agree).
func (c *ConformanceReport) VerifyReportJSON(data []byte) []string {
	var out []string
	digest := digestOf(data)
	if c.APIVersion != ConformanceAPIV1 && c.ReportDigest != digest {
		out = append(out, fmt.Sprintf("reportDigest %q: report.json's digest is %s: they were not written together, or one of them was edited", c.ReportDigest, digest))
	}
	r, err := DecodeJSON(bytes.NewReader(data))
	if err != nil {
		return append(out, "report.json: "+err.Error())
	}
	want := ConformanceOf(r)
	want.APIVersion, want.ReportDigest = c.APIVersion, c.ReportDigest
	if c.APIVersion == ConformanceAPIV1 {
		want.Reproduce, want.GenerateSeed = c.Reproduce, c.GenerateSeed
	}
	got, made := yamlKeys(c), yamlKeys(&want)
	for _, k := range conformanceKeys() {
		switch {
		case reflect.DeepEqual(got[k], made[k]):
		case k == "profiles":
			for i := range max(len(c.Profiles), len(want.Profiles)) {
				var a, b string
				if i < len(c.Profiles) && i < len(want.Profiles) {
					x, y := c.Profiles[i], want.Profiles[i]
					named := x.Name != y.Name || !slices.Equal(x.Operations, y.Operations)
					a, b = describeProfile(x, named), describeProfile(y, named)
				} else if i < len(c.Profiles) {
					a = describeProfile(c.Profiles[i], true)
				} else {
					b = describeProfile(want.Profiles[i], true)
				}
				if a != b {
					name := cmp.Or(profileName(c.Profiles, i), profileName(want.Profiles, i))
					out = append(out, fmt.Sprintf("profiles[%d] (%s): this file says %s, report.json makes it %s", i, name, cmp.Or(a, "nothing"), cmp.Or(b, "nothing")))
				}
			}
		default:
			out = append(out, fmt.Sprintf("%s: this file says %s, report.json makes it %s", k, clipValue(got[k]), clipValue(made[k])))
		}
	}
	return out
}

// describeProfile writes a profile's result for a message, after its
// name and operations when named.
func describeProfile(p ProfileResult, named bool) string {
	s := fmt.Sprintf("result %s, %s", p.Result, describeCounts(p.Counts))
	if len(p.FailedRequirements) > 0 {
		s += ", failed " + strings.Join(p.FailedRequirements, " ")
	}
	if len(p.Warnings) > 0 {
		s += ", warnings " + strings.Join(p.Warnings, " ")
	}
	if named {
		s = p.Name + " (" + strings.Join(p.Operations, " ") + "): " + s
	}
	return s
}

func profileName(ps []ProfileResult, i int) string {
	if i < len(ps) {
		return ps[i].Name
	}
	return ""
}

// yamlKeys is c as YAML reads it: a map of its keys.
func yamlKeys(c *ConformanceReport) map[string]any {
	data, err := yaml.Marshal(c)
	if err != nil {
		return nil
	}
	m := map[string]any{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil
	}
	return m
}

// conformanceKeys are the keys of a conformance report, in file order.
func conformanceKeys() []string {
	t := reflect.TypeFor[ConformanceReport]()
	keys := make([]string, 0, t.NumField())
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		keys = append(keys, name)
	}
	return keys
}

// clipValue writes a YAML value for a message: "absent", or its flow form
// cut at 200 bytes.
func clipValue(v any) string {
	if v == nil {
		return "absent"
	}
	s := fmt.Sprint(v)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// verifyRequirements checks a profile's failed requirement ids against the
// catalogue: known, at the level they are listed under, and of the
// profile's operations or cross-cutting.
func verifyRequirements(at string, p ProfileResult) []string {
	cat, err := features.Load()
	if err != nil {
		return []string{"the requirement catalogue: " + err.Error()}
	}
	var out []string
	check := func(list string, ids []string, level Strictness) {
		seen := map[string]bool{}
		for _, id := range ids {
			q, ok := cat.Requirement(id)
			switch {
			case seen[id]:
				out = append(out, fmt.Sprintf("%s: %s lists %s twice", at, list, id))
			case !ok:
				out = append(out, fmt.Sprintf("%s: %s lists %s, which is not in the suite's catalogue", at, list, id))
			case q.Strictness != level:
				out = append(out, fmt.Sprintf("%s: %s lists %s, a %s requirement", at, list, id, q.Strictness))
			default:
				if prof, isOp := registry.ProfileOf(q.Operation); isOp && string(prof) != p.Name {
					out = append(out, fmt.Sprintf("%s: %s lists %s, a requirement of %s (profile %s)", at, list, id, q.Operation, prof))
				}
			}
			seen[id] = true
		}
	}
	check("failedRequirements", p.FailedRequirements, Must)
	check("warnings", p.Warnings, Should)
	return out
}

// describeCounts writes profile counts for a message.
func describeCounts(c ProfileCounts) string {
	return fmt.Sprintf("passed %d, failed %d, skipped %d, unobservable %d, not configured %d, unsupported %d",
		c.Passed, c.Failed, c.Skipped, c.Unobservable, c.NotConfigured, c.Unsupported)
}
