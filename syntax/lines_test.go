package syntax

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestLinesRange(t *testing.T) {
	src := []byte("ab\né日x\n\n😀z")
	li := NewLines(src)
	for _, tc := range []struct {
		name       string
		start, end int
		want       Range
	}{
		{"first line", 0, 2, Range{1, 1, 1, 3, 0, 2}},
		{"across the newline", 1, 3, Range{1, 2, 2, 1, 1, 3}},
		{"after two-byte and three-byte runes", 8, 9, Range{2, 3, 2, 4, 8, 9}},
		{"empty line", 10, 10, Range{3, 1, 3, 1, 10, 10}},
		{"after a four-byte rune", 15, 16, Range{4, 2, 4, 3, 15, 16}},
		{"end of source", 16, 16, Range{4, 3, 4, 3, 16, 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := li.Range(tc.start, tc.end)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Range(%d, %d) (-want +got):\n%s", tc.start, tc.end, diff)
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
	if li.Count() != 4 || li.LineStart(2) != 3 || li.LineEnd(2) != 9 || li.LineEnd(4) != len(src) {
		t.Errorf("Count %d, LineStart(2) %d, LineEnd(2) %d, LineEnd(4) %d", li.Count(), li.LineStart(2), li.LineEnd(2), li.LineEnd(4))
	}
}

// TestLinesPositionProperty: columns counted from checkpoints are what
// utf8.RuneCount of the line up to the offset gives, invalid bytes and
// long lines included.
func TestLinesPositionProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := []string{"a", "é", "日", "😀", "\n", "\xff", "\xe6\x97", " ", strings.Repeat("x", 300)}
		var b strings.Builder
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 60).Draw(t, "pieces") {
			b.WriteString(pieces[i])
		}
		src := []byte(b.String())
		li := NewLines(src)
		off := rapid.IntRange(0, len(src)).Draw(t, "off")
		ls := strings.LastIndexByte(string(src[:off]), '\n') + 1
		wantLine := strings.Count(string(src[:off]), "\n") + 1
		wantCol := utf8.RuneCount(src[ls:off]) + 1
		if l, c := li.Position(off); l != wantLine || c != wantCol {
			t.Fatalf("Position(%d) = %d:%d, want %d:%d", off, l, c, wantLine, wantCol)
		}
	})
}

func TestRangeValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Range
		ok   bool
	}{
		{"valid", Range{1, 1, 1, 1, 0, 0}, true},
		{"zero line", Range{0, 1, 1, 1, 0, 0}, false},
		{"ends before it starts", Range{2, 1, 1, 5, 0, 0}, false},
		{"column before on the same line", Range{1, 4, 1, 3, 0, 0}, false},
		{"inverted bytes", Range{1, 1, 1, 2, 5, 4}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.r.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok %v", err, tc.ok)
			}
		})
	}
}
