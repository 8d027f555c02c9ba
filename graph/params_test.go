package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// paramFixture calls methods of one name on two classes, through
// parameters whose heads declare their types, in Java, TypeScript and
// annotated Python, and through a parameter that declares none.
var paramFixture = map[string]string{
	"j/Dom.java": `package j;
class Dom {
    void start() {}
}
class Range {
    void start() {}
}
class Use {
    void go(final Dom dom, Range range, Object any) {
        dom.start();
        range.start();
    }
}
`,
	"t/m.ts": `export class Box {
  open(): void {}
}
export class Door {
  open(): void {}
}
export function go(b: Box, d?: Door | undefined, m: Map<string, Door>) {
  b.open();
  d.open();
}
`,
	"p/ctx.py": `class Context:
    def invoke(self):
        pass


class Command:
    def invoke(self, ctx: "Context"):
        pass


def run(ctx: t.Optional[Context], cmd: Command, other):
    ctx.invoke()
    cmd.invoke(ctx)
    other.invoke()

    def inner():
        ctx.invoke()

    def shadow(ctx):
        ctx.invoke()
`,
}

// TestParamTypes checks that a method called through a parameter whose
// type the head declares is a member of that type (inferred_high), and
// that the graph of the files that concern a name answers alike.
func TestParamTypes(t *testing.T) {
	needSyntax(t)
	dir := testtool.WriteTree(t, paramFixture)
	p := wholeIndexed(t, dir)
	defer p.Close()
	tests := []struct {
		symbol string
		want   []string
	}{
		{"Dom.start", []string{"j/Dom.java:10 inferred_high"}},
		{"Range.start", []string{"j/Dom.java:11 inferred_high"}},
		{"Box.open", []string{"t/m.ts:8 inferred_high"}},
		{"Door.open", []string{"t/m.ts:9 inferred_high"}},
		// other.invoke() may be either's.
		// A nested function sees the outer parameter, unless its own
		// parameter of that name, with no type, shadows it.
		{"Context.invoke", []string{"p/ctx.py:12 inferred_high", "p/ctx.py:14 inferred", "p/ctx.py:17 inferred_high", "p/ctx.py:20 inferred"}},
		{"Command.invoke", []string{"p/ctx.py:13 inferred_high", "p/ctx.py:14 inferred", "p/ctx.py:20 inferred"}},
	}
	for _, tt := range tests {
		got := asked(t, p, tt.symbol, []evidence.Kind{evidence.Call}, false, atTier)
		if diff := cmp.Diff(tt.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", tt.symbol, diff)
		}
	}
	if compared, _ := compareNamed(t, testtool.WriteTree(t, paramFixture), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

func TestParamType(t *testing.T) {
	tests := []struct{ lang, sig, name, want string }{
		{"java", "public W3CDom namespaceAware(boolean namespaceAware)", "namespaceAware", "boolean"},
		{"java", "void go(final Dom dom, Map<String, Dom> m, @Nullable Range r)", "r", "Range"},
		{"java", "void go(final Dom dom, Map<String, Dom> m, @Nullable Range r)", "m", "Map"},
		{"java", "void go(String... args)", "args", ""},
		{"typescript", "function f(a: Box, b?: Door | null): void", "b", "Door"},
		{"typescript", "constructor(private readonly sender: Sender, cb: (e: Error) => void)", "sender", "Sender"},
		{"typescript", "constructor(private readonly sender: Sender, cb: (e: Error) => void)", "cb", ""},
		{"python", "def f(self, ctx: click.Context, n: int = 1, *args, **kw)", "ctx", "Context"},
		{"python", "def f(ctx: t.Optional[\"Context\"] = None)", "ctx", "Context"},
		{"python", "def f(ctx, other)", "ctx", ""},
		{"python", "def f(n=1, ctx: Context = None)", "ctx", "Context"},
		{"python", "def f(*args, **kw: Context)", "kw", ""},
		{"typescript", "function f(...rest: Box[])", "rest", ""},
		{"typescript", "function execFinalizer(finalizer: Unsubscribable | (() => void))", "finalizer", "Unsubscribable"},
		{"typescript", "function f(r: Unsubscribable | void, s: Box | Door)", "r", "Unsubscribable"},
		{"typescript", "function f(r: Unsubscribable | void, s: Box | Door)", "s", ""},
		{"python", "def f(x: t.List[Context])", "x", "List"},
	}
	for _, tt := range tests {
		if got, _ := paramType(tt.lang, tt.sig, tt.name); got != tt.want {
			t.Errorf("paramType(%s, %q, %q) = %q, want %q", tt.lang, tt.sig, tt.name, got, tt.want)
		}
	}
}

// TestElsewhere: asked about one type's member, the graph adds the uses
// of the name it typed to another type's member, marked, and never those
// it found by the name alone.
func TestElsewhere(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, paramFixture))
	defer p.Close()
	for symbol, want := range map[string][]string{
		"Box.open":       {"t/m.ts:9 t/m.ts#Door.open"},
		"Door.open":      {"t/m.ts:8 t/m.ts#Box.open"},
		"Context.invoke": {"p/ctx.py:13 p/ctx.py#Command.invoke"},
		"Command.invoke": {"p/ctx.py:12 p/ctx.py#Context.invoke", "p/ctx.py:17 p/ctx.py#Context.invoke"},
		"invoke":         nil, // every definition of the name is asked about
	} {
		got := asked(t, p, symbol, []evidence.Kind{evidence.Call}, true, atTarget)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("uses of %s's name resolved elsewhere (-want +got):\n%s", symbol, diff)
		}
	}

	// A bare name asks about every definition so called, the tests' too,
	// though the lookup prefers code's.
	p = wholeIndexed(t, testtool.WriteTree(t, map[string]string{
		"src/main/A.java":     "class A {\n  void setup() {}\n}\n",
		"src/test/ATest.java": "class ATest {\n  void setup() {}\n  void t() {\n    setup();\n  }\n}\n",
	}))
	defer p.Close()
	if got := asked(t, p, "setup", []evidence.Kind{evidence.Call}, true, atTarget); len(got) > 0 {
		t.Errorf("asked about setup, uses of another definition of it: %q", got)
	}
}

