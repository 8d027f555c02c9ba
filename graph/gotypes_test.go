package graph

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
)

// goOperandFixture calls methods named Lock and Get through operands whose
// type the function head or a struct field declares: the project's types,
// and types of the standard library that have methods of those names.
var goOperandFixture = map[string]string{
	"go.mod": "module m\n",
	"p/lock.go": `package p

type Locker struct{}

func (l *Locker) Lock() {}

type Store struct{}

func (s *Store) Get() int { return 0 }
`,
	"p/t.go": `package p

import (
	"sync"

	"m/q"
)

type T struct {
	mu sync.Mutex
	lk Locker
	rw *sync.RWMutex
	st q.Cache
}

func (t *T) Run(other *Locker, m *sync.Mutex, err error) {
	t.mu.Lock()
	t.lk.Lock()
	t.rw.Lock()
	other.Lock()
	m.Lock()
	t.st.Get()
	_ = err.Error()
}

func Use(a, b *Store, s *q.Cache) int { return a.Get() + b.Get() + s.Get() }
`,
	"p/u.go": "package p\n\nimport \"example.com/ext\"\n\nfunc Ext(e *ext.Locker) { e.Lock() }\n",
	"p/srv.go": `package p

import (
	"cmp"
	"net/http"
	"net/http/httptest"
)

type Conn struct{}

func (c *Conn) Close() {}

func Srv(a, b *Conn) {
	s := httptest.NewServer(nil)
	s.Close()
	c := cmp.Or(a, b)
	c.Close()
	resp, _ := http.DefaultClient.Do(nil)
	resp.Body.Close()
	hc := &http.Client{}
	r, _ := hc.Do(nil)
	r.Body.Close()
}
`,
	"q/q.go": `package q

type Cache struct{}

func (c Cache) Get() int { return 1 }
`,
}

