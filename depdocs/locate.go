package depdocs

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The readers parse with libraries that keep no positions (encoding/json,
// the TOML decoder) or keep them in a shape that does not name the entry
// (a YAML value's line is its first child's). The locators below read a
// file's structure a second time, only to note where each key begins, and
// the readers look their entries up by path. A locator never fails: on
// input it does not understand it returns what it found so far, and a
// dependency it cannot place keeps Line 0.

// lineIndex maps byte offsets of a file to one-based line numbers.
type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// line returns the one-based line holding byte offset off.
func (l lineIndex) line(off int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > off })
}

// pathKey joins the keys and indices leading to a value.
func pathKey(parts ...string) string { return strings.Join(parts, "\x00") }

// index is the path element of an array's i-th element.
func index(i int) string { return "\x01" + strconv.Itoa(i) }

// maxLocateDepth bounds the nesting a locator follows.
const maxLocateDepth = 512

// --- JSON ------------------------------------------------------------------

// jsonKeyLines returns the line of each object key of a JSON document,
// keyed by the pathKey of the keys and array indices leading to it. keep,
// when not nil, says which paths to record (it sees the path ending in the
// key). Duplicate keys keep the last line, as encoding/json keeps the last
// value.
func jsonKeyLines(data []byte, keep func(path []string) bool) map[string]int {
	s := &jsonScan{data: data, line: 1, keep: keep, out: map[string]int{}, intern: map[string]string{}}
	s.value(0)
	return s.out
}

type jsonScan struct {
	data []byte
	pos  int
	line int
	path []string
	keep func([]string) bool
	out  map[string]int
	// intern keeps one copy of each key: lockfiles repeat the same few
	// ("version", "resolved", …) thousands of times.
	intern map[string]string
}

func (s *jsonScan) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\n':
			s.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		s.pos++
	}
}

// str reads the string at s.pos (which is '"') and returns its value.
func (s *jsonScan) str() (string, bool) {
	start := s.pos
	s.pos++
	escaped := false
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\\':
			escaped = true
			s.pos += 2
			continue
		case '\n':
			return "", false
		case '"':
			s.pos++
			raw := s.data[start:s.pos]
			if !escaped && utf8.Valid(raw) {
				if k, ok := s.intern[string(raw[1:len(raw)-1])]; ok {
					return k, true
				}
				k := string(raw[1 : len(raw)-1])
				s.intern[k] = k
				return k, true
			}
			// Escapes and invalid UTF-8 (which encoding/json replaces
			// with U+FFFD) are decoded as encoding/json decodes them.
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return "", false
			}
			return v, true
		}
		s.pos++
	}
	return "", false
}

func (s *jsonScan) value(depth int) bool {
	s.space()
	if s.pos >= len(s.data) || depth > maxLocateDepth {
		return false
	}
	switch s.data[s.pos] {
	case '{':
		s.pos++
		for {
			s.space()
			if s.pos >= len(s.data) {
				return false
			}
			switch s.data[s.pos] {
			case '}':
				s.pos++
				return true
			case ',':
				s.pos++
				continue
			case '"':
			default:
				return false
			}
			line := s.line
			key, ok := s.str()
			if !ok {
				return false
			}
			s.path = append(s.path, key)
			if s.keep == nil || s.keep(s.path) {
				s.out[pathKey(s.path...)] = line
			}
			s.space()
			if s.pos >= len(s.data) || s.data[s.pos] != ':' {
				return false
			}
			s.pos++
			if !s.value(depth + 1) {
				return false
			}
			s.path = s.path[:len(s.path)-1]
		}
	case '[':
		s.pos++
		for i := 0; ; {
			s.space()
			if s.pos >= len(s.data) {
				return false
			}
			switch s.data[s.pos] {
			case ']':
				s.pos++
				return true
			case ',':
				s.pos++
				i++
				continue
			}
			s.path = append(s.path, index(i))
			if !s.value(depth + 1) {
				return false
			}
			s.path = s.path[:len(s.path)-1]
		}
	case '"':
		_, ok := s.str()
		return ok
	}
	start := s.pos
	for s.pos < len(s.data) && !strings.ContainsRune(",}] \t\r\n", rune(s.data[s.pos])) {
		s.pos++
	}
	return s.pos > start
}

// --- TOML ------------------------------------------------------------------

// tomlKeyLines returns the line of each key, table header and array
// element of a TOML document, keyed by pathKey: a table [a.b] and a key
// b = … inside [a] both have the path a, b; the n-th [[a]] is a, index(n);
// the i-th element of an array value is its key's path and index(i). The
// first definition of a path wins.
func tomlKeyLines(data []byte) map[string]int {
	s := &tomlScan{data: data, line: 1, out: map[string]int{}, aot: map[string]int{}}
	s.document()
	return s.out
}

type tomlScan struct {
	data []byte
	pos  int
	line int
	out  map[string]int
	aot  map[string]int // array-of-tables path → elements seen
}

