package history

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignoreCommitDetail keeps the tests to what they are about.
var ignoreCommitDetail = cmpopts.IgnoreFields(Commit{}, "Parents", "Email", "Body")

func TestLogFollowsRenamesAndSquashes(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"old.go": lines(5, "line")})
	c1 := r.commit("add old.go")
	r.run("mv", "old.go", "new.go")
	c2 := r.commit("Rename old to new (#12)", "Bob")
	r.write(map[string]string{"new.go": lines(6, "line")})
	c3 := r.commit("Grow new.go")
	r.write(map[string]string{"other.go": "x\n"})
	r.commit("unrelated")

	h, err := r.open(t, Options{}).Log(context.Background(), "new.go")
	if err != nil {
		t.Fatal(err)
	}
	want := &FileHistory{Path: "new.go", Entries: []Entry{
		{Commit: Commit{Hash: c3, Author: "Ada", Date: date(3), Subject: "Grow new.go"}, Status: Modified, Path: "new.go"},
		{Commit: Commit{Hash: c2, Author: "Bob", Date: date(2), Subject: "Rename old to new (#12)",
			PR: &PullRequest{Number: 12, Title: "Rename old to new", Via: ViaSquash, Commit: c2}},
			Status: Renamed, Path: "new.go", OldPath: "old.go"},
		{Commit: Commit{Hash: c1, Author: "Ada", Date: date(1), Subject: "add old.go"}, Status: Added, Path: "old.go"},
	}}
	if diff := cmp.Diff(want, h, ignoreCommitDetail); diff != "" {
		t.Errorf("Log (-want +got):\n%s", diff)
	}
}

func TestLogLimit(t *testing.T) {
	r := newTestRepo(t)
	for i := 1; i <= 4; i++ {
		r.write(map[string]string{"f.txt": lines(i, "v")})
		r.commit("change " + string(rune('0'+i)))
	}
	h, err := r.open(t, Options{Limit: 2}).Log(context.Background(), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Entries {
		got = append(got, e.Subject)
	}
	if diff := cmp.Diff([]string{"change 4", "change 3"}, got); diff != "" || !h.More {
		t.Errorf("Log with Limit 2 (-want +got):\n%s\nMore = %v, want true", diff, h.More)
	}
}

// A commit made on a branch and merged with a merge commit takes the pull
// request the merge commit names; a merge that names none claims its
// commits too, so an older request does not.
func TestLogPullRequestFromMerge(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"a.go": lines(3, "a"), "b.go": lines(3, "b")})
	r.commit("initial")

	r.run("checkout", "-q", "-b", "feature")
	r.write(map[string]string{"a.go": lines(4, "a")})
	onBranch := r.commit("Teach a.go a fourth line", "Bob")
	r.run("checkout", "-q", "main")
	r.write(map[string]string{"b.go": lines(4, "b")})
	r.commit("meanwhile on main")
	merge := r.merge("feature", "Merge pull request #7 from bob/feature\n\nAdd the fourth line")

	r.run("checkout", "-q", "-b", "plain")
	r.write(map[string]string{"a.go": lines(5, "a")})
	plain := r.commit("fifth line")
	r.run("checkout", "-q", "main")
	r.merge("plain", "Merge branch 'plain'")

	h, err := r.open(t, Options{}).Log(context.Background(), "a.go")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*PullRequest{}
	for _, e := range h.Entries {
		got[e.Hash] = e.PR
	}
	want := map[string]*PullRequest{
		plain:    nil,
		onBranch: {Number: 7, Title: "Add the fourth line", Via: ViaMerge, Commit: merge},
	}
	for _, e := range h.Entries {
		if e.Subject == "initial" {
			want[e.Hash] = nil
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pull requests by commit (-want +got):\n%s", diff)
	}

	// With the search off, only a commit's own message counts.
	h, err = r.open(t, Options{PRWindow: -1}).Log(context.Background(), "a.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range h.Entries {
		if e.PR != nil {
			t.Errorf("PRWindow -1: %s has PR %+v", e.Subject, e.PR)
		}
	}
}

