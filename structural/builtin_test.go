//go:build cgo

package structural

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/contain"
)

func paths(res *Result) []string {
	var out []string
	for _, m := range res.Matches {
		out = append(out, fmt.Sprintf("%s:%d:%d %s", m.Path, m.Range.StartLine, m.Range.StartColumn, m.Text))
	}
	return out
}

func TestBuiltinSearch(t *testing.T) {
	root := projectWith(t, map[string]string{
		"b.go":                 "package b\n\nfunc f() { call(1); call(call(2)) }\n",
		"a/a.go":               "package a\n\n// call(0) in a comment is not code\nvar s = \"call(9)\"\nfunc g() { x.call(3); call(4) }\n",
		"a/a_test.py":          "call(5)\n",
		"vendor/v.go":          "package v\nfunc h() { call(6) }\n",
		"node_modules/m/m.go":  "package m\nfunc h() { call(7) }\n",
		".git/objects/x.go":    "package x\nfunc h() { call(8) }\n",
		"deep/er/still/c.go":   "package c\nfunc h() { call(10, 11) }\n",
		"deep/er/still/README": "call(12)\n",
		"js/m.js":              "obj.call(3);\nobj.other.call(4, 5);\n",
	})
	e := NewBuiltin(BuiltinOptions{})
	ctx := context.Background()
	tests := []struct {
		name string
		req  Request
		want []string
	}{
		{"whole root in path then offset order, nested both reported",
			Request{Pattern: "call($X)", Language: Go},
			[]string{"a/a.go:5:23 call(4)", "b.go:3:12 call(1)", "b.go:3:21 call(call(2))", "b.go:3:26 call(2)"}},
		{"multi", Request{Pattern: "call($$$A)", Language: Go, Paths: []string{"deep"}},
			[]string{"deep/er/still/c.go:2:12 call(10, 11)"}},
		{"glob", Request{Pattern: "call($$$)", Language: Go, Paths: []string{"**/c.go"}},
			[]string{"deep/er/still/c.go:2:12 call(10, 11)"}},
		{"method call on a metavariable receiver", Request{Pattern: "$R.call($$$A)", Language: JavaScript},
			[]string{"js/m.js:1:1 obj.call(3)", "js/m.js:2:1 obj.other.call(4, 5)"}},
		{"explicit file", Request{Pattern: "call($X)", Language: Go, Paths: []string{"b.go"}},
			[]string{"b.go:3:12 call(1)", "b.go:3:21 call(call(2))", "b.go:3:26 call(2)"}},
		{"language inferred per file", Request{Pattern: "call($X)", Paths: []string{"a"}},
			[]string{"a/a.go:5:23 call(4)", "a/a_test.py:1:1 call(5)"}},
		{"max matches", Request{Pattern: "call($X)", Language: Go, Limits: Limits{MaxMatches: 2}},
			[]string{"a/a.go:5:23 call(4)", "b.go:3:12 call(1)"}},
		{"no match", Request{Pattern: "nothing($X)", Language: Go}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Root = root
			res, err := e.Search(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, paths(res)); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
			for i := range res.Matches {
				m := &res.Matches[i]
				if err := m.Validate(); err != nil {
					t.Errorf("invalid match %+v: %v", m, err)
				}
				rec := m.Record(res.Engine, tc.req.Pattern)
				if err := rec.Validate(); err != nil {
					t.Errorf("invalid record: %v", err)
				}
			}
		})
	}
	res, err := e.Search(ctx, Request{Root: root, Pattern: "call($X)", Language: Go, Limits: Limits{MaxMatches: 2}})
	if err != nil || !res.Truncated {
		t.Errorf("max matches: truncated %v, err %v", res.Truncated, err)
	}
	res, err = e.Search(ctx, Request{Root: root, Pattern: "call($X)", Language: Go, Limits: Limits{MaxFiles: 1}})
	if err != nil || !res.Truncated || res.Files != 1 {
		t.Errorf("max files: %+v, err %v", res, err)
	}
}

func TestBuiltinRejectsPathsOutsideRoot(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\n"})
	outside := projectWith(t, map[string]string{"x.go": "package x\nfunc f() { call(1) }\n"})
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	e := NewBuiltin(BuiltinOptions{})
	for _, p := range []string{"../x.go", outside, "link/x.go", "../**/*.go"} {
		_, err := e.Search(context.Background(), Request{Root: root, Pattern: "call($X)", Language: Go, Paths: []string{p}})
		if err == nil {
			t.Errorf("path %q outside the root was accepted", p)
		}
		if p == "link/x.go" && !errors.Is(err, contain.ErrEscape) {
			t.Errorf("symlink escape: err = %v, want contain.ErrEscape", err)
		}
	}
	// Walking the root does not follow the link out of it either.
	res, err := e.Search(context.Background(), Request{Root: root, Pattern: "call($X)", Language: Go})
	if err != nil || len(res.Matches) != 0 {
		t.Errorf("walk followed a link out of the root: %v %v", paths(res), err)
	}
}