// TestRubyBareNames: a bare name in a class reaches its own methods, its
// bases' and its modules', never another class's; in a module, the
// methods of the classes that may include it.
func TestRubyBareNames(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, map[string]string{"lib/base.rb": `module Helpers
  def headers(h = nil)
  end
  def error
    halt
  end
end
class Response
  def finish
    headers.delete('x')
  end
end
class Base
  include Helpers
  def halt
  end
  def invoke
    headers(1)
  end
end
`}))
	defer p.Close()
	for symbol, want := range map[string][]string{
		"Helpers.headers": {"lib/base.rb:18 lib/base.rb#Base.invoke"},
		"Base.halt":       {"lib/base.rb:5 lib/base.rb#Helpers.error"},
	} {
		got := asked(t, p, symbol, []evidence.Kind{evidence.Call, evidence.Reference}, false, atCaller)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", symbol, diff)
		}
	}
}

// TestLocalTypes: a method called through a local whose declaration shows
// its type (const self = this, new T(), T x, x = T(), x = f() of a
// function declaring its result) is that type's, its bases' when it has
// none.
func TestLocalTypes(t *testing.T) {
	needSyntax(t)
	tree := map[string]string{
		"t/s.ts": `export class Subject {
  next(v: number) {}
}
export class Anonymous extends Subject {
  next(v: number) {}
}
export class Socket extends Anonymous {
  multiplex() {
    const self = this;
    self.next(1);
  }
}
export function run() {
  const s = new Subject();
  s.next(2);
}
`,
		"j/A.java": "class A {\n  void go() {}\n}\nclass B {\n  void go() {}\n  void m() {\n    A a = make();\n    a.go();\n  }\n}\n",
		// A test's callbacks are no definitions: their locals are typed too.
		"t/s.test.ts": `import { Subject, Anonymous } from './s'
describe('s', () => {
  it('nexts', () => {
    const s = new Anonymous()
    s.next(3)
  })
})
`,
		"p/m.py": "class C:\n    def go(self):\n        pass\n\n\nclass D:\n    def go(self):\n        pass\n\n\ndef run():\n    c = C()\n    c.go()\n",
		// A local assigned a call of a function: the result its head
		// declares, in another file too.
		"p/make.py":     "from .m import D\n\n\ndef make() -> \"D\":\n    return D()\n\n\ndef use():\n    d = make()\n    d.go()\n",
		"t/make.ts":     "import { Subject } from './s'\nexport function createSubject(): Subject {\n  return new Subject()\n}\n",
		"t/use.test.ts": "import { createSubject } from './make'\nit('x', () => {\n  const s = createSubject()\n  s.next(1)\n})\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, tree))
	defer p.Close()
	for symbol, want := range map[string][]string{
		"Anonymous.next": {"t/s.test.ts:5 inferred_high", "t/s.ts:10 inferred_high"},
		"Subject.next":   {"t/s.ts:15 inferred_high", "t/use.test.ts:4 inferred_high"},
		"A.go":           {"j/A.java:8 inferred_high"},
		"B.go":           nil,
		"C.go":           {"p/m.py:13 inferred_high"},
		"D.go":           {"p/make.py:10 inferred_high"},
	} {
		got := asked(t, p, symbol, []evidence.Kind{evidence.Call}, false, atTier)
		if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", symbol, diff)
		}
	}
	if compared, _ := compareNamed(t, testtool.WriteTree(t, tree), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// TestSelfFieldTypes: a method called on a field of the object (this.f.m(),
// self.f.m()) is a member of the type the class declares the field with.
func TestSelfFieldTypes(t *testing.T) {
	needSyntax(t)
	tree := map[string]string{
		"t/c.ts": `export class QueryCache {
  clear() {}
}
export class MutationCache {
  clear() {}
}
export class Client {
  #queryCache: QueryCache
  mutations = new MutationCache()
  clear() {
    this.#queryCache.clear()
    this.mutations.clear()
  }
}
`,
		"j/A.java": "class Cache {\n  void clear() {}\n}\nclass Other {\n  void clear() {}\n}\nclass A {\n  private final Cache cache = make();\n  void m() {\n    this.cache.clear();\n  }\n}\n",
		// Python makes a field by assigning it in a method: a constructed
		// class, an annotation, a typed parameter; x = self.f is typed too,
		// and a subclass's self.f that its base assigns.
		"p/sym.py": "class Symbols:\n    def copy(self):\n        pass\n\n\nclass Scope:\n    def copy(self):\n        pass\n",
		"p/frame.py": `from .sym import Symbols, Scope


class Frame:
    def __init__(self, parent: "Scope", other):
        self.symbols = Symbols()
        self.scope = parent
        self.other = other

    def copy(self):
        self.symbols.copy()
        kept = self.scope
        kept.copy()
        self.other.copy()


class Child(Frame):
    def run(self):
        self.symbols.copy()
`,
	}
	p := wholeIndexed(t, testtool.WriteTree(t, tree))
	defer p.Close()
	for symbol, want := range map[string][]string{
		"QueryCache.clear":    {"t/c.ts:11 inferred_high"},
		"MutationCache.clear": {"t/c.ts:12 inferred_high"},
		"Cache.clear":         {"j/A.java:10 inferred_high"},
		"Other.clear":         nil,
		"Symbols.copy":        {"p/frame.py:11 inferred_high", "p/frame.py:19 inferred_high"},
		"Scope.copy":          {"p/frame.py:13 inferred_high"},
		"Frame.copy":          nil, // self.other: of no type shown, so no one's
	} {
		got := asked(t, p, symbol, []evidence.Kind{evidence.Call}, false, atTier)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", symbol, diff)
		}
	}
	if compared, _ := compareNamed(t, testtool.WriteTree(t, tree), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// TestPythonClassBody: a bare name in a Python class's body is the class's
// own; in a function, a bare call of a name only a class defines is none.
func TestPythonClassBody(t *testing.T) {
	needSyntax(t)
	p := wholeIndexed(t, testtool.WriteTree(t, map[string]string{"p/c.py": `class Cycler:
    def next(self):
        return 1

    __next__ = next


def first(it):
    return next(it)
`}))
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "next", Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range resp.Records {
		got = append(got, fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.Trust))
	}
	if want := []string{"p/c.py:5 inferred_high"}; !cmp.Equal(got, want) {
		t.Errorf("uses of next: %q, want %q", got, want)
	}
}

// asked returns p's records of kinds for the uses of symbol: those the
// graph resolved to it, or with elsewhere those it resolved to another
// definition of its name (OtherDefinitionAttribute), each as line says it.
func asked(t *testing.T, p *Provider, symbol string, kinds []evidence.Kind, elsewhere bool, line func(*evidence.Record) string) []string {
	t.Helper()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: symbol, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range resp.Records {
		if r := &resp.Records[i]; (r.Metadata.Attributes[OtherDefinitionAttribute] == "true") == elsewhere {
			got = append(got, line(r))
		}
	}
	return got
}

// atTier, atCaller and atTarget write a record as its site and its tier,
// the definition holding it, or the definition it names.
func atTier(r *evidence.Record) string { return fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.Trust) }
func atCaller(r *evidence.Record) string {
	return fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.Symbol)
}
func atTarget(r *evidence.Record) string {
	return fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.TargetSymbol)
}