func TestLogDirectory(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"pkg/a.go": "a\n", "pkg/b.go": "b\n", "other.go": "o\n"})
	r.commit("add")
	r.write(map[string]string{"pkg/b.go": "b2\n"})
	r.commit("edit b")
	r.write(map[string]string{"other.go": "o2\n"})
	r.commit("edit other")
	h, err := r.open(t, Options{}).Log(context.Background(), "pkg")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Entries {
		got = append(got, e.Subject+" "+e.Path+" "+string(e.Status))
	}
	if diff := cmp.Diff([]string{"edit b pkg modified", "add pkg modified"}, got); diff != "" {
		t.Errorf("Log of a directory (-want +got):\n%s", diff)
	}
}

func TestLogDeletedFile(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"gone.txt": "x\n", "keep.txt": "k\n"})
	r.commit("add")
	r.run("rm", "-q", "gone.txt")
	del := r.commit("remove gone.txt")
	h, err := r.open(t, Options{}).Log(context.Background(), "gone.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Entries) != 2 || h.Entries[0].Hash != del || h.Entries[0].Status != Deleted {
		t.Errorf("Log of a deleted file = %+v, want its deletion %s first", h.Entries, del)
	}
}

func TestBlame(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"f.txt": "one\ntwo\nthree\n"})
	c1 := r.commit("first")
	r.write(map[string]string{"f.txt": "one\nTWO\nthree\nfour\n"})
	c2 := r.commit("Second (#3)", "Bob")
	r.write(map[string]string{"f.txt": "one\nTWO\nthree\nfour\nfive\n"}) // not committed

	repo := r.open(t, Options{})
	hunks, err := repo.Blame(context.Background(), "f.txt", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	pr := &PullRequest{Number: 3, Title: "Second", Via: ViaSquash, Commit: c2}
	want := []Hunk{
		{StartLine: 1, EndLine: 1, Commit: Commit{Hash: c1, Author: "Ada", Date: date(1), Subject: "first"}, Boundary: true, OrigPath: "f.txt", OrigLine: 1},
		{StartLine: 2, EndLine: 2, Commit: Commit{Hash: c2, Author: "Bob", Date: date(2), Subject: "Second (#3)", PR: pr}, OrigPath: "f.txt", OrigLine: 2},
		{StartLine: 3, EndLine: 3, Commit: Commit{Hash: c1, Author: "Ada", Date: date(1), Subject: "first"}, Boundary: true, OrigPath: "f.txt", OrigLine: 3},
		{StartLine: 4, EndLine: 4, Commit: Commit{Hash: c2, Author: "Bob", Date: date(2), Subject: "Second (#3)", PR: pr}, OrigPath: "f.txt", OrigLine: 4},
		{StartLine: 5, EndLine: 5, Commit: Commit{Hash: strings.Repeat("0", 40), Author: "Not Committed Yet"}, Uncommitted: true, OrigPath: "f.txt", OrigLine: 5},
	}
	if diff := cmp.Diff(want, hunks, ignoreCommitDetail, cmpopts.IgnoreFields(Commit{}, "Date"), cmp.Comparer(func(a, b PullRequest) bool { return a == b })); diff != "" {
		t.Errorf("Blame (-want +got):\n%s", diff)
	}
	if !hunks[1].Commit.Date.Equal(date(2)) {
		t.Errorf("blame date %v, want %v", hunks[1].Commit.Date, date(2))
	}

	// A range: lines 2-4, and an end past the file is clamped.
	for _, tc := range []struct{ start, end, first, last int }{{2, 4, 2, 4}, {4, 99, 4, 5}} {
		hunks, err := repo.Blame(context.Background(), "f.txt", tc.start, tc.end)
		if err != nil {
			t.Fatal(err)
		}
		if first, last := hunks[0].StartLine, hunks[len(hunks)-1].EndLine; first != tc.first || last != tc.last {
			t.Errorf("Blame %d-%d covers %d-%d, want %d-%d", tc.start, tc.end, first, last, tc.first, tc.last)
		}
	}
}

func TestBlameFollowsRename(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"a.txt": "alpha\nbeta\n"})
	c1 := r.commit("add a")
	r.run("mv", "a.txt", "b.txt")
	r.commit("rename")
	hunks, err := r.open(t, Options{}).Blame(context.Background(), "b.txt", 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(hunks) != 1 || hunks[0].Commit.Hash != c1 || hunks[0].OrigPath != "a.txt" {
		t.Errorf("Blame of a renamed file = %+v, want commit %s at a.txt", hunks, c1)
	}
}

