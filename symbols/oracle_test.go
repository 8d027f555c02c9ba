//go:build cgo

package symbols

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goDef is one Go definition as both sides report it.
type goDef struct {
	Kind      string // func, method, type, const, var, field, imethod
	Container string
	Name      string
	Offset    int // of the name, in bytes
}

func (d goDef) String() string {
	return fmt.Sprintf("%s %s.%s@%d", d.Kind, d.Container, d.Name, d.Offset)
}

// astDefs lists what go/ast finds: every top-level function, method
// (with its receiver type), type, constant and variable, and the fields
// and interface methods of top-level struct and interface types; blank
// names left out, as Extract leaves them out.
func astDefs(fset *token.FileSet, f *ast.File) []goDef {
	var out []goDef
	add := func(kind, container string, id *ast.Ident) {
		if id.Name != "_" {
			out = append(out, goDef{kind, container, id.Name, fset.Position(id.Pos()).Offset})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add("func", "", d.Name)
				continue
			}
			recv := d.Recv.List[0].Type
			for {
				switch r := recv.(type) {
				case *ast.StarExpr:
					recv = r.X
					continue
				case *ast.IndexExpr:
					recv = r.X
					continue
				case *ast.IndexListExpr:
					recv = r.X
					continue
				case *ast.ParenExpr:
					recv = r.X
					continue
				}
				break
			}
			add("method", recv.(*ast.Ident).Name, d.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add("type", "", s.Name)
					switch t := s.Type.(type) {
					case *ast.StructType:
						for _, fld := range t.Fields.List {
							if len(fld.Names) == 0 {
								add("field", s.Name.Name, embeddedName(fld.Type))
							}
							for _, n := range fld.Names {
								add("field", s.Name.Name, n)
							}
						}
					case *ast.InterfaceType:
						for _, m := range t.Methods.List {
							for _, n := range m.Names {
								add("imethod", s.Name.Name, n)
							}
						}
					}
				case *ast.ValueSpec:
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					for _, n := range s.Names {
						add(kind, "", n)
					}
				}
			}
		}
	}
	return out
}

// embeddedName returns the identifier naming an embedded field's type.
func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t
		case *ast.StarExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return ast.NewIdent("?")
		}
	}
}

// extractedDefs lists the same from Extract's symbols.
func extractedDefs(f *File) []goDef {
	var out []goDef
	for _, s := range f.Symbols {
		kind := ""
		switch s.Kind {
		case Function:
			kind = "func"
		case Method:
			kind = "method"
			if s.Range.StartByte == s.NameRange.StartByte {
				kind = "imethod" // an interface method: its range starts at its name
			}
		case Struct, Interface, Type:
			kind = "type"
		case Constant:
			kind = "const"
		case Variable:
			kind = "var"
		case Field:
			kind = "field"
		}
		out = append(out, goDef{kind, s.Container, s.Name, s.NameRange.StartByte})
	}
	return out
}

func sortDefs(ds []goDef) {
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Offset != ds[j].Offset {
			return ds[i].Offset < ds[j].Offset
		}
		return ds[i].Name < ds[j].Name
	})
}

// TestGoOracle: on every Go file of cobra v1.10.2 (and, without -short,
// of prometheus v0.308.0), Extract finds exactly the definitions go/ast
// reports (top-level functions, methods with their receiver type, types,
// constants and variables, struct fields and interface methods), each with
// its name at the same byte offset, and the package and imports go/ast
// reads.
func TestGoOracle(t *testing.T) {
	for _, mod := range []struct {
		name     string
		minFiles int
		long     bool
	}{
		{"github.com/spf13/cobra@v1.10.2", 30, false},
		{"github.com/prometheus/prometheus@v0.308.0", 500, true},
	} {
		t.Run(mod.name, func(t *testing.T) {
			if mod.long && testing.Short() {
				t.Skip("-short")
			}
			dir := moduleDir(t, mod.name)
			files := sourceFiles(t, dir, ".go")
			if len(files) < mod.minFiles {
				t.Fatalf("%d Go files, want at least %d", len(files), mod.minFiles)
			}
			goOracle(t, dir, files)
		})
	}
}

func goOracle(t *testing.T, dir string, files []string) {
	total := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Extract(path, src)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		if f.Errors {
			t.Errorf("%s: syntax errors", rel)
		}
		want, got := astDefs(fset, af), extractedDefs(f)
		sortDefs(want)
		sortDefs(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: definitions (-go/ast +Extract):\n%s", rel, diff)
		}
		total += len(want)
		if f.Package != af.Name.Name {
			t.Errorf("%s: package %q, go/ast %q", rel, f.Package, af.Name.Name)
		}
		var wantImports, gotImports []string
		for _, im := range af.Imports {
			s := im.Path.Value[1 : len(im.Path.Value)-1]
			if im.Name != nil {
				s = im.Name.Name + " " + s
			}
			wantImports = append(wantImports, fmt.Sprintf("%s@%d", s, fset.Position(im.Pos()).Offset))
		}
		for _, im := range f.Imports {
			s := im.Path
			if im.Alias != "" {
				s = im.Alias + " " + s
			}
			gotImports = append(gotImports, fmt.Sprintf("%s@%d", s, im.Range.StartByte))
		}
		if diff := cmp.Diff(wantImports, gotImports); diff != "" {
			t.Errorf("%s: imports (-go/ast +Extract):\n%s", rel, diff)
		}
		if err := f.Validate(len(src)); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
	t.Logf("%d files, %d definitions agree with go/ast", len(files), total)
}
