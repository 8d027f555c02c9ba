package structural

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestLineIndexPosProperty: columns counted from checkpoints are what
// utf8.RuneCount of the line up to the offset gives, invalid bytes and
// long lines included.
func TestLineIndexPosProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := []string{"a", "é", "日", "😀", "\n", "\xff", "\xe6\x97", " ", strings.Repeat("x", 300)}
		var b strings.Builder
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 60).Draw(t, "pieces") {
			b.WriteString(pieces[i])
		}
		src := []byte(b.String())
		li := newLineIndex(src)
		off := rapid.IntRange(0, len(src)).Draw(t, "off")
		ls := strings.LastIndexByte(string(src[:off]), '\n') + 1
		wantLine := strings.Count(string(src[:off]), "\n") + 1
		wantCol := utf8.RuneCount(src[ls:off]) + 1
		if l, c := li.pos(off); l != wantLine || c != wantCol {
			t.Fatalf("pos(%d) = %d:%d, want %d:%d", off, l, c, wantLine, wantCol)
		}
	})
}

func TestLinesWindow(t *testing.T) {
	long := strings.Repeat("ab", 300) // 600 bytes
	tests := []struct {
		name       string
		src        string
		start, end int
		want       string
	}{
		{"short line whole", "x = f(1)\ny", 4, 8, "x = f(1)"},
		{"two short lines whole", "  f(1,\n  2)\nz", 2, 11, "  f(1,\n  2)"},
		{"context cut on both sides", long + "CALL" + long, 600, 604,
			Cut + long[600-windowContext:] + "CALL" + long[:windowContext] + Cut},
		{"start of a long line", "CALL" + long, 0, 4, "CALL" + long[:windowContext] + Cut},
		{"a long match is cut after windowLine bytes", long + long, 0, 1200, long[:windowLine] + Cut},
		{"a long middle line", "f(\n" + long + "\n)", 0, 606, "f(\n" + long[:windowLine] + Cut + "\n)"},
		{"cut at rune boundaries", strings.Repeat("é", 100) + "X" + strings.Repeat("é", 100), 200, 201,
			Cut + strings.Repeat("é", windowContext/2) + "X" + strings.Repeat("é", windowContext/2) + Cut},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := newLineIndex([]byte(tc.src)).lines(tc.start, tc.end)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			li := newLineIndex([]byte(tc.src))
			li.text = tc.src
			if sliced := li.lines(tc.start, tc.end); sliced != got {
				t.Errorf("lines from the source string = %q, built = %q", sliced, got)
			}
		})
	}
}

// TestLinesSlicedSame: the windows cut from the source string (whole
// lines sliced, not copied) are the windows built piece by piece, on
// lines short and long, with CRLF endings and runes of every width.
func TestLinesSlicedSame(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := []string{"a", "é", "日", "😀", "\n", "\r\n", " ", "\t", strings.Repeat("x", 70), strings.Repeat("y", 300)}
		var b strings.Builder
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 40).Draw(t, "pieces") {
			b.WriteString(pieces[i])
		}
		src := b.String()
		start := rapid.IntRange(0, len(src)).Draw(t, "start")
		end := rapid.IntRange(start, len(src)).Draw(t, "end")
		want := newLineIndex([]byte(src)).lines(start, end)
		li := newLineIndex([]byte(src))
		li.text = src
		if got := li.lines(start, end); got != want {
			t.Fatalf("lines(%d, %d) of %q: sliced %q, built %q", start, end, src, got, want)
		}
	})
}

func TestWindowLinesOfAstGrep(t *testing.T) {
	long := strings.Repeat("é", 200)
	got := windowLines(long+"f(x)"+long, 201, len("f(x)"))
	want := Cut + strings.Repeat("é", windowContext/2) + "f(x)" + strings.Repeat("é", windowContext/2) + Cut
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("windowLines (-want +got):\n%s", diff)
	}
}

func TestExcerpt(t *testing.T) {
	if got := excerpt("short", 10); got != "short" {
		t.Errorf("excerpt = %q", got)
	}
	if got := excerpt("ééé", 3); got != "é"+Cut {
		t.Errorf("excerpt = %q, want a cut at a rune boundary", got)
	}
}

// minifiedJS is the b.min.js: one line, a call after another.
func minifiedJS(calls int) string {
	return "function a(x){return x}" + strings.Repeat("a(1);", calls)
}

// longGoLine is the Go file: one line of calls in a function.
func longGoLine(calls int) string {
	return "package p\nfunc f() { " + strings.Repeat("fn(12345);", calls) + " }\n"
}

// TestLongLineOutputBounded is the regression test of a minified file: a
// match used to copy its whole line, so every match of a one-line file
// carried the file. Each match's Lines, each record's excerpt and each
// lexical hit's line stay within the window whatever the line's length.
func TestLongLineOutputBounded(t *testing.T) {
	root := testtool.WriteTree(t, map[string]string{
		"b.min.js": minifiedJS(4000),
		"long.go":  longGoLine(6000),
	})
	// The most a window holds: windowLine bytes and a Cut on each side.
	bound := windowLine + 2*len(Cut)
	lim := Limits{MaxMatches: 1 << 20}
	for _, tc := range []struct {
		pattern string
		lang    Language
		matches int
	}{
		{"a($X)", JavaScript, 4000},
		{"fn($X)", Go, 6000},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			if cgoEnabled {
				ans, err := Search(context.Background(), Options{}, Request{Root: root, Pattern: tc.pattern, Language: tc.lang, Limits: lim})
				if err != nil {
					t.Fatal(err)
				}
				if n := len(ans.Structural.Matches); n != tc.matches {
					t.Fatalf("%d matches, want %d", n, tc.matches)
				}
				for _, m := range ans.Structural.Matches {
					if len(m.Lines) > bound {
						t.Fatalf("match at %d:%d carries %d bytes of lines, more than %d", m.Range.StartLine, m.Range.StartColumn, len(m.Lines), bound)
					}
				}
				for _, r := range ans.Records() {
					if len(r.Metadata.Excerpt) > excerptBytes+len(Cut) {
						t.Fatalf("record excerpt of %d bytes", len(r.Metadata.Excerpt))
					}
				}
			}
			ans, err := Search(context.Background(), Options{Disabled: true}, Request{Root: root, Pattern: tc.pattern, Language: tc.lang, Limits: lim})
			if err != nil {
				t.Fatal(err)
			}
			if len(ans.Lexical.Hits) < tc.matches {
				t.Fatalf("%d lexical hits, want at least %d", len(ans.Lexical.Hits), tc.matches)
			}
			for _, h := range ans.Lexical.Hits {
				if len(h.Line) > bound {
					t.Fatalf("lexical hit at %d:%d carries a line of %d bytes, more than %d", h.Range.StartLine, h.Range.StartColumn, len(h.Line), bound)
				}
			}
		})
	}
}
