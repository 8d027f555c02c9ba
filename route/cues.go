package route

import (
	"strings"
	"sync"
)

// Cue phrases are written as lower-case words separated by spaces, where
// "a|b" accepts either word, "_" accepts one to three words of any kind
// (code included), and "X" is a slot: up to three determiners ("the",
// "this", "our"…) and then one word or code span, which the phrase captures.
// A phrase matches a run of consecutive words; contractions are expanded
// first (where's → where is) and possessives dropped (react's → react).

// intentCues lists, for each intent in priority order, the phrases that
// signal it. When phrases of several intents match, the intent listed first
// wins: a migration is never mistaken for a search of its old shape, a
// deprecation question that mentions a version is about the API, and a
// pattern beats the generic "find".
var intentCues = sync.OnceValue(func() *phraseSet {
	return compileIntents([]struct {
		intent  Intent
		phrases []string
	}{
		{IntentMigration, []string{
			"migrate", "migrating", "migration", "codemod",
			"port _ to", "rewrite _ to|into|as", "replace _ with|by", "upgrade|bump _ to",
			"rename _ to|into|as",
			"rewrite|replace|convert|refactor|change|update|move|switch all|every|each",
			"apply the|this|that rewrite|migration|preview|codemod|change|changes|patch",
		}},
		{IntentDependencyAPI, []string{
			"deprecated", "deprecation", "deprecations", "deprecate", "changelog",
			"release notes", "breaking change", "breaking changes", "docs for", "documentation for",
			"docs of", "documentation of", "api docs", "api reference", "still supported",
			"what is new in", "new in version",
		}},
		{IntentVersion, []string{
			"which|what version|versions", "version|versions of", "which|what _ version|versions",
			"installed version", "version installed", "version do|are|did we", "are we on",
			"pinned", "lockfile", "resolved version", "do we depend on",
			"which|what dependencies", "our dependencies",
		}},
		{IntentHistory, []string{
			"what changed", "what has|is|was|got changed", "who changed", "who last touched",
			"who touched", "last touched", "who modified", "last modified", "who wrote", "who added",
			"who introduced", "who removed", "who deleted", "recent changes", "recently changed",
			"changed recently", "latest changes", "last change", "last changes", "changes to",
			"changes in", "changes since", "changed since", "git blame", "blame", "git log",
			"git history", "commit history", "history of", "last commit", "latest commit",
			"which|what commit", "commits",
			"when was|were _ added|changed|introduced|removed|modified|deleted|written|renamed",
			"when did _ add|introduce|remove|delete|change|rename|break", "files changed",
		}},
		{IntentStructural, []string{
			"shape", "shapes", "pattern", "patterns", "of the form", "calls|call|code|usages|uses like",
			"that look|looks like", "looking like", "structurally", "syntactically", "structural",
			"syntax tree", "ast",
		}},
		{IntentImplementations, []string{
			"implements", "implement", "implementations", "implementation of", "implementers",
			"implementors", "implementer", "satisfies", "satisfy", "subclasses", "subclass of",
			"extends", "overrides", "override", "inherits", "inherit from", "concrete types",
			"extend", "extended by", "extending", "subclassed", "subclassing", "subtypes", "subtype of",
			"subtypes of", "derive from", "derives from", "derived from", "derived classes|types",
			"inheriting from", "inherited by", "implementing", "implemented by", "child classes",
			"overriding", "overridden", "overrides of",
			"that|which embed|embeds", "embedding", "embedded by",
		}},
		{IntentCallees, []string{
			"callees", "callee", "outgoing calls", "calls made by|from|in|inside|within X", "calls out of X",
			"does|do X call|invoke", "what|which functions|methods|helpers|code does|do X call|invoke|use",
			"which|what functions|methods are|get called|invoked by|from|in|inside|within X",
			"functions|methods called|invoked by|from|in|inside|within X",
			"what is|are called by|from|in|inside|within X",
			"what|which calls does|do X make",
		}},
		{IntentCallers, []string{
			"who|what calls", "which|what functions|methods call", "which|what function|method calls", "callers", "caller", "call sites",
			"call site", "callsites", "call graph", "called by", "called from", "calls to",
			"invocations", "who|what invokes", "where is|are _ called|invoked",
			"is|are _ called|invoked", "incoming calls", "called where", "invoked where",
			"which|what functions|methods|code invoke|invokes", "where do|does _ call|invoke",
			"where _ is|are called|invoked", "places|place that|which|where call|calls|invoke|invokes",
			"which|what code paths|paths reach", "what reaches",
			"where do|does _ get called|invoked", "gets|get called",
			"who|what|which is|are calling|invoking", "functions|methods|code|places calling|invoking",
		}},
		{IntentReferences, []string{
			"who|what uses", "uses of", "usages", "usage of", "usage", "references", "reference to",
			"referenced", "refs", "where is|are _ used|referenced", "is|are _ used|referenced",
			"used by", "used in", "used where", "referenced where", "where _ is|are used|referenced",
			"which|what files|modules|packages|classes|types|functions|methods|code|places use|uses|import|imports|reference|references",
			"places|place that|which|where use|uses|reference|references", "places use", "instantiated", "instantiates", "instantiate", "who|what imports", "importers", "imported by", "occurrences",
			"every|all place|places", "everywhere",
			"how _ is|are used|referenced", "how is|are _ used|referenced", "how to use", "how do|does|can|should _ use",
			"where do|does _ use|reference", "who|what constructs|creates|instantiates", "where is|are _ constructed|created",
			"examples|example of using", "example|examples of _ use|usage|uses", "usage examples|example",
			"where do|does _ appear|occur", "where _ appears|appear|occurs|occur",
			"where is|are _ raised|thrown", "where do|does we|you raise|throw", "who|what raises|throws",
		}},
		{IntentImpact, []string{
			"what breaks", "what would break", "would break", "will break", "breaks if", "impact",
			"impacts", "impacted", "blast radius", "affected", "affects", "what|who depends on",
			"depends on", "dependents", "safe to change|delete|remove|rename", "risk of", "risky",
		}},
		{IntentValidation, []string{
			"does it|this|that build|compile", "compile", "compiles", "compilation",
			"build pass|passes|fails|failing|broken", "is the build", "tests|test pass|fail|failing|passing|passed|failed",
			"failing tests|test", "run the tests|test", "run tests", "lint", "linter", "go vet",
			"type check", "typecheck", "type errors", "is ci", "ci green|failing|red",
		}},
		{IntentTests, []string{
			"tests|test of|for", "unit tests|test of|for", "which|what tests|test", "tested", "tests|test cover|covers|covering|exercise|exercises|exercising|call|calls",
			"test coverage", "covered by tests|test", "test cases|case for|of",
			"tests|test that|which call|calls|use|uses|cover|covers|exercise|exercises",
		}},
		{IntentMemory, []string{
			"did we decide", "we decided", "decision", "decisions", "decided", "why did we",
			"why do we", "convention", "conventions", "remember", "remind me", "team agreed",
			"agreed", "notes", "memory", "guideline", "guidelines",
		}},
		{IntentDefinition, []string{
			"defined", "define", "defines", "definition", "definitions", "declared", "declare",
			"declaration", "where is|are", "where do|does", "what is|are", "what does", "show me", "show",
			"which function|functions|method|methods|class|classes|type|struct|interface|file|module|package",
			"go to", "goto", "jump to", "find", "locate", "look up", "lookup", "source of",
			"signature", "type of", "explain", "describe", "how does|is",
			"return type", "return types", "what type does|do", "what does|do _ return|returns",
		}},
	})
})

