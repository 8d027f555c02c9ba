package route

import (
	"sort"
	"strings"
	"unicode"
)

// ecosystems are the prefixes a Declared entry may carry ("npm:react").
var ecosystems = set("npm", "pypi", "cargo", "go", "maven", "nuget")

// A declaredIndex finds the declared dependencies a word may name.
type declaredIndex struct {
	byAlias map[string][]string // normalised alias → entries as declared
	count   int                 // non-empty entries
}

// normDep folds the spellings of one package name together: case, and the
// separators "-", "_" and "." that Python and .NET treat alike.
func normDep(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '.' {
			return '-'
		}
		return r
	}, strings.ToLower(s))
}

// depName returns an entry's name without its ecosystem prefix.
func depName(entry string) string {
	entry = strings.TrimSpace(entry)
	if k := strings.IndexByte(entry, ':'); k > 0 && ecosystems[strings.ToLower(entry[:k])] {
		return strings.TrimSpace(entry[k+1:])
	}
	return entry
}

// aliases returns the words that name a dependency in a question: its full
// name, the last one and two elements of a path-shaped name (so
// github.com/spf13/cobra is also spf13/cobra and cobra, and @scope/pkg is
// pkg), with a Go major version suffix (/v2) dropped, and a Maven artifact
// without its group. Each entry has a bounded number of aliases, so
// indexing is linear in the size of Declared.
// Aliases shorter than two characters, and aliases that are common English
// function words ("is", "the"), are dropped: they would match every question.
func aliases(entry string) []string {
	name := depName(entry)
	if name == "" {
		return nil
	}
	cands := []string{name}
	if k := strings.LastIndexByte(name, ':'); k >= 0 {
		cands = append(cands, name[k+1:]) // maven group:artifact
	}
	path := name
	if k := strings.LastIndexByte(path, '/'); k > 0 && isMajorSuffix(path[k+1:]) {
		path = path[:k]
		cands = append(cands, path)
	}
	// The last one and two path elements: cobra and spf13/cobra.
	if k := strings.LastIndexByte(path, '/'); k >= 0 && k+1 < len(path) {
		cands = append(cands, path[k+1:])
		if j := strings.LastIndexByte(path[:k], '/'); j >= 0 {
			cands = append(cands, path[j+1:])
		}
	}
	var out []string
	for _, c := range cands {
		n := normDep(c)
		if len(n) < 2 || vague[n] || determiners[n] {
			continue
		}
		out = append(out, n)
	}
	return out
}

// isMajorSuffix reports whether s is a Go major version path element: v2, v3…
func isMajorSuffix(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func newDeclaredIndex(list []string) declaredIndex {
	d := declaredIndex{byAlias: map[string][]string{}}
	type pair struct{ alias, entry string }
	seen := map[pair]bool{}
	for _, e := range list {
		e = strings.TrimSpace(e)
		if depName(e) == "" || strings.IndexFunc(e, unicode.IsSpace) >= 0 || strings.IndexFunc(e, breaksLine) >= 0 {
			continue // no package name holds spaces or control characters
		}
		d.count++
		for _, a := range aliases(e) {
			if !seen[pair{a, e}] {
				seen[pair{a, e}] = true
				d.byAlias[a] = append(d.byAlias[a], e)
			}
		}
	}
	for a := range d.byAlias {
		sort.Strings(d.byAlias[a])
	}
	return d
}

// alias returns the alias a word is, if it names any declared entry.
func (d declaredIndex) alias(word string) (string, bool) {
	if len(d.byAlias) == 0 || word == "" {
		return "", false
	}
	a := normDep(libraryWord(word))
	_, ok := d.byAlias[a]
	return a, ok
}

// names reports whether a word names a declared entry.
func (d declaredIndex) names(word string) bool {
	_, ok := d.alias(word)
	return ok
}

// libraryWord drops a version written after @ (react@18 → react), keeping
// a leading @ of a scoped npm name.
func libraryWord(w string) string {
	if k := strings.LastIndexByte(w, '@'); k > 0 {
		return w[:k]
	}
	return w
}

// libraryLike reports whether a word could be a package name: letters,
// digits and the separators package names use.
func libraryLike(w string) bool {
	if w == "" || vague[w] || determiners[w] {
		return false
	}
	letter := false
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			letter = true
		case r >= '0' && r <= '9', strings.ContainsRune("@/._-", r):
		default:
			return false
		}
	}
	return letter
}
