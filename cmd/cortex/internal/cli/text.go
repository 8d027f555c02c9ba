package cli

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// safe returns s fit for a terminal: control characters (C0 but tab, DEL,
// C1), bidirectional controls and invalid UTF-8 are written as escapes, so
// a file name or a line of source cannot move the cursor, recolour the
// terminal or make the text shown differ from the text acted on. A
// backslash stays itself: the escapes are for reading, not for parsing.
func safe(s string) string {
	clean := true
	for i, r := range s {
		if r == utf8.RuneError || needsEscape(r) {
			_, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size == 1 {
				clean = false
				break
			}
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(r rune) bool {
	if r == '\t' {
		return false
	}
	if unicode.IsControl(r) {
		return true
	}
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// safeLines is [safe] for text of several lines: the line breaks stay.
func safeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = safe(l)
	}
	return strings.Join(lines, "\n")
}
