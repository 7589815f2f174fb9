package features

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/campusconf/campusconf/internal/registry"
)

// Counts is how many scenarios a run of the whole suite holds (no tag
// selection, not read-only): per profile those of a fixed operation, and
// apart the scenarios of none (Unplaced: the refusals a fixture declares,
// which count in the profile of the operation the fixture calls first).
// A conformance report of this build's suite, while that suite has no row
// in version.Releases, is held to these (docs/releases.md).
type Counts struct {
	Profiles map[string]int
	Unplaced int
}

var (
	countOnce sync.Once
	counted   Counts
	countErr  error
)

// ScenarioCounts counts the scenarios of the embedded feature files, as
// expanded (FS), once. The operation of a scenario is the one
// OperationOf reads from its tags and name.
func ScenarioCounts() (Counts, error) {
	countOnce.Do(func() { counted, countErr = countScenarios(FS) })
	return counted, countErr
}

func countScenarios(fsys fs.FS) (Counts, error) {
	cat, err := Load()
	if err != nil {
		return Counts{}, err
	}
	pickles, err := compile(fsys)
	if err != nil {
		return Counts{}, err
	}
	out := Counts{Profiles: map[string]int{}}
	for _, p := range pickles {
		tags := make([]string, len(p.Tags))
		for i, t := range p.Tags {
			tags[i] = t.Name
		}
		op, ok := cat.OperationOf(tags, p.Name)
		if prof, isOp := registry.ProfileOf(op); ok && isOp {
			out.Profiles[string(prof)]++
		} else {
			out.Unplaced++
		}
	}
	return out, nil
}

// compile compiles every feature file of fsys into its scenarios (an
// outline into one a row of its Examples), as godog runs them.
func compile(fsys fs.FS) ([]*messages.Pickle, error) {
	var out []*messages.Pickle
	ids := (&messages.Incrementing{}).NewId
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".feature") {
			return err
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), ids)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, gherkin.Pickles(*doc, path, ids)...)
		return nil
	})
	return out, err
}

// OperationOf is the operation a scenario exercises: the last of its tags
// (with or without the @) that names an operation of the catalogue, else
// the first word of its name when that names one; false when neither does
// (a scenario of no fixed operation).
func (c *Catalogue) OperationOf(tags []string, name string) (string, bool) {
	op := ""
	for _, t := range tags {
		if t = strings.TrimPrefix(t, "@"); c.ops[t] != nil {
			op = t
		}
	}
	if op == "" {
		first, _, _ := strings.Cut(name, " ")
		if c.ops[first] != nil {
			op = first
		}
	}
	return op, op != ""
}
