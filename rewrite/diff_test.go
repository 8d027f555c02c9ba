package rewrite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/structural"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// edit makes an edit of src replacing old (its first occurrence at or
// after from) by new.
func edit(src, old, new string, from int) structural.Edit {
	i := from + strings.Index(src[from:], old)
	return structural.Edit{Path: "f.txt", StartByte: i, EndByte: i + len(old), Old: old, New: new}
}

func TestUnifiedDiff(t *testing.T) {
	long := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
	tests := []struct {
		name  string
		src   string
		edits []structural.Edit
		want  string
	}{
		{"one line", "a\nb\nc\n", []structural.Edit{edit("a\nb\nc\n", "b", "B", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"adjacent lines share a block", "a\nb\nc\n", []structural.Edit{edit("a\nb\nc\n", "a", "A", 0), edit("a\nb\nc\n", "b", "B", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n-a\n-b\n+A\n+B\n c\n"},
		{"far apart: two hunks", long, []structural.Edit{edit(long, "2\n", "two\n", 0), edit(long, "14\n", "fourteen\n", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -11,5 +11,5 @@\n 11\n 12\n 13\n-14\n+fourteen\n 15\n"},
		{"a line split in two", "a\nb\n", []structural.Edit{edit("a\nb\n", "a", "x\ny", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n-a\n+x\n+y\n b\n"},
		{"a line deleted", "a\nb\nc\n", []structural.Edit{edit("a\nb\nc\n", "b\n", "", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"},
		{"lines joined", "a\nb\n", []structural.Edit{edit("a\nb\n", "\n", "", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,1 @@\n-a\n-b\n+ab\n"},
		{"no newline at the end", "a\nb", []structural.Edit{edit("a\nb", "b", "B", 0)},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+B\n\\ No newline at end of file\n"},
		{"append to an empty file", "", []structural.Edit{{Path: "f.txt", New: "x\n"}},
			"--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1,1 @@\n+x\n"},
		{"append after the last newline", "a\n", []structural.Edit{{Path: "f.txt", StartByte: 2, EndByte: 2, New: "b\n"}},
			"--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,2 @@\n a\n+b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := unifiedDiff("f.txt", []byte(tt.src), tt.edits)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diff (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnifiedDiffApplies checks, with GNU patch as the oracle, neither
// fuzz nor offset allowed, that every diff turns the old content into the new one, for
// random contents and edits.
func TestUnifiedDiffApplies(t *testing.T) {
	patch := testtool.Require(t, "patch", "apt-get install patch")
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		words := []string{"a", "b", "c", "dd", "", "func x() {", "}"}
		n := rapid.IntRange(0, 40).Draw(t, "lines")
		var sb strings.Builder
		for i := range n {
			sb.WriteString(rapid.SampledFrom(words).Draw(t, "line"))
			if i < n-1 || rapid.Bool().Draw(t, "final newline") {
				sb.WriteByte('\n')
			}
		}
		src := sb.String()
		cuts := rapid.SliceOfNDistinct(rapid.IntRange(0, len(src)), 0, 10, rapid.ID[int]).Draw(t, "cuts")
		sort.Ints(cuts)
		var edits []structural.Edit
		for i := 0; i+1 < len(cuts); i += 2 {
			s, e := cuts[i], cuts[i+1]
			if rapid.Bool().Draw(t, "insertion") {
				e = s
			}
			repl := rapid.SampledFrom([]string{"", "X", "Y\n", "\nZ", "p\nq\n"}).Draw(t, "new")
			edits = append(edits, structural.Edit{Path: "f.txt", StartByte: s, EndByte: e, Old: src[s:e], New: repl})
		}
		want, err := structural.ApplyEdits([]byte(src), edits)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(want, []byte(src)) {
			return
		}
		d, err := unifiedDiff("f.txt", []byte(src), edits)
		if err != nil {
			t.Fatal(err)
		}
		work, err := os.MkdirTemp(dir, "p")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(work)
		// Forward on the old content gives the new; reverse on the new gives
		// the old. patch finds a hunk whose line numbers are off and says
		// so: the numbers must be exact.
		for _, step := range []struct {
			args       []string
			from, want string
		}{
			{nil, src, string(want)},
			{[]string{"-R"}, string(want), src},
		} {
			if err := os.WriteFile(filepath.Join(work, "f.txt"), []byte(step.from), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res, err := safeexec.Run(ctx, safeexec.Invocation{Path: patch, Args: append([]string{"-p1", "-F0", "--no-backup-if-mismatch"}, step.args...),
				Dir: work, Stdin: strings.NewReader(d), Env: safeexec.Environ("PATH")})
			cancel()
			if err != nil {
				t.Fatalf("patch %v: %v\n%s%s\ndiff:\n%s", step.args, err, res.Stdout, res.Stderr, d)
			}
			if out := string(res.Stdout); strings.Contains(out, "offset") || strings.Contains(out, "fuzz") {
				t.Fatalf("patch %v: %s\ndiff:\n%s", step.args, out, d)
			}
			got, err := os.ReadFile(filepath.Join(work, "f.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != step.want {
				t.Fatalf("patch %v gave %q, want %q\ndiff:\n%s", step.args, got, step.want, d)
			}
		}
	})
}
