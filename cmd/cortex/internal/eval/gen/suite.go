package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/codecortex/codecortex/cmd/cortex/internal/eval"
)

// The kinds of question.
const (
	KindDefinition = "definition"
	KindAmbiguous  = "ambiguous"
	KindCallers    = "callers"
	KindUsages     = "usages"
	KindSubtypes   = "subtypes"
	KindTests      = "tests"
	KindAbsent     = "absent"
)

// Kinds lists the kinds of question in the order tables show them.
var Kinds = []string{KindDefinition, KindAmbiguous, KindCallers, KindUsages, KindSubtypes, KindTests, KindAbsent}

// A Suite is a corpus's generated questions: an eval.Fixture whose cases
// carry the complete set of sites a right answer holds.
type Suite struct {
	// Name, Budget as in eval.Fixture.
	Name   string `json:"name"`
	Budget int    `json:"budget,omitempty"`
	// Corpus, Language and Version name the corpus; Oracle the tool whose
	// truth the sites are; Seed the sampling seed.
	Corpus   string `json:"corpus"`
	Language string `json:"language"`
	Version  string `json:"version"`
	Oracle   string `json:"oracle"`
	Seed     uint64 `json:"seed"`
	Cases    []Case `json:"cases"`
}

// A Case is an eval.Case with its kind, the name asked about and every
// expected site. Expect holds the first site, so that a case reads as a
// fixture case; an absent name expects no site.
type Case struct {
	eval.Case
	Kind string `json:"kind"`
	// Name is the identifier asked about as the question writes it
	// (T.M for a member).
	Name  string `json:"name"`
	Sites []Site `json:"sites"`
}

// MaxSuiteSize bounds a suite file.
const MaxSuiteSize = 64 << 20

// ParseSuite reads a suite and checks it: every case has a question, a
// known kind and a name, every site a root-relative path and a line that is
// not negative, and only an absent name has no site.
func ParseSuite(r io.Reader) (*Suite, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSuiteSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSuiteSize {
		return nil, fmt.Errorf("gen: suite larger than %d bytes", MaxSuiteSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Suite
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("gen: suite: %w", err)
	}
	if dec.More() {
		return nil, errors.New("gen: suite: data after the JSON object")
	}
	if len(s.Cases) == 0 {
		return nil, errors.New("gen: suite has no cases")
	}
	if s.Budget < 0 {
		return nil, fmt.Errorf("gen: budget %d is negative", s.Budget)
	}
	known := map[string]bool{}
	for _, k := range Kinds {
		known[k] = true
	}
	for i, c := range s.Cases {
		switch {
		case strings.TrimSpace(c.Question) == "":
			return nil, fmt.Errorf("gen: case %d has no question", i+1)
		case !known[c.Kind]:
			return nil, fmt.Errorf("gen: case %d (%q): unknown kind %q", i+1, c.Question, c.Kind)
		case c.Name == "":
			return nil, fmt.Errorf("gen: case %d (%q): no name", i+1, c.Question)
		case c.Kind == KindAbsent && len(c.Sites) > 0:
			return nil, fmt.Errorf("gen: case %d (%q): an absent name with sites", i+1, c.Question)
		case c.Kind != KindAbsent && len(c.Sites) == 0:
			return nil, fmt.Errorf("gen: case %d (%q): no expected site", i+1, c.Question)
		}
		for _, st := range c.Sites {
			if !validPath(st.Path) || st.Line < 0 {
				return nil, fmt.Errorf("gen: case %d (%q): site %s:%d is not a root-relative path and line", i+1, c.Question, st.Path, st.Line)
			}
		}
	}
	return &s, nil
}
