package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

func TestIdentityOutsideGit(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	got, err := readIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Identity{Worktree: dir}, got); diff != "" {
		t.Errorf("identity (-want +got):\n%s", diff)
	}
	if got.String() != "outside git" {
		t.Errorf("String() = %q", got.String())
	}
}

// TestIdentityAgainstGit checks the identity read from git's files against
// what git itself says, through branches, commits, a detached HEAD, packed
// refs, a linked worktree and a branch without commits.
func TestIdentityAgainstGit(t *testing.T) {
	dir, git := gitRepo(t, map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n"})
	gitPath := testtool.Require(t, "git", "apt-get install git")
	check := func(t *testing.T, at string, want Identity) {
		t.Helper()
		got, err := readIdentity(at)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("identity (-want +got):\n%s", diff)
		}
	}
	head := func(at string) string { return runGit(t, gitPath, at, "rev-parse", "HEAD") }

	t.Run("branch", func(t *testing.T) {
		check(t, dir, Identity{Repository: dir, Worktree: dir, Branch: "main", Head: head(dir), Git: true})
	})
	t.Run("subdirectory", func(t *testing.T) {
		check(t, filepath.Join(dir, "sub"), Identity{Repository: dir, Worktree: dir, Branch: "main", Head: head(dir), Git: true})
	})
	t.Run("new branch and commit", func(t *testing.T) {
		git("checkout", "-q", "-b", "feature/x")
		writeFile(t, dir, "c.go", "package c\n")
		git("add", "c.go")
		git("commit", "-q", "-m", "c")
		check(t, dir, Identity{Repository: dir, Worktree: dir, Branch: "feature/x", Head: head(dir), Git: true})
	})
	t.Run("packed refs", func(t *testing.T) {
		git("pack-refs", "--all", "--prune")
		if _, err := os.Stat(filepath.Join(dir, ".git/refs/heads/feature/x")); err == nil {
			t.Fatal("pack-refs left the loose ref; the test would not test packed-refs")
		}
		check(t, dir, Identity{Repository: dir, Worktree: dir, Branch: "feature/x", Head: head(dir), Git: true})
	})
	t.Run("detached", func(t *testing.T) {
		git("checkout", "-q", "--detach", "main")
		check(t, dir, Identity{Repository: dir, Worktree: dir, Head: head(dir), Detached: true, Git: true})
		git("checkout", "-q", "main")
	})
	t.Run("symbolic ref", func(t *testing.T) {
		git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
		git("symbolic-ref", "HEAD", "refs/heads/alias")
		check(t, dir, Identity{Repository: dir, Worktree: dir, Branch: "alias", Head: head(dir), Git: true})
		git("symbolic-ref", "HEAD", "refs/heads/main")
	})
	t.Run("linked worktree", func(t *testing.T) {
		wt := filepath.Join(t.TempDir(), "wt")
		git("worktree", "add", "-q", "-b", "other", wt)
		wt, _ = filepath.EvalSymlinks(wt)
		check(t, wt, Identity{Repository: dir, Worktree: wt, Branch: "other", Head: head(wt), Git: true})
		// A commit in the worktree moves its branch, not the main one.
		writeFile(t, wt, "w.go", "package w\n")
		runGit(t, gitPath, wt, "add", "w.go")
		runGit(t, gitPath, wt, "commit", "-q", "-m", "w")
		check(t, wt, Identity{Repository: dir, Worktree: wt, Branch: "other", Head: head(wt), Git: true})
		check(t, dir, Identity{Repository: dir, Worktree: dir, Branch: "main", Head: head(dir), Git: true})
		// The worktree detached.
		runGit(t, gitPath, wt, "checkout", "-q", "--detach")
		check(t, wt, Identity{Repository: dir, Worktree: wt, Head: head(wt), Detached: true, Git: true})
	})
	t.Run("no commits yet", func(t *testing.T) {
		fresh := t.TempDir()
		fresh, _ = filepath.EvalSymlinks(fresh)
		runGit(t, gitPath, fresh, "init", "-q", "-b", "trunk")
		check(t, fresh, Identity{Repository: fresh, Worktree: fresh, Branch: "trunk", Git: true})
	})
}

