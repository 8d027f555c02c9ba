package route

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxText is how many bytes of a request's text the router reads; the rest
// is ignored and the plan is marked Truncated. Every pass over the text is
// linear in its length, so routing time is bounded by this cap.
const MaxText = 4096

// capText returns the first MaxText bytes of s, cut at a rune boundary.
func capText(s string) (string, bool) {
	if len(s) <= MaxText {
		return s, false
	}
	cut := MaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// A span is inline code (in backticks) or a fenced code block.
type span struct {
	text   string // the code, trimmed
	lang   string // a fence's info string, lower-cased
	fenced bool
}

// A token is one word of prose, or one code span or pasted pattern that
// stands in the sentence as one word.
type token struct {
	word string // lower-cased, trimmed word for cue matching; "" for code
	raw  string // the word as written, trimmed of sentence punctuation
	code int    // index into analysis.spans, or -1
	pos  int    // byte offset in the text
	// named is set for a capitalised word in mid-sentence, read as a name
	// ("subclasses of Shape"): it is no cue word.
	named bool
}

// segment splits text into prose and code spans, in order. Backtick runs of
// one or two open inline code closed by the same run; three or more open a
// fence whose first line is its info string, closed by a run at least as
// long or by the end of the text. A run that is never closed is prose.
// Each search for a closing run either succeeds (and the scan continues
// after it) or fails once per run length (and is remembered), so the whole
// pass is linear.
func segment(text string, prose func(s string, off int), code func(sp span, off int)) {
	var failed [3]bool // failed[n]: no run of n backticks after some earlier point
	start, i := 0, 0
	for i < len(text) {
		if text[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		open := i
		body := i + n
		if n >= 3 {
			nl := strings.IndexByte(text[body:], '\n')
			line := text[body:]
			if nl >= 0 {
				line = line[:nl]
			}
			if k := strings.Index(line, text[open:open+n]); k >= 0 {
				// ```code``` on one line is inline code.
				prose(text[start:open], start)
				code(span{text: strings.TrimSpace(line[:k])}, open)
				start = body + k + n
				i = start
				continue
			}
			info := ""
			if nl < 0 {
				info, body = text[body:], len(text)
			} else {
				info, body = text[body:body+nl], body+nl+1
			}
			end, next := len(text), len(text)
			if k := strings.Index(text[body:], text[open:open+n]); k >= 0 {
				end, next = body+k, body+k+n
				for next < len(text) && text[next] == '`' {
					next++
				}
			}
			prose(text[start:open], start)
			code(span{text: strings.TrimSpace(text[body:end]), lang: strings.ToLower(strings.TrimSpace(info)), fenced: true}, open)
			start, i = next, next
			continue
		}
		k := -1
		if !failed[n] {
			k = closeRun(text[body:], n)
			if k < 0 {
				failed[n] = true
			}
		}
		if k < 0 {
			i = body
			continue
		}
		prose(text[start:open], start)
		code(span{text: strings.TrimSpace(text[body : body+k])}, open)
		start = body + k + n
		i = start
	}
	prose(text[start:], start)
}

// closeRun returns the offset in s of the first run of exactly n backticks,
// or -1.
func closeRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// hasMetaVar reports whether s contains a structural metavariable: $ or $$
// followed by an upper-case letter or underscore, or $$$.
func hasMetaVar(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		j := i
		for j < len(s) && s[j] == '$' && j-i < 3 {
			j++
		}
		if j-i == 3 {
			return true
		}
		if j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_') {
			return true
		}
		i = j - 1
	}
	return false
}

// fields returns the whitespace-separated fields of s with their offsets.
// A field holding a metavariable is joined with the fields after it until
// its brackets balance, so oldAPI($X, $Y) stays one field.
func fields(s string) (out [][2]int) {
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += w
			continue
		}
		j := i
		for j < len(s) {
			r, w := utf8.DecodeRuneInString(s[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += w
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	// Join a metavariable field with the fields after it when its brackets
	// close within maxJoin fields; an unclosed one stays alone rather than
	// swallowing the prose. Each field is looked at by at most maxJoin
	// earlier ones, so this stays linear.
	const maxJoin = 8
	joined := out[:0]
	for k := 0; k < len(out); k++ {
		f := out[k]
		if hasMetaVar(s[f[0]:f[1]]) {
			depth := bracketDepth(s[f[0]:f[1]], 0)
			for j := k + 1; depth > 0 && j < len(out) && j <= k+maxJoin; j++ {
				if depth = bracketDepth(s[out[j][0]:out[j][1]], depth); depth == 0 {
					f[1], k = out[j][1], j
				}
			}
		}
		joined = append(joined, f)
	}
	return joined
}

// bracketDepth returns the bracket depth after s, starting from depth d; it
// never goes below zero.
func bracketDepth(s string, d int) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			if d > 0 {
				d--
			}
		}
	}
	return d
}

