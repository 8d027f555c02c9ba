//go:build cgo

package structural

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

// The few tree-sitter runtime entry points used here, declared by hand: the
// runtime itself is compiled into github.com/tree-sitter/go-tree-sitter,
// whose headers are not on this package's include path. The layouts follow
// tree_sitter/api.h of go-tree-sitter v0.25.0.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct { uint32_t row, column; } TSPoint;
typedef struct { TSPoint start_point, end_point; uint32_t start_byte, end_byte; } TSRange;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
bool ts_parser_set_included_ranges(TSParser *self, const TSRange *ranges, uint32_t count);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint16_t ts_node_symbol(TSNode self);
bool ts_node_is_missing(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                      void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

// cc_node mirrors flatNode in tree.go.
typedef struct {
	uint32_t start, end, next, nkids;
	uint16_t sym;
	uint8_t flags, pad;
} cc_node;

enum { F_NAMED = 1, F_MISSING = 2, F_ERROR = 8 };

// cc_parse parses src, or only its nranges ranges when there are any, and
// writes the tree's visible nodes in pre-order into out (at most cap of
// them). It returns the number of nodes in the tree, which is more than cap
// when out was too small, or -1 when parsing failed. named[sym] says
// whether a kind is named (symbols past nsyms are not), which saves a call
// per node; child counts come from the walk itself.
static int64_t cc_parse(TSParser *p, const char *src, uint32_t len, const TSRange *ranges, uint32_t nranges,
                        cc_node *out, uint32_t cap, const uint8_t *named, uint32_t nsyms) {
	// No ranges means the whole document; the parser keeps what it was
	// last given, so every parse sets them.
	if (!ts_parser_set_included_ranges(p, nranges ? ranges : NULL, nranges)) return -1;
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (!t) return -1;
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	uint32_t depth = 0, stack_cap = 256, n = 0;
	// prev[d]: the last node seen at depth d under the current parent;
	// parent[d]: the node at depth d on the path from the root.
	uint32_t *prev = malloc(2 * stack_cap * sizeof(uint32_t));
	if (!prev) { ts_tree_cursor_delete(&c); ts_tree_delete(t); return -1; }
	uint32_t *parent = prev + stack_cap;
	prev[0] = UINT32_MAX;
	for (;;) {
		TSNode nd = ts_tree_cursor_current_node(&c);
		if (n < cap) {
			cc_node *o = &out[n];
			uint16_t sym = ts_node_symbol(nd);
			uint8_t f = 0;
			if (sym < nsyms && named[sym]) f |= F_NAMED;
			if (sym == 65535) f |= F_ERROR | F_NAMED;
			if (ts_node_is_missing(nd)) f |= F_MISSING;
			o->start = ts_node_start_byte(nd);
			o->end = ts_node_end_byte(nd);
			o->next = 0;
			o->nkids = 0;
			o->sym = sym;
			o->flags = f;
			o->pad = 0;
			if (prev[depth] != UINT32_MAX) out[prev[depth]].next = n;
			if (depth > 0) out[parent[depth - 1]].nkids++;
		}
		prev[depth] = n;
		parent[depth] = n;
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			if (depth >= stack_cap) {
				uint32_t ncap = stack_cap * 2;
				uint32_t *np = malloc(2 * ncap * sizeof(uint32_t));
				if (!np) { free(prev); ts_tree_cursor_delete(&c); ts_tree_delete(t); return -1; }
				memcpy(np, prev, stack_cap * sizeof(uint32_t));
				memcpy(np + ncap, parent, stack_cap * sizeof(uint32_t));
				free(prev);
				prev = np;
				parent = np + ncap;
				stack_cap = ncap;
			}
			prev[depth] = UINT32_MAX;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
		}
	}
done:
	free(prev);
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	return (int64_t)n;
}