func TestChanges(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{
		"keep.go": lines(3, "k"), "edit.go": lines(3, "e"), "gone.go": lines(3, "g"),
		"move.go": lines(10, "m"), "sub/x.go": "x\n", ".gitignore": "*.log\n",
	})
	base := r.commit("base")
	r.write(map[string]string{"edit.go": lines(5, "e")})
	c2 := r.commit("Edit edit.go (#21)")
	r.run("tag", "v1")

	// The work tree: an unstaged edit, a staged new file, a deletion, a
	// rename with an edit, an untracked file, an untracked binary, an
	// ignored file.
	r.write(map[string]string{"keep.go": lines(4, "k"), "staged.go": "s\n", "new.txt": "a\nb", "debug.log": "ignored\n"})
	if err := os.WriteFile(r.path("blob.bin"), []byte{0, 1, 2, 3}, 0o644); err != nil {
		t.Fatal(err)
	}
	r.run("add", "staged.go")
	r.run("rm", "-q", "gone.go")
	r.run("mv", "move.go", "moved.go")
	r.write(map[string]string{"moved.go": lines(11, "m")})

	repo := r.open(t, Options{})
	cs, err := repo.Changes(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	want := &ChangeSet{
		Base: base, Head: c2, Branch: "main",
		Commits: []Commit{{Hash: c2, Author: "Ada", Date: date(2), Subject: "Edit edit.go (#21)",
			PR: &PullRequest{Number: 21, Title: "Edit edit.go", Via: ViaSquash, Commit: c2}}},
		Changes: []Change{
			{Path: "blob.bin", Status: Untracked, Binary: true},
			{Path: "edit.go", Status: Modified, Added: 2},
			{Path: "gone.go", Status: Deleted, Deleted: 3},
			{Path: "keep.go", Status: Modified, Added: 1},
			{Path: "moved.go", OldPath: "move.go", Status: Renamed, Similarity: 90, Added: 1},
			{Path: "new.txt", Status: Untracked, Added: 2},
			{Path: "staged.go", Status: Added, Added: 1},
		},
	}
	ignoreSimilarity := cmpopts.IgnoreFields(Change{}, "Similarity")
	if diff := cmp.Diff(want, cs, ignoreCommitDetail, ignoreSimilarity); diff != "" {
		t.Errorf("Changes (-want +got):\n%s", diff)
	}

	// Since a tag at HEAD: the work tree only (edit.go is as committed);
	// "" is HEAD.
	for _, rev := range []string{"v1", ""} {
		cs, err = repo.Changes(context.Background(), rev)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs.Commits) != 0 || len(cs.Changes) != 6 || cs.Base != c2 {
			t.Errorf("Changes(%q) = %d commits, %d changes, base %s; want 0, 6, %s", rev, len(cs.Commits), len(cs.Changes), cs.Base, c2)
		}
	}

	// A revision that is an option, or names nothing, is refused.
	for _, rev := range []string{"--output=/tmp/x", "no-such-branch", "HEAD\nmain"} {
		if _, err := repo.Changes(context.Background(), rev); !errors.Is(err, ErrRevision) {
			t.Errorf("Changes(%q) = %v, want ErrRevision", rev, err)
		}
	}
}

func TestChangesDetachedAndUnborn(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"a.txt": "a\n"})
	// No commit yet: everything is new.
	cs, err := r.open(t, Options{}).Changes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if cs.Head != "" || cs.Base != "" || len(cs.Changes) != 1 || cs.Changes[0].Status != Untracked {
		t.Errorf("Changes before the first commit = %+v", cs)
	}

	first := r.commit("first")
	r.write(map[string]string{"a.txt": "a\nb\n"})
	r.commit("second")
	r.run("checkout", "-q", "--detach", first)
	cs, err = r.open(t, Options{}).Changes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !cs.Detached || cs.Branch != "" || cs.Head != first {
		t.Errorf("Changes on a detached HEAD: detached %v branch %q head %s; want true, \"\", %s", cs.Detached, cs.Branch, cs.Head, first)
	}
	h, err := r.open(t, Options{}).Log(context.Background(), "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Entries) != 1 || h.Entries[0].Hash != first {
		t.Errorf("Log on a detached HEAD = %+v, want only %s", h.Entries, first)
	}
}