func (s *tomlScan) set(path []string, line int) {
	k := pathKey(path...)
	if _, ok := s.out[k]; !ok {
		s.out[k] = line
	}
}

func (s *tomlScan) peek(prefix string) bool { return bytes.HasPrefix(s.data[s.pos:], []byte(prefix)) }

// blank skips spaces and tabs, and with newlines also line ends and comments.
func (s *tomlScan) blank(newlines bool) {
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == ' ' || c == '\t' || c == '\r':
		case c == '\n' && newlines:
			s.line++
		case c == '#' && newlines:
			for s.pos < len(s.data) && s.data[s.pos] != '\n' {
				s.pos++
			}
			continue
		default:
			return
		}
		s.pos++
	}
}

// restOfLine skips to the start of the next line.
func (s *tomlScan) restOfLine() {
	for s.pos < len(s.data) && s.data[s.pos] != '\n' {
		s.pos++
	}
}

func (s *tomlScan) document() {
	var table []string
	for {
		s.blank(true)
		if s.pos >= len(s.data) {
			return
		}
		start := s.pos
		if s.data[s.pos] == '[' {
			aot := s.peek("[[")
			s.pos++
			if aot {
				s.pos++
			}
			keys := s.key()
			s.blank(false)
			if len(keys) > 0 && s.peek("]") {
				table = s.resolve(keys, aot)
				s.set(table, s.line)
			}
			s.restOfLine()
			continue
		}
		keys := s.key()
		s.blank(false)
		if len(keys) == 0 || !s.peek("=") {
			if s.pos == start {
				s.pos++
			}
			s.restOfLine()
			continue
		}
		s.pos++
		path := s.keyval(table, keys, s.line)
		s.value(path, 0)
		s.blank(false)
		if s.pos < len(s.data) && s.data[s.pos] == '#' {
			s.restOfLine()
		}
	}
}

// resolve turns a header's keys into a path: a key naming an array of
// tables refers to its last element, and the last key of a [[header]]
// starts a new element.
func (s *tomlScan) resolve(keys []string, aot bool) []string {
	var path []string
	for i, k := range keys {
		path = append(path, k)
		pk := pathKey(path...)
		if i == len(keys)-1 && aot {
			n := s.aot[pk]
			s.aot[pk] = n + 1
			path = append(path, index(n))
		} else if n, ok := s.aot[pk]; ok && n > 0 {
			path = append(path, index(n-1))
		}
	}
	return path
}

// keyval records a dotted key (and its prefixes) under table.
func (s *tomlScan) keyval(table, keys []string, line int) []string {
	path := append(append([]string{}, table...), keys...)
	for i := len(table) + 1; i <= len(path); i++ {
		s.set(path[:i], line)
	}
	return path
}

