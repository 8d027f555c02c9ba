package structural

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/ignore"
	"github.com/codecortex/codecortex/internal/testtool"
)

// ignoredTree is a project whose .gitignore files leave out some of its
// Go files: what every walk must skip unless it is named.
func ignoredTree(t *testing.T) string {
	return testtool.WriteTree(t, map[string]string{
		".gitignore":          "ignored/\n*.gen.go\n/top.go\n",
		"sub/.gitignore":      "!keep.gen.go\n",
		"a.go":                "package a\nfunc f() { call(1) }\n",
		"top.go":              "package a\nfunc g() { call(2) }\n",
		"x.gen.go":            "package a\nfunc h() { call(3) }\n",
		"ignored/a.go":        "package i\nfunc f() { call(4) }\n",
		"ignored/deep/b.go":   "package i\nfunc f() { call(5) }\n",
		"ignored/c.gen.go":    "package i\nfunc f() { call(6) }\n",
		"sub/keep.gen.go":     "package s\nfunc f() { call(7) }\n",
		"sub/top.go":          "package s\nfunc f() { call(8) }\n",
		"sub/drop.gen.go":     "package s\nfunc f() { call(9) }\n",
		".git/info/exclude":   "local.go\n",
		"local.go":            "package a\nfunc l() { call(10) }\n",
		"vendor/v/v.go":       "package v\nfunc f() { call(11) }\n",
		"sub/ignored/not.go":  "package n\nfunc f() { call(12) }\n",
		"sub/deeper/more.go":  "package m\nfunc f() { call(13) }\n",
		"sub/deeper/.gitkeep": "",
	})
}

func TestCollectFilesHonoursGitignore(t *testing.T) {
	dir := ignoredTree(t)
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	goFiles := func(f string) bool { l, ok := LanguageOf(f); return ok && l == Go }
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"whole tree", nil, []string{"a.go", "sub/deeper/more.go", "sub/keep.gen.go", "sub/top.go"}},
		// ripgrep searches what it is given: a named file, or a named
		// directory, even when ignored; what is ignored below it stays out.
		{"named ignored file", []string{"ignored/a.go"}, []string{"ignored/a.go"}},
		{"named ignored directory", []string{"ignored"}, []string{"ignored/a.go", "ignored/deep/b.go"}},
		{"named directory", []string{"sub"}, []string{"sub/deeper/more.go", "sub/keep.gen.go", "sub/top.go"}},
		{"glob", []string{"**/*.go"}, []string{"a.go", "sub/deeper/more.go", "sub/keep.gen.go", "sub/top.go"}},
		{"glob under an ignored directory", []string{"ignored/**/*.go"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collectFiles(root, tc.paths, goFiles, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.files); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLexicalSearchHonoursGitignore: the fallback walks as the engines do.
func TestLexicalSearchHonoursGitignore(t *testing.T) {
	dir := ignoredTree(t)
	res, err := LexicalSearch(context.Background(), Request{Root: dir, Pattern: "call($X)", Language: Go}, "test")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Path)
	}
	want := []string{"a.go", "sub/deeper/more.go", "sub/keep.gen.go", "sub/top.go"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

// TestSearchHonoursGitignore is the case: an ignored ignored/a.go
// matched. The answer is structural with cgo and the fallback without;
// both leave the ignored files out.
func TestSearchHonoursGitignore(t *testing.T) {
	dir := ignoredTree(t)
	ans, err := Search(context.Background(), Options{}, Request{Root: dir, Pattern: "call($X)", Language: Go})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, r := range ans.Records() {
		files[r.Path] = true
	}
	want := map[string]bool{"a.go": true, "sub/deeper/more.go": true, "sub/keep.gen.go": true, "sub/top.go": true}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files with records (-want +got):\n%s", diff)
	}
}

// TestWalkFilesSorted: the walk hands out files in the order of their
// sorted paths, which a search relies on to start on the first file
// before the walk is over: names that sort between a directory's name and
// the files below it ("a.go" and "a-b" before "a/x"), a directory whose
// name is another's prefix, and bytes below '/'.
func TestWalkFilesSorted(t *testing.T) {
	files := map[string]string{}
	for _, p := range []string{"a", "a.go", "a-b/x", "a/x", "a/b/c", "a/b.c", "ab/x", "a!/y", "A/z", "z", "a b/q", "a/b-/d", "a/b/c-/e", "a/bb"} {
		files[p] = ""
	}
	delete(files, "a") // a directory here
	dir := testtool.WriteTree(t, files)
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var got []string
	walkFiles(root.FS(), ".", ignore.NewTree(root.FS()), func(p string) bool { got = append(got, p); return true })
	want := slices.Sorted(maps.Keys(files))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("walk order (-sorted +walked):\n%s", diff)
	}
	// Stopping: fn's false ends the walk at once.
	got = got[:0]
	walkFiles(root.FS(), ".", ignore.NewTree(root.FS()), func(p string) bool { got = append(got, p); return len(got) < 3 })
	if diff := cmp.Diff(want[:3], got); diff != "" {
		t.Errorf("stopped walk (-want +got):\n%s", diff)
	}
}

