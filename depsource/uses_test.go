package depsource

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// usesOf extracts files with the symbols extractor, as the local index
// does, and returns the uses Provider.uses finds of name among them, as
// "path:line:column", given that copy c defines name at top level.
func usesOf(t *testing.T, c Copy, name string, files map[string]string) []string {
	t.Helper()
	var fus []FileUses
	for p, src := range files {
		f, err := symbols.Extract(p, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		fus = append(fus, FileUses{Path: p, Language: f.Language, Package: f.Package, Symbols: f.Symbols, Imports: f.Imports, Refs: f.Refs})
	}
	p := New(Options{Uses: func(context.Context, string) ([]FileUses, error) { return fus, nil }})
	tg, ok := splitName(name)
	if !ok {
		t.Fatalf("%s does not split", name)
	}
	res := &Result{Definitions: []Definition{{Copy: c, Symbol: symbols.Symbol{Name: tg.name, Package: "pkgname"}, Qualifier: tg.qual}}}
	recs, err := p.uses(context.Background(), tg, res)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		if err := r.Validate(); err != nil || r.Trust != trust.InferredHigh || Outside(&r) || r.Kind != evidence.Reference && r.Kind != evidence.Call {
			t.Errorf("%s: record %+v: %v", name, r, err)
		}
		out = append(out, fmt.Sprintf("%s:%d:%d", r.Path, r.StartLine, r.StartColumn))
	}
	slices.Sort(out)
	return out
}

// A use is one the file's imports bind to the dependency's package: under
// its package name, an alias, a dot import, a named, renamed or namespace
// import, require; never the same name from another package or a local.
func TestUsesFollowImports(t *testing.T) {
	goCopy := Copy{Ecosystem: depdocs.Go, Name: "example.com/pkgname", Version: "v1.0.0", Dir: "example.com/pkgname@v1.0.0"}
	npmCopy := Copy{Ecosystem: depdocs.NPM, Name: "uuid", Version: "9.0.1", Dir: "node_modules/uuid"}
	pyCopy := Copy{Ecosystem: depdocs.PyPI, Name: "requests", Version: "2.31.0", Dir: ".venv/lib/python3.12/site-packages/requests"}
	for _, c := range []struct {
		what  string
		copy  Copy
		name  string
		files map[string]string
		want  []string
	}{
		{"go package name", goCopy, "pkgname.Thing", map[string]string{
			"a.go": "package a\n\nimport \"example.com/pkgname\"\n\nfunc f() { _ = pkgname.Thing(1) }\n",
			"b.go": "package a\n\nimport pkgname \"example.com/other/pkgname\"\n\nfunc g() { _ = pkgname.Thing(2) }\n",
		}, []string{"a.go:5:24"}},
		{"go alias and dot import", goCopy, "pkgname.Thing", map[string]string{
			"a.go": "package a\n\nimport p \"example.com/pkgname\"\n\nvar x = p.Thing\n",
			"b.go": "package a\n\nimport . \"example.com/pkgname\"\n\nvar y = Thing\n",
			"c.go": "package a\n\nimport _ \"example.com/pkgname\"\n\nvar z = Thing\n",
		}, []string{"a.go:5:11", "b.go:5:9"}},
		{"go subpackage is another package", goCopy, "pkgname.Thing", map[string]string{
			"a.go": "package a\n\nimport \"example.com/pkgname/sub\"\n\nvar x = sub.Thing\n",
		}, nil},
		{"js require and named imports", npmCopy, "uuid.v4", map[string]string{
			"a.js": "const uuid = require('uuid');\nuuid.v4();\n",
			"b.js": "import { v4 } from 'uuid';\nv4();\n",
			"c.js": "import { v4 as make } from 'uuid';\nmake();\n",
			"d.js": "import * as u from 'uuid';\nu.v4();\n",
			"e.js": "import { v4 } from './local';\nv4();\n",
		}, []string{"a.js:2:6", "b.js:2:1", "c.js:2:1", "d.js:2:3"}},
		{"python module and from-import", pyCopy, "requests.get", map[string]string{
			"a.py": "import requests\n\nrequests.get('x')\n",
			"b.py": "from requests import get\n\nget('y')\n",
			"c.py": "from httpx import get\n\nget('z')\n",
		}, []string{"a.py:3:10", "b.py:3:1"}},
	} {
		got := usesOf(t, c.copy, c.name, c.files)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.what, got, c.want)
		}
	}
}

// A member's uses need its receiver's type, which imports do not show:
// none are claimed, not even a package-level name of the package that is
// spelled like the member.
func TestUsesOnlyTopLevel(t *testing.T) {
	c := Copy{Ecosystem: depdocs.Go, Name: "example.com/pkgname", Version: "v1.0.0"}
	if got := usesOf(t, c, "pkgname.T.Method", map[string]string{
		"a.go": "package a\n\nimport \"example.com/pkgname\"\n\nfunc f(t pkgname.T) { t.Method(); pkgname.Method() }\n",
	}); len(got) != 0 {
		t.Fatalf("member uses %v", got)
	}
}