// nameSlots are phrases whose slot names the symbol the question is about,
// even when the word is not shaped like code ("where is main defined").
var nameSlots = sync.OnceValue(func() *phraseSet { return compileSlots(slotPhrases) })

// slotPhrases are the phrases of nameSlots.
var slotPhrases = []string{
	"where is|are X", "where is|are X defined|declared", "definition|declaration|signature of X",
	"what is|are X", "what does X do", "show me X", "find|locate X", "look up X", "go|jump to X",
	"source|type of X", "who|what calls X", "callers of X", "calls to X", "who|what uses X",
	"usages|uses|usage of X", "references to|of X", "find references to X",
	"who|what imports X", "who|what implements X", "implementations|implementers|implementors of X",
	"who|what|which _ extend|extends|implement|implements|subclass|subclasses X",
	"who|what|which _ inherit|inherits|derive|derives from X", "subclasses|subtypes|children of X",
	"_ that|which extend|extends|implement|implements|subclass|subclasses X",
	"_ that|which inherit|inherits|derive|derives from X", "classes|types extending|implementing X",
	"tests|test of|for X", "which|what tests|test cover|covers|exercise|exercises|call|calls X",
	"where is|are X tested", "is|are X tested",
	"what|who depends on X", "impact of X", "changes to X", "who last touched X",
	"who changed|modified|wrote X", "history of X",
	"explain|describe X", "how does X work",
	"how is|are X used", "how to use X", "who|what|which _ override|overrides|embed|embeds X", "who|what override|overrides|embed|embeds X",
	"_ that|which override|overrides|embed|embeds X", "who|what constructs|creates|instantiates X",
	"tests|test that|which call|calls|use|uses|cover|covers|exercise|exercises X", "how do|does|can|should _ use X",
	"examples|example of using X", "usage examples|example of|for X",
	"callees|callee of X", "outgoing calls of|from|in X", "calls made by|from|in|inside|within X", "calls out of X",
	"functions|methods called|invoked by|from|in|inside|within X", "what is|are called by|from|in|inside|within X",
	"functions|methods are|get called|invoked by|from|in|inside|within X", "does|do X call|invoke",
	"which|what files|modules|packages|code import|imports|use|uses|reference|references X",
	"X implementations|implementers|implementors|subclasses|subtypes|callers|usages",
	"where do|does X appear|occur", "where X appears|appear|occurs|occur",
	"where is|are X raised|thrown", "who|what raises|throws X", "where do|does we|you raise|throw X",
	"what type does|do X return", "what does|do X return", "return type|types of X",
}

