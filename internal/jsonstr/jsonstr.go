// Package jsonstr writes JSON strings exactly as encoding/json does, without
// reflection, for the encoders that print many records.
package jsonstr

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// plain marks the bytes Append copies as they are: ASCII
// from space on, but for the quote, the backslash and <, > and &.
var plain = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = !strings.ContainsRune(`"\<>&`, rune(b))
	}
	return t
}()

// Append appends s quoted as encoding/json quotes a string: HTML
// characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced.
func Append(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if plain[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendArray appends items as encoding/json marshals a non-nil []string.
func AppendArray(dst []byte, items []string) []byte {
	dst = append(dst, '[')
	for i, s := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = Append(dst, s)
	}
	return append(dst, ']')
}