func TestBuiltinPatternErrorIsNotEmptyResult(t *testing.T) {
	root := projectWith(t, map[string]string{"a.js": "foo(1)\n"})
	_, err := NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: root, Pattern: "foo(", Language: JavaScript})
	var pe *PatternError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a PatternError", err)
	}
}

func TestBuiltinCache(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\nfunc f() { call(1) }\n"})
	e := NewBuiltin(BuiltinOptions{})
	req := Request{Root: root, Pattern: "call($X)", Language: Go}
	first, err := e.Search(context.Background(), req)
	if err != nil || first.Parsed != 1 {
		t.Fatalf("first search parsed %d, err %v", first.Parsed, err)
	}
	second, err := e.Search(context.Background(), req)
	if err != nil || second.Parsed != 0 || len(second.Matches) != 1 {
		t.Fatalf("repeated search parsed %d files (want 0 from the cache), %d matches, err %v", second.Parsed, len(second.Matches), err)
	}
	// A changed file is parsed again.
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nfunc f() { call(1); call(2) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := e.Search(context.Background(), req)
	if err != nil || third.Parsed != 1 || len(third.Matches) != 2 {
		t.Fatalf("after a change: parsed %d, %d matches, err %v", third.Parsed, len(third.Matches), err)
	}
	// So is one of the same size whose modification time was put back.
	path := filepath.Join(root, "a.go")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("package a\nfunc f() { call(1); xall(2) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	fourth, err := e.Search(context.Background(), req)
	if err != nil || fourth.Parsed != 1 || len(fourth.Matches) != 1 {
		t.Fatalf("after a same-size change with the old mtime: parsed %d, %d matches, err %v", fourth.Parsed, len(fourth.Matches), err)
	}
}

// TestBuiltinCacheGrowsPartialTrees: a search parses only the declarations
// that may hold a match; a later search that needs others parses the
// union, so the cached tree only grows, and a search it covers parses
// nothing.
func TestBuiltinCacheGrowsPartialTrees(t *testing.T) {
	root := projectWith(t, map[string]string{
		"a.go": "package a\n\nfunc f() { one(1) }\n\nfunc g() { two(2) }\n\nfunc h() { one(3); two(4) }\n",
	})
	e := NewBuiltin(BuiltinOptions{})
	for i, step := range []struct {
		pattern string
		parsed  int
		matches int
		covered []bool // the segments the cached tree covers after; nil for all
	}{
		{"one($X)", 1, 2, []bool{false, true, false, true}},
		{"two($X)", 1, 2, []bool{false, true, true, true}},
		{"one($X)", 0, 2, []bool{false, true, true, true}},
		{"package $P", 1, 1, nil},
		{"two($X)", 0, 2, nil},
	} {
		res, err := e.Search(context.Background(), Request{Root: root, Pattern: step.pattern, Language: Go})
		if err != nil {
			t.Fatal(err)
		}
		if res.Parsed != step.parsed || len(res.Matches) != step.matches {
			t.Errorf("step %d %q: parsed %d files, %d matches; want %d, %d", i, step.pattern, res.Parsed, len(res.Matches), step.parsed, step.matches)
		}
		var got []bool
		for _, slot := range e.cache.m {
			got = slot.entry.parsed
		}
		if diff := cmp.Diff(step.covered, got); diff != "" {
			t.Errorf("step %d %q: cached segments (-want +got):\n%s", i, step.pattern, diff)
		}
	}
}

func TestBuiltinCancelled(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\nfunc f() { call(1) }\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewBuiltin(BuiltinOptions{}).Search(ctx, Request{Root: root, Pattern: "call($X)", Language: Go}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestBuiltinEach checks that matches handed to Request.Each are the
// collected ones, in the same order, and stop at the match limit with the
// same notes, whatever the number of workers, with sources recycled or
// not (what the test keeps is each match's Clone); and that an error from
// Each stops the search and is returned.
func TestBuiltinEach(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("p%02d/f.go", i)] = fmt.Sprintf("package p\n\nfunc f() { g(%d); h(g(%d), k()) }\n", i, i)
	}
	root := projectWith(t, files)
	ctx := context.Background()
	for _, workers := range []int{1, 2, 7} {
		for _, limit := range []int{0, 1, 5, 61, 1000} {
			e := NewBuiltin(BuiltinOptions{Workers: workers, CacheBytes: -1})
			req := Request{Root: root, Pattern: "$F($$$A)", Language: Go, Limits: Limits{MaxMatches: limit}, Recycle: limit%2 == 1}
			want, err := e.Search(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			var got []Match
			req.Each = func(m *Match) error { got = append(got, m.Clone()); return nil }
			res, err := e.Search(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Matches, got); diff != "" {
				t.Errorf("workers %d, limit %d: matches (-collected +each):\n%s", workers, limit, diff)
			}
			if len(res.Matches) != 0 || res.Found != len(got) || want.Found != len(want.Matches) {
				t.Errorf("workers %d, limit %d: %d kept, found %d for %d given; collected found %d of %d",
					workers, limit, len(res.Matches), res.Found, len(got), want.Found, len(want.Matches))
			}
			// Which of the two limit notes a search gives depends on how
			// many files its workers had claimed when the limit was
			// reached, so only its presence is compared.
			limited := func(r *Result) bool {
				return slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasSuffix(n, "(limit max_matches)") })
			}
			if want.Truncated != res.Truncated || limited(want) != limited(res) || limited(res) != res.Truncated {
				t.Errorf("workers %d, limit %d: truncated %v %v, notes %q %q", workers, limit, want.Truncated, res.Truncated, want.Notes, res.Notes)
			}
		}
	}
	stop := errors.New("enough")
	n := 0
	_, err := NewBuiltin(BuiltinOptions{}).Search(ctx, Request{Root: root, Pattern: "$F($$$A)", Language: Go,
		Each: func(*Match) error { n++; return stop }})
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("Each failing: err %v after %d calls, want %v after 1", err, n, stop)
	}
}

