package ignore

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"testing"
	"testing/fstest"
)

// hostile is a tree shaped like the denial of service of issue 35: one
// root .gitignore of many patterns, and files in directories of 100.
type hostile struct {
	ignore string
	dirs   []string
	files  []string
}

func newHostile(files int, ignore string) hostile {
	h := hostile{ignore: ignore}
	for i := range files {
		d := fmt.Sprintf("pkg%03d", i/100)
		if i%100 == 0 {
			h.dirs = append(h.dirs, d)
		}
		h.files = append(h.files, fmt.Sprintf("%s/file_%05d_source.go", d, i))
	}
	return h
}

// globs returns n patterns a List cannot look up, each of stars around
// eight random letters (17 tokens, 18 bytes a line), which match none of
// the hostile files.
func globs(n int) string {
	r := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	for range n {
		b.WriteString("*")
		for range 8 {
			b.WriteByte(byte('a' + r.IntN(26)))
			b.WriteString("*")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// lookups returns n patterns of the shapes a List looks up: names,
// directory names, extensions, prefixes and anchored paths, a few of which
// match hostile files.
func lookups(n int) string {
	var b strings.Builder
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "file_%05d_source.go\n", i*7)
		case 1:
			fmt.Fprintf(&b, "cache%06d/\n", i)
		case 2:
			fmt.Fprintf(&b, "*.ext%d\n", i)
		case 3:
			fmt.Fprintf(&b, "tmp%06d*\n", i)
		case 4:
			fmt.Fprintf(&b, "/pkg%03d/file_%05d_source.go\n", i%10, i*3)
		}
	}
	return b.String()
}

// walk asks t about every directory and file of h as a walk does, and
// returns how many paths were ignored and the most general-rule tokens
// one question ran.
func (h hostile) walk(t *Tree) (ignored, maxWork int) {
	ask := func(p string, isDir bool) bool {
		before := t.work
		ig := t.Match(p, isDir)
		maxWork = max(maxWork, t.work-before)
		return ig
	}
	out := map[string]bool{}
	for _, d := range h.dirs {
		if ask(d, true) {
			out[d] = true
			ignored++
		}
	}
	for _, f := range h.files {
		if !out[path.Dir(f)] && ask(f, false) {
			ignored++
		}
	}
	return ignored, maxWork
}

// reference counts the paths of h the root's rules ignore, run one by
// one from the last.
func (h hostile) reference() int {
	rules := parseRules([]byte(h.ignore))
	ignored := func(p string, isDir bool) bool {
		for i := len(rules) - 1; i >= 0; i-- {
			if rules[i].matches(p, isDir) {
				return !rules[i].negate
			}
		}
		return false
	}
	n := 0
	out := map[string]bool{}
	for _, d := range h.dirs {
		if ignored(d, true) {
			out[d] = true
			n++
		}
	}
	for _, f := range h.files {
		if !out[path.Dir(f)] && ignored(f, false) {
			n++
		}
	}
	return n
}

func (h hostile) tree() *Tree {
	return NewTree(fstest.MapFS{".gitignore": {Data: []byte(h.ignore)}})
}

// TestHostileIgnoreWorkIsBounded: whatever the number of patterns, one
// question runs at most the general-rule budget's tokens, and patterns
// of the shapes a List looks up run none. The shapes of issue 35: 58,000
// globs in 1 MiB over 1,000 files, 5,000 over many files, and as many
// globs as the budget allows.
func TestHostileIgnoreWorkIsBounded(t *testing.T) {
	lim := defaultLimits.general
	for _, tc := range []struct {
		name    string
		h       hostile
		wantOut bool // the root is left out, with a diagnostic
		maxWork int
	}{
		{name: "58,000 globs in 1 MiB", h: newHostile(1000, globs(58_000)), wantOut: true},
		{name: "5,000 globs over 20,000 files", h: newHostile(20_000, globs(5_000)), wantOut: true},
		{name: "globs up to the budget", h: newHostile(1000, globs(lim)), maxWork: lim},
		{name: "58,000 looked-up patterns", h: newHostile(1000, lookups(58_000)), maxWork: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.h.ignore) > int(defaultLimits.fileBytes) {
				t.Fatalf("the ignore file is %d bytes, over the file limit", len(tc.h.ignore))
			}
			tr := tc.h.tree()
			ignored, work := tc.h.walk(tr)
			diags := tr.Diagnostics()
			if tc.wantOut {
				if len(diags) != 1 || diags[0].Dir != "." || diags[0].File != ".gitignore" {
					t.Fatalf("diagnostics %v, want one leaving the root out", diags)
				}
				if ignored != len(tc.h.dirs) || work != 0 {
					t.Errorf("ignored %d paths running %d tokens, want the %d directories and none", ignored, work, len(tc.h.dirs))
				}
				return
			}
			if len(diags) != 0 {
				t.Fatalf("diagnostics %v", diags)
			}
			if work > tc.maxWork {
				t.Errorf("one question ran %d tokens of general rules, want at most %d", work, tc.maxWork)
			}
			if want := tc.h.reference(); ignored != want {
				t.Errorf("ignored %d paths, the rules one by one %d", ignored, want)
			}
		})
	}
}

func BenchmarkHostileIgnore(b *testing.B) {
	for _, bc := range []struct {
		name string
		h    hostile
	}{
		{"globs=58000/files=1000", newHostile(1000, globs(58_000))},
		{"globs=5000/files=100000", newHostile(100_000, globs(5_000))},
		{"globs=budget/files=1000", newHostile(1000, globs(defaultLimits.general))},
		{"lookups=58000/files=1000", newHostile(1000, lookups(58_000))},
		{"lookups=5000/files=100000", newHostile(100_000, lookups(5_000))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				bc.h.walk(bc.h.tree())
			}
		})
	}
}