// trimWord strips sentence punctuation around a word: quotes and emphasis
// on both sides, a trailing ?!,;: or full stop, brackets around the whole
// word, and brackets that are not balanced inside it (so refresh() keeps its
// parentheses). Each round removes a byte in constant time.
func trimWord(w string) string {
	w = strings.ReplaceAll(w, "’", "'")
	open, closed := 0, 0
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '(', '[', '{':
			open++
		case ')', ']', '}':
			closed++
		}
	}
	for w != "" {
		first, last := w[0], w[len(w)-1]
		switch {
		case strings.IndexByte("\"'*<", first) >= 0:
			w = w[1:]
		case strings.IndexByte("\"'*>?!,;:.", last) >= 0:
			w = w[:len(w)-1]
		case len(w) >= 2 && (first == '(' && last == ')' || first == '[' && last == ']' || first == '{' && last == '}'):
			w, open, closed = w[1:len(w)-1], open-1, closed-1
		case strings.IndexByte("([{", first) >= 0 && open > closed:
			w, open = w[1:], open-1
		case strings.IndexByte(")]}", last) >= 0 && closed > open:
			w, closed = w[:len(w)-1], closed-1
		default:
			return w
		}
	}
	return w
}

// splitWord turns a trimmed word into the lower-cased words it stands for
// and the text of each as written: where's → where is, isn't → is not,
// react's → react. The suffixes are ASCII, so cutting them from the word as
// written and from its lower-case form cuts the same characters.
func splitWord(t string) (words, raws []string) {
	lower := strings.ToLower(t)
	cut := func(n int, base, second string) ([]string, []string) {
		raw := t[:len(t)-n]
		if second == "" {
			return []string{base}, []string{raw}
		}
		return []string{base, second}, []string{raw, second}
	}
	if base, ok := strings.CutSuffix(lower, "n't"); ok && base != "" {
		switch base {
		case "ca":
			base = "can"
		case "wo":
			base = "will"
		}
		return cut(3, base, "not")
	}
	for _, c := range [...]struct{ suffix, word string }{
		{"'re", "are"}, {"'ve", "have"}, {"'ll", "will"}, {"'d", "would"},
	} {
		if base, ok := strings.CutSuffix(lower, c.suffix); ok && base != "" {
			return cut(len(c.suffix), base, c.word)
		}
	}
	if base, ok := strings.CutSuffix(lower, "'s"); ok && base != "" {
		switch base {
		case "where", "what", "who", "how", "that", "it", "there", "here", "which", "when", "why", "this":
			return cut(2, base, "is")
		}
		return cut(2, base, "")
	}
	return []string{lower}, []string{t}
}

// isIdent reports whether s is an identifier: a letter, _ or $, then
// letters, digits, _ or $.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r) {
			continue
		}
		return false
	}
	return true
}

// splitQualified splits a qualified name at ".", "::" and "#" and reports
// whether every part is an identifier.
func splitQualified(s string) (parts []string, ok bool) {
	rest := s
	for {
		k := strings.IndexAny(rest, ".:#")
		if k < 0 {
			parts = append(parts, rest)
			break
		}
		sep := 1
		if rest[k] == ':' {
			if !strings.HasPrefix(rest[k:], "::") {
				return nil, false
			}
			sep = 2
		}
		parts = append(parts, rest[:k])
		rest = rest[k+sep:]
	}
	for _, p := range parts {
		if !isIdent(p) {
			return nil, false
		}
	}
	return parts, true
}

// makeName builds a Name from an identifier path as written.
func makeName(text string, origin Origin) Name {
	n := Name{Text: text, Base: text, Origin: origin}
	if k := strings.LastIndexAny(text, ".:#"); k >= 0 && k+1 < len(text) {
		n.Base = text[k+1:]
		q := text[:k]
		q = strings.TrimSuffix(q, ":")
		n.Qualifier = q
	}
	return n
}

// callee returns the identifier path a word calls (refresh() → refresh,
// http.Get(url) → http.Get) and whether the word is written as a call.
func callee(w string) (string, bool) {
	k := strings.IndexByte(w, '(')
	if k <= 0 || !strings.HasSuffix(w, ")") {
		return w, false
	}
	return w[:k], true
}

// sourceExt lists file extensions that mark a word as a file path.
var sourceExt = map[string]bool{
	"go": true, "mod": true, "sum": true, "py": true, "pyi": true, "js": true, "jsx": true, "mjs": true,
	"cjs": true, "ts": true, "tsx": true, "rs": true, "java": true, "kt": true, "kts": true, "cs": true,
	"rb": true, "php": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true, "swift": true,
	"scala": true, "sh": true, "md": true, "json": true, "yaml": true, "yml": true, "toml": true,
	"lock": true, "txt": true, "proto": true, "sql": true, "html": true, "css": true, "xml": true,
	"gradle": true, "csproj": true, "cfg": true, "ini": true,
}

