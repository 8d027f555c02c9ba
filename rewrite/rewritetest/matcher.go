package rewritetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
)

// TestMatcher runs [CheckMatcher] on a small project of its own and
// reports every problem as a test error.
func TestMatcher(t testing.TB, m rewrite.Matcher) {
	t.Helper()
	for _, err := range CheckMatcher(context.Background(), m, t.TempDir()) {
		t.Error(err)
	}
}

// The project CheckMatcher writes: nested calls of old to rewrite.
const (
	matchFile    = "pkg/calc.go"
	matchSource  = "package pkg\n\nfunc f() int { return old(1) + old(old(2)) }\n\nfunc old(x int) int { return x }\n"
	matchPattern = "old($X)"
)

// CheckMatcher writes a small Go project into the empty directory dir,
// asks m to search it for a pattern, rewrite the matches, and search for a
// pattern that does not parse, and returns every way the answers break the
// contract a rewrite relies on:
//
//   - Search or Rewrite panics, or Search returns neither an answer nor
//     an error;
//   - a structural match's path is not a clean path relative to the root
//     naming a file of the project, or its bytes are not its text;
//   - an edit's path is not one of the matched files, its old text is not
//     what the file holds at its bytes, or the edits of a file overlap;
//   - the pattern that does not parse gives structural matches (it must be
//     an error matching structural.ErrInvalidPattern, or a fallback
//     answer without structural matches).
//
// A matcher that cannot search structurally (a fallback answer) keeps the
// contract: a rewrite refuses its answers.
func CheckMatcher(ctx context.Context, m rewrite.Matcher, dir string) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	p := filepath.Join(dir, filepath.FromSlash(matchFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return []error{err}
	}
	if err := os.WriteFile(p, []byte(matchSource), 0o644); err != nil {
		return []error{err}
	}
	ans, err := callMatcher("Search", func() (*structural.Answer, error) {
		return m.Search(ctx, structural.Request{Root: dir, Pattern: matchPattern, Language: structural.Go})
	})
	switch {
	case err != nil:
		bad("searching %q: %v", matchPattern, err)
	case ans == nil:
		bad("searching %q: neither an answer nor an error", matchPattern)
	case ans.Structural != nil:
		for _, mt := range ans.Structural.Matches {
			if err := evidence.CheckPath(mt.Path); err != nil || mt.Path != matchFile {
				bad("match at %q: not %s, the project's one file", mt.Path, matchFile)
				continue
			}
			if r := mt.Range; r.StartByte < 0 || r.EndByte > len(matchSource) || r.StartByte > r.EndByte || matchSource[r.StartByte:r.EndByte] != mt.Text {
				bad("match %q at bytes %d-%d: not the file's bytes", mt.Text, r.StartByte, r.EndByte)
			}
		}
		if len(ans.Structural.Matches) > 0 {
			errs = append(errs, checkEdits(ctx, m, ans)...)
		}
	}
	ans, err = callMatcher("Search", func() (*structural.Answer, error) {
		return m.Search(ctx, structural.Request{Root: dir, Pattern: "old(", Language: structural.Go})
	})
	if err == nil && ans != nil && ans.Structural != nil && len(ans.Structural.Matches) > 0 {
		bad("a pattern that does not parse gave %d structural matches", len(ans.Structural.Matches))
	}
	if err != nil && !errors.Is(err, structural.ErrInvalidPattern) {
		bad("a pattern that does not parse: %v, want an error matching structural.ErrInvalidPattern", err)
	}
	return errs
}

// checkEdits asks m to rewrite ans and checks the edits against the file.
func checkEdits(ctx context.Context, m rewrite.Matcher, ans *structural.Answer) []error {
	var errs []error
	var edits []structural.Edit
	_, err := callMatcher("Rewrite", func() (*structural.Answer, error) {
		var err error
		edits, err = m.Rewrite(ctx, ans, "fresh($X)")
		return ans, err
	})
	if err != nil {
		return []error{fmt.Errorf("rewriting the matches of %q: %w", matchPattern, err)}
	}
	if len(edits) == 0 {
		return []error{fmt.Errorf("rewriting %d matches of %q gave no edits", len(ans.Structural.Matches), matchPattern)}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].StartByte < edits[j].StartByte })
	for i, e := range edits {
		if e.Path != matchFile {
			errs = append(errs, fmt.Errorf("an edit of %q, which was not matched", e.Path))
			continue
		}
		if e.StartByte < 0 || e.EndByte > len(matchSource) || e.StartByte > e.EndByte || matchSource[e.StartByte:e.EndByte] != e.Old {
			errs = append(errs, fmt.Errorf("an edit at bytes %d-%d: its old text %q is not the file's", e.StartByte, e.EndByte, e.Old))
		}
		if i > 0 && e.StartByte < edits[i-1].EndByte {
			errs = append(errs, fmt.Errorf("edits at bytes %d and %d overlap", edits[i-1].StartByte, e.StartByte))
		}
	}
	return errs
}

// callMatcher calls f, turning a panic into an error.
func callMatcher(method string, f func() (*structural.Answer, error)) (ans *structural.Answer, err error) {
	defer func() {
		if p := recover(); p != nil {
			ans, err = nil, fmt.Errorf("%s panicked: %v", method, p)
		}
	}()
	return f()
}
