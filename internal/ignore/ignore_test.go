package ignore

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// ignoreCase is one question about one tree: the ignore files (by
// directory-relative path), and for each path whether git ignores it.
type ignoreCase struct {
	name  string
	files map[string]string // ignore files: ".gitignore", "sub/.gitignore", ".git/info/exclude"
	// dirs are the directories of the tree; every other path asked about
	// is a file.
	dirs []string
	want map[string]bool // path → ignored
}

// ignoreCases are the semantics, each checked against git by
// TestIgnoreCasesAgainstGit.
var ignoreCases = []ignoreCase{
	{name: "basename at any depth", files: map[string]string{".gitignore": "*.log\n"},
		want: map[string]bool{"a.log": true, "d/a.log": true, "d/e/a.log": true, "a.logx": false, "log": false}},
	{name: "anchored by a leading slash", files: map[string]string{".gitignore": "/root.txt\n"},
		want: map[string]bool{"root.txt": true, "d/root.txt": false}},
	{name: "anchored by a middle slash", files: map[string]string{".gitignore": "a/b\n"},
		want: map[string]bool{"a/b": true, "x/a/b": false, "a/b/c": true}},
	{name: "directory only", files: map[string]string{".gitignore": "build/\n"}, dirs: []string{"build", "a", "a/build"},
		want: map[string]bool{"build": true, "build/x.go": true, "a/build": true, "a/build/y.go": true, "a/c/build": false}},
	{name: "star does not cross a slash", files: map[string]string{".gitignore": "doc/*.txt\n"},
		want: map[string]bool{"doc/a.txt": true, "doc/x/a.txt": false, "a/doc/a.txt": false}},
	{name: "leading double star", files: map[string]string{".gitignore": "**/foo\n"},
		want: map[string]bool{"foo": true, "a/b/foo": true, "a/foox": false}},
	{name: "trailing double star", files: map[string]string{".gitignore": "foo/**\n"}, dirs: []string{"foo"},
		want: map[string]bool{"foo": false, "foo/a": true, "foo/a/b": true}},
	{name: "middle double star", files: map[string]string{".gitignore": "a/**/b\n"},
		want: map[string]bool{"a/b": true, "a/x/b": true, "a/x/y/b": true, "a/xb": false}},
	{name: "double star glued to a literal prefix", files: map[string]string{".gitignore": "foo**/bar\n"},
		want: map[string]bool{"foo/x/bar": true, "foo/bar": true, "fooX/bar": true, "x/foo/bar": false}},
	{name: "other double stars are stars", files: map[string]string{".gitignore": "a**b\n"},
		want: map[string]bool{"ab": true, "axxb": true, "d/axb": true}},
	{name: "negation", files: map[string]string{".gitignore": "*.log\n!keep.log\n"},
		want: map[string]bool{"keep.log": false, "a.log": true, "d/keep.log": false}},
	{name: "last match wins", files: map[string]string{".gitignore": "!keep.log\n*.log\n"},
		want: map[string]bool{"keep.log": true}},
	{name: "no re-include below an ignored directory", files: map[string]string{".gitignore": "d/\n!d/f.go\n"}, dirs: []string{"d"},
		want: map[string]bool{"d/f.go": true, "d": true}},
	{name: "escapes", files: map[string]string{".gitignore": "\\!bang\n\\#hash\n#comment\ntrail\\ \nstar\\*\n"},
		want: map[string]bool{"!bang": true, "#hash": true, "#comment": false, "trail ": true, "trail": false, "star*": true, "starx": false}},
	{name: "trailing spaces dropped", files: map[string]string{".gitignore": "spaced   \n"},
		want: map[string]bool{"spaced": true, "spaced ": false}},
	{name: "CRLF lines", files: map[string]string{".gitignore": "crlf\r\n*.o\r\n"},
		want: map[string]bool{"crlf": true, "a.o": true}},
	{name: "classes", files: map[string]string{".gitignore": "[a-c].txt\n[!x]y\n[[:digit:]]z\n[]]q\n"},
		want: map[string]bool{"b.txt": true, "d.txt": false, "ay": true, "xy": false, "1z": true, "az": false, "]q": true}},
	{name: "question mark", files: map[string]string{".gitignore": "?.go\n"},
		want: map[string]bool{"a.go": true, "ab.go": false, "d/a.go": true}},
	{name: "classes and ? never match a slash", files: map[string]string{".gitignore": "/a?b\n/c[!x]d\n/e[/]f\n"},
		want: map[string]bool{"a/b": false, "c/d": false, "e/f": false, "axb": true, "cyd": true}},
	{name: "unterminated class matches nothing", files: map[string]string{".gitignore": "[abc\n"},
		want: map[string]bool{"[abc": false, "a": false}},
	{name: "nested files", files: map[string]string{".gitignore": "*.gen\n", "sub/.gitignore": "!keep.gen\n/only\n"},
		want: map[string]bool{"sub/keep.gen": false, "keep.gen": true, "sub/x.gen": true, "sub/only": true, "only": false, "sub/x/only": false, "sub/x/keep.gen": false}},
	{name: "deeper file overrides", files: map[string]string{".gitignore": "!*.txt\n", "a/.gitignore": "*.txt\n"},
		want: map[string]bool{"a/x.txt": true, "x.txt": false}},
	{name: "info/exclude below .gitignore", files: map[string]string{".git/info/exclude": "*.tmp\n", ".gitignore": "!a.tmp\n"},
		want: map[string]bool{"a.tmp": false, "b.tmp": true, "d/b.tmp": true}},
	{name: "pattern ignoring ignore files", files: map[string]string{".gitignore": ".gitignore\n"},
		want: map[string]bool{".gitignore": true}},
	// The shapes a List looks up, and the rewrites it makes.
	{name: "leading **/ is the name", files: map[string]string{".gitignore": "**/build\n/**/tmp/\n**/*.o\n"}, dirs: []string{"tmp", "a/tmp"},
		want: map[string]bool{"build": true, "a/build": true, "a/b/build": true, "tmp": true, "a/tmp": true, "a/tmp2": false, "x.o": true, "a/x.o": true, "a/x.oo": false}},
	{name: "runs of **/", files: map[string]string{".gitignore": "a/**/**/b\n**/**/c\n"},
		want: map[string]bool{"a/b": true, "a/x/b": true, "a/x/y/b": true, "c": true, "x/y/c": true, "x/a/b": false}},
	{name: "anchored star suffix", files: map[string]string{".gitignore": "/*.txt\n/d/*.md\n"},
		want: map[string]bool{"a.txt": true, "d/a.txt": false, "d/a.md": true, "d/e/a.md": false, "a.md": false}},
	{name: "anchored prefix star", files: map[string]string{".gitignore": "/out*\nd/tmp*\n"},
		want: map[string]bool{"out": true, "outer": true, "x/out": false, "d/tmp1": true, "d/x/tmp1": false}},
	{name: "deep prefix", files: map[string]string{".gitignore": "gen/**\nlib**/x\n"}, dirs: []string{"gen"},
		want: map[string]bool{"gen": false, "gen/a": true, "gen/a/b": true, "libz/x": true, "lib/q/x": true, "a/lib/x": false}},
	{name: "the last of equal names decides", files: map[string]string{".gitignore": "x\n!x\nx\n!y\ny\n!y\nz/\n!z\n"}, dirs: []string{"z"},
		want: map[string]bool{"x": true, "y": false, "z": false}},
	{name: "lookups and globs interleaved", files: map[string]string{".gitignore": "*.log\n!keep?.log\nkeep1.log\n[ab].c\n!a.c\n"},
		want: map[string]bool{"x.log": true, "keep2.log": false, "keep1.log": true, "a.c": false, "b.c": true}},
}

