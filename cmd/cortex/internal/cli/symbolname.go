package cli

import (
	"path"
	"regexp"
	"strings"
)

// shortSymbol is the name people read for a symbol: for a SCIP symbol
// string, the last element of its package or module followed by its
// descriptors' names joined with dots (scip-go's
// "scip-go gomod example.com/m v1.0.0 `example.com/m/promql`/Engine#NewInstantQuery()."
// is "promql.Engine.NewInstantQuery", scip-typescript's
// "scip-typescript npm app 1.0.0 src/`auth.ts`/Session#token()." is
// "auth.Session.token", scip-python's
// "scip-python python app 0.1 `app.auth`/Session#token()." is
// "auth.Session.token"). The project graph's "path#Name" is read the same
// way: "promql/engine.go#Engine.NewInstantQuery" is
// "promql.Engine.NewInstantQuery", "src/auth.ts#Session.token"
// "auth.Session.token". A name that is neither (a local index's
// Type.Method, a local symbol) is returned as it is, and so is a symbol
// whose descriptors name nothing; a package's own symbol is its name. The
// result is never longer than sym.
func shortSymbol(sym string) string {
	if name, ok := graphName(sym); ok {
		return name
	}
	s, ok := parseSymbol(sym)
	if !ok {
		return sym
	}
	var module string
	var chain []string
	for _, d := range s.descriptors {
		if d.suffix == '/' && len(chain) == 0 {
			module = d.name
			continue
		}
		chain = append(chain, d.name)
	}
	if m := moduleName(module, s.scheme == "scip-python" || s.manager == "python"); m != "" {
		chain = append([]string{m}, chain...)
	}
	out := strings.Join(chain, ".")
	if out == "" || len(out) > len(sym) {
		return sym
	}
	return out
}

// graphName is the short name of the project graph's "path#Name" node:
// Name, after its Go package (the file's directory) or its module (the
// file's name without extension).
func graphName(id string) (string, bool) {
	p, name, ok := strings.Cut(id, "#")
	if !ok || name == "" || p == "" || strings.ContainsAny(id, " `") || path.Ext(p) == "" {
		return "", false
	}
	module := moduleName(p, false)
	if path.Ext(p) == ".go" {
		module = ""
		if dir := path.Dir(p); dir != "." {
			module = moduleName(dir, false)
		}
	}
	if module == "" || module == p {
		return name, true
	}
	return module + "." + name, true
}

// A scipSymbol is what shortSymbol reads of a global SCIP symbol.
type scipSymbol struct {
	scheme, manager string
	descriptors     []descriptor
}

// A descriptor is one descriptor's name and the character that ends it
// ('/' namespace, '#' type, '.' term, ':' meta, '!' macro, ')' method or
// parameter, ']' type parameter).
type descriptor struct {
	name   string
	suffix byte
}

// parseSymbol reads a global symbol as the SCIP grammar writes it
// (https://github.com/sourcegraph/scip/blob/main/docs/scip.md): scheme,
// package manager, name and version, each ending in a space (a double
// space is a space inside one), then one or more descriptors. It is lenient
// about the characters of a simple identifier (anything the grammar gives
// no other meaning) and refuses anything else, a local symbol included.
func parseSymbol(sym string) (scipSymbol, bool) {
	var s scipSymbol
	rest := sym
	var fields [4]string
	for i := range fields {
		f, r, ok := symbolField(rest)
		if !ok || f == "" {
			return s, false
		}
		fields[i], rest = f, r
	}
	if fields[0] == "local" || rest == "" {
		return s, false
	}
	s.scheme, s.manager = fields[0], fields[1]
	for rest != "" {
		var d descriptor
		var ok bool
		if d, rest, ok = nextDescriptor(rest); !ok {
			return s, false
		}
		s.descriptors = append(s.descriptors, d)
	}
	return s, true
}

// symbolField reads one space-terminated field, a double space standing
// for a space in it.
func symbolField(s string) (field, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == ' ' {
			b.WriteByte(' ')
			i++
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}

// nextDescriptor reads the descriptor s begins with.
func nextDescriptor(s string) (d descriptor, rest string, ok bool) {
	switch s[0] {
	case '[', '(':
		// A type parameter [name] or a parameter (name).
		closer := map[byte]byte{'[': ']', '(': ')'}[s[0]]
		name, r, ok := identifier(s[1:])
		if !ok || r == "" || r[0] != closer {
			return d, "", false
		}
		return descriptor{name, closer}, r[1:], true
	}
	name, r, ok := identifier(s)
	if !ok || r == "" {
		return d, "", false
	}
	switch r[0] {
	case '/', '#', '.', ':', '!':
		return descriptor{name, r[0]}, r[1:], true
	case '(':
		// A method: name(disambiguator).
		end := strings.Index(r, ").")
		if end < 0 {
			return d, "", false
		}
		if _, tail, ok := identifier(r[1:end]); end > 1 && (!ok || tail != "") {
			return d, "", false
		}
		return descriptor{name, ')'}, r[end+2:], true
	}
	return d, "", false
}

// identifier reads a simple identifier, or an escaped one between
// backticks with a double backtick standing for one.
func identifier(s string) (name, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	if s[0] != '`' {
		i := strings.IndexAny(s, "/#.:!()[]` ")
		if i < 0 {
			i = len(s)
		}
		return s[:i], s[i:], i > 0
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '`' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '`' {
			b.WriteByte('`')
			i++
			continue
		}
		return b.String(), s[i+1:], b.Len() > 0
	}
	return "", "", false
}

// goMajor is a Go module's major version path element.
var goMajor = regexp.MustCompile(`^v[0-9]+$`)

// moduleName is the name code uses for a namespace: the last element of
// a package path (the one before a Go major version), a file's name
// without its extension, or, in Python, the last element of a dotted
// module.
func moduleName(ns string, python bool) string {
	ns = strings.Trim(ns, "/")
	if ns == "" {
		return ""
	}
	elems := strings.Split(ns, "/")
	last := elems[len(elems)-1]
	if goMajor.MatchString(last) && len(elems) > 1 {
		last = elems[len(elems)-2]
	}
	for _, ext := range []string{".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".py", ".pyi"} {
		if strings.HasSuffix(last, ext) && len(last) > len(ext) {
			return strings.TrimSuffix(last, ext)
		}
	}
	if python {
		if i := strings.LastIndexByte(last, '.'); i >= 0 && i+1 < len(last) {
			return last[i+1:]
		}
	}
	return last
}
