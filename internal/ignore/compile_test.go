package ignore

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// patternPieces build patterns of every shape a List looks up (literal,
// prefix*, *suffix, prefix/**, **/name, anchored) and general ones, over
// few letters, so that patterns and paths meet often.
var patternPieces = []string{"a", "b", "ab", ".", "x", "/", "*", "**", "?", "[ab]", "[!a]", `\*`, "**/", "/**", "/**/"}

var patternTemplates = []string{"W", "W*", "*W", "W/**", "W**", "**/W", "**/W*", "*/W", "W/*", "W/W", "W/W*", "W*/W", "*/W/W", "W*W", "**/W/**", "W/**/W"}

var pathPieces = []string{"a", "b", "ab", "ba", ".", "x", "a.x", "*", "aa", "b.a"}

func drawPattern(t *rapid.T, label string) string {
	var b strings.Builder
	if rapid.IntRange(0, 3).Draw(t, label+" negate") == 0 {
		b.WriteString("!")
	}
	if rapid.IntRange(0, 3).Draw(t, label+" anchor") == 0 {
		b.WriteString("/")
	}
	if rapid.Bool().Draw(t, label+" template") {
		// A shape the List looks up, or one close to it, filled with words
		// the paths hold.
		tmpl := rapid.SampledFrom(patternTemplates).Draw(t, label)
		for _, c := range []byte(tmpl) {
			if c == 'W' {
				b.WriteString(rapid.SampledFrom(pathPieces[:7]).Draw(t, label+" word"))
			} else {
				b.WriteByte(c)
			}
		}
	} else {
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(patternPieces)-1), 1, 4).Draw(t, label) {
			b.WriteString(patternPieces[i])
		}
	}
	if rapid.IntRange(0, 3).Draw(t, label+" dir") == 0 {
		b.WriteString("/")
	}
	return b.String()
}

func drawPath(t *rapid.T, label string) string {
	var parts []string
	for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pathPieces)-1), 1, 4).Draw(t, label) {
		parts = append(parts, pathPieces[i])
	}
	return strings.Join(parts, "/")
}

// parseRules returns every rule of an ignore file, with all its tokens.
func parseRules(data []byte) []rule {
	var rules []rule
	eachRule(data, false, func(r rule) bool {
		rules = append(rules, r)
		return true
	})
	return rules
}

// TestCompiledMatchesStraightforward: a compiled List decides every path
// as its rules do when run one by one from the last, whatever the mix of
// shapes, negations and directory-only rules.
func TestCompiledMatchesStraightforward(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "rules")
		var lines []string
		for i := range n {
			lines = append(lines, drawPattern(t, "pattern "+string(rune('A'+i%26))))
		}
		content := strings.Join(lines, "\n")
		l := Parse([]byte(content))
		rules := parseRules([]byte(content))
		for range 20 {
			p := drawPath(t, "path")
			isDir := rapid.Bool().Draw(t, "dir")
			d1, i1 := l.Match(p, isDir)
			if d2, i2 := straightforward(rules, p, isDir); d1 != d2 || i1 != i2 {
				t.Fatalf("rules %q, path %q (dir %v): compiled decided %v ignored %v, one by one %v %v", lines, p, isDir, d1, i1, d2, i2)
			}
		}
	})
}

// TestShapes: the rules of the common shapes are looked up, not run.
func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		general bool
	}{
		{"node_modules", false},
		{"build/", false},
		{"*.log", false},
		{"*~", false},
		{".#*", false},
		{"npm-debug.log*", false},
		{"*", false},
		{"/vendor", false},
		{"/docs/build", false},
		{"/*.txt", false},
		{"/out*", false},
		{"dist/**", false},
		{"**/node_modules", false},
		{"**/*.pyc", false},
		{"**/", false},
		{"*.py[cod]", true},
		{"[Dd]ebug/", true},
		{"a/**/b", true},
		{"**/a/b", true},
		{"lib*.so", true},
		{"docs/*.md", true},
		{"?", true},
	} {
		l := Parse([]byte(tc.pattern))
		if got := len(l.general) > 0; got != tc.general {
			t.Errorf("%q: general %v, want %v", tc.pattern, got, tc.general)
		}
	}
}
