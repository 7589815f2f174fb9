package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/campusconf/campusconf/reports"
)

// githubUsage is the help of `campusconf report github`.
const githubUsage = `Usage: campusconf report github [--report-dir DIR] [--diff FILE] [--comment FILE] [--marker TEXT]

github turns a run's report directory into what a GitHub Actions step
gives (the campusconf Action runs it after campusconf run):
  - outputs, appended to $GITHUB_OUTPUT: verdict (the word every report gives, its cause included),
    failed-must (how many MUST requirements fail that the baseline does
    not excuse), failed-must-ids (their ids, space-separated) and
    report-dir (the directory, absolute);
  - annotations on standard output: ::error for each such MUST failure,
    ::warning for each SHOULD failure and each excused MUST one, titled
    with the requirement id, at most 50;
  - the job summary, appended to $GITHUB_STEP_SUMMARY: the diff (--diff,
    written by campusconf diff) when given, else summary.md;
  - with --comment FILE, the body of a pull-request comment: --marker (an
    HTML comment a later run finds it by) and the same Markdown.
Without report.json it says so in the summary and sets verdict to
"no report". Exit codes: 0 written, 2 usage error or unwritable files.

Flags:`

// githubCmd writes a report directory's outputs, annotations and summary
// for GitHub Actions.
func githubCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report github", githubUsage, stderr)
	dir := fs.String("report-dir", "conformance-report", "the report `DIR`ectory of the run")
	diffFile := fs.String("diff", "", "`FILE` holding campusconf diff's Markdown, shown instead of summary.md")
	comment := fs.String("comment", "", "write a pull-request comment's body to `FILE`")
	marker := fs.String("marker", "<!-- campusconf -->", "the first line of the comment, by which a later run finds it")
	maxReport := maxReportFlag(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "campusconf report github: %v\n", err)
		return exitUsage
	}
	outputs := map[string]string{"report-dir": abs, "verdict": "no report", "failed-must": "0", "failed-must-ids": ""}
	var markdown string
	r, err := reports.ReadJSONWithin(filepath.Join(abs, reports.JSONFile), int64(*maxReport), "--max-report")
	if err != nil {
		markdown = "campusconf wrote no readable report to " + reports.LineText(*dir) + ": see the log of the steps before.\n"
		fmt.Fprintf(stderr, "campusconf report github: %s\n", reports.LineText(oneLineOf(err.Error())))
	} else {
		failed := reports.FailedMust(r)
		outputs["verdict"] = reports.Word(r.Verdict, r.VerdictCause)
		outputs["failed-must"] = strconv.Itoa(len(failed))
		outputs["failed-must-ids"] = strings.Join(failed, " ")
		for _, a := range reports.GitHubAnnotations(r, reports.MaxAnnotations) {
			fmt.Fprintln(stdout, a)
		}
		source := filepath.Join(abs, "summary.md")
		if *diffFile != "" {
			source = *diffFile
		}
		data, err := reports.ReadFileWithin(source, 4<<20, "the summary's size")
		if err != nil {
			fmt.Fprintf(stderr, "campusconf report github: %s\n", reports.LineText(oneLineOf(err.Error())))
			return exitUsage
		}
		markdown = string(data)
	}
	if err := appendEnvFile("GITHUB_OUTPUT", githubOutputs(outputs)); err != nil {
		fmt.Fprintf(stderr, "campusconf report github: %v\n", err)
		return exitUsage
	}
	if err := appendEnvFile("GITHUB_STEP_SUMMARY", markdown); err != nil {
		fmt.Fprintf(stderr, "campusconf report github: %v\n", err)
		return exitUsage
	}
	if *comment != "" {
		body := *marker + "\n" + markdown
		if err := os.WriteFile(*comment, []byte(body), 0o644); err != nil {
			fmt.Fprintf(stderr, "campusconf report github: --comment: %v\n", err)
			return exitUsage
		}
	}
	return exitOK
}

// githubOutputs writes outputs in $GITHUB_OUTPUT's form, in a fixed order;
// a value is one line (the report's words and ids hold no newline, and a
// directory's name with one is cut there).
func githubOutputs(outputs map[string]string) string {
	var b strings.Builder
	for _, k := range []string{"verdict", "failed-must", "failed-must-ids", "report-dir"} {
		v, _, _ := strings.Cut(outputs[k], "\n")
		fmt.Fprintf(&b, "%s=%s\n", k, strings.TrimRight(v, "\r"))
	}
	return b.String()
}

// appendEnvFile appends text to the file the environment variable name
// gives (GitHub's $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY); nothing when it
// is unset, as outside a runner.
func appendEnvFile(name, text string) error {
	path := os.Getenv(name)
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("$%s: %w", name, err)
	}
	if _, err := io.WriteString(f, text); err != nil {
		_ = f.Close() // the write's error is the one to report
		return fmt.Errorf("$%s: %w", name, err)
	}
	return f.Close()
}