func TestIdentityKey(t *testing.T) {
	base := Identity{Repository: "/r", Worktree: "/r", Branch: "main", Head: strings.Repeat("a", 40), Git: true}
	variants := []Identity{base}
	for _, mod := range []func(*Identity){
		func(id *Identity) { id.Repository = "/s" },
		func(id *Identity) { id.Worktree = "/r/wt" },
		func(id *Identity) { id.Branch = "feature" },
		func(id *Identity) { id.Head = strings.Repeat("b", 40) },
		func(id *Identity) { id.Branch, id.Detached = "", true },
	} {
		v := base
		mod(&v)
		variants = append(variants, v)
	}
	seen := map[string]Identity{}
	for _, v := range variants {
		k := v.Key()
		if len(k) != 16 {
			t.Errorf("key %q is not 16 hex digits", k)
		}
		if other, ok := seen[k]; ok {
			t.Errorf("identities %+v and %+v share key %s", v, other, k)
		}
		seen[k] = v
		if v.Key() != k {
			t.Errorf("key of %+v is not stable", v)
		}
	}
}

func TestParseHead(t *testing.T) {
	sha1 := strings.Repeat("0123456789", 4)
	sha256 := strings.Repeat("ab", 32)
	tests := []struct {
		in        string
		ref, hash string
		wantErr   bool
	}{
		{in: "ref: refs/heads/main\n", ref: "refs/heads/main"},
		{in: "ref:refs/heads/main", ref: "refs/heads/main"},
		{in: "ref: refs/heads/feature/x\r\n", ref: "refs/heads/feature/x"},
		{in: sha1 + "\n", hash: sha1},
		{in: strings.ToUpper(sha256), hash: sha256},
		{in: "ref: refs/heads/../../etc/passwd", wantErr: true},
		{in: "ref: /etc/passwd", wantErr: true},
		{in: "ref: refs/heads/x.lock", wantErr: true},
		{in: "ref: ", wantErr: true},
		{in: "", wantErr: true},
		{in: "0123", wantErr: true},
		{in: sha1[:39] + "g", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			ref, hash, err := parseHead([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if ref != tt.ref || hash != tt.hash {
				t.Errorf("parseHead = %q, %q; want %q, %q", ref, hash, tt.ref, tt.hash)
			}
		})
	}
}

func TestFindPackedRef(t *testing.T) {
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	data := "# pack-refs with: peeled fully-peeled sorted \n" +
		a + " refs/heads/main\n" +
		b + " refs/tags/v1\n" +
		"^" + c + "\n" +
		c + " refs/heads/feature/x\r\n" +
		"garbage line\n"
	tests := map[string]string{
		"refs/heads/main":      a,
		"refs/tags/v1":         b,
		"refs/heads/feature/x": c,
		"refs/heads/missing":   "",
		"garbage":              "",
	}
	for ref, want := range tests {
		if got := findPackedRef([]byte(data), ref); got != want {
			t.Errorf("findPackedRef(%q) = %q, want %q", ref, got, want)
		}
	}
}

func TestParseGitFile(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: "gitdir: /repo/.git/worktrees/wt\n", want: "/repo/.git/worktrees/wt"},
		{in: "gitdir: ../.git/modules/sub", want: "../.git/modules/sub"},
		{in: "gitdir: C:/x\r\n", want: "C:/x"},
		{in: "gitdir: \n", wantErr: true},
		{in: "nothing", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseGitFile([]byte(tt.in))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseGitFile(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func FuzzParseHead(f *testing.F) {
	for _, s := range []string{"ref: refs/heads/main\n", strings.Repeat("a", 40), "ref: ../x", "ref:\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ref, hash, err := parseHead(data)
		if err != nil {
			return
		}
		if (ref == "") == (hash == "") {
			t.Fatalf("parseHead(%q) = %q, %q: exactly one must be set", data, ref, hash)
		}
		if ref != "" && (!validRefName(ref) || strings.Contains(ref, "..") || strings.HasPrefix(ref, "/")) {
			t.Fatalf("parseHead(%q) accepted ref %q", data, ref)
		}
		if hash != "" && !isObjectName(hash) {
			t.Fatalf("parseHead(%q) accepted hash %q", data, hash)
		}
	})
}

func FuzzFindPackedRef(f *testing.F) {
	f.Add([]byte("# pack-refs with: peeled\n"+strings.Repeat("a", 40)+" refs/heads/main\n^"+strings.Repeat("b", 40)+"\n"), "refs/heads/main")
	f.Fuzz(func(t *testing.T, data []byte, ref string) {
		if got := findPackedRef(data, ref); got != "" && !isObjectName(got) {
			t.Fatalf("findPackedRef returned %q, not an object name", got)
		}
	})
}

func FuzzParseGitFile(f *testing.F) {
	f.Add([]byte("gitdir: /x/.git/worktrees/y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		gd, err := parseGitFile(data)
		if err == nil && (gd == "" || strings.ContainsRune(gd, 0) || strings.ContainsRune(gd, '\n')) {
			t.Fatalf("parseGitFile(%q) = %q", data, gd)
		}
	})
}
