package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func walkedPaths(res walkResult) []string {
	var out []string
	for _, f := range res.files {
		out = append(out, f.path)
	}
	sort.Strings(out)
	return out
}

// TestWalkerListingsRoundTrip: listings saved by one walker and loaded by
// another give the same walk, reading only the directories that changed.
func TestWalkerListingsRoundTrip(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".gitignore": "*.log\n", "a.go": "a", "x.log": "x", "sub/b.go": "b", "sub/deep/c.go": "c", "empty/.keep": "",
	})
	mk := func() *walker {
		return newWalker(dir, func() matcher { return newMatcher(os.DirFS(dir)) }, 1<<20)
	}
	first := mk()
	want, _ := first.walk(time.Time{})
	second := mk()
	second.load(first.encode())
	if len(second.dirs) != len(first.dirs) {
		t.Fatalf("loaded %d listings, saved %d", len(second.dirs), len(first.dirs))
	}
	got, _ := second.walk(time.Time{})
	if diff := cmp.Diff(walkedPaths(want), walkedPaths(got)); diff != "" {
		t.Errorf("walk from loaded listings (-want +got):\n%s", diff)
	}
	if second.changed {
		t.Error("a walk over unchanged directories read their entries again")
	}
	// A new file changes its directory's mtime: that listing is read again.
	writeFile(t, dir, "sub/new.go", "n")
	third := mk()
	third.load(first.encode())
	got, _ = third.walk(time.Time{})
	if !slices.Contains(walkedPaths(got), "sub/new.go") || !third.changed {
		t.Errorf("walk after a new file: %v (changed %v)", walkedPaths(got), third.changed)
	}
}

func TestWalkerLoadRejects(t *testing.T) {
	for _, text := range []string{
		"",
		"listings 0\nD 1 0 .\n",
		"listings 1\nD 1 0 .\n", // before the ignore files' limits
		"listings 2\nD 1 0 ../up\n",
		"listings 2\nD 1 0 .\nS ..\n",
		"listings 2\nD 1 0 .\nS .\n",
		"listings 2\nD 1 0 .\nF a/b\n",
		"listings 2\nF a\n",
		"listings 2\nD x 0 .\n",
		"listings 2\nD 1 0 sub\n", // no root
		"listings 2\nH .gitignore\nD 1 0 .\n",
		"listings 2\nD 1 0 .\nH x\n",
	} {
		w := newWalker(t.TempDir(), nil, 1)
		w.load(text)
		if w.dirs != nil {
			t.Errorf("load(%q) accepted the listings", text)
		}
	}
}

