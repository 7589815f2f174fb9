package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// parsedSuites is junit.xml as a CI system reads it.
type parsedSuites struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func writeJUnit(t *testing.T, r *Report) parsedSuites {
	t.Helper()
	buf := written(t, WriteJUnit, r)
	// Well-formed: every token decodes.
	dec := xml.NewDecoder(bytes.NewReader(buf))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("junit.xml is not well-formed: %v", err)
		}
	}
	var p parsedSuites
	if err := xml.Unmarshal(buf, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestJUnitStructure(t *testing.T) {
	r := sampleReport()
	r.StrictJUnit = true // today's mapping: every failed scenario a failure
	p := writeJUnit(t, r)

	if skipped := r.Counts.Skipped + r.Counts.NotConfigured + r.Counts.Unsupported; p.Tests != r.Counts.Scenarios || p.Failures != r.Counts.Failed || p.Skipped != skipped {
		t.Errorf("testsuites tests/failures/skipped: got %d/%d/%d, want %d/%d/%d",
			p.Tests, p.Failures, p.Skipped, r.Counts.Scenarios, r.Counts.Failed, skipped)
	}
	var suites []string
	for _, s := range p.Suites {
		suites = append(suites, s.Name)
		if s.Tests != len(s.Cases) {
			t.Errorf("suite %s: tests=%d, but %d test cases", s.Name, s.Tests, len(s.Cases))
		}
		for _, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("suite %s: test case %q has classname %q", s.Name, c.Name, c.Classname)
			}
			if sec, err := strconv.ParseFloat(c.Time, 64); err != nil || sec < 0 {
				t.Errorf("test case %q: time %q, want a non-negative number", c.Name, c.Time)
			}
		}
		if sec, err := strconv.ParseFloat(s.Time, 64); err != nil || sec < 0 {
			t.Errorf("suite %s: time %q, want a non-negative number", s.Name, s.Time)
		}
	}
	if diff := cmp.Diff([]string{"E1", "E4", "E5", "E6", "E9", "E13", "E15", "E16", "E17", "E21", "GB", "QS"}, suites); diff != "" {
		t.Errorf("suites, one per operation in natural order (-want +got):\n%s", diff)
	}

	byName := map[string]int{}
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			byName[c.Name]++
			switch {
			case c.Name == "Staff without Access_Delete cannot delete slots":
				if c.Failure == nil || c.Failure.Type != "MUST" {
					t.Fatalf("E5 failure: got %+v, want a MUST failure", c.Failure)
				}
				for _, want := range []string{"expected: 403", "got: 204 No Content", "curl: curl -sS -i -X DELETE", "<TOKEN_staff>"} {
					if !strings.Contains(c.Failure.Body, want) {
						t.Errorf("E5 failure body lacks %q:\n%s", want, c.Failure.Body)
					}
				}
			case c.Name == "offset skips items of the same order":
				if c.Failure == nil || c.Failure.Type != "SHOULD" {
					t.Errorf("E17 failure: got %+v, want a SHOULD failure", c.Failure)
				} else if len(c.Failure.Body) > junitBodyLimit+2000 {
					t.Errorf("E17 failure body is %d bytes; the response body should be capped", len(c.Failure.Body))
				}
			case c.Name == "Downloads of an absent media give 404":
				if c.Skipped == nil || !strings.Contains(c.Skipped.Message, "records.media") {
					t.Errorf("skipped case: got %+v, want the reason", c.Skipped)
				}
			case c.Name == "Settings not sent keep their defaults":
				if c.Skipped == nil || !strings.HasPrefix(c.Skipped.Message, "not configured: ") {
					t.Errorf("not configured case: got %+v, want skipped with the reason", c.Skipped)
				}
			case c.Name == "A section update without a name is refused":
				if c.Skipped == nil || !strings.HasPrefix(c.Skipped.Message, "unsupported: profile quizzes") {
					t.Errorf("unsupported case: got %+v, want skipped with \"unsupported: \" and the profile", c.Skipped)
				}
			case c.Name == "An unknown question is an error in the documented form":
				if c.Failure == nil || !strings.Contains(c.Failure.Body, "<script>alert(\"x\")</script>") {
					t.Errorf("HTML-special characters must survive the XML round trip: %+v", c.Failure)
				}
				if strings.ContainsRune(c.Failure.Body, '\x1b') {
					t.Error("a control character invalid in XML reached junit.xml")
				}
			}
		}
	}
	for name, n := range byName {
		if n > 1 {
			t.Errorf("test case name %q appears %d times; outline rows must be told apart", name, n)
		}
	}
}

func TestJUnitTimes(t *testing.T) {
	r := &Report{Scenarios: []Scenario{
		{ID: "a", Name: "a", Operation: "E1", Outcome: Passed, Duration: Duration(-time.Second)},
		{ID: "b", Name: "", Operation: "", Outcome: Failed},
	}}
	p := writeJUnit(t, r) // not finalized on purpose: the writer must cope
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			if strings.HasPrefix(c.Time, "-") {
				t.Errorf("case %q: negative time %s", c.Name, c.Time)
			}
			if c.Name == "" {
				t.Errorf("suite %s: a test case without a name", s.Name)
			}
		}
	}
	if got := p.Suites[len(p.Suites)-1].Name; got != "general" {
		t.Errorf("suite of a scenario without operation: got %q, want %q", got, "general")
	}
}

func TestXMLText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\ttext\r\n", "plain\ttext\r\n"},
		{"esc \x1b[0m", "esc [0m"},
		{"nul \x00", "nul "},
		{"not characters \uFFFE\uFFFF.", "not characters ."},
		{"bad utf8 \xff", "bad utf8 \uFFFD"},
		{"ünï ✓ 学", "ünï ✓ 学"},
	}
	for _, tt := range tests {
		if got := xmlText(tt.in); got != tt.want {
			t.Errorf("xmlText(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}
