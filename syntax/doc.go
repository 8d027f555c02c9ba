// Package syntax parses source files of the languages CodeCortex knows into
// syntax trees a caller can walk: node kinds, field names, and positions in
// bytes and in one-based lines and code-point columns.
//
// It is the syntax floor of the module: the language table, the
// tree-sitter grammars compiled into the binary, and the parsers. Every
// layer that reads code by its syntax (structural search, symbol
// extraction, the local index's chunks) parses through it, and it is the
// only package that needs cgo.
//
// # Languages
//
// A [Language] has a canonical name (ast-grep's --lang name), aliases that
// [ParseLanguage] accepts, and file extensions that [LanguageOf] judges a
// path by. [Languages] lists them.
//
// # Parsing
//
// [Parse] parses a source with a pooled [Parser] and is safe for
// concurrent use; a [Parser] from [NewParser] serves one goroutine and can
// also parse chosen [Span]s of a source alone ([Parser.ParseSpans]), with
// every node kept at its offset in the whole source. A parser reserves
// address space for an arena that serves its parses (sources up to 4 MiB):
// tree-sitter's allocations come from it and the parse tree is dropped
// with it, not freed node by node; pages are used only as a parse needs
// them (two megabytes at a time, in one transparent huge page where Linux
// gives them), and a parse that fills the arena goes on in ordinary memory.
// [Parser.ParseSpansInto] parses into a tree the caller hands back, reusing
// its node memory, for callers done with each tree before the next;
// [ParseFunc] lends a pooled parser's tree to a function, for callers that
// read each tree once (symbol extraction).
//
// Once a grammar's parses have read a quarter of its parse table's dense
// size in source, the table is copied into dense form (one row per state)
// that later parses read: every lookup is then one read instead of a scan,
// which matters most where tree-sitter recovers from syntax errors; the
// trees are the same.
//
// # Trees
//
// A [Tree] holds every visible node of the parse (named rules, anonymous
// tokens and comments) in one flat array, numbered in pre-order: [NodeID]
// 0 is the root and a node's descendants follow it. A tree answers a
// node's kind ([Tree.Kind], [Tree.KindID], through its [Grammar]), the
// field it fills in its parent ([Tree.Field]), its children
// ([Tree.FirstChild], [Tree.NextSibling], [Tree.ChildByField]), its text
// and its [Range] ([Tree.Range], through a [Lines] index of the source).
// Trees are immutable and safe to share, but for one that ParseSpansInto
// fills again.
//
// # Without cgo
//
// A build without cgo has the language table but no grammars: [Available]
// is false and every parse returns an error matching [ErrUnavailable].
package syntax
