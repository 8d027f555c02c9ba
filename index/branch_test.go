package index

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// branchRepo is a repository with a.go defining OnMain and twenty files
// that no branch changes.
func branchRepo(t *testing.T) (string, func(args ...string) string) {
	files := map[string]string{"a.go": "package a\n\nfunc OnMain() {}\n"}
	for i := range 20 {
		files[fmt.Sprintf("pkg%d/f.go", i)] = fmt.Sprintf("package pkg%d\n\nfunc Shared%d() {}\n", i, i)
	}
	return gitRepo(t, files)
}

func definitions(t *testing.T, ix *Index, name string) []string {
	t.Helper()
	res, err := ix.Lookup(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Definitions {
		out = append(out, d.Path)
	}
	return out
}

func hasDiagnostic(fr Freshness, substr string) bool {
	return slices.ContainsFunc(fr.Diagnostics, func(d string) bool { return strings.Contains(d, substr) })
}

// TestBranches switches branches, commits and detaches HEAD under one
// index: every answer comes from the identity checked out, a new identity
// costs only the files that differ, and switching back reuses the branch's
// database.
func TestBranches(t *testing.T) {
	dir, git := branchRepo(t)
	ix := openTest(t, dir, nil)
	ctx := context.Background()

	fr, err := ix.Update(ctx)
	if err != nil || fr.Identity.Branch != "main" || fr.Indexed != 21 {
		t.Fatalf("first update: %+v, %v", fr, err)
	}
	mainKey := fr.Identity.Key()
	if got := definitions(t, ix, "OnMain"); len(got) != 1 {
		t.Fatalf("OnMain on main: %v", got)
	}

	git("checkout", "-q", "-b", "feature")
	writeFile(t, dir, "a.go", "package a\n\nfunc OnFeature() {}\n")
	writeFile(t, dir, "b.go", "package a\n\nfunc AlsoFeature() {}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "feature")
	t.Run("a new branch is seeded and indexes only what differs", func(t *testing.T) {
		fr, err := ix.Refresh(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if fr.Identity.Branch != "feature" || fr.Indexed != 2 || !hasDiagnostic(fr, "seeded from the index of main@") {
			t.Errorf("refresh on feature: %+v", fr)
		}
		if got := definitions(t, ix, "OnMain"); len(got) != 0 {
			t.Errorf("OnMain on feature: %v", got)
		}
		if got := definitions(t, ix, "OnFeature"); len(got) != 1 {
			t.Errorf("OnFeature on feature: %v", got)
		}
	})
	featureKey := ""
	t.Run("switching back reuses the branch's database", func(t *testing.T) {
		fr, _ := ix.Refresh(ctx)
		featureKey = fr.Identity.Key()
		git("checkout", "-q", "main")
		fr, err := ix.Refresh(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// git rewrote a.go with main's content (the same as main's index
		// holds: only its mtime is recorded) and removed b.go (which main's
		// index never held).
		if fr.Identity.Key() != mainKey || fr.Indexed != 0 || fr.Removed != 0 || hasDiagnostic(fr, "seeded") {
			t.Errorf("back on main: %+v", fr)
		}
		if got := definitions(t, ix, "OnFeature"); len(got) != 0 {
			t.Errorf("OnFeature back on main: %v", got)
		}
		if got := definitions(t, ix, "OnMain"); len(got) != 1 {
			t.Errorf("OnMain back on main: %v", got)
		}
	})
	t.Run("a commit costs only the files that changed", func(t *testing.T) {
		writeFile(t, dir, "c.go", "package a\n\nfunc Committed() {}\n")
		if fr, _ := ix.Refresh(ctx); fr.Indexed != 1 || fr.Identity.Key() != mainKey {
			t.Fatalf("before the commit: %+v", fr)
		}
		git("add", "c.go")
		git("commit", "-q", "-m", "c")
		fr, err := ix.Refresh(ctx)
		if err != nil || fr.Identity.Key() == mainKey || fr.Indexed != 0 || !hasDiagnostic(fr, "seeded") {
			t.Errorf("after the commit: %+v, %v", fr, err)
		}
	})
	t.Run("detached HEAD", func(t *testing.T) {
		git("checkout", "-q", "--detach", "feature")
		fr, err := ix.Refresh(ctx)
		if err != nil || !fr.Identity.Detached || fr.Identity.Branch != "" {
			t.Fatalf("detached: %+v, %v", fr, err)
		}
		if got := definitions(t, ix, "OnFeature"); len(got) != 1 {
			t.Errorf("OnFeature on a detached feature: %v", got)
		}
		git("checkout", "-q", "main")
	})
	t.Run("status lists every identity", func(t *testing.T) {
		st, err := ix.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]bool{}
		for _, s := range st.Stored {
			keys[s.Key] = true
			if s.Active != (s.Key == st.Identity.Key()) {
				t.Errorf("stored %s: active %v", s.Key, s.Active)
			}
			if s.Identity.Worktree != dir {
				t.Errorf("stored %s: identity %+v", s.Key, s.Identity)
			}
		}
		if len(st.Stored) != 4 || !keys[mainKey] || !keys[featureKey] {
			t.Errorf("stored %+v, want four identities including main's and feature's", st.Stored)
		}
	})
}

// TestBranchesNeverLeak: with no time to index, a new branch's index,
// seeded from another branch's, answers only from files it has checked
// against the disk.
func TestBranchesNeverLeak(t *testing.T) {
	dir, git := branchRepo(t)
	ctx := context.Background()
	if _, err := openTest(t, dir, nil).Update(ctx); err != nil {
		t.Fatal(err)
	}
	git("checkout", "-q", "-b", "feature")
	writeFile(t, dir, "a.go", "package a\n\nfunc OnFeature() {}\n")
	git("commit", "-q", "-am", "feature")

	hurried := openTest(t, dir, func(o *Options) { o.Budget = time.Nanosecond })
	res, err := hurried.Lookup(ctx, "OnMain")
	if err != nil {
		t.Fatal(err)
	}
	fr := res.Freshness
	if fr.Identity.Branch != "feature" || fr.State != Partial || fr.PendingCount != 1 || fr.Pending[0] != "a.go" {
		t.Fatalf("freshness on the new branch: %+v", fr)
	}
	if len(res.Definitions) != 0 {
		t.Errorf("main's OnMain leaked into feature: %+v", res.Definitions)
	}
	// Files the branches share were checked (by size and mtime) and answer.
	if got := definitions(t, hurried, "Shared3"); len(got) != 1 {
		t.Errorf("Shared3 on feature: %v", got)
	}
}

// TestWorktree: a linked worktree has its own index, and its branch's
// answers do not reach the main worktree's.
func TestWorktree(t *testing.T) {
	dir, git := branchRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git("worktree", "add", "-q", "-b", "other", wt)
	wt, _ = filepath.EvalSymlinks(wt)
	writeFile(t, wt, "w.go", "package a\n\nfunc InWorktree() {}\n")

	main := openTest(t, dir, nil)
	other := openTest(t, wt, nil)
	if got := definitions(t, other, "InWorktree"); len(got) != 1 {
		t.Errorf("InWorktree in the worktree: %v", got)
	}
	if got := definitions(t, main, "InWorktree"); len(got) != 0 {
		t.Errorf("InWorktree leaked into the main worktree: %v", got)
	}
	st, err := other.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Identity.Worktree != wt || st.Identity.Repository != dir || st.Identity.Branch != "other" {
		t.Errorf("worktree identity %+v", st.Identity)
	}
}

// TestPrune: at most KeepIndexes databases stay, the active one always.
func TestPrune(t *testing.T) {
	dir, git := branchRepo(t)
	ix := openTest(t, dir, func(o *Options) { o.KeepIndexes = 2 })
	ctx := context.Background()
	for i := range 4 {
		writeFile(t, dir, "a.go", fmt.Sprintf("package a\n\nfunc V%d() {}\n", i))
		git("commit", "-q", "-am", fmt.Sprint(i))
		if _, err := ix.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Stored) > 2 {
		t.Errorf("%d databases kept, want at most 2: %+v", len(st.Stored), st.Stored)
	}
	if !slices.ContainsFunc(st.Stored, func(s StoredIndex) bool { return s.Active && s.Key == st.Identity.Key() }) {
		t.Errorf("the active database was pruned: %+v", st.Stored)
	}
	if got := definitions(t, ix, "V3"); len(got) != 1 {
		t.Errorf("V3: %v", got)
	}
}
