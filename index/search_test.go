package index

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestLineSpan checks lineSpan against the line index the chunker uses.
func TestLineSpan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := []byte(rapid.StringMatching(`(x{0,3}\n){0,6}x{0,3}`).Draw(t, "src"))
		a := rapid.IntRange(-1, 9).Draw(t, "a")
		b := rapid.IntRange(a, 10).Draw(t, "b")
		li := newLineIndex(src)
		text, end, ok := lineSpan(src, a, b)
		wantOK := a >= 1 && a <= li.n()
		if ok != wantOK {
			t.Fatalf("lineSpan(%q, %d, %d) ok = %v, want %v", src, a, b, ok, wantOK)
		}
		if !ok {
			return
		}
		if want := min(b, li.n()); end != want {
			t.Fatalf("lineSpan(%q, %d, %d) end = %d, want %d", src, a, b, end, want)
		}
		if want := string(li.text(a, end)); string(text) != want {
			t.Fatalf("lineSpan(%q, %d, %d) = %q, want %q", src, a, b, text, want)
		}
	})
}

func TestExcerptBounds(t *testing.T) {
	long := strings.Repeat("line\n", 100)
	if got := strings.Count(excerpt([]byte(long)), "\n"); got != maxExcerptLines-1 {
		t.Errorf("excerpt of 100 lines has %d newlines, want %d", got, maxExcerptLines-1)
	}
	wide := strings.Repeat("é", maxExcerptBytes)
	if got := excerpt([]byte(wide)); len(got) > maxExcerptBytes || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("excerpt of a wide line: %d bytes, valid %v", len(got), !strings.ContainsRune(got, '\uFFFD'))
	}
}
