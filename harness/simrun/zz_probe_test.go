package simrun

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/campusconf/campusconf/simulator"
)

// throwaway probe (not committed)
func TestZZProbe(t *testing.T) {
	var opts simulator.Options
	if d := os.Getenv("ZZ_DEFECTS"); d != "" {
		opts.Defects = strings.Split(d, ",")
	}
	if v := os.Getenv("ZZ_VARIANTS"); v != "" {
		opts.Variants = strings.Split(v, ",")
	}
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	all := os.Getenv("ZZ_ALL") != ""
	for _, sc := range rep.Scenarios {
		if sc.Outcome == "passed" && !(all && strings.Contains(sc.Feature, "relations")) {
			continue
		}
		if !all && !strings.Contains(sc.Feature, "relations") && sc.Outcome != "failed" && sc.Outcome != "error" {
			continue
		}
		msg := sc.SkipReason
		if sc.Failure != nil {
			msg = sc.Failure.Expected + " / GOT " + sc.Failure.Got + " / " + sc.Failure.Message + fmt.Sprint(sc.Failure.Requirements)
			if len(msg) > 600 {
				msg = msg[:600]
			}
		}
		t.Logf("%s %s %v %s: %s", sc.Outcome, sc.Name, sc.Requirements, sc.Feature, msg)
	}
}
