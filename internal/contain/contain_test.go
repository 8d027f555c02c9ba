package contain

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixture is a project root with links of every kind, opened through a
// symbolic link to it, next to a directory outside it.
type fixture struct {
	root    *Root
	tmp     string // holds outside/, project/ and projectlink
	real    string // the project directory
	given   string // a symbolic link to it, through which it was opened
	outside string
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	tmp := tb.TempDir()
	fx := &fixture{
		tmp:     tmp,
		real:    filepath.Join(tmp, "project"),
		given:   filepath.Join(tmp, "projectlink"),
		outside: filepath.Join(tmp, "outside"),
	}
	files := map[string]string{
		"outside/secret.txt":          "outside secret",
		"project/file.txt":            "inside",
		"project/dir/sub/deep.txt":    "deep",
		"project/dir/file.txt":        "dir file",
		"project/．．/x.txt":            "fullwidth",
		"project/dir/sub/.keep":       "",
		"project/emptydir/.gitignore": "",
	}
	for name, content := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		must(tb, os.MkdirAll(filepath.Dir(p), 0o755))
		must(tb, os.WriteFile(p, []byte(content), 0o644))
	}
	links := map[string]string{
		"projectlink":          fx.real,
		"outside/back":         filepath.Join(fx.real, "file.txt"), // leads back inside
		"project/in-rel":       "dir",
		"project/in-abs":       filepath.Join(fx.real, "dir"),
		"project/in-given":     filepath.Join(fx.given, "dir"), // absolute, through the root's link
		"project/out-abs":      fx.outside,
		"project/out-rel":      "../outside",
		"project/out-file":     filepath.Join(fx.outside, "secret.txt"),
		"project/out-root":     "/",
		"project/chain-out":    "out-abs",
		"project/chain-in":     "in-rel",
		"project/self":         "self",
		"project/loop-a":       "loop-b",
		"project/loop-b":       "loop-a",
		"project/dangling-out": filepath.Join(fx.outside, "missing"),
		"project/dangling-rel": "../../nowhere",
		"project/dangling-in":  "missing.txt",
		"project/leave-back":   filepath.Join(fx.outside, "back"),
		"project/rel-back":     "../project/file.txt",
		"project/deeplink":     "dir/sub",
		"project/to-root":      ".",
		"project/link-file":    "file.txt",
		"project/dir/up":       "..",
		"project/dir/up2":      "../..",
		"project/dir/link-sub": "sub",
	}
	for name, target := range links {
		must(tb, os.Symlink(target, filepath.Join(tmp, filepath.FromSlash(name))))
	}
	root, err := Open(fx.given)
	must(tb, err)
	tb.Cleanup(func() { root.Close() })
	fx.root = root
	return fx
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// outcome is what Rel did with a path: the relative path it accepted, or
// which sentinel it rejected the path with.
type outcome struct {
	Rel    string
	Reject string // "", "escape" or "invalid"
}

func classify(rel string, err error) outcome {
	switch {
	case err == nil:
		return outcome{Rel: rel}
	case errors.Is(err, ErrEscape) && errors.Is(err, ErrInvalidName):
		return outcome{Reject: "both?"}
	case errors.Is(err, ErrEscape):
		return outcome{Reject: "escape"}
	case errors.Is(err, ErrInvalidName):
		return outcome{Reject: "invalid"}
	}
	return outcome{Reject: "unexpected: " + err.Error()}
}

func accept(rel string) outcome { return outcome{Rel: rel} }

var (
	escape  = outcome{Reject: "escape"}
	invalid = outcome{Reject: "invalid"}
)

// relCase is one attack or ordinary path. A path starting with "{real}",
// "{given}" or "{tmp}" is absolute under that directory.
type relCase struct {
	name string
	path string
	want outcome
}

