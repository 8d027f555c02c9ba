package ignore

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestLimits: an ignore file past a limit leaves its directory out whole
// (nothing it may ignore is walked), says so once with the file and the
// limit, and leaves the rest of the tree to the rules as written.
func TestLimits(t *testing.T) {
	small := limits{fileBytes: 100, fileRules: 5, general: 3, treeBytes: 150, treeRules: 8, treeGeneral: 5}
	long := "*" + strings.Repeat("a*", 40) + "z" // a general rule of 82 tokens: a weight of 2
	for _, tc := range []struct {
		name  string
		files map[string]string // ignore files
		// asked are the paths asked about, in order (a walk's order);
		// want are those ignored.
		asked []string
		want  []string
		diags []Diagnostic
	}{
		{
			name:  "within the limits",
			files: map[string]string{".gitignore": "*.log\n", "d/.gitignore": "[ab].go\n"},
			asked: []string{"d", "d/a.go", "d/c.go", "d/x.log", "e.go"},
			want:  []string{"d/a.go", "d/x.log"},
		},
		{
			name:  "a file over its bytes",
			files: map[string]string{".gitignore": "*.log\n", "d/.gitignore": "x.go\n" + strings.Repeat("#", 100) + "\n"},
			asked: []string{"d", "d/a.go", "d/deep", "e.go", "e.log"},
			want:  []string{"d/a.go", "d/deep", "e.log"},
			diags: []Diagnostic{{File: "d/.gitignore", Dir: "d", Reason: "106 bytes, over the limit of 100"}},
		},
		{
			name:  "a file over its patterns",
			files: map[string]string{"d/.gitignore": "a\nb\nc\nd\ne\nf\n"},
			asked: []string{"d", "d/z", "a"},
			want:  []string{"d/z"},
			diags: []Diagnostic{{File: "d/.gitignore", Dir: "d", Reason: "more than 5 patterns"}},
		},
		{
			name:  "general rules over the limit in one file",
			files: map[string]string{".gitignore": "?1\n?2\n?3\n?4\n"},
			asked: []string{"a", "b/c"},
			want:  []string{"a", "b/c"},
			diags: []Diagnostic{{File: ".gitignore", Dir: ".", Reason: `line 4 passes it: "?4"`}},
		},
		{
			name:  "general rules over the limit with the files above",
			files: map[string]string{".gitignore": "?1\n?2\n", "d/.gitignore": "[x]\n[y]\n", "e/.gitignore": "[x]\n"},
			asked: []string{"d", "d/x", "e", "e/x", "e/z"},
			want:  []string{"d/x", "e/x"},
			diags: []Diagnostic{{File: "d/.gitignore", Dir: "d", Reason: `line 2 passes it: "[y]"`}},
		},
		{
			name:  "a long general rule weighs more",
			files: map[string]string{".gitignore": "?1\n?2\n" + long + "\n"},
			asked: []string{"x"},
			want:  []string{"x"},
			diags: []Diagnostic{{File: ".gitignore", Dir: ".", Reason: `line 3 passes it: "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a"…`}},
		},
		{
			name:  "looked-up rules weigh nothing",
			files: map[string]string{".gitignore": "a\n*.b\nc*\n/d\n", "e/.gitignore": "f/**\n**/g\n!h\n"},
			asked: []string{"a", "x.b", "cc", "d", "e/d", "e/f/x", "e/x/g", "e/h"},
			want:  []string{"a", "x.b", "cc", "d", "e/f/x", "e/x/g"},
		},
		{
			name:  "info/exclude over a limit leaves the whole tree out",
			files: map[string]string{".git/info/exclude": "1\n2\n3\n4\n5\n6\n", ".gitignore": "!keep\n"},
			asked: []string{"keep", "d/x"},
			want:  []string{"keep", "d/x"},
			diags: []Diagnostic{{File: ".git/info/exclude", Dir: ".", Reason: "more than 5 patterns"}},
		},
		{
			name:  "the tree over its bytes",
			files: map[string]string{"a/.gitignore": "z\n#" + strings.Repeat("-", 78) + "\n", "b/.gitignore": "z\n#" + strings.Repeat("-", 78) + "\n"},
			asked: []string{"a/z", "a/y", "b/y"},
			want:  []string{"a/z", "b/y"},
			diags: []Diagnostic{{File: "b/.gitignore", Dir: "b", Reason: "pass 150 bytes"}},
		},
		{
			name:  "the tree over its patterns",
			files: map[string]string{"a/.gitignore": "1\n2\n3\n4\n5\n", "b/.gitignore": "1\n2\n3\n4\n"},
			asked: []string{"a/z", "b/z"},
			want:  []string{"b/z"},
			diags: []Diagnostic{{File: "b/.gitignore", Dir: "b", Reason: "pass 8 patterns"}},
		},
		{
			name:  "the tree over its general rules",
			files: map[string]string{"a/.gitignore": "?1\n?2\n?3\n", "b/.gitignore": "?1\n?2\n?3\n"},
			asked: []string{"a/z", "b/z"},
			want:  []string{"b/z"},
			diags: []Diagnostic{{File: "b/.gitignore", Dir: "b", Reason: "weigh more than 5"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			tr := newTree(fsys, small)
			var got []string
			for _, p := range tc.asked {
				if tr.Ignored(p, !strings.Contains(p, ".") && !strings.Contains(p, "/")) {
					got = append(got, p)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ignored (-want +got):\n%s", diff)
			}
			diags := tr.Diagnostics()
			if len(diags) != len(tc.diags) {
				t.Fatalf("diagnostics %v, want %v", diags, tc.diags)
			}
			for i, d := range diags {
				w := tc.diags[i]
				if d.File != w.File || d.Dir != w.Dir || !strings.Contains(d.Reason, w.Reason) {
					t.Errorf("diagnostic %+v, want %+v (the reason containing %q)", d, w, w.Reason)
				}
			}
		})
	}
}

// TestDiagnosticQuotesAShortPrefix: a refused pattern is quoted by its
// first bytes only, however long it is, and never cut inside a character.
func TestDiagnosticQuotesAShortPrefix(t *testing.T) {
	pattern := "*é" + strings.Repeat("[ab]*", 10_000)
	var content strings.Builder
	for range 300 {
		content.WriteString("?x\n")
	}
	content.WriteString(pattern + "\n")
	tr := NewTree(fstest.MapFS{".gitignore": {Data: []byte(content.String())}})
	tr.Match("a", false)
	diags := tr.Diagnostics()
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v, want one", diags)
	}
	s := diags[0].String()
	if len(s) > 400 || !strings.Contains(s, `"?x"`) {
		t.Errorf("diagnostic of %d bytes: %s", len(s), s)
	}
	if got := quotePrefix(pattern); got != `"*é[ab]*[ab]*[ab]*[ab]*[ab]*[ab]"…` { // 32 bytes
		t.Errorf("quotePrefix = %s", got)
	}
	if got := quotePrefix("a" + strings.Repeat("é", 20)); !strings.HasSuffix(got, `é"…`) {
		t.Errorf("quotePrefix cut a character: %s", got)
	}
}
