// Package structural finds code by its syntax rather than its text — old_api($X)
// matches the calls and not the comment that mentions them — and gives each
// match to the caller as structural evidence, with exact positions and the
// code its metavariables captured.
//
// # Patterns
//
// Patterns use ast-grep's language (its users already write them) and are
// parsed as code of the target language, descending through single-child
// wrappers, so foo($X) is a call and not a statement:
//
//   - $X captures one named node; $$X also accepts unnamed tokens.
//   - $_ and $_NAME match one node without capturing; repeated, they need
//     not be equal.
//   - $$$ and $$$NAME match zero or more nodes lazily, stopping at the
//     first sibling that matches the next pattern node. A multi capture
//     keeps the separators between its items ([Capture.Nodes]) and offers
//     the items alone ([Capture.Items]).
//   - Names are [A-Z_][A-Z0-9_]*; a name used twice must bind identical
//     code.
//
// Matching is ast-grep's "smart" strictness: the pattern's own tokens must
// match, the file's unnamed tokens may be skipped, and so may its comments
// where the pattern expects a leaf or a metavariable. Languages where $X
// is not an identifier (Go, Python, Rust, C, C++, C#, Ruby, PHP, Kotlin)
// get ast-grep's placeholder treatment. Nested matches are all reported,
// in a deterministic order: path, then start offset, outer before inner.
//
// A Go pattern is read where the code it looks for lives, in a function
// body, whenever it parses cleanly there: at the top of a file
// tree-sitter-go reads fmt.Println($X) as a conversion to the type
// fmt.Println, which no call matches (ast-grep does so and finds nothing).
// What only exists at the top level (functions, methods, imports) keeps
// its top-level reading, and a pattern the top level reads as a type
// (strings.Builder) matches both the type and the selector expression.
// The other languages read the same either way.
//
// A pattern that cannot be used is a [*PatternError] (errors.Is
// [ErrInvalidPattern]): empty, unparsable (an ERROR node, unless its whole
// text is a metavariable standing for the items between brackets, as in
// impl $T for $S { $$$ }), incomplete (a MISSING node other than a
// left-out statement terminator), several top-level nodes, a bare $$$, or
// too large (longer than [MaxPatternBytes] or naming more than
// [MaxPatternVars] metavariables).
// So an invalid pattern is never confused with a valid one that found
// nothing, and can never drive a rewrite. Compiling takes time linear in
// the pattern's size, and an error quotes at most its first 80 bytes.
//
// # Engines
//
// [Builtin] parses in process with the official tree-sitter grammars for
// Go, Python, JavaScript, TypeScript, TSX, Rust, Java, C, C++, C#, Ruby,
// PHP, Bash, Kotlin and JSON, through the syntax floor ([syntax.Parser];
// [Language] is [syntax.Language]). It needs cgo; without it, it reports
// [ErrUnavailable]. Parsing is most of a search's cost, so it parses only
// what may hold a match: never a file that lacks a literal the pattern
// needs (a named leaf such as Canceled) or, in Go, a chain of its tokens
// as they must meet (err != nil, with only spaces, comments and
// punctuation between) or an operator it holds (the == of $A == $A);
// and a Go file is cut at its top-level
// declarations, of which only those holding the literals and chains are
// parsed, through tree-sitter's included ranges. Each of these is tested
// to lose no match against parsing every file whole (segment.go and
// chain.go say why they are sound). Files are parsed in parallel, and
// parsed files are kept and used again while their content is byte for
// byte the same, so a repeated query on an unchanged tree is fast. [AstGrep] runs an
// external ast-grep, pinned to exactly [AstGrepVersion]. [Search] picks the
// configured engine and falls back to [LexicalSearch], whose results are
// weak evidence and say plainly that they lack structural precision, and,
// with [Options.Symbols], to a [SymbolSearcher] (such as a precision
// index) asked about the identifiers the pattern names: where those
// names resolve, not where the pattern matches, which the answer says too.
//
// A search that cannot skip a file (a pattern such as $F($$$A) holds no
// literal) is as fast as its parse: in one language over one directory,
// workers parse files as the walk finds them; each worker keeps its
// parsers and read buffer, a file's tree is flattened in one cgo call,
// only nodes of the pattern root's kind are tried, and with
// [Request.Each] the matches are handed over in order as files finish, by
// the worker that finishes the file whose turn it is, workers staying a
// few dozen files ahead, so memory holds the matches of a few dozen files
// rather than all of them; later files' matches are built in the memory
// of those handed over, and with [Request.Recycle] their sources read
// into it too (the cortex CLI prints its JSON that way; a host printing
// matches themselves has [Match.AppendJSON], and
// examples/structural-search is such a host).
//
// The grammars are the official modules at the versions go.mod names;
// all but one read code as ast-grep 0.51.1's bundled ones do. For Kotlin
// ast-grep bundles a fork of fwcd/tree-sitter-kotlin 0.3 and this package
// links tree-sitter-grammars/tree-sitter-kotlin v1.1.0 (the older one is
// not served by the module proxy), and they build different trees: a call
// with a trailing lambda, f(a) { ... }, is one call there and a call of
// the call f(a) here, so $F($$$A) matches f(a) alone and a rewrite of it
// leaves the lambda after the replacement; !a.b(), annotated assignments
// and statement lists differ too. Given this grammar, ast-grep finds
// exactly these matches and captures (the oracle tests compare them).
//
// Every search walks the files as git sees them: what the tree's
// .gitignore files and .git/info/exclude ignore is left out, except a
// file or directory the request names itself (see [Request.Paths]).
//
// # Evidence
//
// [New] returns the [Provider], structural search as an
// [evidence.Provider]: a query with a Pattern (and Language) is a
// structural search, and a question in words (Text, or Symbol) gets the
// labelled lexical and symbol fallback on its identifier-like terms
// ([TextTerms]), which never claims structural precision.
//
// [Match.Record] turns a match into an [evidence.Record] of kind structural
// match, provenance structural-match and tier structural: an AST match is
// structural however confident the engine is. Ranges are one-based,
// half-open, in Unicode code points, with the byte offsets alongside.
// What a match carries for display is bounded, so a minified file of one
// long line costs time and memory linear in its size: [Match.Lines] is a
// window around the match, with [Cut] where text was left out, and record
// excerpts and captures are cut at a kilobyte.
//
// # Rewrites
//
// [Expand] and [Rewrite] compute replacements as a pure function over
// matches: captures substituted (multi captures with their original
// separators), multi-line text re-indented to the match's indentation with
// tabs or spaces as the file has them, and only the outermost of nested
// matches rewritten. [ApplyEdits] applies them to a source in memory.
// Before anything is written a template is checked: [CheckTemplate]
// refuses one naming a metavariable the pattern does not bind, and
// [CheckEdits] one whose rewritten code does not parse (an ERROR or
// MISSING node the file did not have), each a [*TemplateError] saying
// where; [Provider.Rewrite] does all three.
package structural