// dirSet returns the case's directories: those it names and every
// directory a path asked about is in.
func (tc *ignoreCase) dirSet() map[string]bool {
	dirs := map[string]bool{}
	for _, d := range tc.dirs {
		dirs[d] = true
	}
	for p := range tc.want {
		for i := 0; i < len(p); i++ {
			if p[i] == '/' {
				dirs[p[:i]] = true
			}
		}
	}
	return dirs
}

func TestIgnoreCases(t *testing.T) {
	for _, tc := range ignoreCases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			dirs := tc.dirSet()
			tr := NewTree(fsys)
			got := map[string]bool{}
			for p := range tc.want {
				got[p] = tr.Ignored(p, dirs[p])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ignored (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatchJudgesThePathAlone(t *testing.T) {
	tr := NewTree(fstest.MapFS{".gitignore": {Data: []byte("d/\n")}})
	if tr.Match("d/f.go", false) {
		t.Error("Match(d/f.go) = true; only its directory is ignored")
	}
	if !tr.Ignored("d/f.go", false) {
		t.Error("Ignored(d/f.go) = false; its directory is ignored")
	}
}

func TestSymlinkedIgnoreFileIsNotRead(t *testing.T) {
	fsys := fstest.MapFS{
		"real":       {Data: []byte("*.go\n")},
		".gitignore": {Data: []byte("real"), Mode: 0o777 | 1<<27 /* fs.ModeSymlink */},
	}
	if NewTree(fsys).Ignored("a.go", false) {
		t.Error("a symbolic link named .gitignore was followed")
	}
}

func FuzzMatch(f *testing.F) {
	for _, tc := range ignoreCases {
		for _, content := range tc.files {
			for p := range tc.want {
				f.Add(content, p)
			}
		}
	}
	f.Add("[[:alpha:]-z]\n[a-]\n[\\]]\n**\n/**/\n\\", "a/b/c")
	f.Fuzz(func(t *testing.T, content, p string) {
		l := Parse([]byte(content))
		rules := parseRules([]byte(content))
		for _, isDir := range []bool{false, true} {
			d1, i1 := l.Match(p, isDir)
			if d2, i2 := l.Match(p, isDir); d1 != d2 || i1 != i2 {
				t.Fatal("Match is not deterministic")
			}
			if !d1 && i1 {
				t.Fatal("ignored without a deciding rule")
			}
			// The lookups and the shortcuts (a literal prefix, a * and a
			// suffix) decide as the rules' tokens do, run one by one.
			if d, i := straightforward(rules, p, isDir); d != d1 || i != i1 {
				t.Fatalf("%q on %q (dir %v): decided %v ignored %v, the rules one by one say %v %v", content, p, isDir, d1, i1, d, i)
			}
		}
		// A rule that is the path itself, escaped, always matches it.
		if p == "" || p[0] == '/' || p[len(p)-1] == '/' {
			return
		}
		var esc []byte
		for i := 0; i < len(p); i++ {
			if p[i] == 0 || p[i] == '\n' || p[i] == '\r' {
				return
			}
			if p[i] != '/' {
				esc = append(esc, '\\')
			}
			esc = append(esc, p[i])
		}
		if decided, ignored := Parse(append([]byte("/"), esc...)).Match(p, false); !decided || !ignored {
			t.Fatalf("the escaped literal /%s does not match %q", esc, p)
		}
	})
}

// TestSymlinkedIgnoreFileOnDisk: the same through an os.Root, as the
// walks open the project, and as git 2.32 and later read the work tree.
func TestSymlinkedIgnoreFileOnDisk(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real"), []byte("*.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, ".gitignore")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if NewTree(root.FS()).Ignored("a.go", false) {
		t.Error("a symbolic link named .gitignore was followed")
	}
}

// TestAbsentSkipsLookup: a directory recorded as holding no .gitignore
// is not looked at again, and the others still are, with their rules.
func TestAbsentSkipsLookup(t *testing.T) {
	fsys := &testtool.LookupFS{MapFS: fstest.MapFS{
		"a/.gitignore": {Data: []byte("*.log\n")},
		"a/b/x.log":    {},
		"c/y.log":      {},
	}}
	tr := NewTree(fsys)
	tr.Absent(".")
	tr.Absent("a/b")
	tr.Absent("c")
	fsys.Names()
	if !tr.Match("a/b/x.log", false) || tr.Match("c/y.log", false) {
		t.Error("the rules of a/.gitignore decide wrongly")
	}
	if got, want := fsys.Names(), []string{"a/.gitignore", "a/.gitignore"}; !slices.Equal(got, want) { // its Lstat, then its Open
		t.Errorf("looked up %q, want %q", got, want)
	}
	// Absent after a read keeps what was read.
	tr.Absent("a")
	if !tr.Match("a/z.log", false) {
		t.Error("Absent dropped the rules already read")
	}
}

// straightforward is the matcher a List compiles: every rule's tokens run
// on the path, from the last rule, until one matches.
func straightforward(rules []rule, rel string, isDir bool) (decided, ignored bool) {
	for i := len(rules) - 1; i >= 0; i-- {
		r := &rules[i]
		if r.never || r.dirOnly && !isDir {
			continue
		}
		s := rel
		if r.basename {
			s = s[strings.LastIndexByte(s, '/')+1:]
		}
		if match(r.toks, s) {
			return true, !r.negate
		}
	}
	return false, false
}