var relCases = []relCase{
	// Ordinary paths.
	{"plain file", "file.txt", accept("file.txt")},
	{"dot", ".", accept(".")},
	{"empty", "", invalid},
	{"nested", "dir/sub/deep.txt", accept("dir/sub/deep.txt")},
	{"missing file", "not/there.txt", accept("not/there.txt")},
	{"trailing slash", "dir/sub/", accept("dir/sub")},
	{"trailing slash on file", "dir/sub/deep.txt/", accept("dir/sub/deep.txt")},
	{"doubled slashes and dots", "dir//sub/./deep.txt", accept("dir/sub/deep.txt")},
	{"below a file", "file.txt/x", accept("file.txt/x")},
	{"three dots is a name", "...", accept("...")},
	{"dotdot prefix is a name", "..foo/..bar", accept("..foo/..bar")},
	{"tilde is a name", "~/x", accept("~/x")},
	{"backslashes are a name", `..\..\x`, accept(`..\..\x`)},

	// Parent traversal.
	{"dotdot", "..", escape},
	{"dotdot file", "../x", escape},
	{"dotdot slash", "../", escape},
	{"down then two up", "a/../../x", escape},
	{"dot then up", "./../x", escape},
	{"up and back in by name", "../project/file.txt", escape},
	{"deep chain out", "a/b/c/d/e/f/../../../../../../../x", escape},
	{"deep chain stays in", "a/b/c/d/e/f/../../../../../../x", accept("x")},
	{"existing dirs then out", "dir/sub/../../../outside/secret.txt", escape},
	{"back to the root", "dir/sub/../..", accept(".")},
	{"in and out of a dir", "dir/../file.txt", accept("file.txt")},
	{"missing then up to a link out", "missing/../out-abs/secret.txt", escape},

	// Absolute paths.
	{"absolute inside", "{given}/file.txt", accept("file.txt")},
	{"absolute root", "{given}", accept(".")},
	{"absolute root with slash", "{given}/", accept(".")},
	{"absolute through evaluated root", "{real}/dir/sub", accept("dir/sub")},
	{"absolute outside", "{tmp}/outside/secret.txt", escape},
	{"absolute system file", "/etc/passwd", escape},
	{"absolute slash", "/", escape},
	{"absolute up and out", "{real}/../outside/secret.txt", escape},
	{"absolute up and back in", "{real}/../project/file.txt", escape},
	{"absolute sibling prefix", "{real}2/x", escape},
	{"absolute inside then link out", "{given}/out-abs/secret.txt", escape},

	// Symbolic links inside the root.
	{"relative link in", "in-rel/sub/deep.txt", accept("in-rel/sub/deep.txt")},
	{"absolute link in", "in-abs/sub", accept("in-abs/sub")},
	{"absolute link through the root's link", "in-given/file.txt", accept("in-given/file.txt")},
	{"link to a link in", "chain-in/sub", accept("chain-in/sub")},
	{"link to the root", "to-root/to-root/file.txt", accept("to-root/to-root/file.txt")},
	{"link up to the root", "dir/up/file.txt", accept("dir/up/file.txt")},
	{"link to a file", "link-file", accept("link-file")},
	{"dangling link in", "dangling-in", accept("dangling-in")},
	{"dotdot after a link, same place", "in-rel/../file.txt", accept("file.txt")},
	{"dotdot after a link, other place", "deeplink/../file.txt", accept("dir/file.txt")},
	{"dotdot after a link to a sibling", "dir/link-sub/../sub/deep.txt", accept("dir/sub/deep.txt")},
	{"link then dotdot to the link", "in-rel/sub/..", accept("in-rel")},

	// Symbolic links out.
	{"absolute link out", "out-abs", escape},
	{"absolute link out, file below", "out-abs/secret.txt", escape},
	{"relative link out", "out-rel/secret.txt", escape},
	{"link to an outside file", "out-file", escape},
	{"link to /", "out-root/etc/passwd", escape},
	{"link to a link out", "chain-out/secret.txt", escape},
	{"link up two levels", "dir/up2/outside/secret.txt", escape},
	{"dangling link out, absolute", "dangling-out", escape},
	{"dangling link out, relative", "dangling-rel", escape},
	{"leaves and comes back through a link", "leave-back", escape},
	{"leaves and comes back by name", "rel-back", escape},
	{"link out then dotdot back", "out-abs/../project/file.txt", escape},
	{"link out then dotdot lexically in", "out-abs/../file.txt", escape},
	{"symlinked parent dir out, new file", "out-abs/new.txt", escape},

	// Loops.
	{"self loop", "self", invalid},
	{"self loop below", "self/x", invalid},
	{"two-cycle", "loop-a", invalid},
	{"two-cycle below", "loop-b/x/y", invalid},

	// Odd Unicode and bytes.
	{"fullwidth dots are a name", "．．/x.txt", accept("．．/x.txt")},
	{"fullwidth dots climbing are names", "．．/．．/．．/etc/passwd", accept("．．/．．/．．/etc/passwd")},
	{"division slash is a name", "a∕..∕..∕x", accept("a∕..∕..∕x")},
	{"fraction slash is a name", "..⁄..⁄x", accept("..⁄..⁄x")},
	{"fullwidth solidus is a name", "..／x", accept("..／x")},
	{"combining accent", "e\u0301.txt", accept("e\u0301.txt")},
	{"combining dot on dotdot is a name", ".\u0307./x", accept(".\u0307./x")},
	{"zero-width joiner", "a\u200db", accept("a\u200db")},
	{"zero-width joiner on dotdot", "..\u200d/x", accept("..\u200d/x")},
	{"right-to-left override", "invoice\u202etxt.exe", invalid},
	{"right-to-left isolate", "a\u2067b", invalid},
	{"left-to-right mark", "a\u200eb", invalid},
	{"invalid UTF-8", "a\xff\xfe", invalid},
	{"overlong dot encoding", "\xc0\xae\xc0\xae/x", invalid},
	{"NUL byte", "file.txt\x00.png", invalid},
	{"NUL alone", "\x00", invalid},
	{"newline", "a\nb", invalid},
	{"carriage return", "a\rb", invalid},
	{"tab", "a\tb", invalid},
	{"escape sequence", "a\x1b[31mb", invalid},
	{"DEL", "a\x7fb", invalid},
	{"C1 control", "a\u0085b", invalid},
}

