package history

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChangedLines: against a real repository, the lines each file now
// has that differ from the base, staged or not; renamed files by their
// new path; deletions marked around the place they were; untracked,
// binary and deleted files absent.
func TestChangedLines(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{
		"edit.go":   "a\nb\nc\nd\ne\nf\n",
		"cut.go":    "a\nb\nc\nd\n",
		"move.go":   lines(10, "m"),
		"gone.go":   "g\n",
		"odd\tname": "x\n",
		"sub/s.go":  "s\n",
	})
	base := r.commit("base")
	r.write(map[string]string{
		"edit.go":   "a\nB\nc\nd\nE\nE2\nf\n", // line 2 changed; line 5 changed and one added after it
		"cut.go":    "a\nd\n",                 // lines 2-3 deleted
		"odd\tname": "y\n",
		"sub/s.go":  "s\n+++ b/looks-like-a-header\n", // a body line that reads like a header
		"new.txt":   "untracked\n",
	})
	r.run("add", "edit.go")
	r.write(map[string]string{"edit.go": "a\nB\nc\nd\nE\nE2\nf\ng\n"}) // and an unstaged line 8
	r.run("rm", "-q", "gone.go")
	r.run("mv", "move.go", "moved.go")
	r.write(map[string]string{"moved.go": lines(11, "m")})

	got, err := r.open(t, Options{}).ChangedLines(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]LineRange{
		"edit.go":   {{2, 2}, {5, 6}, {8, 8}},
		"cut.go":    {{1, 2}},
		"odd\tname": {{1, 1}},
		"sub/s.go":  {{2, 2}},
		"moved.go":  {{11, 11}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ChangedLines (-want +got):\n%s", diff)
	}

	if _, err := r.open(t, Options{}).ChangedLines(context.Background(), "--output=/tmp/x"); !errors.Is(err, ErrRevision) {
		t.Errorf("an option as the base: %v, want ErrRevision", err)
	}
}

// TestParseHunks: bodies are skipped by their counts, "\ No newline"
// lines included; malformed headers and paths that leave the tree are
// errors.
func TestParseHunks(t *testing.T) {
	out := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-+++ b/evil\n\\ No newline at end of file\n++++ b/evil2\n\\ No newline at end of file\n" +
		"diff --git a/y b/y\ndeleted file mode 100644\n--- a/y\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
	got, err := parseHunks([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]LineRange{"x": {{1, 1}}}, got); diff != "" {
		t.Errorf("parseHunks (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"+++ b/../up\n",
		"+++ b/x\n@@ -1 +x @@\n",
		"+++ b/x\n@@ -1 +1\n",
		"+++ b/x\n@@ -1 +1,2 @@\n+a\n context\n",
		"+++ \"b/unterminated\n",
		"+++ a-not-b\n",
	} {
		if _, err := parseHunks([]byte(bad)); err == nil {
			t.Errorf("parseHunks(%q) = nil error", bad)
		}
	}
}

func FuzzParseHunks(f *testing.F) {
	f.Add([]byte("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n-a\n-b\n+a\n+b\n+c\n@@ -9 +10,0 @@\n-z\n"))
	f.Add([]byte("+++ \"b/odd\\tname\"\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		ranges, err := parseHunks(out)
		if err != nil {
			return
		}
		for p, rs := range ranges {
			if !validRepoPath(p) {
				t.Errorf("path %q leaves the work tree", p)
			}
			for _, r := range rs {
				if r.Start < 1 || r.End < r.Start-1 {
					t.Errorf("%s: range %+v", p, r)
				}
			}
		}
	})
}