// TestReadFileSize: the size readFile is given only sizes its buffer and
// rejects a file listed as oversized early; the file is read to its end
// whatever the size said, and the limit holds on what is read.
func TestReadFileSize(t *testing.T) {
	content := strings.Repeat("x", 5000)
	open := func(string) (fs.File, error) { return fstest.MapFS{"f": {Data: []byte(content)}}.Open("f") }
	for _, size := range []int64{-1, 0, 10, 5000, 9000} {
		var buf []byte
		got, err := readFile(open, "f", size, &buf, 1<<20)
		if err != nil || string(got) != content {
			t.Errorf("size %d: read %d bytes, %v; want the file's 5000", size, len(got), err)
		}
		if _, err := readFile(open, "f", size, &buf, 4999); err == nil {
			t.Errorf("size %d: a 5000-byte file read under a 4999-byte limit", size)
		}
	}
}

// TestOversizedFileSkipped: a file over Limits.MaxFileBytes is skipped,
// with a note, whether the walk found it (one directory searched) or it
// was listed.
func TestOversizedFileSkipped(t *testing.T) {
	root := projectWith(t, map[string]string{
		"a.go": "package a\nfunc f() { call(1) }\n",
		"b.go": "package a\nfunc g() { call(2) }\n" + strings.Repeat("// padding\n", 200),
	})
	for _, paths := range [][]string{nil, {"a.go", "b.go"}} {
		res, err := NewBuiltin(BuiltinOptions{CacheBytes: -1}).Search(context.Background(),
			Request{Root: root, Pattern: "call($X)", Language: Go, Paths: paths, Limits: Limits{MaxFileBytes: 1000}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 1 || res.Matches[0].Path != "a.go" || !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "skipped 1 ") }) {
			t.Errorf("paths %q: %d matches, notes %q; want a.go's alone and b.go skipped", paths, len(res.Matches), res.Notes)
		}
	}
}

// A limit reached inside one file is reported: the answer is cut, and
// says so, whether the file is the only one or not, and whether the
// matches are collected or given to Each; a limit the matches only reach
// cuts nothing.
func TestLimitInsideFile(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\n\nfunc f() { g(1); g(2); g(3) }\n"})
	for _, tc := range []struct {
		limit     int
		each      bool
		truncated bool
	}{{1, false, true}, {2, true, true}, {3, false, false}, {3, true, false}} {
		req := Request{Root: root, Pattern: "g($A)", Language: Go, Limits: Limits{MaxMatches: tc.limit}}
		if tc.each {
			req.Each = func(*Match) error { return nil }
		}
		res, err := NewBuiltin(BuiltinOptions{CacheBytes: -1}).Search(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Found != min(tc.limit, 3) || res.Truncated != tc.truncated || (len(res.Notes) > 0) != tc.truncated {
			t.Errorf("limit %d, each %v: found %d, truncated %v, notes %q; want %d and truncated %v",
				tc.limit, tc.each, res.Found, res.Truncated, res.Notes, min(tc.limit, 3), tc.truncated)
		}
	}
}