// TestGoOperandTypes checks Go's selector rule: a method called through a
// parameter, receiver or field whose declared type the syntax shows is a
// member of that type (inferred_high); through one of the standard
// library, another module or predeclared (sync.Mutex, ext.Locker, error),
// or made by the standard library (a function's result, a variable, what
// a method of those returns), none of the project's methods, although the
// project defines one method of that name.
func TestGoOperandTypes(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, goOperandFixture))
	defer p.Close()
	tests := []sitesOf{
		// A type of a module that is not the project's (example.com/ext,
		// outside the module m its go.mod declares) has none of the
		// project's methods: e.Lock() is no use of Locker.Lock.
		{"Locker.Lock", []string{"p/t.go:18 p/t.go#T.Run inferred_high", "p/t.go:20 p/t.go#T.Run inferred_high"}},
		{"Store.Get", []string{"p/t.go:26 p/t.go#Use inferred_high"}},
		// What a function of the standard library returns is none of the
		// project's types, unless the function is generic (cmp.Or).
		// So is what a variable of the standard library, or a method of a
		// value of its types, gives (resp.Body of http.DefaultClient.Do).
		{"Conn.Close", []string{"p/srv.go:17 p/srv.go#Srv inferred"}},
		{"Cache.Get", []string{"p/t.go:22 p/t.go#T.Run inferred_high", "p/t.go:26 p/t.go#Use inferred_high"}},
	}
	checkCallSites(t, p, tests)
	// The graph of the files that concern a name answers as the whole.
	dir := testtool.WriteTree(t, goOperandFixture)
	if compared, _ := compareNamed(t, dir, func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

func TestGoParamType(t *testing.T) {
	tests := []struct{ sig, name, want string }{
		{"func (c *Command) Run(args []string, n int) error", "c", "*Command"},
		{"func (c *Command) Run(args []string, n int) error", "n", "int"},
		{"func (c *Command) Run(args []string, n int) error", "args", "[]string"},
		{"func F(a, b *Store, s *q.Cache) int", "a", "*Store"},
		{"func F(a, b *Store, s *q.Cache) int", "s", "*q.Cache"},
		{"func F[T any, K comparable](x T, m map[K]T) T", "x", "T"},
		{"func (s *S[T]) M(f func(a int) error, rest ...string)", "f", "func(a int) error"},
		{"func (s *S[T]) M(f func(a int) error, rest ...string)", "rest", ""},
		{"func (s *S[T]) M(f func(a int) error, rest ...string)", "a", ""},
		{"func F(a int, b *Sto…", "b", ""},
		{"(mu sync.Mutex)", "mu", "sync.Mutex"},
		{"(a, b int)", "a", "int"},
		{"func F(int, string)", "int", ""},
	}
	for _, tt := range tests {
		if got := goParamType(tt.sig, tt.name); got != tt.want {
			t.Errorf("goParamType(%q, %q) = %q, want %q", tt.sig, tt.name, got, tt.want)
		}
	}
}

// goLocalFixture calls Host, defined by both Router and Route, through
// local variables whose declarations show their types: a constructor of
// the package or of an imported one, a composite literal, new, a var of a
// type; through one declared again with another type, which says nothing
// from there on; on calls and literals, chained (NewRouter().Host() is a
// Route, whose Host is called next); and through variables of the
// package, by their declarations.
var goLocalFixture = map[string]string{
	"go.mod": "module m\n",
	"mux/mux.go": `package mux

type Router struct{}

func NewRouter() *Router { return &Router{} }

func (r *Router) Host(h string) *Route { return &Route{} }

type Route struct{}

func NewRoute() (route *Route, err error) { return &Route{}, nil }

func (r *Route) Host(h string) *Route { return r }
`,
	"mux/use.go": `package mux

func Use() {
	r := NewRouter()
	r.Host("a")
	rt, err := NewRoute()
	_ = err
	rt.Host("b")
	lit := &Route{}
	lit.Host("c")
	n := new(Router)
	n.Host("d")
	var v Route
	v.Host("e")
	x := Router{}
	x.Host("f")
	x := Route{}
	x.Host("g")
	new(Route).Host("i")
	NewRouter().Host("j")
	NewRouter().Host("k").Host("l")
}
`,
	"mux/pkg.go": `package mux

var std = NewRouter()

var def Route

func Pkg() {
	std.Host("m")
	def.Host("n")
}
`,
	"app/main.go": `package app

import "m/mux"

func Main() {
	r := mux.NewRouter()
	r.Host("h")
}
`,
}

// TestGoLocalTypes checks that a method called through a local variable
// is a member of the type its declaration shows (inferred_high), and is
// linked by name (inferred) once the function has declared the variable
// again with another type.
func TestGoLocalTypes(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, goLocalFixture))
	defer p.Close()
	tests := []sitesOf{
		{"Router.Host", []string{"app/main.go:7 app/main.go#Main inferred_high", "mux/pkg.go:8 mux/pkg.go#Pkg inferred_high",
			"mux/use.go:5 mux/use.go#Use inferred_high", "mux/use.go:12 mux/use.go#Use inferred_high",
			"mux/use.go:16 mux/use.go#Use inferred_high", "mux/use.go:18 mux/use.go#Use inferred",
			"mux/use.go:20 mux/use.go#Use inferred_high", "mux/use.go:21 mux/use.go#Use inferred_high"}},
		{"Route.Host", []string{"mux/pkg.go:9 mux/pkg.go#Pkg inferred_high", "mux/use.go:8 mux/use.go#Use inferred_high",
			"mux/use.go:10 mux/use.go#Use inferred_high", "mux/use.go:14 mux/use.go#Use inferred_high",
			"mux/use.go:18 mux/use.go#Use inferred", "mux/use.go:19 mux/use.go#Use inferred_high",
			"mux/use.go:21 mux/use.go#Use inferred_high"}},
	}
	checkCallSites(t, p, tests)
	dir := testtool.WriteTree(t, goLocalFixture)
	if compared, _ := compareNamed(t, dir, func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// sitesOf are the sites ("path:line symbol tier", in the provider's
// order) the graph answers for the references and calls of symbol.
type sitesOf struct {
	symbol string
	want   []string
}

// checkCallSites asks p for each test's references and calls, checks
// that every record is valid and compares the answer with its want.
func checkCallSites(t *testing.T, p *Provider, tests []sitesOf) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			resp, err := p.Gather(context.Background(), evidence.Query{Symbol: tt.symbol,
				Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range resp.Records {
				if err := r.Validate(); err != nil {
					t.Errorf("invalid record: %v", err)
				}
				if r.Metadata.Attributes[OtherDefinitionAttribute] != "true" {
					got = append(got, fmt.Sprintf("%s:%d %s %s", r.Path, r.StartLine, r.Symbol, r.Trust))
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("callers of %s (-want +got):\n%s", tt.symbol, diff)
			}
		})
	}
}

