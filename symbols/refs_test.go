package symbols

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/syntax"
)

// TestRefs checks the uses read from small files of the languages the
// graph resolves best: calls with their qualifiers, bases, and what is
// left out (imports, parameters, a definition's own name, self).
func TestRefs(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	tests := []struct {
		path, src string
		want      []string // "kind qualifier.name" ("kind ~.name" when Selected), in any order
		not       []string
	}{
		{"a.go", `package a

import "fmt"

type S struct {
	Base
	*other.Embed
	name string
}

func (s *S) Run(n int) {
	fmt.Println(helper(n))
	s.stop()
	var t Thing
	_ = t
}
`, []string{"inherit .Base", "inherit other.Embed", "call fmt.Println", "call .helper", "call s.stop", "use .Thing"},
			[]string{"use .fmt", "use .n", "use .S", "use .Run"}},
		{"a.py", `import os

class Child(Base):
    def run(self, x):
        helper(x)
        self.go()
        return os.getcwd()
`, []string{"inherit .Base", "call .helper", "call self.go", "call os.getcwd"}, []string{"use .x", "use .self", "use .Child", "call .go"}},
		{"a.ts", `import { Base } from "./base.js";
export class Child extends Base implements Runner {
  run(x: Opts): void { helper(x); this.go(); new Thing(); }
}
`, []string{"inherit .Base", "inherit .Runner", "use .Opts", "call .helper", "call this.go", "call .Thing"}, []string{"use .Child", "call .go"}},
		{"b.py", `def run(callback, n=DEFAULT):
    result = helper(n)
    callback(result)
    for item in items():
        item.go()
    return result
`, []string{"use .DEFAULT", "call .helper", "call .items", "call item.go"}, []string{"call .callback", "use .result", "use .item", "use .n"}},
		{"b.go", `package a

func F(cb func()) {
	err := do()
	for i, v := range list() { use(v, i) }
	var t Thing
	cb(); err.Error(); t.Run()
}
`, []string{"call .do", "call .list", "use .Thing", "call err.Error", "call t.Run"}, []string{"call .cb", "use .err", "use .v", "use .t"}},
		{"b.ts", `function f(cb: Handler) {
  const current = peek(cb);
  return current?.value ?? current;
}
`, []string{"use .Handler", "call .peek"}, []string{"use .current", "use .cb", "call .cb"}},
		{"c.js", `class CloseEvent {}
function enable() {
  function proxyMap_() {}
  loadPlugin("MapSet", { proxyMap_, other: proxySet_ });
  const { picked } = options;
}
module.exports = { CloseEvent };
`, []string{"use .proxyMap_", "use .proxySet_", "use .CloseEvent", "call .loadPlugin", "use .options"},
			[]string{"use .other", "use .picked"}},
		{"A.java", `class A extends Bee implements Sea {
  void m() { obj.call(); D.make(); super.init(); Node firstChild = firstChild(); new W3C().aware(); }
}
`, []string{"inherit .Bee", "inherit .Sea", "call obj.call", "call D.make", "call super.init", "call .firstChild", "call W3C.aware"}, nil},
		{"c.py", `class C(B):
    def __init__(self):
        super().__init__()
        fold(key=value)
`, []string{"call super.__init__", "call .fold", "use .value", "use ~.key"}, []string{"use .key"}},
		{"e.ts", `class C {
  #cache: Cache;
  #notify() {}
  clear() { this.#cache.clear(); this.#notify(); }
}
`, []string{"use this.#cache", "call ~this.clear", "call this.#notify"}, nil},
		// Names a pattern binds whole are locals, not uses.
		{"d.rb", `class Base
  def forward
    status, headers, body = app.call(env)
    headers.merge!(extra)
  end
end
`, []string{"use .app", "use .env", "use .extra"}, []string{"use .status", "use .headers", "use .body", "call .headers"}},
		{"d.py", `def run():
    a, b = pair()
    (c, d) = pair()
    for k, v in items():
        use(a, b, c, d, k, v)
`, []string{"call .pair", "call .items", "call .use"}, []string{"use .a", "use .b", "use .c", "use .d", "use .k", "use .v"}},
		{"d.ts", `function f() {
  const [head, tail] = split(rest);
  return head + tail;
}
`, []string{"call .split", "use .rest"}, []string{"use .head", "use .tail"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f, err := Extract(tt.path, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Validate(len(tt.src)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range f.Refs {
				sel := ""
				if r.Selected {
					sel = "~" // a member of something the syntax does not type
				}
				got = append(got, fmt.Sprintf("%s %s%s.%s", r.Kind, sel, r.Qualifier, r.Name))
			}
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q in %q", w, got)
				}
			}
			for _, w := range tt.not {
				if slices.Contains(got, w) {
					t.Errorf("unexpected %q in %q", w, got)
				}
			}
		})
	}
}

