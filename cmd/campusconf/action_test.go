package main

import (
	"os"
	"strings"
	"testing"
)

// TestActionRunsTheCLI checks the GitHub Actions composite action at the
// repository root: its inputs, the run command it makes from them (flags
// the CLI knows), the job summary and the uploaded report directory.
func TestActionRunsTheCLI(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	action := string(data)
	for _, want := range []string{
		"using: composite",
		"  target:\n", "  fixtures:\n", "  report-dir:\n", "  args:\n",
		`go install "github.com/campusconf/campusconf/cmd/campusconf@${{ inputs.version }}"`,
		`campusconf run --target "$CAMPUSCONF_TARGET" --fixtures "$CAMPUSCONF_FIXTURES"`,
		`--report-dir "$CAMPUSCONF_REPORT_DIR"`,
		`>> "$GITHUB_STEP_SUMMARY"`,
		"uses: actions/upload-artifact@v4",
	} {
		if !strings.Contains(action, want) {
			t.Errorf("action.yml lacks %q", want)
		}
	}
	// the flags it passes are flags of run
	var out, errOut strings.Builder
	dispatch([]string{"run", "--help"}, &out, &errOut)
	help := out.String() + errOut.String()
	for _, flag := range []string{"-target", "-fixtures", "-report-dir"} {
		if !strings.Contains(help, flag+" ") {
			t.Errorf("action.yml passes %s, which campusconf run --help does not list:\n%s", flag, help)
		}
	}
}