func (fx *fixture) expand(p string) string {
	r := strings.NewReplacer("{real}", fx.real, "{given}", fx.given, "{tmp}", fx.tmp)
	return r.Replace(p)
}

func TestRel(t *testing.T) {
	fx := newFixture(t)
	if len(relCases) < 40 {
		t.Fatalf("only %d cases", len(relCases))
	}
	for _, tc := range relCases {
		t.Run(tc.name, func(t *testing.T) {
			p := fx.expand(tc.path)
			rel, err := fx.root.Rel(p)
			if diff := cmp.Diff(tc.want, classify(rel, err)); diff != "" {
				t.Fatalf("Rel(%q) (-want +got):\n%s\nerr: %v", p, diff, err)
			}
			if got := fx.root.Inside(p); got != (err == nil) {
				t.Errorf("Inside(%q) = %v, Rel err = %v", p, got, err)
			}
			abs, aerr := fx.root.Abs(p)
			if err != nil {
				var pe *PathError
				if !errors.As(err, &pe) || pe.Path != p {
					t.Errorf("error %v is not a *PathError naming %q", err, p)
				}
				if aerr == nil {
					t.Errorf("Abs(%q) accepted what Rel rejected", p)
				}
				return
			}
			if want := filepath.Join(fx.real, filepath.FromSlash(rel)); abs != want || aerr != nil {
				t.Errorf("Abs(%q) = %q, %v; want %q", p, abs, aerr, want)
			}
			checkInside(t, fx.root, p, rel)
		})
	}
}

