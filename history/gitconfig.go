package history

import (
	"fmt"
	"strings"
)

// This file reads git's configuration syntax, so that a repository's
// configuration is known before git runs on it. It follows git's own
// reader (config.c of git 2.39) character for character where both accept
// a file: the same keys, the same values, in the same order. Where it is
// stricter (a NUL byte anywhere, a file over [maxConfigSize]) it refuses
// the whole file; it never cuts one short. It reads each byte once.

// maxConfigSize bounds a configuration file: a real one is a few hundred
// bytes, and a larger file is refused rather than read in part.
const maxConfigSize = 1 << 20

// A configEntry is one setting of a configuration file, as git sees it.
type configEntry struct {
	// Key is the canonical name: the section and the variable lower-cased,
	// a quoted subsection as written ("filter.Evil.clean").
	Key string
	// Value is the value after unquoting; NoValue says the key stood alone
	// (git's boolean true) rather than with "=".
	Value   string
	NoValue bool
	// Line is the one-based line the key is on.
	Line int
}

// section, subsection and name split a canonical key: the section before
// the first dot, the name after the last, the subsection between (""
// without one).
func splitKey(key string) (section, subsection, name string) {
	first := strings.IndexByte(key, '.')
	last := strings.LastIndexByte(key, '.')
	if first < 0 {
		return "", "", key
	}
	if first == last {
		return key[:first], "", key[last+1:]
	}
	return key[:first], key[first+1 : last], key[last+1:]
}

// A configSyntaxError is a configuration file that does not parse.
type configSyntaxError struct {
	Line int
	What string
}

func (e *configSyntaxError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.What)
}

// configReader walks a configuration file as git's get_next_char does: a
// CR before a LF is dropped, and the end of the file reads as a LF.
type configReader struct {
	data []byte
	pos  int
	line int
	eof  bool
	buf  []byte // scratch for a key or a value, reused
}

func (r *configReader) next() byte {
	if r.pos >= len(r.data) {
		if !r.eof {
			r.line++ // git counts the end of the file as a line end too
		}
		r.eof = true
		return '\n'
	}
	c := r.data[r.pos]
	r.pos++
	if c == '\r' && r.pos < len(r.data) && r.data[r.pos] == '\n' {
		c = '\n'
		r.pos++
	}
	if c == '\n' {
		r.line++
	}
	return c
}

// git's character classes (sane_ctype): ASCII only, and only space, tab,
// LF and CR are spaces.
func cfgSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func cfgAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func cfgKeyChar(c byte) bool {
	return cfgAlpha(c) || c >= '0' && c <= '9' || c == '-'
}
func cfgLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// utf8BOM is skipped at the start of a file, as git does.
const utf8BOM = "\xef\xbb\xbf"

// parseConfig parses one configuration file's bytes. It does not follow
// include directives: they are settings like any other (include.path,
// includeIf.<condition>.path), left to the caller to judge.
func parseConfig(data []byte) ([]configEntry, error) {
	if len(data) > maxConfigSize {
		return nil, &configSyntaxError{Line: 0, What: fmt.Sprintf("larger than %d bytes", maxConfigSize)}
	}
	if i := strings.IndexByte(string(data), 0); i >= 0 {
		return nil, &configSyntaxError{Line: 1 + strings.Count(string(data[:i]), "\n"), What: "a NUL byte"}
	}
	r := &configReader{data: data}
	if strings.HasPrefix(string(data), utf8BOM) {
		r.pos = len(utf8BOM)
	} else if len(data) > 0 && data[0] == utf8BOM[0] {
		return nil, &configSyntaxError{Line: 1, What: "a partial byte order mark"}
	}
	var entries []configEntry
	var base strings.Builder // the section stem, with its trailing dot
	comment := false
	for {
		lineStart := r.line + 1
		c := r.next()
		switch {
		case c == '\n':
			if r.eof {
				return entries, nil
			}
			comment = false
			continue
		case comment || cfgSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			base.Reset()
			if err := r.sectionHeader(&base); err != nil {
				return nil, err
			}
			if base.Len() < 1 {
				return nil, &configSyntaxError{Line: lineStart, What: "an empty section name"}
			}
			base.WriteByte('.')
			continue
		case !cfgAlpha(c):
			return nil, &configSyntaxError{Line: lineStart, What: "neither a section, a key nor a comment"}
		}
		e, err := r.keyValue(base.String(), c)
		if err != nil {
			return nil, err
		}
		e.Line = lineStart
		entries = append(entries, e)
	}
}

