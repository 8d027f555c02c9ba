package codecortex_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxFuncLines is the most lines a function may have without saying why.
const maxFuncLines = 80

// longReason is how a long function's doc comment says why it is long.
const longReason = "It is long because"

// TestLongFunctionsSayWhy: no function or method of the module (tests
// aside) is over maxFuncLines lines, from its func keyword to its closing
// brace, unless its doc comment says why in a sentence that begins "It is
// long because". A long function is split into helpers a reader can follow
// instead, unless one table (a flat switch over a grammar's node kinds,
// say) would be scattered by splitting.
func TestLongFunctionsSayWhy(t *testing.T) {
	var long []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(p)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || isModule(p) {
				return fs.SkipDir // not this module's sources
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			if n := end - start + 1; n > maxFuncLines && !saysWhyLong(fd.Doc) {
				long = append(long, rel+":"+strconv.Itoa(start)+": "+funcName(fd)+" is "+strconv.Itoa(n)+" lines")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(long) > 0 {
		t.Errorf("%d functions are over %d lines without a doc comment sentence that begins %q; split them, or say why:\n\t%s",
			len(long), maxFuncLines, longReason, strings.Join(long, "\n\t"))
	}
}

// isModule reports whether the directory dir holds a module of its own.
func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// saysWhyLong reports whether the doc comment says why its function is
// long; the sentence may be wrapped over lines.
func saysWhyLong(doc *ast.CommentGroup) bool {
	return doc != nil && strings.Contains(strings.Join(strings.Fields(doc.Text()), " "), longReason)
}

// funcName returns the name of a function, or of a method with its
// receiver's type: (*Index).search.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	star := ""
	if s, ok := typ.(*ast.StarExpr); ok {
		star, typ = "*", s.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr: // a generic receiver: T[P]
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	name := "?"
	if id, ok := typ.(*ast.Ident); ok {
		name = id.Name
	}
	if star != "" {
		return "(" + star + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}
