package index

import (
	"os"
	"slices"
	"sort"
	"testing"

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
	want, _ := first.walk()
	second := mk()
	second.load(first.encode())
	if len(second.dirs) != len(first.dirs) {
		t.Fatalf("loaded %d listings, saved %d", len(second.dirs), len(first.dirs))
	}
	got, _ := second.walk()
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
	got, _ = third.walk()
	if !slices.Contains(walkedPaths(got), "sub/new.go") || !third.changed {
		t.Errorf("walk after a new file: %v (changed %v)", walkedPaths(got), third.changed)
	}
}

func TestWalkerLoadRejects(t *testing.T) {
	for _, text := range []string{
		"",
		"listings 0\nD 1 0 .\n",
		"listings 1\nD 1 0 ../up\n",
		"listings 1\nD 1 0 .\nS ..\n",
		"listings 1\nD 1 0 .\nF a/b\n",
		"listings 1\nF a\n",
		"listings 1\nD x 0 .\n",
		"listings 1\nD 1 0 sub\n", // no root
	} {
		w := newWalker(t.TempDir(), nil, 1)
		w.load(text)
		if w.dirs != nil {
			t.Errorf("load(%q) accepted the listings", text)
		}
	}
}

func FuzzWalkerLoad(f *testing.F) {
	f.Add("listings 1\nI 3 4 .gitignore\nD 5 0 .\nS sub\nF a.go\nD 6 1 sub\nF b.go\n")
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