// checkInside asserts the invariants of an accepted path: rel is clean and
// relative, Rel is idempotent on it, what rel names (links evaluated as far
// as the path exists) is inside the root, and where the kernel can resolve
// p itself, it reaches the same file as rel.
func checkInside(t testing.TB, root *Root, p, rel string) {
	t.Helper()
	if rel != path.Clean(rel) || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		t.Fatalf("Rel(%q) = %q is not clean and relative", p, rel)
	}
	again, err := root.Rel(rel)
	if err != nil || again != rel {
		t.Fatalf("Rel(Rel(%q)) = %q, %v; want %q", p, again, err, rel)
	}
	full := filepath.Join(root.Dir(), filepath.FromSlash(rel))
	existing := full
	for {
		ev, err := filepath.EvalSymlinks(existing)
		if err == nil {
			if ev != root.Dir() && !strings.HasPrefix(ev, root.Dir()+string(filepath.Separator)) {
				t.Fatalf("Rel(%q) = %q evaluates to %q, outside %q", p, rel, ev, root.Dir())
			}
			break
		}
		if existing == root.Dir() {
			t.Fatalf("root %q does not evaluate: %v", existing, err)
		}
		existing = filepath.Dir(existing)
	}
	kernelPath := p
	if !filepath.IsAbs(p) {
		kernelPath = root.Dir() + string(filepath.Separator) + p // no cleaning
	}
	if kfi, err := os.Stat(kernelPath); err == nil {
		fi, err := os.Stat(full)
		if err != nil || !os.SameFile(kfi, fi) {
			t.Fatalf("the kernel resolves %q to another file than Rel's %q (%v)", p, rel, err)
		}
	}
}

func TestOpenThroughEvaluatedRoot(t *testing.T) {
	fx := newFixture(t)
	root, err := Open(fx.real)
	must(t, err)
	defer root.Close()
	if root.Dir() != fx.real {
		t.Errorf("Dir() = %q, want %q", root.Dir(), fx.real)
	}
	// The link that names the root is outside this Root's knowledge of
	// itself, so an absolute path through it is rejected...
	if _, err := root.Rel(filepath.Join(fx.given, "file.txt")); !errors.Is(err, ErrEscape) {
		t.Errorf("Rel through an unknown link to the root: %v, want ErrEscape", err)
	}
	// ...and a link through it leaves the root.
	if _, err := root.Rel("in-given/file.txt"); !errors.Is(err, ErrEscape) {
		t.Errorf("in-given through an unknown link to the root: %v, want ErrEscape", err)
	}
	if rel, err := root.Rel("in-abs/sub"); err != nil || rel != "in-abs/sub" {
		t.Errorf("Rel(in-abs/sub) = %q, %v", rel, err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Error("Open of a missing directory succeeded")
	}
	f := filepath.Join(dir, "file")
	must(t, os.WriteFile(f, nil, 0o644))
	if _, err := Open(f); err == nil {
		t.Error("Open of a file succeeded")
	}
}

func TestReadFileAndStat(t *testing.T) {
	fx := newFixture(t)
	tests := []struct {
		path string
		want string
		err  error // a sentinel, or fs.ErrNotExist
	}{
		{"file.txt", "inside", nil},
		{"in-rel/sub/deep.txt", "deep", nil},
		{"in-abs/sub/deep.txt", "deep", nil}, // os.Root alone refuses absolute links
		{"in-given/file.txt", "dir file", nil},
		{"link-file", "inside", nil},
		{"deeplink/../file.txt", "dir file", nil},
		{filepath.Join(fx.given, "dir", "file.txt"), "dir file", nil},
		{"out-abs/secret.txt", "", ErrEscape},
		{"out-file", "", ErrEscape},
		{"leave-back", "", ErrEscape},
		{"../outside/secret.txt", "", ErrEscape},
		{"self", "", ErrInvalidName},
		{"dangling-in", "", os.ErrNotExist},
		{"missing.txt", "", os.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, err := fx.root.ReadFile(tc.path)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("ReadFile(%q) error = %v, want %v", tc.path, err, tc.err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("ReadFile(%q) (-want +got):\n%s", tc.path, diff)
			}
			fi, err := fx.root.Stat(tc.path)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("Stat(%q) error = %v, want %v", tc.path, err, tc.err)
			}
			if err == nil && fi.Size() != int64(len(tc.want)) {
				t.Errorf("Stat(%q).Size() = %d, want %d", tc.path, fi.Size(), len(tc.want))
			}
		})
	}
}

