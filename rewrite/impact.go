package rewrite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// An Impact estimates what a rewrite affects: the symbols it touches, the
// tests that exercise them and a risk score. A rewrite asks it twice:
// before the change, for the preview, and after it, for the residual
// risk. A project graph with exact edges is the natural implementation;
// [LocalImpact] is the minimal one used without it.
type Impact interface {
	Analyze(ctx context.Context, req ImpactRequest) (*ImpactReport, error)
}

// ImpactStage says when an impact analysis runs.
type ImpactStage string

// The stages.
const (
	// StageBefore: at preview, on the files as they are.
	StageBefore ImpactStage = "before"
	// StageAfter: after the apply, on the files as they were written.
	StageAfter ImpactStage = "after"
)

// An ImpactRequest is the change an [Impact] estimates.
type ImpactRequest struct {
	// Dir is the project root, absolute.
	Dir   string
	Stage ImpactStage
	// Files are the changed files, sorted by path.
	Files []FileChange
}

// A FileChange is one file's change: both contents and the spans the
// edits changed in each.
type FileChange struct {
	Path          string
	Before, After []byte
	Spans         []Span
}

// A Span is one edit's place in both versions of a file.
type Span struct {
	Old, New ByteRange
}

// A ByteRange is a half-open span of bytes [Start, End), with the
// one-based lines it starts and ends on (inclusive).
type ByteRange struct {
	Start     int `json:"start"`
	End       int `json:"end"`
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
}

// An ImpactReport is what an [Impact] found. Risk is a score in [0, 1]
// for ordering and attention, not a calibrated probability.
type ImpactReport struct {
	// Analyzer names what produced the report.
	Analyzer string      `json:"analyzer"`
	Stage    ImpactStage `json:"stage"`
	// Symbols are the definitions the change touches; Removed, after the
	// change, the definitions it took away (renamed or deleted), which
	// callers elsewhere may still use.
	Symbols []AffectedSymbol `json:"symbols"`
	Removed []AffectedSymbol `json:"removed,omitempty"`
	// Tests are the tests likely to exercise the change.
	Tests []AffectedTest `json:"tests"`
	Risk  float64        `json:"risk"`
	// RiskReason says how Risk was reached.
	RiskReason string `json:"risk_reason"`
	// Exact, Structural and Inferred count the relationships above by
	// the evidence behind them: a fresh compiler-resolved edge, a parsed
	// definition, a heuristic.
	Exact      int `json:"exact"`
	Structural int `json:"structural"`
	Inferred   int `json:"inferred"`
	// Tier is the strength of the analysis as a whole: what its weakest
	// claim, including that nothing else is affected, rests on.
	Tier trust.Tier `json:"tier"`
	// Basis says what the analysis consulted and what it did not.
	Basis string   `json:"basis"`
	Notes []string `json:"notes,omitempty"`
}

