package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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
// version when a field is removed or changes meaning.
const (
	ConformanceAPIVersion = "campusconf.dev/v1"
	ConformanceKind       = "ConformanceReport"
)

// ConformanceStatus is the overall status of a conformance report. The
// set is closed.
type ConformanceStatus string

// Overall statuses, as ConformanceStatusOf decides them.
const (
	// StatusConformant: every claimed profile succeeded, in a run of the
	// whole suite.
	StatusConformant ConformanceStatus = "conformant"
	// StatusPartial: no claimed profile failed, but one is partial or the
	// run was a selection (--tags, --read-only, live traffic).
	StatusPartial ConformanceStatus = "partial"
	// StatusNotConformant: a claimed profile failed.
	StatusNotConformant ConformanceStatus = "not conformant"
	// StatusInconclusive: no scenario of a claimed profile was judged (the
	// target unreachable, everything skipped).
	StatusInconclusive ConformanceStatus = "inconclusive"
)

// ConformanceStatuses is the closed set of overall statuses.
var ConformanceStatuses = []ConformanceStatus{StatusConformant, StatusPartial, StatusNotConformant, StatusInconclusive}

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
	// Interrupted: a signal or the time budget cut the run short.
	Interrupted bool `yaml:"interrupted,omitempty"`
	// Status is the overall status and Reason why, in a phrase.
	Status ConformanceStatus `yaml:"status"`
	Reason string            `yaml:"reason"`
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
	c.Status, c.Reason = ConformanceStatusOf(&c)
	return c
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

// ConformanceStatusOf is the one rule of the overall status, from c's
// profiles' results, its mode, tag selection and whether it was cut
// short; ConformanceOf and Verify both apply it:
//
//   - not conformant when a claimed profile failed;
//   - inconclusive when no profile is claimed, or no scenario of a
//     claimed profile was judged (passed or failed);
//   - partial when a claimed profile is partial, or the run was not of
//     the whole suite (a tag selection, read-only, live traffic, cut
//     short);
//   - conformant otherwise: every claimed profile succeeded, with nothing
//     skipped that --strict counts.
//
// A conformant report is what `campusconf run --strict` passes, without a
// baseline: known failures are failures here.
func ConformanceStatusOf(c *ConformanceReport) (ConformanceStatus, string) {
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
		return StatusNotConformant, fmt.Sprintf("%s failed %s", profilesPhrase(failed), plural(len(failedIDs), "MUST requirement", "MUST requirements")+": "+strings.Join(capIDs(failedIDs, 10), ", "))
	case len(claimed) == 0:
		return StatusInconclusive, "no profile is claimed"
	case !judged:
		return StatusInconclusive, "no scenario of a claimed profile was judged"
	}
	var why []string
	if len(partial) > 0 {
		why = append(why, profilesPhrase(partial)+" had scenarios skipped or not configured")
	}
	switch c.Mode {
	case ModeReadOnly:
		why = append(why, "the run was read-only")
	case ModeTraffic:
		why = append(why, "judged on live traffic, not the whole suite")
	case ModeFull:
	default:
		why = append(why, fmt.Sprintf("mode %q is not a run of the whole suite", c.Mode))
	}
	if c.Tags != "" {
		why = append(why, "the run selected scenarios (tags "+c.Tags+")")
	}
	if c.Interrupted {
		why = append(why, "the run was cut short")
	}
	if len(why) > 0 {
		return StatusPartial, strings.Join(why, "; ")
	}
	return StatusConformant, "every claimed profile succeeded: " + strings.Join(claimed, ", ")
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
// (conformance-report.yaml). r should be finalized.
func WriteConformanceYAML(w io.Writer, r *Report) error {
	var buf bytes.Buffer
	buf.WriteString(conformanceHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	c := ConformanceOf(r)
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

// maxConformanceFile bounds what ReadConformance reads: a report of every
// profile with every requirement failed is a few tens of KiB.
const maxConformanceFile = 1 << 20

// ReadConformance reads a conformance report file. Unknown keys are
// refused, so an edited or misspelt report does not pass for another.
func ReadConformance(path string) (*ConformanceReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, maxConformanceFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConformanceFile {
		return nil, fmt.Errorf("%s: %w: larger than %d KiB", path, ErrNotConformanceReport, maxConformanceFile>>10)
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
	if c.APIVersion != ConformanceAPIVersion || c.Kind != ConformanceKind {
		return nil, fmt.Errorf("%s: %w: expected apiVersion %s and kind %s, got %q and %q", path, ErrNotConformanceReport,
			ConformanceAPIVersion, ConformanceKind, c.APIVersion, c.Kind)
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
//   - the overall status follows from the profiles and the mode
//     (ConformanceStatusOf).
func (c *ConformanceReport) Verify() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if !version.Released(c.SuiteVersion, c.SpecDigest) {
		var known []string
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

	suite := registry.Profiles()
	if len(c.Profiles) != len(suite) {
		add("profiles: expected the suite's %d profiles, got %d", len(suite), len(c.Profiles))
	}
	var claimed []string
	for i, p := range c.Profiles {
		at := fmt.Sprintf("profiles[%d] (%s)", i, p.Name)
		if i < len(suite) {
			want := suite[i]
			if p.Name != string(want.Name) || !slices.Equal(p.Operations, registry.Strings(want.Operations)) {
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
	if st, why := ConformanceStatusOf(c); c.Status != st {
		add("status %q: expected %q (%s)", c.Status, st, why)
	}
	return out
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