// slotEnds are the words that end a name's slot phrase ("defined" in
// "where is X defined"): in a slot of another phrase ("where is this
// defined"), such a word is the phrase, not a name.
var slotEnds = sync.OnceValue(func() map[string]bool {
	ends := map[string]bool{}
	for _, p := range slotPhrases {
		f := strings.Fields(p)
		if f[0] == "X" {
			continue // "Fuse callers": the noun after a leading name is no slot's end
		}
		for i, w := range f {
			if w != "X" {
				continue
			}
			for _, after := range f[i+1:] {
				for _, alt := range strings.Split(after, "|") {
					ends[alt] = true
				}
			}
		}
	}
	return ends
})

// librarySlots are phrases whose slot names a library: a word there that
// is not a declared dependency is a library the repository does not declare.
var librarySlots = sync.OnceValue(func() *phraseSet {
	return compileSlots([]string{
		"version|versions of X", "which|what X version|versions", "X version|versions",
		"X library|package|crate|gem|dependency|sdk|framework", "upgrade|upgrading|bump|bumping X",
		"upgrade|migrate to X", "docs|documentation|changelog for|of X",
		"X docs|documentation|changelog", "is X deprecated", "do we depend on X", "do we use X",
	})
})

// dependencyWords say that a question is about a third-party dependency
// without naming one ("in our installed version", "the new API").
var dependencyWords = sync.OnceValue(func() *phraseSet {
	return compileSlots([]string{
		"installed", "dependency", "dependencies", "library", "libraries", "package", "packages",
		"third-party", "third party", "upstream", "vendor", "vendored", "sdk", "framework",
		"upgrade", "upgraded", "upgrading", "our version", "new version", "old version",
		"api", "apis",
	})
})

// determiners are skipped before a slot's word.
var determiners = set("the", "a", "an", "this", "that", "these", "those", "our", "my", "your",
	"its", "their", "all", "every", "each", "any", "some")