// listDir returns the names in dir, to spot leftover temporary files.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	must(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileAtomic(t *testing.T) {
	fx := newFixture(t)
	r := fx.root

	t.Run("creates parents", func(t *testing.T) {
		must(t, r.WriteFileAtomic("new/a/b.txt", []byte("hello"), 0o600))
		got, err := os.ReadFile(filepath.Join(fx.real, "new/a/b.txt"))
		must(t, err)
		if string(got) != "hello" {
			t.Errorf("content = %q", got)
		}
		fi, err := os.Stat(filepath.Join(fx.real, "new/a/b.txt"))
		must(t, err)
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("perm = %v, want no group or other bits", fi.Mode().Perm())
		}
		if diff := cmp.Diff([]string{"b.txt"}, listDir(t, filepath.Join(fx.real, "new/a"))); diff != "" {
			t.Errorf("directory (-want +got):\n%s", diff)
		}
	})
	t.Run("replaces and leaves no temporary file", func(t *testing.T) {
		before := listDir(t, filepath.Join(fx.real, "dir"))
		must(t, r.WriteFileAtomic("dir/file.txt", []byte("replaced"), 0o644))
		got, _ := os.ReadFile(filepath.Join(fx.real, "dir/file.txt"))
		if string(got) != "replaced" {
			t.Errorf("content = %q", got)
		}
		if diff := cmp.Diff(before, listDir(t, filepath.Join(fx.real, "dir"))); diff != "" {
			t.Errorf("directory changed (-want +got):\n%s", diff)
		}
	})
	t.Run("failed rename leaves the original", func(t *testing.T) {
		// A non-empty directory cannot be replaced by a file: the temporary
		// file is written, the rename fails.
		before := listDir(t, filepath.Join(fx.real, "dir"))
		err := r.WriteFileAtomic("dir/sub", []byte("x"), 0o644)
		if err == nil {
			t.Fatal("replacing a directory succeeded")
		}
		if diff := cmp.Diff(before, listDir(t, filepath.Join(fx.real, "dir"))); diff != "" {
			t.Errorf("directory changed (-want +got):\n%s", diff)
		}
		if got, _ := os.ReadFile(filepath.Join(fx.real, "dir/sub/deep.txt")); string(got) != "deep" {
			t.Errorf("content below the directory changed: %q", got)
		}
	})
	t.Run("parent is a file", func(t *testing.T) {
		if err := r.WriteFileAtomic("file.txt/x", []byte("x"), 0o644); err == nil {
			t.Fatal("writing below a file succeeded")
		}
		if got, _ := os.ReadFile(filepath.Join(fx.real, "file.txt")); string(got) != "inside" {
			t.Errorf("file.txt = %q", got)
		}
	})
	t.Run("through a link inside keeps the link", func(t *testing.T) {
		must(t, r.WriteFileAtomic("link-file", []byte("via link"), 0o644))
		fi, err := os.Lstat(filepath.Join(fx.real, "link-file"))
		must(t, err)
		if fi.Mode()&os.ModeSymlink == 0 {
			t.Error("the link was replaced by a file")
		}
		if got, _ := os.ReadFile(filepath.Join(fx.real, "file.txt")); string(got) != "via link" {
			t.Errorf("file.txt = %q", got)
		}
		must(t, os.WriteFile(filepath.Join(fx.real, "file.txt"), []byte("inside"), 0o644))
	})
	t.Run("dangling link inside creates its target", func(t *testing.T) {
		must(t, r.WriteFileAtomic("dangling-in", []byte("made"), 0o644))
		if got, _ := os.ReadFile(filepath.Join(fx.real, "missing.txt")); string(got) != "made" {
			t.Errorf("missing.txt = %q", got)
		}
		must(t, os.Remove(filepath.Join(fx.real, "missing.txt")))
	})
	outsideBefore := listDir(t, fx.outside)
	for _, p := range []string{"out-abs/new.txt", "out-file", "dangling-out", "chain-out/secret.txt",
		"leave-back", "../outside/new.txt", filepath.Join(fx.outside, "new.txt")} {
		t.Run("refuses "+p, func(t *testing.T) {
			if err := r.WriteFileAtomic(p, []byte("pwned"), 0o644); !errors.Is(err, ErrEscape) {
				t.Fatalf("WriteFileAtomic(%q) = %v, want ErrEscape", p, err)
			}
		})
	}
	if diff := cmp.Diff(outsideBefore, listDir(t, fx.outside)); diff != "" {
		t.Errorf("outside directory changed (-want +got):\n%s", diff)
	}
	if got, _ := os.ReadFile(filepath.Join(fx.outside, "secret.txt")); string(got) != "outside secret" {
		t.Errorf("outside secret = %q", got)
	}
	for _, p := range []string{".", "dir/..", fx.given} {
		if err := r.WriteFileAtomic(p, nil, 0o644); !errors.Is(err, ErrInvalidName) {
			t.Errorf("WriteFileAtomic(%q) = %v, want ErrInvalidName", p, err)
		}
	}
}

