package contain

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// A style is how a system writes paths. Paths are read in the host's style
// and reported with slashes, relative to the root, on every system.
type style struct {
	windows bool // backslashes separate too, and absolute paths start with a volume
}

// hostStyle is the style of the system cortex runs on.
var hostStyle = style{windows: runtime.GOOS == "windows"}

// elements returns the elements of p, slash-separated, and whether p is
// absolute. In the Windows style a backslash separates as a slash does, an
// absolute path starts with a drive ("C:\x") or a share (`\\host\share\x`),
// and its first element is that volume, with the drive letter in lower case.
// Paths that Windows resolves against a hidden current directory — "C:x",
// relative to drive C's, and `\x`, rooted on the current drive — are
// refused, as are names with a colon, which Windows reads as a stream.
func (s style) elements(p string) (elems []string, abs bool, err error) {
	if !s.windows {
		return split(p), strings.HasPrefix(p, "/"), nil
	}
	q := strings.ReplaceAll(p, `\`, "/")
	switch {
	case len(q) >= 2 && q[1] == ':' && isLetter(q[0]):
		if len(q) == 2 || q[2] != '/' {
			return nil, false, fmt.Errorf("names a drive without a separator after it (relative to that drive's current directory)")
		}
		elems, abs = append([]string{strings.ToLower(q[:2])}, split(q[2:])...), true
	case strings.HasPrefix(q, "//"):
		parts := split(q)
		if len(parts) < 2 {
			return nil, false, fmt.Errorf("names a network share without its host and share")
		}
		elems, abs = append([]string{"//" + strings.ToLower(parts[0]+"/"+parts[1])}, parts[2:]...), true
	case strings.HasPrefix(q, "/"):
		return nil, false, fmt.Errorf("is rooted without a drive (relative to the current drive)")
	default:
		elems = split(q)
	}
	for _, e := range elems[boolInt(abs):] {
		if strings.ContainsRune(e, ':') {
			return nil, false, fmt.Errorf("contains a colon, which Windows reads as a stream name")
		}
	}
	return elems, abs, nil
}

// hasPrefix reports whether elems starts with the elements of base. Windows
// compares names without regard to case, as its file systems do by default.
func (s style) hasPrefix(elems, base []string) bool {
	if len(elems) < len(base) {
		return false
	}
	for i, b := range base {
		if elems[i] != b && !(s.windows && strings.EqualFold(elems[i], b)) {
			return false
		}
	}
	return true
}

// hostElements is [style.elements] in the host's style, for paths the
// system itself gave (the root, a link's target): those are well formed.
func hostElements(p string) []string {
	elems, _, err := hostStyle.elements(p)
	if err != nil {
		return split(filepath.ToSlash(p))
	}
	return elems
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