// A project root below the top of the work tree: paths are relative to it,
// and a file that came from outside it names its old path with "../".
func TestSubdirectoryProject(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"lib/util.go": lines(8, "u"), "app/main.go": "m\n"})
	r.commit("add")
	r.run("mv", "lib/util.go", "app/util.go")
	r.commit("move util into app")
	r.write(map[string]string{"app/new.go": "n\n", "lib/other.go": "o\n"})

	repo := r.open(t, Options{Dir: r.path("app")})
	h, err := repo.Log(context.Background(), "util.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Entries) != 2 || h.Entries[0].OldPath != "../lib/util.go" || h.Entries[1].Path != "../lib/util.go" {
		t.Errorf("Log in a subdirectory = %+v", h.Entries)
	}
	cs, err := repo.Changes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Change{{Path: "new.go", Status: Untracked, Added: 1}}, cs.Changes); diff != "" {
		t.Errorf("Changes in a subdirectory list only its files (-want +got):\n%s", diff)
	}
}

func TestUnavailable(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{"f.txt": "x\n"})
	r.commit("one")
	r.write(map[string]string{"f.txt": "x\ny\n"})
	r.commit("two")

	t.Run("outside git", func(t *testing.T) {
		_, err := Open(context.Background(), Options{Dir: t.TempDir()})
		if !errors.Is(err, ErrNotRepository) {
			t.Errorf("Open outside git = %v, want ErrNotRepository", err)
		}
	})
	t.Run("inside .git", func(t *testing.T) {
		_, err := Open(context.Background(), Options{Dir: r.path(".git")})
		if !errors.Is(err, ErrNotRepository) {
			t.Errorf("Open in .git = %v, want ErrNotRepository", err)
		}
	})
	t.Run("path outside the project", func(t *testing.T) {
		repo := r.open(t, Options{})
		outside := t.TempDir()
		for _, p := range []string{"../x.txt", outside + "/x.txt", "/etc/passwd", "."} {
			if _, err := repo.Log(context.Background(), p); !errors.Is(err, ErrOutside) {
				t.Errorf("Log(%q) = %v, want ErrOutside", p, err)
			}
			if _, err := repo.Blame(context.Background(), p, 1, 1); !errors.Is(err, ErrOutside) {
				t.Errorf("Blame(%q) = %v, want ErrOutside", p, err)
			}
		}
	})
	t.Run("no git", func(t *testing.T) {
		_, err := Open(context.Background(), Options{Dir: r.dir, Git: "/nonexistent/git"})
		if !errors.Is(err, ErrNoGit) {
			t.Errorf("Open with a missing git = %v, want ErrNoGit", err)
		}
	})
	t.Run("shallow clone", func(t *testing.T) {
		clone := t.TempDir()
		r.runIn(clone, nil, "clone", "-q", "--depth", "1", "file://"+r.dir, ".")
		repo := r.open(t, Options{Dir: clone})
		if !repo.Shallow() {
			t.Fatal("a --depth 1 clone is not reported shallow")
		}
		if _, err := repo.Log(context.Background(), "f.txt"); !errors.Is(err, ErrShallow) {
			t.Errorf("Log in a shallow clone = %v, want ErrShallow", err)
		}
		if _, err := repo.Blame(context.Background(), "f.txt", 1, 1); !errors.Is(err, ErrShallow) {
			t.Errorf("Blame in a shallow clone = %v, want ErrShallow", err)
		}
		cs, err := repo.Changes(context.Background(), "")
		if err != nil || !cs.Shallow {
			t.Errorf("Changes in a shallow clone = %+v, %v; want an answer marked shallow", cs, err)
		}
	})
}

// A path that git would read as pathspec magic is a file name.
func TestLiteralPathspec(t *testing.T) {
	r := newTestRepo(t)
	r.write(map[string]string{":(glob)*.txt": "x\n", "a.txt": "a\n"})
	r.commit("add")
	r.write(map[string]string{"a.txt": "b\n"})
	r.commit("edit a")
	h, err := r.open(t, Options{}).Log(context.Background(), ":(glob)*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Entries) != 1 || h.Entries[0].Subject != "add" {
		t.Errorf("Log of a file named like pathspec magic = %+v, want only its own commit", h.Entries)
	}
}
