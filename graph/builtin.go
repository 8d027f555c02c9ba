package graph

import "strings"

// A call x.m() on a receiver whose type the syntax does not show is a
// method of x's type, whichever it is. In Python, JavaScript and
// TypeScript the language's built-in types (dict, list, set, str and
// files; Array, Map, Set, String, Promise and Object) define methods
// under some of the commonest names (update, get, append, write, push,
// has, then): such a call is at least as likely one of theirs as the
// project's only method of that name, so a name alone does not link it.
// A receiver that names the type (self, this, a parameter or variable
// named after the type) still does.

// builtinMethods are, by language, the method names of its built-in
// types (from the Python and ECMAScript standard library references).
var builtinMethods = map[string]map[string]bool{
	"python": words(`clear copy fromkeys get items keys pop popitem setdefault update values
		append extend insert remove index count sort reverse
		add discard union intersection difference symmetric_difference issubset issuperset isdisjoint
		join split rsplit strip lstrip rstrip format replace startswith endswith encode decode lower upper
		find rfind splitlines partition rpartition
		read write close readline readlines writelines flush seek tell fileno`),
	"javascript": jsBuiltinMethods,
	"typescript": jsBuiltinMethods,
	"tsx":        jsBuiltinMethods,
}

var jsBuiltinMethods = words(`push pop shift unshift slice splice map filter forEach reduce indexOf
	lastIndexOf includes find findIndex join concat sort reverse some every fill flat flatMap
	get set has delete clear add keys values entries
	split replace trim toLowerCase toUpperCase startsWith endsWith charAt charCodeAt substring padStart padEnd match
	then catch finally hasOwnProperty toString valueOf call apply bind`)

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// namesReceiver reports whether one of the members c is of a container
// that qual names: by its name, or spelled in another case or with
// underscores (see findMembers).
func (b *builder) namesReceiver(c []int32, qual string) bool {
	loose := looseName(qual)
	for _, s := range c {
		t := lastName(normContainer(b.g.Nodes[s].Container))
		if t == qual || loose != "" && looseName(t) == loose {
			return true
		}
	}
	return false
}