// TestValidNameASCII: the ASCII fast path of validName judges every
// character as the full check does.
func TestValidNameASCII(t *testing.T) {
	for c := 0; c < utf8.RuneSelf; c++ {
		for _, name := range []string{string(rune(c)), "a" + string(rune(c)) + "b.go"} {
			if got, want := validName(name), validNameSlow(name); got != want {
				t.Errorf("validName(%q) = %v, want %v", name, got, want)
			}
		}
	}
	for _, name := range []string{"", "é.go", "a\u202eb", "a\u0085b", "\xff"} {
		if got, want := validName(name), validNameSlow(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}

func FuzzWalkerLoad(f *testing.F) {
	f.Add("listings 2\nI 3 4 .gitignore\nD 5 0 .\nS sub\nF a.go\nD 6 1 sub\nF b.go\n")
	f.Fuzz(func(t *testing.T, text string) {
		w := newWalker(t.TempDir(), nil, 1)
		w.load(text)
		for rel, l := range w.dirs {
			for _, p := range append(append([]string{rel}, l.subdirs...), l.files...) {
				if !validRel(p) {
					t.Fatalf("load accepted the path %q", p)
				}
			}
		}
	})
}

// TestWatcher: once the index has walked the tree with every directory
// watched, queries learn of changes from inotify's events, and see every
// kind of change.
func TestWatcher(t *testing.T) {
	dir := writeTree(t, project)
	if w := newWatcher(); w == nil {
		t.Skip("no inotify here")
	} else {
		w.close()
	}
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	for range 3 { // the first walk sets up nothing, the second watches, the third is trusted
		if _, err := ix.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	before := ix.walker.fromEvents
	find := func(t *testing.T, q string) []string {
		t.Helper()
		res, err := ix.Search(ctx, q, SearchOptions{})
		if err != nil || res.Freshness.State != Fresh {
			t.Fatalf("search %q: %+v, %v", q, res.Freshness, err)
		}
		got := hitPaths(res.Hits)
		sort.Strings(got)
		return got
	}
	writeFile(t, dir, "web/server.go", project["web/server.go"]+"// numbat\n")
	if got := find(t, "numbat"); !cmp.Equal(got, []string{"web/server.go"}) {
		t.Errorf("after an edit: %v", got)
	}
	if ix.walker.fromEvents == before {
		t.Error("the edit was not learnt from the watcher's events")
	}
	writeFile(t, dir, "web/more.go", "// numbat too\n")
	if got := find(t, "numbat"); !cmp.Equal(got, []string{"web/more.go", "web/server.go"}) {
		t.Errorf("after a new file: %v", got)
	}
	writeFile(t, dir, "brand/new/dir.go", "// numbat deep\n")
	if got := find(t, "numbat"); !cmp.Equal(got, []string{"brand/new/dir.go", "web/more.go", "web/server.go"}) {
		t.Errorf("after a new directory: %v", got)
	}
	if err := os.Rename(filepath.Join(dir, "brand"), filepath.Join(dir, "renamed")); err != nil {
		t.Fatal(err)
	}
	if got := find(t, "numbat"); !cmp.Equal(got, []string{"renamed/new/dir.go", "web/more.go", "web/server.go"}) {
		t.Errorf("after renaming a directory: %v", got)
	}
	writeFile(t, dir, ".gitignore", "web/\n")
	if got := find(t, "numbat"); !cmp.Equal(got, []string{"renamed/new/dir.go"}) {
		t.Errorf("after ignoring web/: %v", got)
	}
	if err := os.Remove(filepath.Join(dir, "renamed/new/dir.go")); err != nil {
		t.Fatal(err)
	}
	if got := find(t, "numbat"); len(got) != 0 {
		t.Errorf("after a delete: %v", got)
	}
	later := time.Now().Add(time.Minute)
	writeFile(t, dir, "auth/session.go", strings.Replace(project["auth/session.go"], "Refresh", "Renew", -1))
	os.Chtimes(filepath.Join(dir, "auth/session.go"), later, later)
	if res, _ := ix.Lookup(ctx, "Renew"); len(res.Definitions) != 1 {
		t.Errorf("after an edit and a touch: %+v", res.Definitions)
	}
}

func FuzzValidName(f *testing.F) {
	f.Add("main.go")
	f.Add("a\u202eb")
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := validName(name), validNameSlow(name); got != want {
			t.Fatalf("validName(%q) = %v, want %v", name, got, want)
		}
	})
}

// TestOverLimitIgnoreFile: an ignore file past the limits is not applied
// in part. Its directory is left out whole, so that nothing it may
// ignore is indexed, and every answer's freshness says so, also in a new
// process that reuses the saved listings.
func TestOverLimitIgnoreFile(t *testing.T) {
	var big strings.Builder
	big.WriteString("*.secret\n")
	for big.Len() <= 1<<20 {
		big.WriteString("padding-pattern-that-matches-nothing\n")
	}
	big.WriteString("canary.go\n") // past the first MiB
	dir := writeTree(t, map[string]string{
		"a.go":             "package a // quokka a\n",
		"big/.gitignore":   big.String(),
		"big/b.go":         "package b // quokka b\n",
		"big/canary.go":    "package b // quokka canary\n",
		"big/key.secret":   "quokka secret\n",
		"other/c.go":       "package c // quokka c\n",
		"other/.gitignore": "*.log\n",
	})
	ctx := context.Background()
	search := func(ix *Index) SearchResult {
		t.Helper()
		res, err := ix.Search(ctx, "quokka", SearchOptions{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, name := range []string{"first process", "second process"} {
		t.Run(name, func(t *testing.T) {
			res := search(openTest(t, dir, nil))
			got := hitPaths(res.Hits)
			sort.Strings(got)
			if diff := cmp.Diff([]string{"a.go", "other/c.go"}, got); diff != "" {
				t.Errorf("indexed (-want +got):\n%s", diff)
			}
			var notes []string
			for _, d := range res.Freshness.Diagnostics {
				if strings.Contains(d, "big/.gitignore") {
					notes = append(notes, d)
				}
			}
			if len(notes) != 1 || !strings.Contains(notes[0], "every path under big/") || !strings.Contains(notes[0], "1048576") {
				t.Errorf("diagnostics %q, want one naming big/.gitignore, the limit and what is left out", res.Freshness.Diagnostics)
			}
		})
	}
	// The file left out is still watched: shrunk in place (its
	// directory's listing unchanged), it applies, in a process that reuses
	// the listings and in one that had them already.
	ix := openTest(t, dir, nil)
	search(ix)
	writeFile(t, dir, "big/.gitignore", "*.secret\n")
	for _, name := range []string{"same process", "new process"} {
		t.Run("shrunk, "+name, func(t *testing.T) {
			if name == "new process" {
				ix = openTest(t, dir, nil)
			}
			res := search(ix)
			got := hitPaths(res.Hits)
			sort.Strings(got)
			if diff := cmp.Diff([]string{"a.go", "big/b.go", "big/canary.go", "other/c.go"}, got); diff != "" {
				t.Errorf("indexed (-want +got):\n%s", diff)
			}
			if len(res.Freshness.Diagnostics) != 0 {
				t.Errorf("diagnostics %q", res.Freshness.Diagnostics)
			}
		})
	}
}

// TestWalkerSharedSince: a walk begun at or after the moment given is
// returned again as it was (a question's queries share it); a walk asked
// for since a later moment walks the tree again and sees what changed.
func TestWalkerSharedSince(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.go": "a"})
	w := newWalker(dir, func() matcher { return newMatcher(os.DirFS(dir)) }, 1<<20)
	asked := time.Now()
	first, seq := w.walk(asked)
	writeFile(t, dir, "b.go", "b")
	again, seq2 := w.walk(asked)
	if seq2 != seq || !slices.Equal(walkedPaths(again), walkedPaths(first)) {
		t.Errorf("same question: walk %d %v, then %d %v; want the first again", seq, walkedPaths(first), seq2, walkedPaths(again))
	}
	later, seq3 := w.walk(time.Now())
	if seq3 == seq || !slices.Contains(walkedPaths(later), "b.go") {
		t.Errorf("a later question: walk %d %v; want a new walk listing b.go", seq3, walkedPaths(later))
	}
	if all, _ := w.walk(time.Time{}); !slices.Contains(walkedPaths(all), "b.go") {
		t.Errorf("no moment given: %v", walkedPaths(all))
	}
}
