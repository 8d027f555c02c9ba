package gen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// SyntaxLanguages are the languages whose truth comes from ast-grep rules.
var SyntaxLanguages = []string{"rust", "ruby", "java", "c"}

// RunAstGrep reads the truth of the corpus in dir, written in lang, with
// the rules of this package run by the ast-grep executable at exe.
func RunAstGrep(ctx context.Context, exe, lang, dir string) (*Truth, error) {
	rules, ok := astGrepRules[lang]
	if !ok {
		return nil, fmt.Errorf("gen: no ast-grep rules for %q", lang)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	p, err := safeexec.Start(ctx, safeexec.Invocation{
		Path: exe,
		Args: []string{"scan", "--inline-rules", rules, "--json=stream", "."},
		Dir:  dir,
		Env:  safeexec.Environ("PATH", "HOME"),
	})
	if err != nil {
		return nil, fmt.Errorf("gen: ast-grep: %w", err)
	}
	t, perr := ParseAstGrep(p.Stdout)
	cerr := p.Close(time.Second)
	if perr != nil {
		return nil, perr
	}
	if len(t.Defs) == 0 {
		return nil, fmt.Errorf("gen: ast-grep found no definitions in %s (%v): %s", dir, cerr, p.Stderr())
	}
	return t, nil
}

// MaxMatchLine bounds one line of ast-grep's JSON stream.
const MaxMatchLine = 64 << 20

type agPos struct {
	Line int `json:"line"`
}

type agRange struct {
	Start agPos `json:"start"`
	End   agPos `json:"end"`
}

type agMatch struct {
	File          string `json:"file"`
	RuleID        string `json:"ruleId"`
	Range         agRange
	MetaVariables struct {
		Single map[string]struct {
			Text  string  `json:"text"`
			Range agRange `json:"range"`
		} `json:"single"`
	} `json:"metaVariables"`
}

// ParseAstGrep reads ast-grep's JSON stream (one match a line) produced
// with the rules of this package into truth linked by name. Matches whose
// file is not a valid root-relative path or whose names are not
// identifiers are skipped; a line that is not a JSON object is an error.
func ParseAstGrep(r io.Reader) (*Truth, error) {
	t := &Truth{Source: "ast-grep", ByName: true}
	tests := map[string][]lineRegion{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxMatchLine)
	for sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		var m agMatch
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("gen: ast-grep output: %w", err)
		}
		p := strings.TrimPrefix(m.File, "./")
		if !validPath(p) {
			continue
		}
		mv := m.MetaVariables.Single
		at := func(name string) (string, Site, bool) {
			v, ok := mv[name]
			if !ok {
				return "", Site{}, false
			}
			return lastSegment(v.Text), Site{Path: p, Line: v.Range.Start.Line + 1}, true
		}
		switch {
		case m.RuleID == "testscope":
			tests[p] = append(tests[p], lineRegion{m.Range.Start.Line + 1, m.Range.End.Line + 1})
		case strings.HasPrefix(m.RuleID, "def-"):
			name, site, ok := at("NAME")
			if !ok || !isIdent(name) {
				continue
			}
			kind := strings.TrimPrefix(m.RuleID, "def-")
			container, _, _ := at("TYPE")
			if kind == "method" && container == "" {
				kind = "function"
			}
			if v, ok := mv["NAME"]; ok && strings.Contains(v.Text, "::") {
				// Ruby's class A::B names B inside A.
				segs := strings.Split(v.Text, "::")
				container = segs[len(segs)-2]
			}
			t.Defs = append(t.Defs, Def{ID: site.Path + "#" + container + "." + name, Name: name, Container: container, Kind: kind, Site: site})
		case m.RuleID == "call":
			name, site, ok := at("NAME")
			if !ok || !isIdent(name) {
				continue
			}
			t.Refs = append(t.Refs, Ref{To: name, Call: true, Site: site})
		case m.RuleID == "impl" || m.RuleID == "impl-include":
			// The relation is answered at the sub type's name.
			super, _, ok := at("SUPER")
			sub, subSite, ok2 := at("SUB")
			if !ok || !ok2 || !isIdent(super) || !isIdent(sub) {
				continue
			}
			t.Impls = append(t.Impls, Impl{Sub: sub, Super: super, Site: subSite})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gen: ast-grep output: %w", err)
	}
	markTests(t.Refs, tests)
	sort.SliceStable(t.Defs, func(i, j int) bool { return less(t.Defs[i].Site, t.Defs[j].Site) })
	if len(t.Defs) == 0 && len(t.Refs) == 0 {
		return t, errors.New("gen: ast-grep output holds no match")
	}
	return t, nil
}

// A lineRegion is a range of lines, first and last included.
type lineRegion struct {
	from, to int
}

// markTests marks the references in a test file, or in a test's lines of
// any file (tests, by path).
func markTests(refs []Ref, tests map[string][]lineRegion) {
	for i := range refs {
		r := &refs[i]
		r.Test = IsTestPath(r.Path)
		for _, g := range tests[r.Path] {
			if r.Line >= g.from && r.Line <= g.to {
				r.Test = true
			}
		}
	}
}

// lastSegment is the last name of a qualified one: Thor::Base, fmt::Display
// and ::WEBrick::X give Base, Display and X; generic arguments are cut.
func lastSegment(s string) string {
	if i := strings.IndexAny(s, "<("); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func less(a, b Site) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Line < b.Line
}