// vague words fill a slot without naming anything ("who calls this
// method"); a slot holding one yields no name.
var vague = set(
	// pronouns, question words and function words
	"it", "this", "that", "them", "they", "we", "you", "i", "me", "us", "he", "she", "one", "ones",
	"here", "there", "what", "which", "who", "whom", "whose", "where", "when", "why", "how",
	"is", "are", "was", "were", "be", "been", "do", "does", "did", "to", "of", "in", "on", "for",
	"from", "with", "and", "or", "not", "by", "at", "as", "if", "so", "up", "out", "into", "about",
	"can", "could", "will", "would", "should", "has", "have", "had", "get", "got", "use", "used",
	"uses", "using", "call", "calls", "called", "calling", "invoking", "return", "returns", "returned",
	"defined", "declared", "all", "any",
	"something", "anything", "everything", "nothing", "someone", "anyone", "everyone", "else",
	"still", "ever", "now", "just", "also", "only", "please", "then", "than", "same", "other",
	// kinds of things, which a slot word qualifies rather than names
	"function", "functions", "func", "method", "methods", "class", "classes", "interface",
	"interfaces", "struct", "structs", "type", "types", "trait", "traits", "enum", "enums",
	"variable", "variables", "field", "fields", "constant", "constants", "module", "modules",
	"package", "packages", "symbol", "symbols", "file", "files", "code", "line", "lines",
	"api", "apis", "thing", "things", "shape", "pattern", "old", "new", "current",
	"version", "versions", "dependency", "dependencies", "library", "libraries", "installed",
	"deprecated", "changed", "change", "changes", "usages", "usage", "callers", "references",
	"implementations", "implementation", "definition", "definitions", "declaration", "caller", "history", "test", "tests", "build", "repo", "repository", "project",
	"difference", "purpose", "point", "best", "way", "meaning", "reason", "problem", "first",
	"last", "next", "latest", "recent", "local", "we're", "our", "my", "your", "their", "its",
	"exactly", "really", "actually", "currently", "commit", "commits", "docs", "doc",
	"documentation", "changelog", "convention", "conventions", "decision", "decisions", "notes",
	"memory", "release", "releases", "diff", "blame", "shapes", "patterns", "source", "signature",
	"place", "places", "everywhere",
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// An element of a phrase: literal alternatives, a gap, or a slot.
type element struct {
	alts []string
	gap  bool
	slot bool
}

type phrase struct {
	elems  []element
	intent Intent
	rank   int // position of the intent in intentCues: lower wins
}

// A phraseSet indexes phrases by the words that can start them.
type phraseSet struct {
	rank    map[Intent]int // the priority of each intent: lower wins
	byWord  map[string][]*phrase
	leading []*phrase // phrases starting with a gap or slot
}

func compilePhrase(s string) *phrase {
	ph := &phrase{}
	for _, w := range strings.Fields(s) {
		switch w {
		case "_":
			ph.elems = append(ph.elems, element{gap: true})
		case "X":
			ph.elems = append(ph.elems, element{slot: true})
		default:
			ph.elems = append(ph.elems, element{alts: strings.Split(w, "|")})
		}
	}
	return ph
}

func (ps *phraseSet) add(ph *phrase) {
	first := ph.elems[0]
	if first.alts == nil {
		ps.leading = append(ps.leading, ph)
		return
	}
	for _, a := range first.alts {
		ps.byWord[a] = append(ps.byWord[a], ph)
	}
}

func compileIntents(table []struct {
	intent  Intent
	phrases []string
}) *phraseSet {
	ps := &phraseSet{byWord: map[string][]*phrase{}, rank: map[Intent]int{}}
	for rank, row := range table {
		ps.rank[row.intent] = rank
		for _, s := range row.phrases {
			ph := compilePhrase(s)
			ph.intent, ph.rank = row.intent, rank
			ps.add(ph)
		}
	}
	return ps
}

func compileSlots(phrases []string) *phraseSet {
	ps := &phraseSet{byWord: map[string][]*phrase{}}
	for _, s := range phrases {
		ps.add(compilePhrase(s))
	}
	return ps
}

// A hit is a phrase matched at toks[start:end], with its slot's token.
type hit struct {
	ph         *phrase
	start, end int
	slot       int // index of the slot's token, or -1
}

// matches calls fn for every phrase of ps that matches at every position of
// toks, in order of position. Each phrase has at most one gap or slot,
// each trying at most a fixed number of words, so the work is linear in the
// number of tokens.
func (ps *phraseSet) matches(toks []token, fn func(hit)) {
	for i := range toks {
		try := func(ph *phrase) {
			if end, slot, ok := ph.matchAt(toks, i, 0, -1); ok {
				fn(hit{ph: ph, start: i, end: end, slot: slot})
			}
		}
		if toks[i].code < 0 {
			for _, ph := range ps.byWord[toks[i].word] {
				try(ph)
			}
		}
		for _, ph := range ps.leading {
			try(ph)
		}
	}
}

// matchAt matches ph.elems[e:] at toks[i:].
func (ph *phrase) matchAt(toks []token, i, e, slot int) (end, slotAt int, ok bool) {
	if e == len(ph.elems) {
		return i, slot, true
	}
	el := ph.elems[e]
	switch {
	case el.gap:
		for n := 1; n <= 3 && i+n <= len(toks); n++ {
			if end, s, ok := ph.matchAt(toks, i+n, e+1, slot); ok {
				return end, s, true
			}
		}
		return 0, 0, false
	case el.slot:
		for skip := 0; skip < 3 && i < len(toks) && toks[i].code < 0 && determiners[toks[i].word]; skip++ {
			i++
		}
		if i >= len(toks) {
			return 0, 0, false
		}
		return ph.matchAt(toks, i+1, e+1, i)
	}
	if i >= len(toks) || toks[i].code >= 0 {
		return 0, 0, false
	}
	for _, a := range el.alts {
		if toks[i].word == a {
			return ph.matchAt(toks, i+1, e+1, slot)
		}
	}
	return 0, 0, false
}