// TestGoVarType reads a package variable's declaration as a Ref's Type.
func TestGoVarType(t *testing.T) {
	for sig, want := range map[string]string{
		"var std = New()":           "New()",
		"var std = logrus.New()":    "logrus.New()",
		"var std = &Logger{}":       "*Logger",
		"var std = pkg.Logger{a}":   "pkg.Logger",
		"var std = new(Logger)":     "*Logger",
		"var std Logger":            "Logger",
		"var std *pkg.Logger = x":   "*pkg.Logger",
		"var std = 1":               "",
		"var std = a.b.c()":         "",
		"var std = &New()":          "",
		"var std, other = New(), 1": "",
		"var stdx = New()":          "",
	} {
		if got := goVarType(sig, "std"); got != want {
			t.Errorf("goVarType(%q) = %q, want %q", sig, got, want)
		}
	}
}

// TestGoTypePackages: a receiver's type is the one its package declares,
// among types of one name in several packages (five Readers: more than a
// name alone may stand for), or a package the file imports with a dot;
// a package variable's, when the files for each build tag declare it
// alike.
func TestGoTypePackages(t *testing.T) {
	needSyntax(t)
	tree := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for _, pkg := range []string{"a", "b", "c", "d", "e"} {
		tree[pkg+"/r.go"] = "package " + pkg + "\n\ntype Reader struct{}\n\nfunc (r *Reader) Read(p []byte) int { return 0 }\n"
	}
	tree["a/use.go"] = `package a

import "example.com/m/b"

func Use(r *Reader, s *b.Reader) {
	r.Read(nil)
	s.Read(nil)
	x := &Reader{}
	x.Read(nil)
}
`
	// An external test package that imports its package with a dot.
	tree["a/new.go"] = "package a\n\nfunc New() *Reader { return nil }\n"
	tree["a/x_test.go"] = `package a_test

import . "example.com/m/a"

func TestX() {
	r := &Reader{}
	r.Read(nil)
	u := New()
	u.Read(nil)
}
`
	// A package variable declared alike in a file for each build tag.
	tree["b/std.go"] = "//go:build !tiny\n\npackage b\n\nvar Std = Reader{}\n"
	tree["b/std_tiny.go"] = "//go:build tiny\n\npackage b\n\nvar Std = Reader{}\n"
	tree["b/std_test.go"] = "package b\n\nfunc TestStd() {\n\tStd.Read(nil)\n}\n"
	p := wholeIndexed(t, testtool.WriteTree(t, tree))
	defer p.Close()
	checkCallSites(t, p, []sitesOf{
		{"a/r.go#Reader.Read", []string{"a/use.go:6 a/use.go#Use inferred_high", "a/use.go:9 a/use.go#Use inferred_high",
			"a/x_test.go:7 a/x_test.go#TestX inferred_high", "a/x_test.go:9 a/x_test.go#TestX inferred_high"}},
		{"b/r.go#Reader.Read", []string{"a/use.go:7 a/use.go#Use inferred_high", "b/std_test.go:4 b/std_test.go#TestStd inferred_high"}},
		{"c/r.go#Reader.Read", nil},
		{"New", []string{"a/x_test.go:8 a/x_test.go#TestX inferred_high"}},
	})
	if compared, _ := compareNamed(t, testtool.WriteTree(t, tree), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// goChainFixture reaches methods named Get through what a Go local holds:
// a field of a value an interface's method returns, declared in the
// standard library (req.Header.Get of an *http.Request), which is none
// of the project's; and a value asserted to the project's type
// (x.(*context)), which is that type's.
var goChainFixture = map[string]string{
	"go.mod": "module m\n",
	"e/context.go": `package e

import "net/http"

type Context interface {
	Request() *http.Request
	Get(key string) any
}

type context struct{ request *http.Request }

func (c *context) Request() *http.Request { return c.request }

func (c *context) Get(key string) any { return nil }

func (c *context) Scheme() string { return c.request.Header.Get("X-Scheme") }

type Echo struct{}

func (e *Echo) NewContext() Context { return &context{} }
`,
	"e/use.go": `package e

func Handle(c Context) {
	req := c.Request()
	_ = req.Header.Get("a")
	_ = c.Get("b")
}

func Direct(e *Echo) {
	c := e.NewContext().(*context)
	_ = c.Get("c")
	if d, ok := e.NewContext().(*context); ok {
		_ = d.Get("d")
	}
}

var Handler = func(c Context) error {
	_ = c.Get("h")
	return nil
}
`,
}

// TestGoChainTypes: a method selected from a local's field, the local
// typed by a call, is typed by the field's declaration, and one of a
// type declared outside the project is none of the project's; a local
// asserted to a type is of that type. The uses of context.Get and of the
// interface method Context.Get it implements are one set (shared.go),
// each record naming the one its call went through.
func TestGoChainTypes(t *testing.T) {
	needSyntax(t)
	dir := testtool.WriteTree(t, goChainFixture)
	p := wholeIndexed(t, dir)
	defer p.Close()
	direct := []string{"e/use.go:11 e/use.go#Direct inferred_high", "e/use.go:13 e/use.go#Direct inferred_high"}
	through := []string{"e/use.go:6 e/use.go#Handle inferred_high", "e/use.go:18 e/use.go#Handler inferred_high"}
	checkCallSites(t, p, []sitesOf{
		{"context.Get", append(append([]string(nil), direct...), through...)},
		{"Context.Get", append(append([]string(nil), through...), direct...)},
	})
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "context.Get", Kinds: []evidence.Kind{evidence.Call}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Records {
		want := "e/context.go#context.Get"
		if r.Symbol != "e/use.go#Direct" {
			want = "e/context.go#Context.Get"
		}
		if r.Metadata.Attributes[OtherDefinitionAttribute] != "true" && r.TargetSymbol != want {
			t.Errorf("%s:%d uses %s, want %s", r.Path, r.StartLine, r.TargetSymbol, want)
		}
	}
	if compared, _ := compareNamed(t, testtool.WriteTree(t, goChainFixture), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// TestSharedWithExact: where a SCIP index relates a method to the
// interface method it implements (an exact implements edge at the
// method's name), that relation is no use of either when the walk starts
// from both because they share their uses.
func TestSharedWithExact(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	writeAged(t, dir, goChainFixture)
	exact := recordSource{{Kind: evidence.Implementation, Path: "e/context.go", StartLine: 14, StartColumn: 19,
		EndLine: 14, EndColumn: 22, TargetSymbol: "scip-go gomod m v1 `m/e`/Context#Get."}}
	p := New(Options{Dir: dir, IndexOptions: index.Options{Seal: testKey(t, 1)}, Exact: exact})
	defer p.Close()
	g, err := p.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if g.Stats().Exact == 0 {
		t.Fatal("the implements record was not fused")
	}
	for _, sym := range []string{"context.Get", "Context.Get"} {
		resp, err := p.Gather(context.Background(), evidence.Query{Symbol: sym, Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.Records {
			if r.Path == "e/context.go" && r.StartLine == 14 {
				t.Errorf("%s: the implementation is listed as a use: %+v", sym, r)
			}
		}
		if len(resp.Records) < 4 {
			t.Errorf("%s: %d records, want the 4 calls of both", sym, len(resp.Records))
		}
	}
}

// TestOverrideIsNoUse: where a SCIP index relates a method to the one it
// implements or overrides (scip-typescript, scip-python), the method's
// declaration names itself, not the other: it is no use of it. A class's
// relation to the interface it implements names the interface, and is.
func TestOverrideIsNoUse(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	writeAged(t, dir, map[string]string{"src/a.ts": `export interface Unsub {
  unsubscribe(): void
}
export class Sub implements Unsub {
  unsubscribe() {}
}
export function stop(u: Unsub) {
  u.unsubscribe()
}
`})
	const iface = "scip-typescript npm m 1 src/`a.ts`/Unsub#"
	exact := recordSource{
		{Kind: evidence.Implementation, Path: "src/a.ts", StartLine: 4, StartColumn: 29, EndLine: 4, EndColumn: 34, TargetSymbol: iface},
		{Kind: evidence.Implementation, Path: "src/a.ts", StartLine: 5, StartColumn: 3, EndLine: 5, EndColumn: 14, TargetSymbol: iface + "unsubscribe()."},
		{Kind: evidence.Reference, Path: "src/a.ts", StartLine: 8, StartColumn: 5, EndLine: 8, EndColumn: 16, TargetSymbol: iface + "unsubscribe()."},
	}
	p := New(Options{Dir: dir, IndexOptions: index.Options{Seal: testKey(t, 1)}, Exact: exact})
	defer p.Close()
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"Unsub.unsubscribe", []string{"src/a.ts:8"}},
		{"Unsub", []string{"src/a.ts:4", "src/a.ts:7"}},
	} {
		resp, err := p.Gather(context.Background(), evidence.Query{Symbol: c.symbol, Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Records {
			got = append(got, fmt.Sprintf("%s:%d", r.Path, r.StartLine))
		}
		slices.Sort(got)
		got = slices.Compact(got)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("uses of %s (-want +got):\n%s", c.symbol, diff)
		}
	}
}

// TestKnownInterfaceCalls: a call through an interface of the standard
// library reaches the methods of that name of the types of the caller's
// package that implement it, as gopls counts them: not those of a type
// that lacks the interface's other methods, nor from another package.
func TestKnownInterfaceCalls(t *testing.T) {
	needSyntax(t)
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"w/writer.go": `package w

import "net/http"

type counting struct {
	http.ResponseWriter
	n int
}

func (c *counting) WriteHeader(code int) { c.n++; c.ResponseWriter.WriteHeader(code) }

type plain struct{}

func (plain) WriteHeader(code int) {}

func Handle(rw http.ResponseWriter) {
	rw.WriteHeader(200)
}

type second struct{ http.ResponseWriter }

func (second) WriteHeader(code int) {}
`,
		"other/other.go": `package other

import "net/http"

func Use(rw http.ResponseWriter) { rw.WriteHeader(500) }
`,
	})
	p := wholeIndexed(t, dir)
	defer p.Close()
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"counting.WriteHeader", []string{"w/writer.go:10", "w/writer.go:17"}},
		{"second.WriteHeader", []string{"w/writer.go:10", "w/writer.go:17"}},
		{"plain.WriteHeader", nil},
	} {
		resp, err := p.Gather(context.Background(), evidence.Query{Symbol: c.symbol, Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Records {
			site := fmt.Sprintf("%s:%d", r.Path, r.StartLine)
			if r.Metadata.Attributes[OtherDefinitionAttribute] != "" {
				// A call that may run either type's method is no use
				// resolved to the other.
				site += " elsewhere"
			}
			got = append(got, site)
		}
		slices.Sort(got)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("uses of %s (-want +got):\n%s", c.symbol, diff)
		}
	}
}

// goRangeFixture ranges over slices of an interface: a field a struct
// declares, one it promotes from a struct it embeds, a parameter and a
// package variable; and over what a method and a function return.
// methodMatcher implements the interface, and *Route too.
var goRangeFixture = map[string]string{
	"go.mod": "module m\n",
	"r/route.go": `package r

type matcher interface {
	Match(s string) bool
}

type methodMatcher []string

func (m methodMatcher) Match(s string) bool { return len(m) > 0 }

type routeConf struct {
	matchers []matcher
}

type Route struct {
	routeConf
	name string
}

type Router struct {
	routes map[string]*Route
}

func (r *Route) Match(s string) bool {
	for _, m := range r.matchers {
		if m.Match(s) {
			return true
		}
	}
	return false
}

var defaults []matcher

func all(ms []matcher, rt *Router, s string) {
	for _, m := range ms {
		m.Match(s)
	}
	for _, d := range defaults {
		d.Match(s)
	}
	for _, route := range rt.routes {
		route.Match(s)
	}
}

func (r *Router) list() []*Route { return nil }

func allMatchers() map[string]matcher { return nil }

func called(rt *Router, s string) {
	for _, route := range rt.list() {
		route.Match(s)
	}
	for _, m := range allMatchers() {
		m.Match(s)
	}
}
`,
}

// TestGoRangeTypes: a loop's variable over a slice or map is an element
// of it, of the type the slice's declaration writes: a field's (promoted
// from an embedded struct too), a parameter's, a package variable's, a
// function's or method's result's.
func TestGoRangeTypes(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, goRangeFixture))
	defer p.Close()
	// The calls through the interface, which *Route implements too, and
	// the call of Route.Match: the uses the interface method and the
	// methods implementing it share (see shared.go).
	through := []string{"r/route.go:26 r/route.go#Route.Match inferred_high", "r/route.go:37 r/route.go#all inferred_high",
		"r/route.go:40 r/route.go#all inferred_high", "r/route.go:56 r/route.go#called inferred_high"}
	all := []string{through[0], through[1], through[2], "r/route.go:43 r/route.go#all inferred_high",
		"r/route.go:53 r/route.go#called inferred_high", through[3]}
	checkCallSites(t, p, []sitesOf{
		{"matcher.Match", all},
		{"methodMatcher.Match", through},
		{"Route.Match", all},
	})
	if compared, _ := compareNamed(t, testtool.WriteTree(t, goRangeFixture), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}