// An AffectedSymbol is a definition a change touches.
type AffectedSymbol struct {
	Path      string `json:"path"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Container string `json:"container,omitempty"`
	Exported  bool   `json:"exported"`
	// Line is the definition's first line, one-based.
	Line int        `json:"line"`
	Tier trust.Tier `json:"tier"`
	// Why says how it is affected, such as "encloses a changed line".
	Why string `json:"why"`
}

// An AffectedTest is a test file likely to exercise a change.
type AffectedTest struct {
	Path string     `json:"path"`
	Tier trust.Tier `json:"tier"`
	Why  string     `json:"why"`
}

// LocalImpact is the minimal [Impact]: it reads the changed files alone.
// Its symbols are the definitions enclosing the changed lines, parsed
// from each file (structural); after the change, the definitions of the
// old file the new one no longer has are reported as removed. Its tests
// are the test files beside each changed file by naming convention
// (foo_test.go, test_foo.py, foo.test.ts, FooTest.java and the like, in
// the same directory, a __tests__ directory below it, or src/test for
// src/main), which is inferred. No call graph is consulted, so callers in
// other files are not counted: the report's Tier is inferred and its
// Basis says so.
//
// Risk combines the findings as independent chances, 1 - Π(1 - w): 0.15
// per exported symbol touched, 0.05 per other symbol, 0.4 per exported
// symbol removed, 0.15 per other symbol removed, and 0.1 per changed
// source file (of a language the syntax floor parses) that is no test and
// has no test found beside it.
type LocalImpact struct{}

// LocalImpactName is the Analyzer of a [LocalImpact] report.
const LocalImpactName = "local (changed files only)"

const localBasis = "inferred: the definitions enclosing the changed lines, parsed from the changed files alone, " +
	"and the test files beside them by naming convention; no call graph was consulted, " +
	"so uses of these symbols in other files are not counted"

// Analyze estimates the impact of req.
func (LocalImpact) Analyze(ctx context.Context, req ImpactRequest) (*ImpactReport, error) {
	rep := &ImpactReport{Analyzer: LocalImpactName, Stage: req.Stage, Symbols: []AffectedSymbol{}, Tests: []AffectedTest{},
		Tier: trust.Inferred, Basis: localBasis}
	root, err := contain.Open(req.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	t := localTally{rep: rep, stage: req.Stage, testSeen: map[string]bool{}}
	for _, f := range req.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t.file(root, f)
	}
	rep.Risk, rep.RiskReason = t.risk()
	rep.Structural = len(rep.Symbols) + len(rep.Removed)
	rep.Inferred = len(rep.Tests)
	sort.Slice(rep.Tests, func(i, j int) bool { return rep.Tests[i].Path < rep.Tests[j].Path })
	return rep, nil
}

// localTally is what a [LocalImpact] analysis has found so far: the
// report it fills and the counts its risk is made of.
type localTally struct {
	rep                                                 *ImpactReport
	stage                                               ImpactStage
	exported, other, removedExp, removedOther, untested int
	testSeen                                            map[string]bool
}

// file adds the findings of one changed file: the definitions it
// touches, those it removes (after the change) and the tests beside it.
func (t *localTally) file(root *contain.Root, f FileChange) {
	rep := t.rep
	content := f.Before
	if t.stage == StageAfter {
		content = f.After
	}
	syms, err := definitions(f.Path, content)
	code := !errors.Is(err, symbols.ErrUnsupported)
	switch {
	case !code:
		rep.Notes = append(rep.Notes, f.Path+": no symbols read (a language the syntax floor does not parse)")
	case err != nil:
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: no symbols read: %v", f.Path, err))
	}
	for _, s := range syms {
		if !touches(s.Range, f.Spans, t.stage) {
			continue
		}
		rep.Symbols = append(rep.Symbols, affected(f.Path, s, "encloses a changed line"))
		if s.Exported {
			t.exported++
		} else {
			t.other++
		}
	}
	if t.stage == StageAfter && err == nil {
		old, oerr := definitions(f.Path, f.Before)
		if oerr == nil {
			for _, s := range removedDefs(old, syms) {
				rep.Removed = append(rep.Removed, affected(f.Path, s, "defined before the change, not after"))
				if s.Exported {
					t.removedExp++
				} else {
					t.removedOther++
				}
			}
		}
	}
	tests := testsBeside(root, f.Path)
	if len(tests) == 0 && code && !syntax.IsTestFile(f.Path) {
		t.untested++
	}
	for _, p := range tests {
		if !t.testSeen[p] {
			t.testSeen[p] = true
			rep.Tests = append(rep.Tests, AffectedTest{Path: p, Tier: trust.Inferred, Why: "a test file beside " + f.Path + " by naming convention"})
		}
	}
}

// risk returns the risk of the findings and how it was reached (see
// [LocalImpact]).
func (t *localTally) risk() (float64, string) {
	var weights []float64
	var why []string
	add := func(n int, w float64, what string) {
		for range n {
			weights = append(weights, w)
		}
		if n > 0 {
			why = append(why, fmt.Sprintf("%d %s (%.2f each)", n, what, w))
		}
	}
	add(t.exported, 0.15, "exported symbols touched")
	add(t.other, 0.05, "other symbols touched")
	add(t.removedExp, 0.4, "exported symbols removed")
	add(t.removedOther, 0.15, "other symbols removed")
	add(t.untested, 0.1, "changed files without a test beside them")
	if len(why) == 0 {
		return combine(weights), "no symbol touched, and every changed source file has tests beside it"
	}
	return combine(weights), "1 - Π(1 - w) over " + strings.Join(why, ", ")
}

// combine returns 1 - Π(1 - w), to three decimals.
func combine(ws []float64) float64 {
	p := 1.0
	for _, w := range ws {
		p *= 1 - w
	}
	return math.Round((1-p)*1000) / 1000
}

func definitions(p string, src []byte) ([]symbols.Symbol, error) {
	f, err := symbols.Extract(p, src)
	if err != nil {
		return nil, err
	}
	return f.Symbols, nil
}

func affected(p string, s symbols.Symbol, why string) AffectedSymbol {
	return AffectedSymbol{Path: p, Name: s.Name, Kind: string(s.Kind), Container: s.Container, Exported: s.Exported,
		Line: s.Range.StartLine, Tier: trust.Structural, Why: why}
}

// touches reports whether a definition's range meets one of the spans
// (in the version the stage reads). An empty span touches the definition
// it lies in.
func touches(r symbols.Range, spans []Span, stage ImpactStage) bool {
	for _, s := range spans {
		b := s.Old
		if stage == StageAfter {
			b = s.New
		}
		if b.Start < r.EndByte && r.StartByte < b.End || b.Start == b.End && r.StartByte <= b.Start && b.Start < r.EndByte {
			return true
		}
	}
	return false
}

// removedDefs returns the definitions of before whose name, kind and
// container after no longer has as often.
func removedDefs(before, after []symbols.Symbol) []symbols.Symbol {
	key := func(s symbols.Symbol) string { return string(s.Kind) + "\x00" + s.Container + "\x00" + s.Name }
	have := map[string]int{}
	for _, s := range after {
		have[key(s)]++
	}
	var out []symbols.Symbol
	for _, s := range before {
		k := key(s)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, s)
	}
	return out
}

// testsBeside returns the test files beside the file p by naming
// convention: in its directory, in a __tests__ directory below it, and
// for src/main/... the same directory under src/test.
func testsBeside(root *contain.Root, p string) []string {
	dir := path.Dir(p)
	dirs := []string{dir, path.Join(dir, "__tests__")}
	if i := strings.Index("/"+dir+"/", "/src/main/"); i >= 0 {
		d := "/" + dir + "/"
		dirs = append(dirs, strings.Trim(d[:i]+"/src/test/"+d[i+len("/src/main/"):], "/"))
	}
	var out []string
	for _, d := range dirs {
		ents, err := fs.ReadDir(root.FS(), d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.Type().IsRegular() && syntax.IsTestFile(e.Name()) {
				out = append(out, path.Join(d, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out
}
