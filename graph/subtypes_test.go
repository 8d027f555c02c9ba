package graph

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// gathered asks p q and checks that every record it answers is valid and
// of the one kind q asks for.
func gathered(t *testing.T, p *Provider, q evidence.Query) evidence.Response {
	t.Helper()
	resp, err := p.Gather(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Records {
		if err := r.Validate(); err != nil {
			t.Errorf("invalid record %+v: %v", r, err)
		}
		if r.Kind != q.Kinds[0] {
			t.Errorf("record of kind %s, want %s", r.Kind, q.Kinds[0])
		}
	}
	return resp
}

// implementations asks a provider over files for the implementations of
// name and returns each record as "Symbol path:line" (with " d2" for a
// depth above 1), sorted.
func implementations(t *testing.T, files map[string]string, name string) []string {
	t.Helper()
	p := New(Options{Dir: testtool.WriteTree(t, files), IndexOptions: index.Options{Budget: -1}})
	defer p.Close()
	resp := gathered(t, p, evidence.Query{Symbol: name, Kinds: []evidence.Kind{evidence.Implementation}})
	var out []string
	for _, r := range resp.Records {
		s := fmt.Sprintf("%s %s:%d", r.Symbol, r.Path, r.StartLine)
		if d := r.Metadata.Attributes["depth"]; d != "1" {
			s += " d" + d
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// TestSubtypesByLanguage checks, on small files of each language with
// inheritance, the subtypes answered at their definitions (a Rust impl at
// the impl), and what is not one: a type argument, another library's type
// of the same name, a Go type that lacks a method or takes another number
// of parameters.
func TestSubtypesByLanguage(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	tests := []struct {
		name  string
		files map[string]string
		of    string
		want  []string
	}{
		{"go method sets", map[string]string{
			"go.mod": "module example.com/flags\n",
			"value.go": `package flags

import "net/http"

// Value is what a flag holds.
type Value interface {
	String() string
	Set(string) error
	Type() string
}

// BoolFlag is a Value that needs no argument.
type BoolFlag interface {
	Value
	IsBoolFlag() bool
}

// Fancy writes responses and flushes them.
type Fancy interface {
	http.ResponseWriter
	Flush()
}
`,
			"bool.go": `package flags

type boolValue bool

func (b *boolValue) Set(s string) error { return nil }
func (b *boolValue) Type() string        { return "bool" }
func (b boolValue) String() string       { return "" }
func (b *boolValue) IsBoolFlag() bool    { return true }

// partial lacks Type.
type partial struct{}

func (partial) String() string       { return "" }
func (partial) Set(s string) error   { return nil }

// twoArgs sets with two arguments: another method.
type twoArgs struct{}

func (twoArgs) String() string            { return "" }
func (twoArgs) Set(k, v string) error     { return nil }
func (twoArgs) Type() string              { return "" }

// wrapped gets its methods from the embedded boolValue.
type wrapped struct {
	*boolValue
	name string
}

// twoResults types with two results: another method.
type twoResults struct{}

func (twoResults) String() string        { return "" }
func (twoResults) Set(s string) error    { return nil }
func (twoResults) Type() (string, error) { return "", nil }
`,
			"writer.go": `package flags

import "net/http"

type flusher struct {
	http.ResponseWriter
}

func (f flusher) Flush() {}

type plain struct{}

func (plain) Flush() {}
`,
		}, "Value", []string{"BoolFlag value.go:13", "boolValue bool.go:3", "wrapped bool.go:24"}},
		{"typescript", map[string]string{
			"src/observable.ts": `export interface IDepTreeNode { name_: string }
export interface IObservable extends IDepTreeNode { observers_: Set<unknown> }
`,
			"src/atom.ts": `import { IObservable } from "./observable"
export interface IAtom extends IObservable { reportChanged(): void }
export class Atom implements IAtom {
    name_ = ""
    observers_ = new Set()
    reportChanged() {}
}
export class Box<T> extends Array<IAtom> {}
`,
			"src/value.ts": `import { Atom } from "./atom"
export class ObservableValue<T> extends Atom {}
`,
			"src/view.tsx": `import { IDepTreeNode } from "react-dom"
export class View extends IDepTreeNode {}
`,
		}, "IDepTreeNode", []string{"Atom src/atom.ts:3 d3", "IObservable src/observable.ts:2", "ObservableValue src/value.ts:2 d4"}},
		{"javascript", map[string]string{
			"lib/error.js": `class CommanderError extends Error {
  constructor(exitCode, code, message) { super(message); }
}
class InvalidArgumentError extends CommanderError {
  constructor(message) { super(1, 'commander.invalidArgument', message); }
}
exports.CommanderError = CommanderError;
exports.InvalidArgumentError = InvalidArgumentError;
`,
			"lib/other.js": `const errors = require('./error');
class OptionError extends errors.CommanderError {}
class Mixed extends mixin(CommanderError) {}
`,
		}, "CommanderError", []string{"InvalidArgumentError lib/error.js:4", "OptionError lib/other.js:2"}},
		{"python", map[string]string{
			"pkg/exceptions.py": `class RequestException(IOError):
    pass


class HTTPError(RequestException):
    """An HTTP error occurred."""


class Timeout(
    RequestException,
    metaclass=Meta,
):
    pass


class ConnectTimeout(Timeout):
    pass
`,
			"pkg/more.py": `from pkg import exceptions
from .exceptions import RequestException as Base


class SSLError(exceptions.RequestException):
    pass


class Proxy(Base, Generic[RequestException]):
    pass
`,
			"pkg/__init__.py": "",
		}, "RequestException", []string{"ConnectTimeout pkg/exceptions.py:16 d2", "HTTPError pkg/exceptions.py:5", "Proxy pkg/more.py:9", "SSLError pkg/more.py:5", "Timeout pkg/exceptions.py:9"}},
		{"ruby", map[string]string{
			"lib/thor/error.rb": `class Thor
  class Error < StandardError
  end

  class UndefinedCommandError < Error
    class SpellChecker
    end
  end

  class InvocationError < Thor::Error
  end

  class Checker < DidYouMean::SpellChecker
  end
end
`,
			"lib/thor/shell.rb": `module Thor::Shell
  module Basic
  end
end

class Thor
  class Runner
    include Thor::Shell::Basic
    extend Basic
  end
end
`,
		}, "Error", []string{"Thor.InvocationError lib/thor/error.rb:10", "Thor.UndefinedCommandError lib/thor/error.rb:5"}},
		{"ruby mixins", map[string]string{
			"lib/shell.rb": `module Shell
  module Basic
  end
end

class Runner
  include Shell::Basic
  def run
    include NotAMixin
  end
end

class Helper
  extend Shell::Basic
end
`,
		}, "Basic", []string{"Helper lib/shell.rb:13", "Runner lib/shell.rb:6"}},
		{"rust", map[string]string{
			"src/interval.rs": `pub trait Bound: Copy + Ord {
    fn min_value() -> Self;
}

impl Bound for u8 {
    fn min_value() -> Self { 0 }
}

impl Bound for char {
    fn min_value() -> Self { '\x00' }
}

impl<T: Bound> std::fmt::Debug for Wrapper<T> {}

impl crate::interval::Bound for ClassRange {
    fn min_value() -> Self { ClassRange { start: 'a' } }
}
`,
			"src/error.rs": `pub struct Error;
impl std::error::Error for Error {}
`,
			// The type declared in a file of its own: its impl is cited.
			"src/range.rs": "pub struct ClassRange { start: char }\n",
		}, "Bound", []string{"ClassRange src/interval.rs:15", "char src/interval.rs:9", "u8 src/interval.rs:5"}},
		{"java", map[string]string{
			"src/main/java/org/example/Token.java": `package org.example;

abstract class Token {
    static final class Doctype extends Token {
    }

    static abstract class Tag extends Token {
    }

    static final class StartTag extends Tag {
    }
}
`,
			"src/main/java/org/example/Builder.java": `package org.example;

import java.util.List;

public class Builder extends java.util.ArrayList<Token> implements Comparable<Token>, org.example.Sink {
}
`,
			"src/main/java/org/example/Sink.java": `package org.example;

public interface Sink {
    void accept(Token t);
}
`,
		}, "Token", []string{"Token.Doctype src/main/java/org/example/Token.java:4", "Token.StartTag src/main/java/org/example/Token.java:10 d2", "Token.Tag src/main/java/org/example/Token.java:7"}},
		{"java interface", map[string]string{
			"src/main/java/org/example/Sink.java": `package org.example;

public interface Sink {
    void accept(Token t);
}
`,
			"src/main/java/org/example/Builder.java": `package org.example;

public class Builder
        extends Base
        implements Comparable<Builder>, org.example.Sink {
}
`,
		}, "Sink", []string{"Builder src/main/java/org/example/Builder.java:3"}},
		{"csharp", map[string]string{
			"Shapes.cs": `namespace Shapes {
    public interface IShape { double Area(); }
    public class Square : IShape, IComparable<IShape> { public double Area() => 1; }
    public class Cube : Square {}
}
`,
		}, "IShape", []string{"Cube Shapes.cs:4 d2", "Square Shapes.cs:3"}},
		{"kotlin", map[string]string{
			"Shapes.kt": `package shapes

interface Shape {
    fun area(): Double
}

open class Square : Shape {
    override fun area() = 1.0
}

class Cube : Square(), Comparable<Shape> {
    override fun compareTo(other: Shape) = 0
}
`,
		}, "Square", []string{"Cube Shapes.kt:11"}},
		{"php", map[string]string{
			"src/Shapes.php": `<?php
namespace App;

interface Shape { public function area(); }
class Square implements Shape { public function area() { return 1; } }
class Cube extends Square implements \Countable {}
`,
		}, "Shape", []string{"Cube src/Shapes.php:6 d2", "Square src/Shapes.php:5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := implementations(t, tt.files, tt.of)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("implementations of %s (-want +got):\n%s", tt.of, d)
			}
		})
	}
}

// A Go interface that embeds another module's interface is implemented by
// the types that embed it too, and by those with its known methods; a type
// that nothing extends answers with what it implements.
func TestSubtypesGoEmbedded(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	files := map[string]string{
		"go.mod": "module example.com/w\n",
		"w.go": `package w

import (
	goflag "flag"
	"net/http"
)

type Fancy interface {
	http.ResponseWriter
	Flush()
}

type Unknown interface {
	somewhere.Else
	Flush()
}

type GoBool interface {
	goflag.Value
	IsBoolFlag() bool
}

type flusher struct{ http.ResponseWriter }

func (flusher) Flush() {}

type direct struct{}

func (direct) Header() http.Header      { return nil }
func (direct) Write(p []byte) (int, error) { return 0, nil }
func (direct) WriteHeader(code int)      {}
func (direct) Flush()                    {}

type plain struct{}

func (plain) Flush() {}

type boolValue bool

func (b *boolValue) String() string    { return "" }
func (b *boolValue) Set(s string) error { return nil }
func (b *boolValue) IsBoolFlag() bool  { return true }
`,
	}
	for _, c := range []struct {
		of   string
		want []string
	}{
		{"Fancy", []string{"direct w.go:27", "flusher w.go:23"}},
		{"Unknown", nil}, // what somewhere.Else asks is unknown: nothing is claimed
		{"GoBool", []string{"boolValue w.go:38"}},
		{"plain", nil}, // plain has Flush only: it implements none, and nothing extends it
	} {
		got := implementations(t, files, c.of)
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("implementations of %s (-want +got):\n%s", c.of, d)
		}
	}
	// What boolValue implements, since nothing extends it.
	got := implementations(t, files, "boolValue")
	if !slices.Contains(got, "GoBool w.go:18") {
		t.Errorf("boolValue implements %v, want GoBool", got)
	}
}

// goArity reads the parameter and result counts of Go signatures as the
// symbols package writes them.
func TestGoArity(t *testing.T) {
	for _, c := range []struct {
		sig, name string
		want      arity
	}{
		{"func (b *boolValue) Set(s string) error", "Set", ar(1, 1)},
		{"Set(string) error", "Set", ar(1, 1)},
		{"func (g *Gen[K]) Map[V any](a, b int, f func(x, y int) string) (n int, err error)", "Map", ar(3, 2)},
		{"func (r *Reader) Read(p []byte) (int, error)", "Read", ar(1, 2)},
		{"func (w *flushWriter) Flush()", "Flush", ar(0, 0)},
		{"Flush() error", "Flush", ar(0, 1)},
		{"func Get(m map[string]int,) interface{}", "Get", ar(1, 1)},
		{"func (c *Cmd) Run(args ...string) (out struct{ a, b int })", "Run", ar(1, 1)},
		{"func (c *Cmd) Run(args ...string, more", "Run", anyArity},
		{"var Run = other", "Run", anyArity},
	} {
		if got := goArity(c.sig, c.name); got != c.want {
			t.Errorf("goArity(%q) = %d<<8|%d, want %d<<8|%d", c.sig, got>>8, got&0xff, c.want>>8, c.want&0xff)
		}
	}
}

// goResults reads result types without their package qualifiers, and none
// when they are named or hold a function type.
func TestGoResults(t *testing.T) {
	for _, c := range []struct{ sig, name, want string }{
		{"func (s *sink) GetUnderlying() slog.Handler", "GetUnderlying", "Handler"},
		{"GetUnderlying() *testing.T", "GetUnderlying", "*T"},
		{"GetUnderlying() func(prefix, args string)", "GetUnderlying", ""},
		{"func (r *Reader) Read(p []byte) (int, error)", "Read", "int,error"},
		{"func (r *Reader) Read(p []byte) (n int, err error)", "Read", ""},
		{"Header() map[string][]http.Header", "Header", "map[string][]Header"},
		{"Flush()", "Flush", ""},
	} {
		if got := goResults(c.sig, c.name); got != c.want {
			t.Errorf("goResults(%q) = %q, want %q", c.sig, got, c.want)
		}
	}
}

// A base imported from a module that re-exports it (an index file) is
// resolved through that module's imports, at the tier of an import.
func TestSubtypesThroughReexport(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	files := map[string]string{
		"src/core/observable.ts":  "export interface IObservable { observers_: Set<unknown> }\n",
		"src/internal.ts":         "export * from \"./core/observable\"\nexport * from \"./core/atom\"\n",
		"src/core/atom.ts":        "import { IObservable } from \"../internal\"\nexport class Atom implements IObservable { observers_ = new Set() }\n",
		"src/other/observable.ts": "export interface IObservable { other: number }\n",
	}
	p := New(Options{Dir: testtool.WriteTree(t, files), IndexOptions: index.Options{Budget: -1}})
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "src/core/observable.ts#IObservable", Kinds: []evidence.Kind{evidence.Implementation}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 || resp.Records[0].Symbol != "Atom" || resp.Records[0].Trust != trust.InferredHigh {
		t.Errorf("implementations of IObservable: %+v, want Atom at inferred_high", resp.Records)
	}
}