func TestMkdirAllAndRemove(t *testing.T) {
	fx := newFixture(t)
	r := fx.root
	must(t, r.MkdirAll("made/a/b", 0o755))
	if fi, err := os.Stat(filepath.Join(fx.real, "made/a/b")); err != nil || !fi.IsDir() {
		t.Fatalf("made/a/b: %v", err)
	}
	must(t, r.MkdirAll("in-abs/viaLink", 0o755))
	if _, err := os.Stat(filepath.Join(fx.real, "dir/viaLink")); err != nil {
		t.Errorf("MkdirAll through a link inside: %v", err)
	}
	for _, p := range []string{"out-abs/made", "dangling-out/x", "../made"} {
		if err := r.MkdirAll(p, 0o755); !errors.Is(err, ErrEscape) {
			t.Errorf("MkdirAll(%q) = %v, want ErrEscape", p, err)
		}
	}
	if diff := cmp.Diff([]string{"back", "secret.txt"}, listDir(t, fx.outside)); diff != "" {
		t.Errorf("outside changed (-want +got):\n%s", diff)
	}

	must(t, r.Remove("made/a/b"))
	if _, err := os.Stat(filepath.Join(fx.real, "made/a/b")); !os.IsNotExist(err) {
		t.Errorf("made/a/b still there: %v", err)
	}
	// Removing a link removes the link, not its target.
	must(t, r.Remove("link-file"))
	if _, err := os.Lstat(filepath.Join(fx.real, "link-file")); !os.IsNotExist(err) {
		t.Errorf("link-file still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(fx.real, "file.txt")); err != nil {
		t.Errorf("the link's target went with it: %v", err)
	}
	// A link pointing out may not be removed through, nor is its target touched.
	if err := r.Remove("out-file"); !errors.Is(err, ErrEscape) {
		t.Errorf("Remove(out-file) = %v, want ErrEscape", err)
	}
	if err := r.Remove("out-abs/secret.txt"); !errors.Is(err, ErrEscape) {
		t.Errorf("Remove(out-abs/secret.txt) = %v, want ErrEscape", err)
	}
	if _, err := os.Stat(filepath.Join(fx.outside, "secret.txt")); err != nil {
		t.Errorf("outside secret removed: %v", err)
	}
	// Through a link inside, the named entry goes.
	must(t, r.Remove("in-rel/file.txt"))
	if _, err := os.Stat(filepath.Join(fx.real, "dir/file.txt")); !os.IsNotExist(err) {
		t.Errorf("dir/file.txt still there: %v", err)
	}
	for _, p := range []string{".", fx.given, "dir/.."} {
		if err := r.Remove(p); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Remove(%q) = %v, want ErrInvalidName", p, err)
		}
	}
	if err := r.Remove("dir"); err == nil {
		t.Error("Remove of a non-empty directory succeeded")
	}
}

