package symbols

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/syntax"
)

// TestInheritRefs checks the bases read in each language with
// inheritance: the last name of each base (its qualifier kept), never a
// type argument, a part of the qualifier, a keyword argument or a call;
// Rust's impl Trait for Type with the type as Of.
func TestInheritRefs(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	tests := []struct {
		path, src string
		want      []string // "qualifier.Name of=Of", sorted
	}{
		{"store.ts", `import * as core from "./core";
export class ObservableValue<T> extends Atom<Listener> implements IObservable, core.IListenable<Change> {}
export interface IAtom extends IObservable, core.IDepTreeNode<Node> { reportChanged(): void }
class Legacy extends core.StubArray {}
`, []string{".Atom", ".IObservable", ".IObservable", "core.IDepTreeNode", "core.IListenable", "core.StubArray"}},
		{"error.js", `class CommanderError extends Error {}
class OptionError extends errors.CommanderError {}
class Mixed extends mixin(Base) {}
`, []string{".Error", "errors.CommanderError"}},
		{"exceptions.py", `import pkg
class Timeout(RequestException, pkg.IOBase, Generic[Value], metaclass=Meta):
    pass
class ConnectTimeout(pkg.sub.Timeout, *extra):
    pass
`, []string{".Generic", ".RequestException", ".Timeout", "pkg.IOBase"}},
		{"error.rb", `module Thor
  class Error < StandardError
    include Comparable
    include Shell::Basic
    extend Forwardable
    prepend Hooks
    def run
      include NotAMixin
    end
  end
  class Nested < ::Thor::Base::Error; end
  class Row < Struct.new(:a); end
end
include TopLevel
`, []string{".Comparable", ".Forwardable", ".Hooks", ".StandardError", "Base.Error", "Shell.Basic"}},
		{"interval.rs", `pub trait Bound: Copy {}
impl Interval for ClassUnicodeRange { fn f() {} }
impl Bound for u8 {}
impl std::error::Error for ParseError {}
impl<T: Bound> Visitor<T> for Vec<T> {}
impl crate::hir::Interval for &'a Range {}
impl Plain { fn g() {} }
`, []string{".Bound of=u8", ".Interval of=ClassUnicodeRange", ".Visitor of=Vec", "error.Error of=ParseError", "hir.Interval of=Range"}},
		{"Token.java", `package org.jsoup.parser;
abstract class Token<T> extends Base<Node> implements Cloneable, org.jsoup.Sink<Item> {
    static final class Doctype extends Token {}
}
interface Reader extends Closeable, Iterable<Line> {}
`, []string{".Base", ".Cloneable", ".Closeable", ".Iterable", ".Token", "jsoup.Sink"}},
		{"Shapes.cs", `namespace Shapes {
    public class Square : Shape, IComparable<Shape> {}
    public interface IShape : IArea {}
}
`, []string{".IArea", ".IComparable", ".Shape"}},
		{"Shapes.kt", `package shapes

class Cube : Square(), Comparable<Shape> {
    override fun compareTo(other: Shape) = 0
}

interface Solid : Shape
`, []string{".Comparable", ".Shape", ".Square"}},
		{"Shapes.php", `<?php
class Cube extends Square implements \App\Countable, Shape {}
interface Solid extends Shape {}
`, []string{".Countable", ".Shape", ".Shape", ".Square"}},
		{"wrap.go", `package middleware

import "net/http"

type flushWriter struct {
	basicWriter
	*http.Request
	name string
	Values[string]
}

type WrapResponseWriter interface {
	http.ResponseWriter
	Status() int
}

type Number interface {
	~int | ~float64
}
`, []string{".Values", ".basicWriter", "http.Request", "http.ResponseWriter"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f, err := Extract(tt.path, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range f.Refs {
				if r.Kind != Inherit {
					continue
				}
				s := r.Qualifier + "." + r.Name
				if r.Of != "" {
					s += " of=" + r.Of
				}
				got = append(got, s)
			}
			sort.Strings(got)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("inherit refs (-want +got):\n%s", d)
			}
		})
	}
}
