package ignore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/google/go-cmp/cmp"
)

// gitTree is a tree to ask git about: ignore files by path, the
// directories, and the files.
type gitTree struct {
	ignoreFiles map[string]string
	dirs        map[string]bool
	files       []string
}

// gitIgnored writes tr into a new repository and returns which of its
// paths `git check-ignore --no-index` reports as ignored. git runs without
// any configuration of this machine or user, so no global excludes file
// takes part.
func gitIgnored(t *testing.T, git string, tr gitTree) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	env := append(safeexec.Environ("PATH"), "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "none"), "LC_ALL=C")
	run := func(stdin []byte, args ...string) []byte {
		res, err := safeexec.Run(context.Background(), safeexec.Invocation{
			Path: git, Args: args, Dir: dir, Env: env, Stdin: bytes.NewReader(stdin), Timeout: time.Minute,
		})
		var ee *safeexec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.Code == 1) {
			t.Fatalf("git %v: %v: %s", args, err, res.Stderr)
		}
		return res.Stdout
	}
	run(nil, "init", "-q", ".")
	for d := range tr.dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range tr.files {
		if _, ok := tr.ignoreFiles[f]; !ok {
			write(f, "x")
		}
	}
	for name, content := range tr.ignoreFiles {
		write(name, content)
	}
	var in []byte
	for _, p := range tr.paths() {
		in = append(append(in, p...), 0)
	}
	out := run(in, "check-ignore", "--no-index", "--stdin", "-z")
	got := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			got[p] = true
		}
	}
	return got
}

// paths returns every directory and file of the tree, sorted.
func (tr gitTree) paths() []string {
	var ps []string
	for d := range tr.dirs {
		ps = append(ps, d)
	}
	ps = append(ps, tr.files...)
	sort.Strings(ps)
	return ps
}

// ours answers for the same tree on disk.
func (tr gitTree) ours(t *testing.T, dir string) map[string]bool {
	got := map[string]bool{}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ig := NewTree(root.FS())
	for _, p := range tr.paths() {
		if ig.Ignored(p, tr.dirs[p]) {
			got[p] = true
		}
	}
	return got
}

func requireGit(t *testing.T) string {
	return testtool.Require(t, "git", "apt-get install git")
}

func TestIgnoreCasesAgainstGit(t *testing.T) {
	git := requireGit(t)
	for _, tc := range ignoreCases {
		t.Run(tc.name, func(t *testing.T) {
			tr := gitTree{ignoreFiles: tc.files, dirs: tc.dirSet()}
			for p := range tc.want {
				if !tr.dirs[p] {
					tr.files = append(tr.files, p)
				}
			}
			want := map[string]bool{}
			for p, ig := range tc.want {
				if ig {
					want[p] = true
				}
			}
			if diff := cmp.Diff(want, gitIgnored(t, git, tr)); diff != "" {
				t.Errorf("the case disagrees with git (-case +git):\n%s", diff)
			}
		})
	}
}

// TestRandomTreesAgainstGit generates trees with ignore files of random
// patterns at several depths and compares every path's answer with git's.
func TestRandomTreesAgainstGit(t *testing.T) {
	git := requireGit(t)
	n := 150
	if testing.Short() {
		n = 20
	}
	total, ignored := 0, 0
	defer func() {
		// A generator that ignores nothing, or everything, tests little.
		if ignored == 0 || ignored == total {
			t.Errorf("git ignored %d of %d paths", ignored, total)
		}
		t.Logf("git ignored %d of %d paths", ignored, total)
	}()
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		tr := randomTree(r)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			want := gitIgnored(t, git, tr)
			// gitIgnored wrote the tree into its own directory; write it
			// again for ours.
			dir := t.TempDir()
			for d := range tr.dirs {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
			}
			for _, f := range tr.files {
				os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644)
			}
			for name, content := range tr.ignoreFiles {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
			}
			total += len(tr.paths())
			ignored += len(want)
			if diff := cmp.Diff(want, tr.ours(t, dir)); diff != "" {
				t.Errorf("ignore files %q\n(-git +ours):\n%s", tr.ignoreFiles, diff)
			}
		})
	}
}

func randomTree(r *rand.Rand) gitTree {
	dirNames := []string{"a", "b", "foo", "lib"}
	fileNames := []string{"x.log", "y.txt", "a.go", "ab", "foo.c", "b.log", "[x]", "s p"}
	tr := gitTree{ignoreFiles: map[string]string{}, dirs: map[string]bool{}}
	var grow func(dir string, depth int)
	grow = func(dir string, depth int) {
		for _, f := range fileNames {
			if r.IntN(2) == 0 {
				tr.files = append(tr.files, join(dir, f))
			}
		}
		if depth == 3 {
			return
		}
		for _, d := range dirNames {
			if r.IntN(3) == 0 {
				p := join(dir, d)
				tr.dirs[p] = true
				grow(p, depth+1)
			}
		}
	}
	grow("", 0)
	ignoreDirs := []string{""}
	for d := range tr.dirs {
		if r.IntN(3) == 0 {
			ignoreDirs = append(ignoreDirs, d)
		}
	}
	for _, d := range ignoreDirs {
		var lines []string
		for range 1 + r.IntN(4) {
			lines = append(lines, randomPattern(r))
		}
		tr.ignoreFiles[join(d, ".gitignore")] = strings.Join(lines, "\n") + "\n"
	}
	if r.IntN(4) == 0 {
		tr.ignoreFiles[".git/info/exclude"] = randomPattern(r) + "\n"
	}
	return tr
}

func randomPattern(r *rand.Rand) string {
	pieces := []string{"a", "b", "foo", "*", "?", "**", "[ab]", "[!a]", "x", "log", ".", "/", `\*`, "*.log", "lib", "[[:alpha:]]", "[a-c]", " ", `\ `}
	var b strings.Builder
	if r.IntN(5) == 0 {
		b.WriteString("!")
	}
	if r.IntN(5) == 0 {
		b.WriteString("/")
	}
	for range 1 + r.IntN(4) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	if r.IntN(5) == 0 {
		b.WriteString("/")
	}
	return b.String()
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
