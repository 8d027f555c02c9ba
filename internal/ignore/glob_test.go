package ignore

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// globPieces make patterns of every token: literals, ?, classes, * and
// the three kinds of ** (at the start, in the middle, at the end), long
// enough to take several words.
var globPieces = []string{"a", "b", "/", "?", "*", "[ab]", "[!a]", "**/", "/**/", "/**", "**", `\*`}

// drawInstance draws a path the tokens match: each token's bytes, a
// * or a ** a few bytes, a **/ taken or skipped.
func drawInstance(t *rapid.T, toks []tok) string {
	var b strings.Builder
	for i := 0; i < len(toks); i++ {
		switch x := toks[i]; x.kind {
		case tLit:
			b.WriteByte(x.b)
		case tAny:
			b.WriteString(rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "?"))
		case tClass:
			for c := range 256 {
				if x.set[c] {
					b.WriteByte(byte(c))
					break
				}
			}
		case tStar:
			b.WriteString(rapid.SampledFrom([]string{"", "a", "ab", "bca"}).Draw(t, "*"))
		case tStarStar:
			b.WriteString(rapid.SampledFrom([]string{"", "a", "a/b", "/", "ab/"}).Draw(t, "**"))
		case tSkip:
			if rapid.Bool().Draw(t, "skip") {
				i += int(x.n)
			}
		}
	}
	return b.String()
}

// TestGlobMatchesTokens: the bit-parallel glob of any tokens decides as
// the tokens run state by state do, patterns of one word and of several,
// on paths the pattern matches, nearly matches, or not at all.
func TestGlobMatchesTokens(t *testing.T) {
	multi := 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 120).Draw(t, "pieces")
		var b strings.Builder
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(globPieces)-1), n, n).Draw(t, "pattern") {
			b.WriteString(globPieces[i])
		}
		r, ok := parseRule(b.String(), false)
		if !ok || r.never {
			return
		}
		g := newGlob(r.toks)
		if g.words > 1 {
			multi++
		}
		for range 10 {
			var s []byte
			if rapid.Bool().Draw(t, "instance") {
				s = []byte(drawInstance(t, r.toks))
			}
			if len(s) == 0 || rapid.Bool().Draw(t, "change") {
				for _, i := range rapid.SliceOfN(rapid.IntRange(0, 3), 0, 3).Draw(t, "bytes") {
					at := rapid.IntRange(0, len(s)).Draw(t, "at")
					s = append(s[:at], append([]byte{"ab/c"[i]}, s[at:]...)...)
				}
			}
			if got, want := g.match(string(s)), match(r.toks, string(s)); got != want {
				t.Fatalf("glob %q (%d words) on %q: %v, the tokens say %v", b.String(), g.words, s, got, want)
			}
		}
	})
	if multi == 0 {
		t.Error("no pattern took more than one word")
	}
}

func FuzzGlob(f *testing.F) {
	f.Add("a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	f.Add("**/a/**/b/**", "x/a/y/z/b/c")
	f.Add(strings.Repeat("[ab]?*", 30), strings.Repeat("ab/", 40))
	f.Add(strings.Repeat("**/", 40)+"x", "a/b/c/x")
	f.Fuzz(func(t *testing.T, pattern, p string) {
		r, ok := parseRule(pattern, false)
		if !ok || r.never || len(r.toks) > 1000 {
			return
		}
		if got, want := newGlob(r.toks).match(p), match(r.toks, p); got != want {
			t.Fatalf("glob %q on %q: %v, the tokens say %v", pattern, p, got, want)
		}
	})
}

// TestGlobNoBlowUp: a*a*…a*b against a long run of a, the case that
// makes a backtracking matcher exponential, is answered right; the glob
// takes one pass over the path (BenchmarkGlobBlowUp shows the time
// growing with the path's length alone).
func TestGlobNoBlowUp(t *testing.T) {
	pattern := strings.Repeat("a*", 30) + "b"
	r, _ := parseRule(pattern, false)
	g := newGlob(r.toks)
	run := strings.Repeat("a", 10_000)
	if g.match(run) {
		t.Error("matched a path without b")
	}
	if !g.match(run + "b") {
		t.Error("did not match the path ending in b")
	}
}

func BenchmarkGlobBlowUp(b *testing.B) {
	for _, stars := range []int{10, 60, 200} {
		r, _ := parseRule(strings.Repeat("a*", stars)+"b", false)
		g := newGlob(r.toks)
		for _, n := range []int{100, 1000, 10_000} {
			s := strings.Repeat("a", n)
			b.Run(fmt.Sprintf("stars=%d/path=%d", stars, n), func(b *testing.B) {
				for b.Loop() {
					g.match(s)
				}
			})
		}
	}
}