// sectionHeader reads a section header after its "[" into name: the
// section lower-cased, and ".subsection" as written when it is quoted
// (git's get_base_var and get_extended_base_var).
func (r *configReader) sectionHeader(name *strings.Builder) error {
	bad := func(what string) error { return &configSyntaxError{Line: r.line + 1, What: what} }
	for {
		c := r.next()
		if r.eof {
			return bad("a section header without its ]")
		}
		if c == ']' {
			return nil
		}
		if cfgSpace(c) {
			// [section "subsection"]
			for {
				if c == '\n' {
					return &configSyntaxError{Line: r.line, What: "a section header cut by a line end"}
				}
				c = r.next()
				if !cfgSpace(c) {
					break
				}
			}
			if c != '"' {
				return bad(`a section header whose subsection is not in ""`)
			}
			name.WriteByte('.')
			for {
				c := r.next()
				if c == '\n' {
					return &configSyntaxError{Line: r.line, What: "a subsection cut by a line end"}
				}
				if c == '"' {
					break
				}
				if c == '\\' {
					c = r.next()
					if c == '\n' {
						return &configSyntaxError{Line: r.line, What: "a subsection cut by a line end"}
					}
				}
				name.WriteByte(c)
			}
			if r.next() != ']' {
				return bad("a section header with more after its subsection")
			}
			return nil
		}
		if !cfgKeyChar(c) && c != '.' {
			return bad("a section name with a character git does not allow")
		}
		name.WriteByte(cfgLower(c))
	}
}

// keyValue reads a key whose first letter is c, and its value (git's
// get_value and parse_value).
func (r *configReader) keyValue(base string, c byte) (configEntry, error) {
	name := append(append(r.buf[:0], base...), cfgLower(c))
	for {
		c = r.next()
		if r.eof || !cfgKeyChar(c) {
			break
		}
		name = append(name, cfgLower(c))
	}
	r.buf = name
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	e := configEntry{Key: string(name)}
	if c == '\n' {
		e.NoValue = true
		return e, nil
	}
	if c != '=' {
		return e, &configSyntaxError{Line: r.line + 1, What: "a key followed by neither = nor a line end"}
	}
	v, err := r.value()
	if err != nil {
		return e, err
	}
	e.Value = v
	return e, nil
}

// value reads a value after its "=": spaces outside quotes fold into one
// and are dropped at either end, quotes are removed, the escapes \t, \b,
// \n, \\ and \" are the characters they name, a backslash at a line end
// continues the value on the next line, and # or ; outside quotes starts a
// comment.
func (r *configReader) value() (string, error) {
	v := r.buf[:0]
	defer func() { r.buf = v }()
	quote, comment, space := false, false, 0
	for {
		c := r.next()
		if c == '\n' {
			if quote {
				return "", &configSyntaxError{Line: r.line, What: "a value with an unclosed quote"}
			}
			return string(v), nil
		}
		if comment {
			continue
		}
		if cfgSpace(c) && !quote {
			if len(v) > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; space > 0; space-- {
			v = append(v, ' ')
		}
		switch c {
		case '\\':
			switch c = r.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", &configSyntaxError{Line: r.line + 1, What: "a value with an unknown escape"}
			}
			v = append(v, c)
		case '"':
			quote = !quote
		default:
			v = append(v, c)
		}
	}
}
