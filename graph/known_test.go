package graph

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

func TestKnownKey(t *testing.T) {
	known := map[string]bool{"fmt.Stringer": true, "error": true, "io.Reader": true, "bufio.Reader": true,
		"React.Component": true, "Exception": true}
	for sym, want := range map[string]string{"fmt.Stringer": "fmt.Stringer", "Stringer": "fmt.Stringer", "error": "error",
		"Component": "React.Component", "React.Component": "React.Component", "Exception": "Exception",
		"Reader": "", "pkg.Stringer": "", "Shape": ""} {
		got, ok := knownKey(sym, known)
		if got != want || ok != (want != "") {
			t.Errorf("knownKey(%q) = %q, %v; want %q", sym, got, ok, want)
		}
	}
}

// The implementations of standard library interfaces, which the graph has
// no node for, are the project's types that have each of their methods,
// declared or promoted by embedding, with their numbers of parameters and
// results; a new provider reads them from the snapshot.
func TestKnownImplementations(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	ix := snapshotted(t, map[string]string{
		"go.mod": "module example.com/k\n\ngo 1.22\n",
		"a/a.go": `package a

import "fmt"

type Name struct{ s string }

func (n Name) String() string { return n.s }

type Wrong struct{}

func (Wrong) String(verbose bool) string { return "" }

type File struct{}

func (f *File) Read(p []byte) (int, error) { return 0, nil }
func (f *File) Close() error { return nil }

type ReadOnly struct{}

func (ReadOnly) Read(p []byte) (n int, err error) { return 0, nil }

type Named interface{ String() string }

type Wrapped struct{ Name }

type Failure struct{}

func (*Failure) Error() string { return fmt.Sprint("failed") }
`,
		"b/b.go": "package b\n\ntype Label int\n\nfunc (l Label) String() string { return \"\" }\n",
	})
	ctx := context.Background()
	p := New(Options{Index: ix}) // reads the snapshot snapshotted left
	for q, want := range map[string][]string{
		"fmt.Stringer":  {"a/a.go:Name", "a/a.go:Wrapped", "b/b.go:Label"},
		"Stringer":      {"a/a.go:Name", "a/a.go:Wrapped", "b/b.go:Label"},
		"io.Reader":     {"a/a.go:File", "a/a.go:ReadOnly"},
		"io.ReadCloser": {"a/a.go:File"},
		"error":         {"a/a.go:Failure"},
		"http.Handler":  nil,
	} {
		resp, ok, err := p.implementations(ctx, evidence.Query{Symbol: q, Kinds: []evidence.Kind{evidence.Implementation}})
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", q, ok, err)
		}
		if p.snapshot != "read in part" {
			t.Errorf("%s: not read in part from the snapshot: %s", q, p.snapshot)
		}
		var got []string
		for _, r := range resp.Records {
			got = append(got, r.Path+":"+r.Symbol)
			if r.Trust != trust.InferredHigh || r.Kind != evidence.Implementation || r.StartLine < 1 {
				t.Errorf("%s: record %+v", q, r)
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("what implements %s (-want +got):\n%s", q, diff)
		}
		if !strings.Contains(resp.Report.Reason, "standard library") {
			t.Errorf("%s: the report does not say how: %q", q, resp.Report.Reason)
		}
	}
}

// A base the project does not define (Python's Exception, a library's
// models.Model, React.Component) is answered with the types that name it
// as a base, as written.
func TestExternalBases(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	ix := snapshotted(t, map[string]string{
		"app/errors.py": "class AppError(Exception):\n    pass\n\n\nclass NotFound(AppError):\n    pass\n\n\nclass Gone(Exception, ValueError):\n    pass\n",
		"app/models.py": "from django.db import models\n\n\nclass Book(models.Model):\n    title = 1\n",
		"web/view.jsx":  "import React from 'react';\n\nexport class Page extends React.Component {\n  render() { return null; }\n}\n",
	})
	ctx := context.Background()
	p := New(Options{Index: ix})
	for q, want := range map[string][]string{
		"Exception":       {"app/errors.py:AppError", "app/errors.py:Gone"},
		"ValueError":      {"app/errors.py:Gone"},
		"models.Model":    {"app/models.py:Book"},
		"Model":           {"app/models.py:Book"},
		"Component":       {"web/view.jsx:Page"},
		"React.Component": {"web/view.jsx:Page"},
		"AppError":        {"app/errors.py:NotFound"}, // the project's own: the graph's edges
	} {
		resp, ok, err := p.implementations(ctx, evidence.Query{Symbol: q, Kinds: []evidence.Kind{evidence.Implementation}})
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", q, ok, err)
		}
		var got []string
		for _, r := range resp.Records {
			got = append(got, r.Path+":"+r.Symbol)
		}
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("what subclasses %s (-want +got):\n%s", q, diff)
		}
	}
}

// TestImplementationsOfGoInterfaceName: a Go name of an interface and of
// structs asks what implements the interface, those structs among them.
func TestImplementationsOfGoInterfaceName(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"hook.go":      "package m\n\ntype Hook interface {\n\tFire(e *Entry) error\n}\n\ntype Entry struct{}\n",
		"hooks/t/t.go": "package t\n\nimport \"example.com/m\"\n\ntype Hook struct{}\n\nfunc (h *Hook) Fire(e *m.Entry) error { return nil }\n",
		"hooks/w/w.go": "package w\n\ntype Hook struct{}\n\nfunc (h Hook) Fire(e *Entry) error { return nil }\n\ntype Entry struct{}\n",
		"other/o/o.go": "package o\n\ntype Other struct{}\n",
	}))
	defer p.Close()
	resp, ok, err := p.implementations(context.Background(), evidence.Query{Symbol: "Hook", Kinds: []evidence.Kind{evidence.Implementation}})
	if err != nil || !ok {
		t.Fatalf("implementations of Hook: %v, %v", ok, err)
	}
	var got []string
	for _, r := range resp.Records {
		got = append(got, r.Path)
	}
	slices.Sort(got)
	if want := []string{"hooks/t/t.go", "hooks/w/w.go"}; !slices.Equal(got, want) {
		t.Errorf("implementations of Hook: %q, want %q (%s)", got, want, resp.Report.Reason)
	}
}
