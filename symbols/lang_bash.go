package symbols

import (
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// bashFile reads a shell script: source and . commands (imports, Path the
// argument as written, unquoted), function definitions (Function), and
// the variables assigned outside functions (Variable; Constant when
// readonly or declare -r). Definitions inside if, case and loops at the
// top level count. Exported: the shell's own notion, export: a variable
// assigned by export or declare -x or named by export NAME, a function
// named by export -f.
func (x *extractor) bashFile() {
	exported := map[string]bool{}
	x.bashExports(x.t.Root(), exported)
	x.bashStatements(x.t.Root(), exported)
}

// bashExports collects the names export and declare -x name without
// assigning them.
func (x *extractor) bashExports(n syntax.NodeID, out map[string]bool) {
	for i := n; i < x.t.End(n); i++ {
		if x.kind(i) != "declaration_command" || !x.bashExporting(i) {
			continue
		}
		for _, c := range x.kids(i) {
			switch x.kind(c) {
			case "variable_name":
				out[x.text(c)] = true
			case "word":
				if !strings.HasPrefix(x.text(c), "-") {
					out[x.text(c)] = true
				}
			}
		}
	}
}

// bashKeyword returns a declaration command's keyword (export, readonly,
// declare, local, typeset).
func (x *extractor) bashKeyword(n syntax.NodeID) string {
	if k, ok := x.t.FirstChild(n); ok && !x.t.Named(k) {
		return x.text(k)
	}
	return ""
}

// bashFlags returns the option letters of a declaration command.
func (x *extractor) bashFlags(n syntax.NodeID) string {
	var b strings.Builder
	for _, c := range x.kids(n) {
		if x.kind(c) == "word" && strings.HasPrefix(x.text(c), "-") {
			b.WriteString(x.text(c)[1:])
		}
	}
	return b.String()
}

func (x *extractor) bashExporting(n syntax.NodeID) bool {
	k := x.bashKeyword(n)
	return k == "export" || (k == "declare" || k == "typeset") && strings.Contains(x.bashFlags(n), "x")
}

func (x *extractor) bashStatements(n syntax.NodeID, exported map[string]bool) {
	for _, c := range x.kids(n) {
		switch x.kind(c) {
		case "function_definition":
			id, ok := x.field(c, "name")
			if !ok {
				continue
			}
			hs, he := x.bodyHead(c, c)
			x.add(def{kind: Function, name: x.text(id), nameNode: id, node: c, exported: exported[x.text(id)],
				headStart: hs, headEnd: he})
		case "variable_assignment":
			x.bashAssign(c, c, Variable, exported[x.fieldText(c, "name")])
		case "declaration_command":
			k := x.bashKeyword(c)
			if k == "local" {
				continue
			}
			kind := Variable
			if k == "readonly" || strings.Contains(x.bashFlags(c), "r") {
				kind = Constant
			}
			exp := x.bashExporting(c)
			for _, a := range x.kids(c) {
				if x.kind(a) == "variable_assignment" {
					x.bashAssign(c, a, kind, exp || exported[x.fieldText(a, "name")])
				}
			}
		case "command":
			name := x.fieldText(c, "name")
			if name != "source" && name != "." {
				continue
			}
			for a, ok := x.t.FirstChild(c); ok; a, ok = x.t.NextSibling(a) {
				if x.t.Field(a) == "argument" {
					x.addImport(unquote(x.text(a)), "", "", c)
					break
				}
			}
		case "if_statement", "elif_clause", "else_clause", "case_statement", "case_item", "do_group",
			"for_statement", "c_style_for_statement", "while_statement", "compound_statement", "list",
			"redirected_statement":
			x.bashStatements(c, exported)
		}
	}
}

func (x *extractor) bashAssign(stmt, a syntax.NodeID, kind Kind, exported bool) {
	id, ok := x.field(a, "name")
	if !ok {
		return
	}
	he := x.t.EndByte(a)
	if v, ok := x.field(a, "value"); ok {
		he = x.t.StartByte(v)
	}
	x.add(def{kind: kind, name: x.text(id), nameNode: id, node: stmt, exported: exported,
		headStart: x.t.StartByte(stmt), headEnd: he})
}
