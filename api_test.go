package codecortex

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPublicAPINamesNoInternalType walks the exported declarations of every
// public package of the module and fails on any that names a type (or any
// identifier) of an internal package: a host outside the module cannot name
// it, so such a function or field is unusable from outside.
func TestPublicAPINamesNoInternalType(t *testing.T) {
	dirs := publicPackageDirs(t, ".")
	if len(dirs) < 6 {
		t.Fatalf("found only %d public packages: %v", len(dirs), dirs)
	}
	for _, dir := range dirs {
		for _, leak := range internalLeaks(t, dir) {
			t.Errorf("%s", leak)
		}
	}
}

// TestInternalLeaksFindsThem checks the checker on a package that leaks
// internal types in every way it looks for.
func TestInternalLeaksFindsThem(t *testing.T) {
	got := internalLeaks(t, "testdata/apicheck/leaky")
	want := []string{
		"testdata/apicheck/leaky/leaky.go:11: exported Leaky.Root names internal package contain",
		"testdata/apicheck/leaky/leaky.go:14: exported func Open names internal package contain",
		"testdata/apicheck/leaky/leaky.go:17: exported method Leaky.Config names internal package cfg",
		"testdata/apicheck/leaky/leaky.go:21: exported type Alias names internal package contain",
		"testdata/apicheck/leaky/leaky.go:23: exported var Default names internal package cfg",
		"testdata/apicheck/leaky/leaky.go:28: exported Embeds.Root names internal package contain",
		"testdata/apicheck/leaky/leaky.go:31: exported type Iface names internal package contain",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("leaks (-want +got):\n%s", diff)
	}
}

// publicPackageDirs lists the module's directories holding a public
// package: not internal, a command, an example or test data.
func publicPackageDirs(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "internal", "cmd", "examples", "testdata", ".git", ".codecortex", "docs", "scripts":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			seen[filepath.ToSlash(filepath.Dir(p))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

// internalLeaks parses the non-test files of the package in dir and returns
// one line per exported declaration that names an internal package.
func internalLeaks(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var leaks []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		file := path.Join(dir, name)
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		internal := map[string]string{} // local name → import path
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains("/"+p+"/", "/internal/") {
				continue
			}
			local := path.Base(p)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			internal[local] = p
		}
		if len(internal) == 0 {
			continue
		}
		report := func(n ast.Node, what string) {
			if pkg := namesInternal(n, internal); pkg != "" {
				leaks = append(leaks, fmt.Sprintf("%s:%d: exported %s names internal package %s", file, fset.Position(n.Pos()).Line, what, pkg))
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				what := "func " + d.Name.Name
				if d.Recv != nil {
					recv := receiverName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					what = "method " + recv + "." + d.Name.Name
					report(d.Recv, what)
				}
				report(d.Type, what)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								names := fld.Names
								if len(names) == 0 { // embedded: the field is named by its type
									names = []*ast.Ident{{Name: receiverName(fld.Type), NamePos: fld.Pos()}}
								}
								for _, n := range names {
									if n.IsExported() {
										report(fld.Type, s.Name.Name+"."+n.Name)
									}
								}
							}
							continue
						}
						report(s.Type, "type "+s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							if s.Type != nil {
								report(s.Type, "var "+n.Name)
							}
							for _, v := range s.Values {
								report(v, "var "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	return leaks
}

// namesInternal returns the first internal package n names, or "".
func namesInternal(n ast.Node, internal map[string]string) string {
	found := ""
	ast.Inspect(n, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
				found = id.Name
			}
		}
		return true
	})
	return found
}

// receiverName returns the type name of a receiver or embedded field
// expression: T, *T, T[P], pkg.T.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