// TestStreamedSearchSameAsListed: a search of one directory, whose walk
// feeds the workers as it goes, answers as the same search over a list of
// files resolved first (two paths naming the root make collectFiles list
// them): matches, file count, truncation and notes, under file and match
// limits that cut the walk anywhere.
func TestStreamedSearchSameAsListed(t *testing.T) {
	if !cgoEnabled {
		t.Skip("needs cgo")
	}
	files := map[string]string{}
	for i, p := range []string{"a.go", "a-b/x.go", "a/x.go", "a/b/c.go", "a/b.go", "ab/x.go", "z.go", "a/b-/d.go", "a/bb.go"} {
		files[p] = fmt.Sprintf("package p\nfunc f() { call(%d); call(%d) }\n", i, i+100)
	}
	files[".gitignore"] = "a/b/\n"
	root := testtool.WriteTree(t, files)
	for _, workers := range []int{1, 2, 3} {
		for _, lim := range []Limits{{}, {MaxFiles: 1}, {MaxFiles: 4}, {MaxMatches: 1}, {MaxMatches: 5}, {MaxFiles: 3, MaxMatches: 4}} {
			b := NewBuiltin(BuiltinOptions{Workers: workers, CacheBytes: -1})
			req := Request{Root: root, Pattern: "call($X)", Language: Go, Limits: lim}
			listed, streamed := listedAndStreamed(t, b, req, workers > 1 && lim.MaxMatches > 0)
			if diff := cmp.Diff(listed, streamed); diff != "" {
				t.Errorf("workers %d, limits %+v (-listed +streamed):\n%s", workers, lim, diff)
			}
		}
	}
}

// TestLargeFilesAheadSameAnswer: a walk's search, which takes a large
// file ahead of the smaller ones before it, answers as the search of the
// same files listed first, which takes them in order: the same matches
// (the first of the sorted files' under a match limit), truncation and
// notes, whatever the workers and the limit.
func TestLargeFilesAheadSameAnswer(t *testing.T) {
	if !cgoEnabled {
		t.Skip("needs cgo")
	}
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("d%d/f%02d.go", i%3, i)] = fmt.Sprintf("package p\nfunc f() { call(%d); call(%d) }\n", i, i+100)
		if i%7 == 3 {
			body := strings.Repeat(fmt.Sprintf("call(%d); ", i), largeFile/8*(1+i%2))
			files[fmt.Sprintf("d%d/g%02d.go", i%3, i)] = "package p\nfunc g() { " + body + "}\n"
		}
	}
	root := testtool.WriteTree(t, files)
	for _, workers := range []int{1, 2, 3, 7} {
		for _, limit := range []int{0, 1, 7, 60, 5000, 100000} {
			b := NewBuiltin(BuiltinOptions{Workers: workers, CacheBytes: -1})
			req := Request{Root: root, Pattern: "call($X)", Language: Go, Limits: Limits{MaxMatches: limit}}
			listed, streamed := listedAndStreamed(t, b, req, true)
			if diff := cmp.Diff(listed, streamed); diff != "" {
				t.Errorf("workers %d, limit %d (-listed +streamed):\n%s", workers, limit, diff)
			}
		}
	}
}