// fileOf reports whether a trimmed word names a file: a path starting with
// ./ or ../, or a word whose last dot-separated part is a source extension.
func fileOf(w string) bool {
	if strings.Contains(w, "://") || strings.ContainsAny(w, "()$`") {
		return false
	}
	if strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") {
		return len(w) > 3
	}
	k := strings.LastIndexByte(w, '.')
	if k <= 0 || k == len(w)-1 {
		return false
	}
	if !sourceExt[strings.ToLower(w[k+1:])] {
		return false
	}
	for _, r := range w[:k] {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-./@+", r)) {
			return false
		}
	}
	return true
}

// properNouns are product names written in mixed case that are not code.
var properNouns = map[string]bool{
	"github": true, "gitlab": true, "bitbucket": true, "javascript": true, "typescript": true,
	"graphql": true, "postgresql": true, "mysql": true, "mongodb": true, "sqlite": true,
	"macos": true, "ios": true, "ipados": true, "iphone": true, "ipad": true, "pypi": true,
	"nuget": true, "openapi": true, "youtube": true, "vscode": true, "intellij": true,
	"jetbrains": true, "codecortex": true, "websocket": true, "webassembly": true, "oauth": true,
	"ipv4": true, "ipv6": true, "devops": true, "linkedin": true, "openai": true, "chatgpt": true,
	"dynamodb": true, "bigquery": true, "clickhouse": true, "rabbitmq": true, "nodejs": true,
}

// commonCapitalised are words written with a capital in prose that name
// languages, tools and systems rather than code.
var commonCapitalised = set("go", "golang", "python", "java", "rust", "ruby", "kotlin", "swift",
	"node", "deno", "bun", "linux", "windows", "docker", "kubernetes", "git", "english", "unix",
	"android", "chrome", "firefox", "safari", "ci", "json", "yaml", "toml", "html", "css", "sql")

// capitalised reports whether a word in the middle of a sentence is written
// like a type or function name in prose ("the Fuse function", "in Pack"):
// an identifier starting with a capital and holding a lower-case letter,
// that is not a common word, a language or a product.
func capitalised(raw, word string) bool {
	r, _ := utf8.DecodeRuneInString(raw)
	if len(raw) < 2 || !unicode.IsUpper(r) || !isIdent(raw) || strings.IndexFunc(raw, unicode.IsLower) < 0 {
		return false
	}
	return !vague[word] && !determiners[word] && !properNouns[word] && !commonCapitalised[word]
}

// methodExpr returns a Go method expression as the qualified name it
// stands for, (*Router).ServeHTTP or (Router).ServeHTTP as
// Router.ServeHTTP, and any other word as it is.
func methodExpr(w string) string {
	if !strings.HasPrefix(w, "(") {
		return w
	}
	k := strings.Index(w, ").")
	if k < 2 {
		return w
	}
	return strings.TrimPrefix(w[1:k], "*") + w[k+1:]
}

// codeLike reports whether a word written in prose is shaped like code and
// returns the name it stands for: a call (refresh()), a qualified name
// (Type.Method, pkg.Name, Vec::new), snake_case, or camelCase/PascalCase
// with an inner capital (AuthService, useEffect, HTTPClient).
func codeLike(w string) (string, bool) {
	w = methodExpr(w)
	name, call := callee(w)
	parts, ok := splitQualified(name)
	if !ok {
		return "", false
	}
	if call {
		return name, true
	}
	if len(parts) > 1 {
		long := false
		for _, p := range parts {
			if len(p) > 1 {
				long = true
			}
		}
		if !long || fileOf(name) {
			return "", false
		}
		return name, true
	}
	if properNouns[strings.ToLower(name)] {
		return "", false
	}
	if strings.Contains(name, "_") && strings.IndexFunc(name, unicode.IsLetter) >= 0 {
		return name, true
	}
	rs := []rune(name)
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
			return name, true
		}
		if i >= 2 && unicode.IsLower(rs[i]) && unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i-2]) {
			return name, true
		}
	}
	return "", false
}

// codeName reports whether inline code is a plain name, optionally written
// as a call without arguments, and returns it.
func codeName(c string) (string, bool) {
	c = strings.TrimSuffix(methodExpr(c), "()")
	if _, ok := splitQualified(c); ok {
		return c, true
	}
	return "", false
}

// patternShaped reports whether inline code reads as a structural pattern
// rather than a name: it holds a metavariable, or call, block, assignment
// or statement syntax.
func patternShaped(c string) bool {
	return hasMetaVar(c) || strings.ContainsAny(c, "({=;")
}