// TestRefsPerSite checks that every use is its own ref, at its own line,
// even within one definition.
func TestRefsPerSite(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	src := `package a

func (s *S) Run() {
	s.stop()
	if s.ok {
		s.stop()
	}
	Run()
}
`
	f, err := Extract("a.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Refs {
		if r.Name == "stop" || r.Name == "Run" {
			got = append(got, fmt.Sprintf("%d %s %s.%s", r.Line, r.Kind, r.Qualifier, r.Name))
		}
	}
	want := []string{"4 call s.stop", "6 call s.stop", "8 call .Run"}
	if !slices.Equal(got, want) {
		t.Errorf("refs = %q, want %q", got, want)
	}
}

// TestRefsLocalType checks what a use qualified by a local variable says
// of its type in TypeScript, JavaScript, Python and Java (Ref.Type).
func TestRefsLocalType(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	for path, tt := range map[string]struct {
		src  string
		want []string
	}{
		"a.ts": {`class A extends B {
  run(p: Box) {
    const self = this;
    const s: Subscriber<T> = make();
    const d = new Door(1);
    let q = other();
    self.next(1);
    s.next(2);
    d.open();
    q.go();
    for (const x of xs) { x.go(); }
    const d = new Window();
    d.open();
  }
}
`, []string{`self.next "this"`, `s.next "Subscriber<T>"`, `d.open "Door"`, `q.go "other()"`, `x.go ""`, `d.open ""`}},
		"b.test.ts": {`describe('x', () => {
  let client: Client
  it('one', () => {
    const o = new QueryObserver(client)
    o.subscribe()
    client.clear()
  })
  it('two', async () => {
    const o = new MutationObserver(client)
    o.subscribe()
    items.forEach((o: Box) => o.open())
  })
})
`, []string{`o.subscribe "QueryObserver"`, `client.clear "Client"`, `o.subscribe "MutationObserver"`,
			`items.forEach ""`, `o.open "Box"`}},
		"a.js": {`function f() {
  var self = this;
  const w = new ws.WebSocket(url);
  self.emit("x");
  w.send(1);
}
`, []string{`ws.WebSocket ""`, `self.emit "this"`, `w.send "ws.WebSocket"`}},
		"a.py": {`def run(ctx: Context):
    a = Foo(1)
    b: Bar = make()
    for c in items():
        c.go()
    a.go()
    b.go()
    ctx.go()
    a = 3
    a.go()
`, []string{`c.go "elem items()"`, `a.go "Foo()"`, `b.go "Bar"`, `ctx.go "Context"`, `a.go ""`}},
		// A field is made by assigning it: the assignment shows its type.
		"b.py": {`class Frame:
    def __init__(self, parent: "Frame", n=1):
        self.symbols = Symbols(n)
        self.parent = parent
        self.third: Scope = make()
        self.n = n
        self.symbols.load(n)

    def copy(self):
        kept = self.symbols
        kept.copy()
`, []string{`self.symbols "Symbols()"`, `self.parent "\"Frame\""`, `self.third "Scope"`, `self.load ""`,
			`kept.copy "self.symbols"`}},
		// A loop's variable: an element of what the collection's type shows.
		"c.py": {`def visit(self, nodes: t.Iterable["Node"]):
    for node in nodes:
        node.visit()
    for item in self.items:
        item.go()
    for k in make_all():
        k.go()
    return [x.const() for x in self.items]
`, []string{`node.visit "elem t.Iterable[\"Node\"]"`, `item.go "elem self.items"`, `k.go "elem make_all()"`,
			`x.const "elem self.items"`}},
		"c.ts": {`class Box {
  run(xs: Item[]) {
    for (const x of xs) { x.go() }
    for (const y of this.items) { y.go() }
    for (const k in xs) { k.go() }
  }
}
`, []string{`x.go "elem Item[]"`, `y.go "elem this.items"`, `k.go ""`}},
		// A function nested in another (a definition of its own) sees the
		// outer function's locals.
		"d.ts": {`export function audit(source: Source) {
  let inner: Subscriber<any> | null = null
  const end = () => {
    inner?.unsubscribe()
  }
}
`, []string{`inner.unsubscribe "Subscriber<any> | null"`}},
		"e.ts": {`export function using(factory: () => Unsubscribable | void, make: (n: number) => Box<T>, other: Other) {
  const resource = factory()
  const box = make(1)
  const o = other()
  resource.unsubscribe()
  box.open()
  o.go()
}
`, []string{`resource.unsubscribe "Unsubscribable | void"`, `box.open "Box<T>"`, `o.go "other()"`}},
		"d.py": {`def outer():
    box = Box()

    def inner():
        box.open()
`, []string{`box.open "Box()"`}},
		"Y.java": {"class Y {\n  void m(List<Item> xs) {\n    for (Item x : xs) {\n      x.go();\n    }\n  }\n}\n",
			[]string{`x.go "Item"`}},
		"X.java": {`class X {
  void m(Dom d) {
    Foo f = make();
    var g = new Bar();
    f.go();
    g.go();
    d.go();
  }
}
`, []string{`f.go "Foo"`, `g.go "Bar"`, `d.go ""`}},
	} {
		f, err := Extract(path, []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range f.Refs {
			if r.Qualifier != "" && (r.Kind == Call || r.Type != "") {
				got = append(got, fmt.Sprintf("%s.%s %q", r.Qualifier, r.Name, r.Type))
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: qualified calls and their types:\n got %q\nwant %q", path, got, tt.want)
		}
	}
}

// TestRefsGoLocalType checks what a Go use qualified by a local variable
// carries of the variable's type: what its declaration shows, nothing
// for a parameter, a declaration that shows none, or a name declared
// twice with different types.
func TestRefsGoLocalType(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	src := `package a

import (
	"github.com/gorilla/mux"
	"github.com/sirupsen/logrus"
	"example.com/pkg"
)

func Run(p *Param) {
	a := NewRouter()
	b := mux.NewRouter()
	c := &Route{}
	d := pkg.Matcher{}
	e, err := New()
	var f Entry
	var g = logrus.New()
	h := new(Logger)
	i, j := T1{}, F2()
	k := a.NewRoute()
	l := make([]int, 1)
	m := List[int]{}
	a.Host()
	b.Host()
	c.Host()
	d.Match()
	e.Info()
	err.Error()
	f.Info()
	g.WithFields()
	h.Info()
	i.One()
	j.Two()
	k.Host()
	l.Len()
	m.Len()
	p.Run()
	n := T1{}
	n.One()
	n := T2{}
	n.Two()
	o := Std
	q := o
	o.Info()
	q.Info()
	r := logrus.StandardLogger
	r.Info()
	s := mux.Default.Route()
	s.Host()
	u := make(Set, 4)
	u.Add()
}

func Other() {
	a.Host()
}
`
	got := qualifiedCalls(t, "a.go", src)
	want := []string{
		"mux.NewRouter ", "logrus.New ", "a.NewRoute NewRouter()",
		"a.Host NewRouter()", "b.Host mux.NewRouter()", "c.Host *Route", "d.Match pkg.Matcher", "e.Info New()",
		"err.Error ", "f.Info Entry", "g.WithFields logrus.New()", "h.Info *Logger", "i.One T1", "j.Two F2()",
		"k.Host (NewRouter()).NewRoute()", "l.Len ", "m.Len List", "p.Run ", "n.One T1", "n.Two ",
		"o.Info var Std", "q.Info var Std", "r.Info var logrus.StandardLogger", "mux.Route var mux.Default",
		"s.Host (var mux.Default).Route()", "u.Add Set", "a.Host var a",
	}
	if !slices.Equal(got, want) {
		t.Errorf("qualified calls and their types:\n got %q\nwant %q", got, want)
	}

	// A member selected from a call or a literal: what the chain shows,
	// a parameter's type as its declaration writes it.
	chains := `package a

func Chain(p *Param) {
	new(Route).Schemes("https").Host("a")
	NewRouter().Host("b")
	logrus.WithFields(f).Info("c")
	(&Route{}).Path("d")
	r := NewRouter()
	r.NewRoute().Host("e")
	p.Route().Host("f")
	p.f.Host("g")
}
`
	f, err := Extract("b.go", []byte(chains))
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, r := range f.Refs {
		if r.Selected && r.Kind == Call {
			got = append(got, fmt.Sprintf("%s %s", r.Name, r.Type))
		}
	}
	want = []string{"Schemes *Route", "Host (*Route).Schemes()", "Host NewRouter()", "Info logrus.WithFields()",
		"Path *Route", "Host (NewRouter()).NewRoute()", "Host (*Param).Route()", "Host "}
	if !slices.Equal(got, want) {
		t.Errorf("selected calls and their types:\n got %q\nwant %q", got, want)
	}

	// A func literal's parameters and locals are seen only inside it;
	// inside, one declared again with another type says nothing, as in a
	// definition.
	closures := `package a

func Serve() {
	r := NewRouter()
	r.Get("/", func(w http.ResponseWriter, r *http.Request) {
		r.Context()
		w := Wrap(w)
		w.Flush()
		r.Route("/in", func(r Router) {
			r.Get()
		})
		r.Cookie()
	})
	r.Delete("/")
	w.Flush()
	go func() {
		r := &Route{}
		r.Host()
		r := T{}
		r.Host()
	}()
	r.Put("/")
}
`
	got = qualifiedCalls(t, "c.go", closures)
	want = []string{"r.Get NewRouter()", "r.Context *http.Request", "w.Flush ", "r.Route *http.Request", "r.Get Router",
		"r.Cookie *http.Request", "r.Delete NewRouter()", "w.Flush var w", "r.Host *Route", "r.Host ", "r.Put NewRouter()"}
	if !slices.Equal(got, want) {
		t.Errorf("calls through the locals of func literals:\n got %q\nwant %q", got, want)
	}

	// A loop's variable over a slice or map: its element, of the type a
	// declaration writes, or of a field, a package variable or a call's
	// result the graph reads; a key shows nothing. It is seen in its
	// loop alone: another loop's of the same name is another variable.
	ranges := `package a

func (r *Router) Walk(ms []Matcher, byName map[string]*Route) {
	for _, m := range ms {
		m.Match()
	}
	for _, rt := range byName {
		rt.Host()
	}
	for _, m := range byName {
		m.Host()
	}
	m.Match()
	for _, sub := range r.routes {
		sub.Host()
	}
	for _, d := range defaults {
		d.Match()
	}
	for k := range byName {
		k.Len()
	}
	for _, c := range r.All() {
		c.Host()
	}
}
`
	got = qualifiedCalls(t, "d.go", ranges)
	want = []string{"m.Match Matcher", "rt.Host *Route", "m.Host *Route", "m.Match var m", "sub.Host elem (*Router).routes", "d.Match elem var defaults",
		"k.Len ", "r.All ", "c.Host elem (*Router).All()"}
	if !slices.Equal(got, want) {
		t.Errorf("calls through the variables of loops:\n got %q\nwant %q", got, want)
	}
}

// TestRefsPythonForwardReferences: a Python annotation written as a
// string (a forward reference, often to a name imported only while type
// checking) uses the names it writes, as the same annotation written as
// code would, at their places in the string; a string elsewhere, an
// argument of a call within an annotation, or a value Literal or
// Annotated takes uses nothing.
func TestRefsPythonForwardReferences(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	src := `import typing as t

def f(env: "Environment", c: t.Optional["BytecodeCache"] = None) -> "nodes.Template.Sub":
    x: "Foo | None" = make("NotAType")
    y: t.Annotated[int, Field("Described")] = 1
    z: t.Literal["read", "Write"] = "read"
    w: Annotated["Meta", "Doc"] = 0
`
	f, err := Extract("a.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Refs {
		if r.Kind == Use {
			got = append(got, fmt.Sprintf("%d:%d %s.%s %v", r.Line, r.Column, r.Qualifier, r.Name, r.Selected))
		}
	}
	want := []string{"3:13 .Environment false", "3:32 t.Optional false", "3:42 .BytecodeCache false",
		"3:70 .nodes false", "3:76 nodes.Template false", "3:85 nodes.Sub true", "4:9 .Foo false",
		"5:10 t.Annotated false", "5:20 .int false", "6:10 t.Literal false", "7:8 .Annotated false"}
	if !slices.Equal(got, want) {
		t.Errorf("uses:\n got %q\nwant %q", got, want)
	}
}

// qualifiedCalls extracts the file at path from src and returns its
// qualified calls, each with the Type its ref carries ("q.Name Type").
func qualifiedCalls(t *testing.T, path, src string) []string {
	t.Helper()
	f, err := Extract(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Refs {
		if r.Qualifier != "" && r.Kind == Call {
			got = append(got, fmt.Sprintf("%s.%s %s", r.Qualifier, r.Name, r.Type))
		}
	}
	return got
}

// TestRefsImportQualifier: a name an import binds to a module or package,
// selected from, is no use; one bound to a member of a module (a class,
// a function) is a use of it there too.
func TestRefsImportQualifier(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	for path, tt := range map[string]struct {
		src  string
		want []string
	}{
		"a.ts": {"import { Notification } from './Notification'\nimport * as fs from 'fs'\nimport Box from './Box'\n" +
			"export function f() {\n  Notification.createNext(1)\n  fs.readFile('x')\n  Box.of(2)\n}\n",
			[]string{"Notification", "Notification.createNext", "fs.readFile", "Box", "Box.of"}},
		"a.py": {"import os\nfrom .models import User\n\n\ndef f():\n    os.getcwd()\n    User.query()\n",
			[]string{"os.getcwd", "User", "User.query"}},
		"a.go": {"package a\n\nimport (\n\t\"fmt\"\n\tx \"example.com/y\"\n)\n\nfunc F() {\n\tfmt.Println(x.Val)\n}\n",
			[]string{"fmt.Println", "x.Val"}},
	} {
		f, err := Extract(path, []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range f.Refs {
			if !slices.ContainsFunc(f.Imports, func(im Import) bool { return im.Range.StartLine <= r.Line && r.Line <= im.Range.EndLine }) {
				got = append(got, strings.TrimPrefix(r.Qualifier+"."+r.Name, "."))
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: refs outside the imports\n got %q\nwant %q", path, got, tt.want)
		}
	}
}

// TestRefsObjectPatterns: a name an object pattern takes from a value
// whose type the code shows ({ getState }: Api, const { a } = api) is a
// use of that type's member, and so is each use of the local it binds; a
// parameter of a function written as an object literal's member m, which
// declares no type, has "arg m i" (the type m's declarations give it). A
// class's method and a pattern of an untyped value show nothing.
func TestRefsObjectPatterns(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	for path, tt := range map[string]struct {
		src  string
		want []string // "name ~type" for a selected use, "q.name type" for a qualified one
	}{
		"a.ts": {`export function typed({ getState }: Api, n) {
  getState()
}
start({
  onAdded(arg, { dispatch }) {
    dispatch(1)
  },
  effect: (action, api) => {
    api.go()
    const { run } = api
    run()
  },
})
class Box {
  open(p, { close }) {
    p.go()
    close()
  }
}
function plain({ stop }) {
  stop()
}
`, []string{`getState ~Api`, `getState ~Api`, `dispatch ~arg onAdded 1`, `dispatch ~arg onAdded 1`,
			`api.go arg effect 1`, `run ~arg effect 1`, `run ~arg effect 1`}},
		"b.js": {`app.use({
  handle(req, { send }) {
    send(req)
  },
})
`, []string{`send ~arg handle 1`, `send ~arg handle 1`}},
	} {
		f, err := Extract(path, []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range f.Refs {
			switch {
			case r.Selected && r.Type != "":
				got = append(got, fmt.Sprintf("%s ~%s", r.Name, r.Type))
			case r.Qualifier != "" && r.Type != "":
				got = append(got, fmt.Sprintf("%s.%s %s", r.Qualifier, r.Name, r.Type))
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: typed uses:\n got %q\nwant %q", path, got, tt.want)
		}
	}
}