// key reads a dotted key: bare, "basic" or 'literal' parts.
func (s *tomlScan) key() []string {
	var keys []string
	for {
		s.blank(false)
		if s.pos >= len(s.data) {
			return keys
		}
		switch c := s.data[s.pos]; {
		case c == '"':
			end := s.pos + 1
			for end < len(s.data) && s.data[end] != '"' && s.data[end] != '\n' {
				if s.data[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s.data) || s.data[end] != '"' {
				return nil
			}
			k, err := strconv.Unquote(string(s.data[s.pos : end+1]))
			if err != nil {
				k = string(s.data[s.pos+1 : end])
			}
			keys = append(keys, k)
			s.pos = end + 1
		case c == '\'':
			end := bytes.IndexAny(s.data[s.pos+1:], "'\n")
			if end < 0 || s.data[s.pos+1+end] != '\'' {
				return nil
			}
			keys = append(keys, string(s.data[s.pos+1:s.pos+1+end]))
			s.pos += end + 2
		case isBareKeyByte(c):
			end := s.pos
			for end < len(s.data) && isBareKeyByte(s.data[end]) {
				end++
			}
			keys = append(keys, string(s.data[s.pos:end]))
			s.pos = end
		default:
			return keys
		}
		s.blank(false)
		if !s.peek(".") {
			return keys
		}
		s.pos++
	}
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value skips one value, recording the elements of arrays and the keys of
// inline tables under path.
func (s *tomlScan) value(path []string, depth int) {
	s.blank(false)
	if s.pos >= len(s.data) || depth > maxLocateDepth {
		return
	}
	switch {
	case s.peek(`"""`), s.peek(`'''`):
		s.multilineString()
	case s.peek(`"`), s.peek(`'`):
		q := s.data[s.pos]
		s.pos++
		for s.pos < len(s.data) && s.data[s.pos] != q && s.data[s.pos] != '\n' {
			if q == '"' && s.data[s.pos] == '\\' {
				s.pos++
			}
			s.pos++
		}
		if s.pos < len(s.data) && s.data[s.pos] == q {
			s.pos++
		}
	case s.peek("["):
		s.array(path, depth)
	case s.peek("{"):
		s.inlineTable(path, depth)
	default:
		for s.pos < len(s.data) && !strings.ContainsRune(",]}\n#", rune(s.data[s.pos])) {
			s.pos++
		}
	}
}

// multilineString skips the multi-line string at s.pos, counting its lines.
func (s *tomlScan) multilineString() {
	delim := string(s.data[s.pos : s.pos+3])
	s.pos += 3
	for s.pos < len(s.data) {
		if delim == `"""` && s.data[s.pos] == '\\' {
			s.pos++
			if s.pos < len(s.data) && s.data[s.pos] == '\n' {
				s.line++
			}
			s.pos++
			continue
		}
		if s.peek(delim) {
			s.pos += 3
			for s.pos < len(s.data) && s.data[s.pos] == delim[0] { // up to two quotes end the content
				s.pos++
			}
			return
		}
		if s.data[s.pos] == '\n' {
			s.line++
		}
		s.pos++
	}
}

// array skips the array at s.pos, recording its elements under path.
func (s *tomlScan) array(path []string, depth int) {
	s.pos++
	for i := 0; ; {
		s.blank(true)
		if s.pos >= len(s.data) {
			return
		}
		switch s.data[s.pos] {
		case ']':
			s.pos++
			return
		case ',':
			s.pos++
			i++
			continue
		}
		el := append(append([]string{}, path...), index(i))
		s.set(el, s.line)
		before := s.pos
		s.value(el, depth+1)
		if s.pos == before {
			return
		}
	}
}

// inlineTable skips the inline table at s.pos, recording its keys under
// path.
func (s *tomlScan) inlineTable(path []string, depth int) {
	s.pos++
	for {
		s.blank(true)
		if s.pos >= len(s.data) {
			return
		}
		switch s.data[s.pos] {
		case '}':
			s.pos++
			return
		case ',':
			s.pos++
			continue
		}
		line := s.line
		keys := s.key()
		s.blank(false)
		if len(keys) == 0 || !s.peek("=") {
			return
		}
		s.pos++
		s.value(s.keyval(path, keys, line), depth+1)
	}
}

// --- YAML ------------------------------------------------------------------

// yamlKeyLines returns the line of each mapping key of a parsed YAML
// document, keyed by pathKey (sequence elements by index). keep, when not
// nil, says which paths to record.
func yamlKeyLines(n *yaml.Node, keep func(path []string) bool) map[string]int {
	out := map[string]int{}
	var walk func(n *yaml.Node, path []string, depth int)
	walk = func(n *yaml.Node, path []string, depth int) {
		if n == nil || depth > maxLocateDepth {
			return
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path, depth+1)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				p := append(path[:len(path):len(path)], k.Value)
				if keep == nil || keep(p) {
					out[pathKey(p...)] = k.Line
				}
				walk(n.Content[i+1], p, depth+1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(path[:len(path):len(path)], index(i)), depth+1)
			}
		}
	}
	walk(n, nil, 0)
	return out
}

// --- XML -------------------------------------------------------------------

// An xmlElem is one element's place: the line of its start tag, the line
// where that tag closes, and the first line of each child element.
type xmlElem struct {
	line, tagEnd int
	child        map[string]int
}

// xmlElements returns the occurrences, in document order, of the elements
// at the given paths (local names from the root, joined by "/", such as
// "project/dependencies/dependency").
func xmlElements(data []byte, want ...string) map[string][]xmlElem {
	li := newLineIndex(data)
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	out := map[string][]xmlElem{}
	type open struct {
		path string
		elem int // index in out[path] when wanted, else -1
	}
	var stack []open
	dec := xml.NewDecoder(bytes.NewReader(data))
	for len(stack) <= maxLocateDepth {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			path := t.Name.Local
			if len(stack) > 0 {
				path = stack[len(stack)-1].path + "/" + path
				if p := stack[len(stack)-1]; p.elem >= 0 {
					if c := out[p.path][p.elem].child; c[t.Name.Local] == 0 {
						c[t.Name.Local] = li.line(off)
					}
				}
			}
			o := open{path, -1}
			if wanted[path] {
				o.elem = len(out[path])
				out[path] = append(out[path], xmlElem{line: li.line(off), tagEnd: li.line(int(dec.InputOffset()) - 1), child: map[string]int{}})
			}
			stack = append(stack, o)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return out
}

// lineWith returns the first line from..to of data (one-based, inclusive)
// that contains needle, or from when none does.
func lineWith(data []byte, li lineIndex, from, to int, needle string) int {
	if needle == "" || from < 1 {
		return from
	}
	for l := from; l <= to && l <= len(li); l++ {
		end := len(data)
		if l < len(li) {
			end = li[l]
		}
		if bytes.Contains(data[li[l-1]:end], []byte(needle)) {
			return l
		}
	}
	return from
}
