// Package rewritetest checks that the layers a host gives a rewriter keep
// the contract a rewrite relies on. A host that brings its own impact
// analysis (a project graph, say) calls [TestImpact] from its own tests,
// and one that brings its own structural search calls [TestMatcher].
package rewritetest

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/rewrite"
)

// TestImpact runs [Check] on a small project of its own and reports every
// problem as a test error.
func TestImpact(t testing.TB, im rewrite.Impact) {
	t.Helper()
	dir := t.TempDir()
	for _, err := range Check(context.Background(), im, dir) {
		t.Error(err)
	}
}

// The project Check writes: a Go file whose function body changes.
const (
	checkFile   = "pkg/calc.go"
	checkBefore = "package pkg\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	checkAfter  = "package pkg\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn b + a\n}\n"
	checkTest   = "pkg/calc_test.go"
)

// Check writes a small project into the empty directory dir and asks im
// about a change to it at both stages, and about no change at all. It
// returns every way the answers break the contract:
//
//   - Analyze panics, or returns neither a report nor an error;
//   - Analyzer or Basis is empty (a report says what it consulted);
//   - Stage is not the request's;
//   - Risk is not a number in [0, 1];
//   - Tier, or a symbol's or test's tier, is not a valid trust tier;
//   - a symbol or test path is not a clean path relative to the root, or
//     names nothing in the project;
//   - Exact, Structural or Inferred is negative.
func Check(ctx context.Context, im rewrite.Impact, dir string) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	files := map[string]string{checkFile: checkAfter, checkTest: "package pkg\n"}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return []error{err}
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return []error{err}
		}
	}
	at := len("package pkg\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn ")
	span := rewrite.Span{Old: rewrite.ByteRange{Start: at, End: at + 5, StartLine: 5, EndLine: 5},
		New: rewrite.ByteRange{Start: at, End: at + 5, StartLine: 5, EndLine: 5}}
	change := rewrite.FileChange{Path: checkFile, Before: []byte(checkBefore), After: []byte(checkAfter), Spans: []rewrite.Span{span}}
	cases := []rewrite.ImpactRequest{
		{Dir: dir, Stage: rewrite.StageBefore, Files: []rewrite.FileChange{change}},
		{Dir: dir, Stage: rewrite.StageAfter, Files: []rewrite.FileChange{change}},
		{Dir: dir, Stage: rewrite.StageBefore},
	}
	for i, req := range cases {
		rep, panicked, err := analyze(ctx, im, req)
		if panicked {
			bad("case %d: %v", i, err)
			continue
		}
		if err != nil {
			if err.Error() == "" {
				bad("case %d: an error without a message", i)
			}
			continue
		}
		if rep == nil {
			bad("case %d: neither a report nor an error", i)
			continue
		}
		if rep.Analyzer == "" || rep.Basis == "" {
			bad("case %d: a report must name its analyzer and say what it consulted (Analyzer %q, Basis %q)", i, rep.Analyzer, rep.Basis)
		}
		if rep.Stage != req.Stage {
			bad("case %d: stage %q, asked %q", i, rep.Stage, req.Stage)
		}
		if math.IsNaN(rep.Risk) || rep.Risk < 0 || rep.Risk > 1 {
			bad("case %d: risk %v outside [0, 1]", i, rep.Risk)
		}
		if !rep.Tier.Valid() {
			bad("case %d: tier %v", i, rep.Tier)
		}
		if rep.Exact < 0 || rep.Structural < 0 || rep.Inferred < 0 {
			bad("case %d: negative counts %d %d %d", i, rep.Exact, rep.Structural, rep.Inferred)
		}
		checkPath := func(what, p string) {
			if err := evidence.CheckPath(p); err != nil {
				bad("case %d: %s path: %v", i, what, err)
				return
			}
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				bad("case %d: %s %s is not in the project", i, what, p)
			}
		}
		for _, s := range append(append([]rewrite.AffectedSymbol(nil), rep.Symbols...), rep.Removed...) {
			checkPath("symbol "+s.Name, s.Path)
			if !s.Tier.Valid() {
				bad("case %d: symbol %s has tier %v", i, s.Name, s.Tier)
			}
		}
		for _, tst := range rep.Tests {
			checkPath("test", tst.Path)
			if !tst.Tier.Valid() {
				bad("case %d: test %s has tier %v", i, tst.Path, tst.Tier)
			}
		}
	}
	return errs
}

// analyze calls im, turning a panic into an error.
func analyze(ctx context.Context, im rewrite.Impact, req rewrite.ImpactRequest) (rep *rewrite.ImpactReport, panicked bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			//lint:ignore ST1005 Analyze is the name of the method that panicked
			rep, panicked, err = nil, true, fmt.Errorf("Analyze panicked: %v", p)
		}
	}()
	rep, err = im.Analyze(ctx, req)
	return rep, false, err
}
