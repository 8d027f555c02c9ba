package jsonstr

import (
	"bytes"
	"encoding/json"
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