// cc_use_libc routes the tree-sitter runtime's allocations straight to
// libc instead of through go-tree-sitter's Go callbacks, which only call
// malloc and free themselves; this saves a cgo callback per allocation.
static void cc_use_libc(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

import (
	"sync"
	"unsafe"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// cgoEnabled reports whether this build has the built-in engine.
const cgoEnabled = true

func init() {
	// Package initialisation order runs go-tree-sitter's init (which
	// installs its Go allocator callbacks) before this one.
	C.cc_use_libc()
}

var grammarPointers = map[Language]func() unsafe.Pointer{
	Go:         tsgo.Language,
	Python:     tspython.Language,
	JavaScript: tsjs.Language,
	TypeScript: tsts.LanguageTypescript,
	TSX:        tsts.LanguageTSX,
	Rust:       tsrust.Language,
	Java:       tsjava.Language,
	C:          tsc.Language,
	JSON:       tsjson.Language,
	Cpp:        tscpp.Language,
	CSharp:     tscsharp.Language,
	Ruby:       tsruby.Language,
	// PHP code without the <?php tag and HTML around it, as ast-grep
	// reads .php files and patterns.
	PHP:    tsphp.LanguagePHPOnly,
	Bash:   tsbash.Language,
	Kotlin: tskotlin.Language,
}

var (
	grammarsMu sync.Mutex
	grammars   = map[Language]*grammar{}
)

// grammarOf returns the symbol table of l, building it once.
func grammarOf(l Language) (*grammar, bool) {
	grammarsMu.Lock()
	defer grammarsMu.Unlock()
	if g, ok := grammars[l]; ok {
		return g, true
	}
	ptr, ok := grammarPointers[l]
	if !ok {
		return nil, false
	}
	tl := sitter.NewLanguage(ptr())
	n := int(tl.NodeKindCount())
	g := &grammar{lang: l, ptr: ptr(), names: make([]string, n), comment: make([]bool, n), named: make([]uint8, n)}
	for i := range n {
		g.names[i] = tl.NodeKindForId(uint16(i))
		g.comment[i] = containsComment(g.names[i])
		if tl.NodeKindIsNamed(uint16(i)) {
			g.named[i] = 1
		} else if tl.NodeKindIsVisible(uint16(i)) && isWord(g.names[i]) {
			g.keywords = append(g.keywords, g.names[i])
		}
	}
	grammars[l] = g
	return g, true
}

// A parser parses files of one language; it is not safe for concurrent use.
type parser struct {
	p      *C.TSParser
	g      *grammar
	buf    []flatNode
	ranges []C.TSRange
}

func newParser(g *grammar) (*parser, error) {
	p := C.ts_parser_new()
	if p == nil {
		return nil, ErrUnavailable
	}
	if !C.ts_parser_set_language(p, (*C.TSLanguage)(g.ptr)) {
		C.ts_parser_delete(p)
		return nil, ErrUnavailable
	}
	return &parser{p: p, g: g}, nil
}

// Close releases the C parser.
func (p *parser) Close() {
	if p.p != nil {
		C.ts_parser_delete(p.p)
		p.p = nil
	}
}

// parse returns the flattened syntax tree of src, or, when segs is not
// nil, of the segments marked in marks alone (adjacent ones joined). The
// tree owns a copy of its nodes but shares src.
func (p *parser) parse(src []byte, segs []segment, marks []bool) ([]flatNode, bool) {
	named := p.g.named
	if len(src) >= 1<<31 {
		return nil, false
	}
	p.ranges = p.ranges[:0]
	for k, s := range segs {
		if !marks[k] {
			continue
		}
		if n := len(p.ranges); n > 0 && p.ranges[n-1].end_byte == C.uint32_t(s.start) {
			r := &p.ranges[n-1]
			r.end_byte, r.end_point = C.uint32_t(s.end), C.TSPoint{row: C.uint32_t(s.endRow), column: C.uint32_t(s.endCol)}
			continue
		}
		p.ranges = append(p.ranges, C.TSRange{
			start_point: C.TSPoint{row: C.uint32_t(s.startRow)},
			end_point:   C.TSPoint{row: C.uint32_t(s.endRow), column: C.uint32_t(s.endCol)},
			start_byte:  C.uint32_t(s.start),
			end_byte:    C.uint32_t(s.end),
		})
	}
	var ranges *C.TSRange
	if len(p.ranges) > 0 {
		ranges = &p.ranges[0]
	}
	guess := len(src)/3 + 64
	if cap(p.buf) < guess {
		p.buf = make([]flatNode, guess)
	}
	for range 2 {
		buf := p.buf[:cap(p.buf)]
		var srcPtr *C.char
		if len(src) > 0 {
			srcPtr = (*C.char)(unsafe.Pointer(&src[0]))
		} else {
			srcPtr = (*C.char)(unsafe.Pointer(&emptySource[0]))
		}
		n := int64(C.cc_parse(p.p, srcPtr, C.uint32_t(len(src)), ranges, C.uint32_t(len(p.ranges)),
			(*C.cc_node)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)),
			(*C.uint8_t)(unsafe.Pointer(&named[0])), C.uint32_t(len(named))))
		if n < 0 {
			return nil, false
		}
		if int(n) <= len(buf) {
			out := make([]flatNode, n)
			copy(out, buf[:n])
			return out, true
		}
		p.buf = make([]flatNode, n+n/4)
	}
	return nil, false
}

var emptySource = []byte{0}