// TestResultType reads the result type a function's head declares, by
// its last name.
func TestResultType(t *testing.T) {
	for sig, want := range map[string]string{
		"export function createClient(config?: Config): QueryClient": "QueryClient",
		"export const mk = (a: number): Box<T> =>":                   "Box",
		"export async function later(): Promise<Thing>":              "Promise",
		"function f(cb: () => void): Client | undefined":             "Client",
		"function f(a)":                       "",
		`def make(a: int) -> "Thing":`:        "Thing",
		"def other(a, b) -> Optional[Thing]:": "Thing",
		"def plain(a):":                       "",
		"def pair() -> Tuple[A, B]:":          "Tuple",
	} {
		if got := typeName(resultDecl(sig)); got != want {
			t.Errorf("typeName(resultDecl(%q)) = %q, want %q", sig, got, want)
		}
	}
}

// TestElementTypes: a method called on a loop's variable over a collection
// (for x in self.items, a comprehension, for (const x of xs), Java's for
// (T x : xs)) is a member of the type of the collection's elements.
func TestElementTypes(t *testing.T) {
	needSyntax(t)
	tree := map[string]string{
		"p/nodes.py": `import typing as t


class Pair:
    def const(self):
        pass


class Keyword:
    def const(self):
        pass


class Dict:
    items: t.List["Pair"]

    def const(self):
        return dict(x.const() for x in self.items)


def walk(nodes: t.Iterable[Keyword]):
    for node in nodes:
        node.const()
`,
		"t/box.ts": `export class Item {
  go() {}
}
export class Other {
  go() {}
}
export class Box {
  private items: Item[] = []
  run(xs: ReadonlyArray<Other>) {
    for (const x of this.items) {
      x.go()
    }
    for (const y of xs) {
      y.go()
    }
  }
}
`,
	}
	p := wholeIndexed(t, testtool.WriteTree(t, tree))
	defer p.Close()
	for symbol, want := range map[string][]string{
		"Pair.const":    {"p/nodes.py:18 inferred_high"},
		"Keyword.const": {"p/nodes.py:23 inferred_high"},
		"Dict.const":    nil,
		"Item.go":       {"t/box.ts:11 inferred_high"},
		"Other.go":      {"t/box.ts:14 inferred_high"},
	} {
		got := asked(t, p, symbol, []evidence.Kind{evidence.Call}, false, atTier)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", symbol, diff)
		}
	}
	if compared, _ := compareNamed(t, testtool.WriteTree(t, tree), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// TestElementType reads the type of a collection's elements.
func TestElementType(t *testing.T) {
	for raw, want := range map[string]string{
		`t.List["Pair"]`:             "Pair",
		"List[Pair]":                 "Pair",
		"Optional[Sequence[a.Node]]": "Node",
		"t.Iterable[nodes.Node]":     "Node",
		"set[Item]":                  "Item",
		"Item[]":                     "Item",
		"readonly Item[]":            "Item",
		"Array<Item>":                "Item",
		"ReadonlyArray<Item>":        "Item",
		"Dict[str, Item]":            "",
		"Map<string, Item>":          "",
		"Tuple[Item, Other]":         "",
		"Item":                       "",
		"Promise<Item>":              "",
		"":                           "",
	} {
		if got := elementType(raw); got != want {
			t.Errorf("elementType(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestModuleVarTypes: a method called on a variable of the module, or on
// one an import binds (from .globals import request, import { client }
// from './client'), is a member of the type its declaration shows; a
// local of the same name hides it.
func TestModuleVarTypes(t *testing.T) {
	needSyntax(t)
	tree := map[string]string{
		"p/wrappers.py": "class Request:\n    def blueprints(self):\n        pass\n\n\nclass Response:\n    def blueprints(self):\n        pass\n",
		"p/globals.py":  "from .wrappers import Request\n\nrequest: \"Request\" = LocalProxy(_cv)\nresponse = Response()\n",
		"p/app.py": `from .globals import request, response


def handle():
    request.blueprints()
    response.blueprints()


def other(request):
    request.blueprints()
`,
		"t/client.ts": "export class Client {\n  clear() {}\n}\nexport class Cache {\n  clear() {}\n}\nexport const client = new Client()\nexport const cache: Cache = make()\n",
		"t/use.ts":    "import { client, cache } from './client'\nexport function run() {\n  client.clear()\n  cache.clear()\n}\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, tree))
	defer p.Close()
	for symbol, want := range map[string][]string{
		"Request.blueprints":  {"p/app.py:5 inferred_high"},
		"Response.blueprints": {"p/app.py:6 inferred_high"},
		"Client.clear":        {"t/use.ts:3 inferred_high"},
		"Cache.clear":         {"t/use.ts:4 inferred_high"},
	} {
		got := asked(t, p, symbol, []evidence.Kind{evidence.Call}, false, atTier)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", symbol, diff)
		}
	}
	if compared, _ := compareNamed(t, testtool.WriteTree(t, tree), func(string) bool { return true }); compared == 0 {
		t.Error("no name compared")
	}
}

// TestVarDecl reads a module variable's head as a Ref's Type.
func TestVarDecl(t *testing.T) {
	for _, tt := range []struct{ sig, name, want string }{
		{`request: "Request" = LocalProxy(_cv)`, "request", `"Request"`},
		{"app = Flask(__name__)", "app", "Flask()"},
		{"export const client = new QueryClient()", "client", "QueryClient"},
		{"export const other: Cache<T> = make()", "other", "Cache<T>"},
		{"let x = 1", "x", ""},
		{"const y = a.b()", "y", ""},
		{"requests = 1", "request", ""},
	} {
		if got := varDecl(tt.sig, tt.name); got != tt.want {
			t.Errorf("varDecl(%q, %q) = %q, want %q", tt.sig, tt.name, got, tt.want)
		}
	}
}
