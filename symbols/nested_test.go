//go:build cgo

package symbols

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNestedDefinitions: the definitions that sit inside a function's
// body or a type's annotation are read, each with the container that
// leads to it, and none exported. The shapes are those of real code: a
// serde visitor declared in a deserialize function (Rust), an iterator
// returned as an anonymous class and an enum constant's body (Java), a
// class assigned under a condition and defs in blocks (Ruby), an
// annotation's members spelled as a type literal and a registry typed
// inline (TypeScript).
func TestNestedDefinitions(t *testing.T) {
	for _, c := range nestedCases {
		t.Run(c.path, func(t *testing.T) {
			f, err := Extract(c.path, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if f.Errors {
				t.Fatal("the fixture has syntax errors")
			}
			if err := f.Validate(len(c.src)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range f.Symbols {
				got = append(got, fmt.Sprintf("%s %s :: %s %v", strings.ToLower(string(s.Kind)), s.Container, s.Name, s.Exported))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("symbols (-want +got):\n%s", diff)
			}
		})
	}
}

var nestedCases = []struct {
	path, src string
	want      []string // kind container :: name exported
}{
	{"serde.rs", `
impl<'de> Deserialize<'de> for Version {
    fn deserialize<D>(d: D) -> Result<Self, D::Error> {
        struct VersionVisitor;
        impl<'de> Visitor<'de> for VersionVisitor {
            fn visit_str<E>(self, s: &str) -> Result<Version, E> {
                let f = || { fn deep() {} };
                s.parse()
            }
        }
        d.deserialize_str(VersionVisitor)
    }
}
pub fn total() -> u64 {
    if true { pub fn helper() {} }
    0
}
`, []string{
		"method Version :: deserialize true",
		"struct Version.deserialize :: VersionVisitor false",
		"method Version.deserialize.VersionVisitor :: visit_str false",
		"function Version.deserialize.VersionVisitor.visit_str :: deep false",
		"function  :: total true",
		"function total :: helper false",
	}},
	{"Attributes.java", `
package p;
public class Attributes {
    public Iterator<Attribute> iterator() {
        return new Iterator<Attribute>() {
            public boolean hasNext() { return true; }
            public void remove() { class Local { void inner() {} } }
        };
    }
    private final Runnable task = new Runnable() { public void run() {} };
    public enum State {
        Data { void read() {} };
        abstract void read();
    }
}
`, []string{
		"class  :: Attributes true",
		"method Attributes :: iterator true",
		"method Attributes.iterator :: hasNext false",
		"method Attributes.iterator :: remove false",
		"class Attributes.iterator.remove :: Local false",
		"method Attributes.iterator.remove.Local :: inner false",
		"field Attributes :: task false",
		"method Attributes.task :: run false",
		"enum Attributes :: State true",
		"constant Attributes.State :: Data true",
		"method Attributes.State :: read false",
		"method Attributes.State :: read false",
	}},
	{"error.rb", `
class Thor
  Correctable = if defined?(DidYouMean::SpellChecker)
                  class NoKwargSpellChecker < DidYouMean::SpellChecker
                    def initialize(dictionary)
                      @dictionary = dictionary
                    end
                  end
                end
  included do
    def helper; end
  end
end
describe "x" do
  def build; end
end
`, []string{
		"class  :: Thor true",
		"constant Thor :: Correctable true",
		"class Thor :: NoKwargSpellChecker true",
		"method Thor.NoKwargSpellChecker :: initialize true",
		"method Thor :: helper true",
		"function  :: build false",
	}},
	{"annotation.ts", `
export type Annotation = {
    annotationType_: string
    make_(adm: Adm, key: PropertyKey): MakeResult
    decorate_20223_(value: any, context: DecoratorContext)
} & Extra

const plugins: {
    Patches?: { applyPatches_<T>(draft: T, patches: Patch[]): T }
} = {}

export interface Shape { area(): number; nested: { depth(): number } }
`, []string{
		"type  :: Annotation true",
		"field Annotation :: annotationType_ true",
		"method Annotation :: make_ true",
		"method Annotation :: decorate_20223_ true",
		"constant  :: plugins false",
		"field plugins :: Patches false",
		"method plugins.Patches :: applyPatches_ false",
		"interface  :: Shape true",
		"method Shape :: area true",
		"field Shape :: nested true",
		"method Shape.nested :: depth true",
	}},
}
