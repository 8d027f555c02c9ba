package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestAppend checks the quoting against encoding/json's, on
// arbitrary bytes (invalid UTF-8 included) and the cases that escape.
func TestAppend(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, s string) {
		want, _ := json.Marshal(s)
		if got := Append(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("Append(%q) = %s, want %s", s, got, want)
		}
	}
	for _, s := range []string{"", "plain", "<>&", "\u2028x\u2029", "\x00\x01\x1f\x7f", "\xff", "a\xc3", "\"\\\b\f\n\r\t", "日本語"} {
		check(t, s)
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")))
		check(t, rapid.String().Draw(t, "string"))
	})
}

// TestAppendArray checks arrays against encoding/json's.
func TestAppendArray(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		items := rapid.SliceOf(rapid.String()).Draw(t, "items")
		want, _ := json.Marshal(items)
		if got := AppendArray(nil, items); !bytes.Equal(got, want) {
			t.Fatalf("AppendArray(%q) = %s, want %s", items, got, want)
		}
	})
}

// TestAppendMostlyPlain: long plain runs with the bytes that escape
// anywhere among them, against encoding/json.
func TestAppendMostlyPlain(t *testing.T) {
	alphabet := []byte("abcdefgh ijklmnop\"\\<>&\n\t\x00\x1f\x7f~")
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOf(rapid.SampledFrom(alphabet)).Draw(t, "bytes")
		if rapid.Bool().Draw(t, "rune") {
			b = append(b, "é\u2028\xff"...)
		}
		s := string(b)
		want, _ := json.Marshal(s)
		if got := Append(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("Append(%q) = %s, want %s", s, got, want)
		}
	})
}

// BenchmarkAppend quotes Go source, as a structural search prints it.
func BenchmarkAppend(b *testing.B) {
	src := strings.Repeat("\tif err := f(ctx, \"name\", x<y); err != nil {\n\t\treturn fmt.Errorf(\"x: %w\", err)\n\t}\n", 12)
	b.SetBytes(int64(len(src)))
	var dst []byte
	for b.Loop() {
		dst = Append(dst[:0], src)
	}
}