func TestFSStaysInside(t *testing.T) {
	fx := newFixture(t)
	fsys := fx.root.FS()
	if _, err := fsys.Open("out-abs/secret.txt"); err == nil {
		t.Error("FS opened a file through a link out")
	}
	if _, err := fsys.Open("../outside/secret.txt"); err == nil {
		t.Error("FS opened a file through ..")
	}
	f, err := fsys.Open("in-rel/sub/deep.txt")
	must(t, err)
	f.Close()
}

// FuzzRel checks that whatever Rel accepts names something inside the root,
// and that it never panics or rejects with anything but its two sentinels.
func FuzzRel(f *testing.F) {
	fx := newFixture(f)
	for _, tc := range relCases {
		f.Add(fx.expand(tc.path))
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := fx.root.Rel(p)
		if err != nil {
			if !errors.Is(err, ErrEscape) && !errors.Is(err, ErrInvalidName) {
				t.Fatalf("Rel(%q): unexpected error %v", p, err)
			}
			return
		}
		checkInside(t, fx.root, p, rel)
	})
}

func TestLongPaths(t *testing.T) {
	fx := newFixture(t)
	long := strings.Repeat("a/", maxPath/2) + "x"
	if _, err := fx.root.Rel(long); !errors.Is(err, ErrInvalidName) {
		t.Errorf("Rel of a %d-byte path: %v, want ErrInvalidName", len(long), err)
	}
	if rel, err := fx.root.Rel(strings.Repeat("a/", 1000) + "x"); err != nil || len(rel) != 2001 {
		t.Errorf("Rel of a 2001-byte path: %d bytes, %v", len(rel), err)
	}
	if _, err := fx.root.Rel(strings.Repeat("x", 300)); !errors.Is(err, ErrInvalidName) { // ENAMETOOLONG
		t.Errorf("Rel of a 300-byte element: %v", err)
	}
	if _, err := fx.root.Rel(strings.Repeat("to-root/", 41) + "file.txt"); !errors.Is(err, ErrInvalidName) {
		t.Errorf("41 links in one path: %v, want ErrInvalidName", err)
	}
	if rel, err := fx.root.Rel(strings.Repeat("to-root/", 40) + "file.txt"); err != nil || !strings.HasSuffix(rel, "/file.txt") {
		t.Errorf("40 links in one path: %q, %v", rel, err)
	}
}

// TestWriteFileAtomicReadersSeeWholeFiles has a reader race a writer that
// alternates two contents of different lengths: every read must be one of
// them whole.
func TestWriteFileAtomicReadersSeeWholeFiles(t *testing.T) {
	fx := newFixture(t)
	a, b := strings.Repeat("a", 1<<16), strings.Repeat("b", 1<<10)
	must(t, fx.root.WriteFileAtomic("race.txt", []byte(a), 0o644))
	done := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		defer close(done)
		for i := range 20 {
			data := a
			if i%2 == 0 {
				data = b
			}
			if err := fx.root.WriteFileAtomic("race.txt", []byte(data), 0o644); err != nil {
				errs <- err
				return
			}
		}
	}()
	reads := 0
	for running := true; running; reads++ {
		select {
		case <-done:
			running = false
		default:
		}
		got, err := fx.root.ReadFile("race.txt")
		if err != nil {
			t.Fatalf("read %d: %v", reads, err)
		}
		if s := string(got); s != a && s != b {
			t.Fatalf("read %d saw a mix of %d bytes", reads, len(got))
		}
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if diff := cmp.Diff([]string{"race.txt"}, filterPrefix(listDir(t, fx.real), "race")); diff != "" {
		t.Errorf("leftovers (-want +got):\n%s", diff)
	}
	for _, name := range listDir(t, fx.real) {
		if strings.HasPrefix(name, ".cortex-tmp-") {
			t.Errorf("temporary file %s left behind", name)
		}
	}
}

func filterPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

func BenchmarkRel(b *testing.B) {
	fx := newFixture(b)
	for _, p := range []string{"dir/sub/deep.txt", "in-rel/sub/deep.txt", "deeplink/../file.txt", "a/b/c/d/e/f/g/h/missing.go"} {
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				if _, err := fx.root.Rel(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
