// Package features holds the conformance suite's Gherkin features and its
// requirement catalogue, embedded so the binary runs from any directory.
//
// The catalogue (requirements.json) gives every checkable statement of the
// specification a stable id, in the project's own words, with the section it
// comes from and a strictness: MUST for what the specification states, SHOULD
// for what it implies. Scenarios name the ids they check in their tags.
package features

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/internal/rules"
)

// files holds the feature files and the catalogue as written.
//
//go:embed *.feature requirements.json
var files embed.FS

// FS holds the feature files, their per-operation Examples expanded from
// the registry (expand.go), and the catalogue.
var FS fs.FS = expandedFS{files}

// The requirements that belong to no one operation name one of these
// instead of an operation id.
const (
	// AllOperations marks a rule every operation keeps (a key, media
	// types, error bodies).
	AllOperations = "ALL"
	// Records marks a rule of a record's shape, whichever operation
	// answers it (REC.<record>.names, .types, field rules).
	Records = "REC"
)

// Operation is one operation of the interface.
type Operation struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Method and Path are given for the operations the specification places.
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	// FixtureKey names the fixture's operations.* entry for the operations
	// the specification does not place.
	FixtureKey string `json:"fixtureKey,omitempty"`
	// Success is the requirement a wrong success status of the operation
	// breaks; assertions of a 2xx status are attributed to it.
	Success string `json:"success"`
}

// Requirement is one rule of the specification. Its kind and level are
// the rules package's types, which the report model uses too, so they
// cross into a report unconverted.
type Requirement struct {
	ID         string      `json:"id"`
	Operation  string      `json:"operation"`
	Kind       rules.Kind  `json:"kind"`
	Strictness rules.Level `json:"strictness"`
	Section    string      `json:"section"`
	Text       string      `json:"text"`
}

// OpenPoint is a matter the specification leaves open and how the suite
// treats it.
type OpenPoint struct {
	ID        string `json:"id"`
	Section   string `json:"section"`
	Topic     string `json:"topic"`
	Treatment string `json:"treatment"`
}

// Catalogue is the parsed requirements.json.
type Catalogue struct {
	Version      int           `json:"version"`
	Operations   []Operation   `json:"operations"`
	Requirements []Requirement `json:"requirements"`
	OpenPoints   []OpenPoint   `json:"openPoints"`

	byID map[string]*Requirement
	ops  map[string]*Operation
}

// Kinds are the rule kinds a requirement may have: the scenarios' rule
// kinds and the kind of the properties generated requests check.
var Kinds = rules.Kinds()

var (
	loadOnce sync.Once
	loaded   *Catalogue
	loadErr  error
)

// Load returns the embedded catalogue, parsed and checked once.
func Load() (*Catalogue, error) {
	loadOnce.Do(func() {
		data, err := files.ReadFile("requirements.json")
		if err != nil {
			loadErr = err
			return
		}
		loaded, loadErr = Parse(data)
	})
	return loaded, loadErr
}

// Parse decodes and checks a catalogue.
func Parse(data []byte) (*Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("requirements.json: %w", err)
	}
	c.byID = map[string]*Requirement{}
	c.ops = map[string]*Operation{}
	for i := range c.Operations {
		op := &c.Operations[i]
		if _, dup := c.ops[op.ID]; dup {
			return nil, fmt.Errorf("requirements.json: operation %s listed twice", op.ID)
		}
		c.ops[op.ID] = op
	}
	kindList := make([]string, len(Kinds))
	for i, k := range Kinds {
		kindList[i] = string(k)
	}
	for i := range c.Requirements {
		r := &c.Requirements[i]
		if _, dup := c.byID[r.ID]; dup {
			return nil, fmt.Errorf("requirements.json: requirement %s listed twice", r.ID)
		}
		if !r.Strictness.Valid() {
			return nil, fmt.Errorf("requirement %s: strictness %q, want MUST or SHOULD", r.ID, r.Strictness)
		}
		if !slices.Contains(Kinds, r.Kind) {
			return nil, fmt.Errorf("requirement %s: kind %q, want one of %s", r.ID, r.Kind, strings.Join(kindList, " "))
		}
		if _, ok := c.ops[r.Operation]; !ok && r.Operation != AllOperations && r.Operation != Records {
			return nil, fmt.Errorf("requirement %s: unknown operation %q", r.ID, r.Operation)
		}
		if r.Section == "" || r.Text == "" {
			return nil, fmt.Errorf("requirement %s: section and text are required", r.ID)
		}
		c.byID[r.ID] = r
	}
	return &c, nil
}

// Requirement returns the requirement with the given id.
func (c *Catalogue) Requirement(id string) (*Requirement, bool) {
	r, ok := c.byID[id]
	return r, ok
}

// Operation returns the operation with the given id.
func (c *Catalogue) Operation(id string) (*Operation, bool) {
	o, ok := c.ops[id]
	return o, ok
}

// OperationIDs returns the operation ids in catalogue order.
func (c *Catalogue) OperationIDs() []string {
	out := make([]string, len(c.Operations))
	for i, o := range c.Operations {
		out[i] = o.ID
	}
	return out
}

// MustIDs returns the ids of the MUST requirements, sorted.
func (c *Catalogue) MustIDs() []string {
	var out []string
	for _, r := range c.Requirements {
		if r.Strictness == rules.Must {
			out = append(out, r.ID)
		}
	}
	sort.Strings(out)
	return out
}