// listedAndStreamed runs req, a search of the root, as a walk feeds it and
// over the files listed first (two paths naming the root make
// collectFiles list them). With timing it drops what depends on how many
// files the workers took before the match limit stopped them: Parsed and
// which of the two match-limit notes is given.
func listedAndStreamed(t *testing.T, b *Builtin, req Request, timing bool) (listed, streamed *Result) {
	t.Helper()
	streamed, err := b.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	req.Paths = []string{".", "."}
	if listed, err = b.Search(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if timing {
		for _, r := range []*Result{listed, streamed} {
			r.Parsed = 0
			r.Notes = slices.DeleteFunc(r.Notes, func(n string) bool { return strings.HasSuffix(n, "(limit max_matches)") })
		}
	}
	return listed, streamed
}

// TestWalkLooksUpListedIgnoreFiles: the walk looks for a .gitignore only
// in the directories whose listing holds one, and still honours it.
func TestWalkLooksUpListedIgnoreFiles(t *testing.T) {
	fsys := &testtool.LookupFS{MapFS: fstest.MapFS{
		"a/.gitignore": {Data: []byte("*.log\n")},
		"a/b/x.log":    {},
		"a/b/x.go":     {},
		"c/d/y.log":    {},
		"z.go":         {},
	}}
	var got []string
	walkFiles(fsys, ".", ignore.NewTree(fsys), func(p string) bool { got = append(got, p); return true })
	if want := []string{"a/.gitignore", "a/b/x.go", "c/d/y.log", "z.go"}; !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	var looked []string
	for _, n := range fsys.Names() {
		if path.Base(n) == ignore.FileName {
			looked = append(looked, n)
		}
	}
	if want := []string{"a/.gitignore", "a/.gitignore"}; !slices.Equal(looked, want) { // its Lstat, then its Open
		t.Errorf("looked up ignore files %q, want %q", looked, want)
	}
}

// TestOverLimitIgnoreFileNoted: a .gitignore past its limits leaves its
// directory out of every walk (the listed one, the streamed one, the
// fallback's), and each result's notes say which file and why.
func TestOverLimitIgnoreFileNoted(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"a.go":           "package a\nfunc f() { call(1) }\n",
		"big/.gitignore": "*.log\n" + strings.Repeat("padding-that-matches-nothing\n", 40_000),
		"big/b.go":       "package b\nfunc f() { call(2) }\n",
	})
	hasNote := func(t *testing.T, notes []string) {
		t.Helper()
		for _, n := range notes {
			if strings.Contains(n, "big/.gitignore") && strings.Contains(n, "every path under big/") {
				return
			}
		}
		t.Errorf("notes %q, want one about big/.gitignore", notes)
	}
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	files, err := collectFiles(root, nil, func(string) bool { return true }, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.go"}, files.files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	hasNote(t, files.notes)

	ctx := context.Background()
	b := NewBuiltin(BuiltinOptions{})
	for _, req := range []Request{
		{Root: dir, Pattern: "call($X)", Language: Go},                               // streamed
		{Root: dir, Pattern: "call($X)", Language: Go, Paths: []string{".", "a.go"}}, // listed
	} {
		if b.Available() != nil {
			break // built without cgo: the fallback below walks as the engine does
		}
		res, err := b.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Found != 1 {
			t.Errorf("%v: found %d, want the one in a.go", req.Paths, res.Found)
		}
		hasNote(t, res.Notes)
	}
	lex, err := LexicalSearch(ctx, Request{Root: dir, Pattern: "call($X)", Language: Go}, "test")
	if err != nil {
		t.Fatal(err)
	}
	hasNote(t, lex.Notes)
}
