//go:build cgo

package syntax

/*
// This file's C is hot: the parse arena every tree-sitter allocation
// comes from, and the walk that flattens each tree. -O3 comes after cgo's
// default CGO_CFLAGS (-O2 -g); docs/benchmarks.md has what it saves. The
// flags do not reach the tree-sitter runtime and grammars, which their
// own modules compile.
#cgo CFLAGS: -O3
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

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
const TSLanguage *ts_parser_language(const TSParser *self);
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
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
uint16_t ts_node_symbol(TSNode self);
bool ts_node_is_missing(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
uint16_t ts_language_next_state(const TSLanguage *self, uint16_t state, uint16_t symbol);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, uint16_t symbol);
int ts_language_symbol_type(const TSLanguage *self, uint16_t symbol); // TSSymbolType: regular 0, anonymous 1, ...
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                      void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

// A parse arena. Parsing builds the tree out of many small allocations,
// and deleting it walks the tree again to free each one: together about a
// tenth of a search's time in malloc, free and the tree's release. A
// Parser with an arena parses each source with a parser made for it, whose
// allocations, and the tree's, come from a region reserved once and used
// from its start again after every parse: allocating is a bump of a
// pointer, and nothing is freed one by one or walked to delete it. A
// small block the parse frees goes on a list of its size and serves the
// next request of that size, so a parse holds about what it has live, as
// with malloc, rather than all it ever allocated.
//
// Which allocations go where: the runtime's allocator hooks (cx_malloc
// and the rest, installed by use_allocator) serve from the arena of the
// calling thread while flat_parse runs with one (cur_arena), and from libc
// otherwise. A block inside an arena never goes back to libc (a small one
// goes on its size's list), and a reallocation copies into the arena.
// Nothing made during an arena parse
// outlives it: the parser and tree are made, used and dropped inside
// flat_parse. A full arena hands out libc memory instead and marks itself
// overflowed; that parse then deletes its tree and parser the ordinary
// way, which frees the libc blocks and skips the arena's.
enum { ARENA_HEADER = 16, ARENA_KEEP = 16 << 20, ARENA_IDLE = 4 << 20, ARENA_SMALL = 512, ARENA_STEP = 2 << 20 };

// The region is reserved without access and made writable two megabytes
// at a time as parses reach into it, so it is charged against the
// system's commit limit only as far as a parse has used it, not for the
// whole reservation (which matters where overcommit is strict).
//
// It starts on a two-megabyte boundary and asks for transparent huge
// pages (MADV_HUGEPAGE; Linux, where they are enabled "always" or
// "madvise"), so the first write to each two megabytes maps them with one
// page fault rather than 512 (docs/benchmarks.md has what that saves where
// a fresh page is dear, as in a virtual machine). A parser then holds at
// least two megabytes once it has parsed, and its trims (ARENA_KEEP,
// ARENA_IDLE) fall on whole huge pages.
typedef struct {
	char *map, *base;       // the reservation, and its first ARENA_STEP boundary
	size_t maplen;
	size_t cap, used, high; // from base: usable, in use, most ever in use since the last trim
	size_t writable;        // bytes from base made writable
	int overflow;
	void *free[ARENA_SMALL / 16 + 1]; // freed blocks by size / 16, linked through their first word
} cx_arena;

static __thread cx_arena *cur_arena;

static cx_arena *cx_arena_new(size_t cap) {
	cx_arena *a = calloc(1, sizeof *a);
	if (!a) return NULL;
	size_t len = cap + ARENA_STEP;
	char *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) { free(a); return NULL; }
	a->map = m;
	a->maplen = len;
	a->base = (char *)(((uintptr_t)m + ARENA_STEP - 1) & ~(uintptr_t)(ARENA_STEP - 1));
	a->cap = cap;
#ifdef MADV_HUGEPAGE
	madvise(a->base, cap, MADV_HUGEPAGE); // a hint: without it the arena works the same
#endif
	return a;
}

static void cx_arena_delete(cx_arena *a) {
	if (!a) return;
	munmap(a->map, a->maplen);
	free(a);
}

static int in_arena(const cx_arena *a, const void *p) {
	return a && (const char *)p >= a->base && (const char *)p < a->base + a->cap;
}

// arena_reach makes the first upto bytes of a writable; false when the
// system refuses.
static int arena_reach(cx_arena *a, size_t upto) {
	if (upto <= a->writable) return 1;
	size_t w = (upto + ARENA_STEP - 1) & ~(size_t)(ARENA_STEP - 1);
	if (w > a->cap) w = a->cap;
	if (mprotect(a->base + a->writable, w - a->writable, PROT_READ | PROT_WRITE) != 0) return 0;
	a->writable = w;
	return 1;
}

// arena_alloc returns n bytes, 16-byte aligned, after a header holding n;
// NULL when the arena is full. A block holds n rounded up to 16 bytes.
static void *arena_alloc(cx_arena *a, size_t n) {
	if (n > a->cap) return NULL;
	size_t round = (n + 15) & ~(size_t)15;
	if (round <= ARENA_SMALL && round > 0 && a->free[round / 16]) {
		char *p = a->free[round / 16];
		a->free[round / 16] = *(void **)p;
		*(size_t *)(p - ARENA_HEADER) = n;
		return p;
	}
	size_t need = ARENA_HEADER + round;
	if (need > a->cap - a->used || !arena_reach(a, a->used + need)) return NULL;
	char *p = a->base + a->used;
	a->used += need;
	if (a->used > a->high) a->high = a->used;
	*(size_t *)p = n;
	return p + ARENA_HEADER;
}

static void arena_free(cx_arena *a, void *p);

static void *cx_malloc(size_t n) {
	cx_arena *a = cur_arena;
	if (a) {
		void *p = arena_alloc(a, n);
		if (p) return p;
		a->overflow = 1;
	}
	return malloc(n);
}

static void *cx_calloc(size_t k, size_t n) {
	cx_arena *a = cur_arena;
	size_t t;
	if (a && !__builtin_mul_overflow(k, n, &t)) {
		void *p = arena_alloc(a, t);
		if (p) return memset(p, 0, t); // the arena's pages are used again
		a->overflow = 1;
	}
	return calloc(k, n);
}

static void *cx_realloc(void *p, size_t n) {
	cx_arena *a = cur_arena;
	if (!p) return cx_malloc(n);
	if (!in_arena(a, p)) return realloc(p, n);
	size_t old = *(size_t *)((char *)p - ARENA_HEADER);
	if (n <= old) return p;
	// The last block grows in place.
	size_t oldRound = (old + 15) & ~(size_t)15, newRound = (n + 15) & ~(size_t)15;
	if ((char *)p + oldRound == a->base + a->used && newRound - oldRound <= a->cap - a->used &&
	    arena_reach(a, a->used + newRound - oldRound)) {
		a->used += newRound - oldRound;
		if (a->used > a->high) a->high = a->used;
		*(size_t *)((char *)p - ARENA_HEADER) = n;
		return p;
	}
	void *q = arena_alloc(a, n);
	if (!q) {
		a->overflow = 1;
		if (!(q = malloc(n))) return NULL;
	}
	memcpy(q, p, old);
	arena_free(a, p);
	return q;
}

// arena_free puts the arena block p on its size's list when it is small.
static void arena_free(cx_arena *a, void *p) {
	size_t round = (*(size_t *)((char *)p - ARENA_HEADER) + 15) & ~(size_t)15;
	if (round <= ARENA_SMALL && round > 0) {
		*(void **)p = a->free[round / 16];
		a->free[round / 16] = p;
	}
}

static void cx_free(void *p) {
	cx_arena *a = cur_arena;
	if (!p) return;
	if (in_arena(a, p)) arena_free(a, p);
	else free(p);
}

// arena_trim gives the memory of a past its first keep bytes back to the
// system, if a parse has used it.
static void arena_trim(cx_arena *a, size_t keep) {
	if (a && a->high > keep) {
		madvise(a->base + keep, a->high - keep, MADV_DONTNEED);
		a->high = keep;
	}
}

// arena_reset empties a after a parse and trims it to ARENA_KEEP. What it
// keeps the next parses use without faulting its pages in again: a search
// over large files (a C header full of syntax errors takes tens of
// megabytes) would otherwise pay for each page at every such file, where
// malloc keeps freed memory up to a threshold it raises (docs/benchmarks.md
// has the figures). A parser that goes idle is trimmed to ARENA_IDLE
// (Parser.idle).
static void arena_reset(cx_arena *a) {
	a->used = 0;
	a->overflow = 0;
	memset(a->free, 0, sizeof a->free);
	arena_trim(a, ARENA_KEEP);
}

// arena_idle trims a to what an idle parser keeps.
static void arena_idle(cx_arena *a) { arena_trim(a, ARENA_IDLE); }

// kind_tables writes the name (its address and length) and type of each
// of lang's n kinds, in one call rather than a few per kind.
static void kind_tables(const TSLanguage *lang, uint32_t n, const char **names, uint32_t *lens, uint8_t *types) {
	for (uint32_t i = 0; i < n; i++) {
		const char *name = ts_language_symbol_name(lang, (uint16_t)i);
		names[i] = name;
		lens[i] = name ? (uint32_t)strlen(name) : 0;
		types[i] = (uint8_t)ts_language_symbol_type(lang, (uint16_t)i);
	}
}

// ts_flat_node mirrors node in tree.go.
typedef struct {
	uint32_t start, end, next, nkids;
	uint16_t sym;
	uint8_t flags, field;
} ts_flat_node;

enum { F_NAMED = 1, F_MISSING = 2, F_ERROR = 8 };

static int64_t walk_tree(TSTree *t, const TSLanguage *lang, ts_flat_node *out, uint32_t cap,
                         const uint8_t *named, uint32_t nsyms, bool by_cursor);

// flat_parse parses src, or only its nranges ranges when there are any,
// and writes the tree's visible nodes in pre-order into out (at most cap
// of them). It returns the number of nodes in the tree, or -1 when parsing
// failed or memory ran out; when there are more than cap, they are all
// in *more instead, which the caller frees. named[sym] says
// whether a kind is named (symbols past nsyms are not), which saves a call
// per node; child counts come from the walk itself. A field id above 255
// is written as 0 (no grammar compiled in has that many fields). It
// parses with p, or, given an arena a, with a parser of language lang
// made in a for this parse alone; p is set to lang first when it holds
// another language (the grammar's own table before its dense one). With
// by_cursor it walks the tree with the runtime's tree cursor, the walk
// TestWalkMatchesCursor holds walk to.
static int64_t flat_parse(TSParser *p, cx_arena *a, const TSLanguage *lang, const char *src, uint32_t len,
                          const TSRange *ranges, uint32_t nranges,
                          ts_flat_node *out, uint32_t cap, const uint8_t *named, uint32_t nsyms,
                          ts_flat_node **more, bool by_cursor) {
	int64_t n = -1;
	TSTree *t = NULL;
	if (a) {
		cur_arena = a;
		p = ts_parser_new();
		if (!ts_parser_set_language(p, lang)) goto done;
	}
	// A kept parser moves to the grammar's dense table once there is one.
	if (!a && ts_parser_language(p) != lang && !ts_parser_set_language(p, lang)) goto done;
	// No ranges means the whole document; a kept parser holds what it was
	// last given, so every parse sets them.
	if (!ts_parser_set_included_ranges(p, nranges ? ranges : NULL, nranges)) goto done;
	t = ts_parser_parse_string(p, NULL, src, len);
	if (t) n = walk_tree(t, lang, out, cap, named, nsyms, by_cursor);
	if (n > cap) {
		// The tree is walked again into memory of its size, rather than
		// parsed again into a larger out.
		ts_flat_node *big = malloc((size_t)n * sizeof *big);
		if (big && walk_tree(t, lang, big, (uint32_t)n, named, nsyms, by_cursor) == n) *more = big;
		else { free(big); n = -1; }
	}
done:
	if (!a) {
		if (t) ts_tree_delete(t);
		return n;
	}
	if (a->overflow && t) ts_tree_delete(t);
	ts_parser_delete(p); // also frees an external scanner's own state
	cur_arena = NULL;
	arena_reset(a);
	return n;
}

// cx_language follows struct TSLanguage in tree_sitter/parser.h of ABI 15;
// ABI 14 ends at primary_state_ids. The walk reads its symbol, alias and
// field tables, dense_language its parse table.
typedef struct {
	uint32_t abi_version, symbol_count, alias_count, token_count, external_token_count,
		state_count, large_state_count, production_id_count, field_count;
	uint16_t max_alias_sequence_length;
	const uint16_t *parse_table;
	const uint16_t *small_parse_table;
	const uint32_t *small_parse_table_map;
	const void *parse_actions, *symbol_names, *field_names, *field_map_slices, *field_map_entries,
		*symbol_metadata, *public_symbol_map, *alias_map, *alias_sequences, *lex_modes;
	void (*lex_fn)(void), (*keyword_lex_fn)(void);
	uint16_t keyword_capture_token;
	struct {
		const void *states, *symbol_map;
		void (*create)(void), (*destroy)(void), (*scan)(void), (*serialize)(void), (*deserialize)(void);
	} external_scanner;
	const uint16_t *primary_state_ids;
	const char *name;
	const uint16_t *reserved_words;
	uint16_t max_reserved_word_set_size;
	uint32_t supertype_count;
	const void *supertype_symbols, *supertype_map_slices, *supertype_map_entries;
	struct { uint8_t major, minor, patch; } metadata;
} cx_language;

// The runtime's subtrees, which walk reads directly: the layouts of
// src/subtree.h and src/tree.h of go-tree-sitter v0.25.0 on a 64-bit
// little-endian machine (a static assertion below holds the sizes;
// TestWalkMatchesCursor the rest). Elsewhere trees are walked with the
// cursor. A subtree is a pointer to its heap data, or, when the lowest bit
// is set, a leaf stored inline; a heap subtree's children lie just before it.
#if UINTPTR_MAX == UINT64_MAX && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CX_SUBTREES 1
#else
#define CX_SUBTREES 0
#endif

#if CX_SUBTREES
typedef struct { uint32_t bytes, row, column; } cx_length;

typedef struct {
	bool is_inline : 1, visible : 1, named : 1, extra : 1, has_changes : 1, is_missing : 1, is_keyword : 1;
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows : 4, lookahead_bytes : 4;
	uint8_t padding_bytes, size_bytes;
} cx_inline;

typedef struct {
	uint32_t ref_count;
	cx_length padding, size;
	uint32_t lookahead_bytes, error_cost, child_count;
	uint16_t symbol, parse_state;
	bool visible : 1, named : 1, extra : 1, fragile_left : 1, fragile_right : 1, has_changes : 1,
		has_external_tokens : 1, has_external_scanner_state_change : 1, depends_on_column : 1,
		is_missing : 1, is_keyword : 1;
	union {
		struct {
			uint32_t visible_child_count, named_child_count, visible_descendant_count;
			int32_t dynamic_precedence;
			uint16_t repeat_depth, production_id, first_leaf_symbol, first_leaf_state;
		} node;
		struct { union { char *long_data; char short_data[24]; }; uint32_t length; } external;
		int32_t lookahead_char;
	};
} cx_heap;

typedef union { cx_inline data; const cx_heap *ptr; } cx_subtree;

_Static_assert(sizeof(cx_inline) == 8 && sizeof(cx_subtree) == 8 && sizeof(cx_length) == 12 &&
               sizeof(cx_heap) == 80 && offsetof(cx_heap, node.production_id) == 66,
               "tree-sitter's subtree layout");

// A tree's field map: the fields of each production's children.
typedef struct { uint16_t index, length; } cx_map_slice;
typedef struct { uint16_t field_id; uint8_t child_index; bool inherited; } cx_field_entry;

#define SUB(s, f) ((s).data.is_inline ? (s).data.f : (s).ptr->f)

static inline uint32_t sub_padding(cx_subtree s) { return s.data.is_inline ? s.data.padding_bytes : s.ptr->padding.bytes; }
static inline uint32_t sub_size(cx_subtree s) { return s.data.is_inline ? s.data.size_bytes : s.ptr->size.bytes; }
static inline uint32_t sub_kids(cx_subtree s) { return s.data.is_inline ? 0 : s.ptr->child_count; }

// own_field is the field the child at structural index k fills in a node
// of production pid, inherited ones aside; 0 for none.
static inline uint16_t own_field(const cx_language *l, uint16_t pid, uint32_t k) {
	if (l->field_count == 0) return 0;
	const cx_map_slice *sl = &((const cx_map_slice *)l->field_map_slices)[pid];
	const cx_field_entry *e = &((const cx_field_entry *)l->field_map_entries)[sl->index];
	for (uint32_t i = 0; i < sl->length; i++) {
		if (!e[i].inherited && e[i].child_index == k) return e[i].field_id;
	}
	return 0;
}

// A walk_frame is a subtree whose children walk is going through.
typedef struct {
	cx_subtree tree;
	const uint16_t *aliases;    // its production's alias sequence, or NULL
	uint32_t child, structural; // the next child, and its index among the non-extra ones
	uint32_t pos;               // where the next child starts, after its padding
	uint32_t depth;             // visible ancestors of its children
	uint16_t field;             // when hidden: the field it fills for its visible descendants
	bool hidden;
} walk_frame;

// walk_state is what walk builds: the nodes written (n counts on past cap),
// the frames it is in, and by visible depth d, prev[d], the last node seen
// at d under the current parent, and parent[d], the node at d on the path.
typedef struct {
	const cx_language *l;
	ts_flat_node *out;
	uint32_t cap, n;
	const uint8_t *named;
	uint32_t nsyms;
	walk_frame *stack;
	uint32_t sp, stack_cap;
	uint32_t *prev, *parent, depth_cap;
} walk_state;

// walk_emit writes subtree c, found at pos, at visible depth d, as kind
// sym filling field; false when it runs out of memory.
static inline bool walk_emit(walk_state *w, cx_subtree c, uint32_t pos, uint16_t sym, uint16_t field, uint32_t d) {
	if (d + 1 >= w->depth_cap) {
		uint32_t ncap = w->depth_cap * 2;
		uint32_t *np = malloc(2 * ncap * sizeof(uint32_t));
		if (!np) return false;
		memcpy(np, w->prev, w->depth_cap * sizeof(uint32_t));
		memcpy(np + ncap, w->parent, w->depth_cap * sizeof(uint32_t));
		free(w->prev);
		w->prev = np;
		w->parent = np + ncap;
		w->depth_cap = ncap;
	}
	uint32_t n = w->n;
	if (n < w->cap) {
		ts_flat_node *o = &w->out[n];
		uint8_t f = 0;
		if (sym < w->nsyms && w->named[sym]) f |= F_NAMED;
		if (sym == 65535) f |= F_ERROR | F_NAMED;
		if (SUB(c, is_missing)) f |= F_MISSING;
		*o = (ts_flat_node){.start = pos, .end = pos + sub_size(c), .sym = sym, .flags = f,
		                    .field = field > 255 ? 0 : (uint8_t)field};
		if (w->prev[d] != UINT32_MAX) w->out[w->prev[d]].next = n;
		if (d > 0) w->out[w->parent[d - 1]].nkids++;
	}
	w->prev[d] = n;
	w->parent[d] = n;
	w->prev[d + 1] = UINT32_MAX; // its children are yet to come
	w->n++;
	return true;
}

// walk_push enters c's children, found at pos, at visible depth d; false
// when it runs out of memory.
static inline bool walk_push(walk_state *w, cx_subtree c, uint32_t pos, uint32_t d, bool hidden, uint16_t field) {
	if (w->sp == w->stack_cap) {
		walk_frame *ns = realloc(w->stack, 2 * w->stack_cap * sizeof *ns);
		if (!ns) return false;
		w->stack = ns;
		w->stack_cap *= 2;
	}
	uint16_t pid = c.ptr->node.production_id;
	const uint16_t *aliases = pid ? &((const uint16_t *)w->l->alias_sequences)[pid * w->l->max_alias_sequence_length] : NULL;
	w->stack[w->sp++] = (walk_frame){.tree = c, .aliases = aliases, .pos = pos, .depth = d, .field = field, .hidden = hidden};
	return true;
}

// public_symbol is the kind a node of symbol sym reports (the runtime's
// ts_language_public_symbol).
static inline uint16_t public_symbol(const cx_language *l, uint16_t sym) {
	return sym == 65535 ? sym : ((const uint16_t *)l->public_symbol_map)[sym];
}

// walk writes t's visible nodes into out as flat_parse describes, reading
// the subtrees directly: what the runtime's cursor gives (walk_cursor) —
// the same nodes, kinds (aliases resolved to their public symbols), byte
// ranges and fields — without building a node, finding its parent and
// looking up its alias again for every question asked of it. -1 when it
// runs out of memory.
static int64_t walk(TSTree *t, const TSLanguage *language, ts_flat_node *out, uint32_t cap, const uint8_t *named, uint32_t nsyms) {
	walk_state w = {.l = (const cx_language *)language, .out = out, .cap = cap, .named = named, .nsyms = nsyms,
	                .stack_cap = 64, .depth_cap = 64};
	w.stack = malloc(w.stack_cap * sizeof *w.stack);
	w.prev = malloc(2 * w.depth_cap * sizeof(uint32_t));
	int64_t n = -1;
	if (!w.stack || !w.prev) goto done;
	w.parent = w.prev + w.depth_cap;
	w.prev[0] = UINT32_MAX;
	cx_subtree root = *(const cx_subtree *)t; // a TSTree begins with its root
	uint32_t pos = sub_padding(root);
	if (!walk_emit(&w, root, pos, public_symbol(w.l, SUB(root, symbol)), 0, 0)) goto done;
	if (sub_kids(root) > 0 && !walk_push(&w, root, pos, 1, false, 0)) goto done;
	while (w.sp > 0) {
		walk_frame *fr = &w.stack[w.sp - 1];
		const cx_heap *parent = fr->tree.ptr;
		if (fr->child == parent->child_count) {
			w.sp--;
			continue;
		}
		// The child iterator of the runtime's cursor, one step.
		cx_subtree c = ((const cx_subtree *)parent - parent->child_count)[fr->child];
		if (fr->child > 0) fr->pos += sub_padding(c);
		pos = fr->pos;
		fr->pos += sub_size(c);
		fr->child++;
		bool extra = SUB(c, extra), visible = SUB(c, visible);
		uint16_t alias = 0;
		uint32_t k = fr->structural;
		if (!extra) {
			if (fr->aliases) {
				alias = fr->aliases[k];
				visible |= alias != 0;
			}
			fr->structural++;
		}
		bool enter = sub_kids(c) > 0 && (visible || c.ptr->node.visible_child_count > 0);
		if (!visible && !enter) continue;
		// The field c fills: its own in its parent's production, or else
		// the one its hidden parent fills; an extra node fills none.
		uint16_t field = 0;
		if (!extra) {
			field = own_field(w.l, parent->node.production_id, k);
			if (!field && fr->hidden) field = fr->field;
		}
		uint32_t d = fr->depth;
		// fr is not used past a push, which may move the stack.
		if (visible && !walk_emit(&w, c, pos, public_symbol(w.l, alias ? alias : SUB(c, symbol)), field, d)) goto done;
		if (enter && !walk_push(&w, c, pos, visible ? d + 1 : d, !visible, visible ? 0 : field)) goto done;
	}
	n = w.n;
done:
	free(w.stack);
	free(w.prev);
	return n;
}

#endif // CX_SUBTREES

// walk_cursor writes t's visible nodes into out as flat_parse describes,
// with the runtime's tree cursor; -1 when it runs out of memory.
static int64_t walk_cursor(TSTree *t, ts_flat_node *out, uint32_t cap, const uint8_t *named, uint32_t nsyms) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	uint32_t depth = 0, stack_cap = 256, n = 0;
	// prev[d]: the last node seen at depth d under the current parent;
	// parent[d]: the node at depth d on the path from the root.
	uint32_t *prev = malloc(2 * stack_cap * sizeof(uint32_t));
	if (!prev) { ts_tree_cursor_delete(&c); return -1; }
	uint32_t *parent = prev + stack_cap;
	prev[0] = UINT32_MAX;
	for (;;) {
		TSNode nd = ts_tree_cursor_current_node(&c);
		if (n < cap) {
			ts_flat_node *o = &out[n];
			uint16_t sym = ts_node_symbol(nd);
			uint16_t field = depth > 0 ? ts_tree_cursor_current_field_id(&c) : 0;
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
			o->field = field > 255 ? 0 : (uint8_t)field;
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
				if (!np) { free(prev); ts_tree_cursor_delete(&c); return -1; }
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
			if (!ts_tree_cursor_goto_parent(&c)) goto walked;
			depth--;
		}
	}
walked:
	free(prev);
	ts_tree_cursor_delete(&c);
	return (int64_t)n;
}

// walk_tree walks t with walk where its layouts hold, and with
// walk_cursor elsewhere or when by_cursor asks for it.
static int64_t walk_tree(TSTree *t, const TSLanguage *lang, ts_flat_node *out, uint32_t cap,
                         const uint8_t *named, uint32_t nsyms, bool by_cursor) {
#if CX_SUBTREES
	if (!by_cursor) return walk(t, lang, out, cap, named, nsyms);
#endif
	return walk_cursor(t, out, cap, named, nsyms);
}

// give_back drops the whole pages inside [p, p+n) from the process's
// memory.
static void give_back(const void *p, size_t n) {
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), b = ((uintptr_t)p + n) & ~(page - 1);
	if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

// A grammar's parse table, as the runtime reads it: the first
// large_state_count states have a row of symbol_count entries in
// parse_table; each later ("small") state has a list of (value, symbols)
// groups in small_parse_table, which a lookup scans from the start, to
// its end for a symbol the state has no action on. Error recovery asks
// every state it tries about every token, so on code that keeps the
// parser recovering (C headers full of macros, say) those scans are most
// of a parse (docs/benchmarks.md). dense_language returns a copy of lang
// whose states are all large, their rows filled from the lists, so every
// lookup is one read and gives what the scan gave: the same trees, with
// the table's memory (states times symbols times two bytes) as the price.
// NULL when the language's layout is not one this file knows, or memory
// runs out.

// dense_bytes returns the size of lang's dense table, or 0 when
// dense_language would return NULL or lang itself.
static size_t dense_bytes(const TSLanguage *lang) {
	const cx_language *l = (const cx_language *)lang;
	size_t states = l->state_count, syms = l->symbol_count;
	if (l->abi_version != 14 && l->abi_version != 15) return 0;
	if (l->large_state_count >= states) return 0;    // dense already
	if (states * syms > UINT32_MAX / 2) return 0;     // the runtime indexes rows in 32 bits
	return states * syms * sizeof(uint16_t);
}

static const TSLanguage *dense_language(const TSLanguage *lang) {
	const cx_language *l = (const cx_language *)lang;
	if (!dense_bytes(lang)) return NULL;
	size_t head = l->abi_version == 15 ? sizeof(cx_language) : offsetof(cx_language, name);
	size_t states = l->state_count, syms = l->symbol_count;
	cx_language *d = calloc(1, sizeof *d);
	uint16_t *table = calloc(states * syms, sizeof *table);
	uint8_t *seen = malloc(syms);
	if (!d || !table || !seen) { free(d); free(table); free(seen); return NULL; }
	memcpy(d, l, head);
	memcpy(table, l->parse_table, (size_t)l->large_state_count * syms * sizeof *table);
	const uint16_t *small_end = l->small_parse_table;
	for (size_t st = l->large_state_count; st < states; st++) {
		const uint16_t *data = &l->small_parse_table[l->small_parse_table_map[st - l->large_state_count]];
		uint16_t *row = &table[st * syms];
		unsigned groups = *data++;
		memset(seen, 0, syms);
		for (unsigned g = 0; g < groups; g++) {
			uint16_t value = *data++, n = *data++;
			for (unsigned k = 0; k < n; k++, data++) {
				// The scan stops at a symbol's first group.
				if (*data < syms && !seen[*data]) {
					seen[*data] = 1;
					row[*data] = value;
				}
			}
		}
		if (data > small_end) small_end = data;
	}
	free(seen);
	d->parse_table = table;
	d->large_state_count = l->state_count;
	// The runtime reads the copy from now on: the pages of the tables it
	// was made from go back (they are in the read-only data of the
	// executable, which no process writes, so a page read again, by
	// another user of the grammar, comes from the file as it was).
	give_back(l->parse_table, (size_t)l->large_state_count * syms * sizeof *table);
	give_back(l->small_parse_table, (size_t)(small_end - l->small_parse_table) * sizeof *table);
	give_back(l->small_parse_table_map, (states - l->large_state_count) * sizeof *l->small_parse_table_map);
	return (const TSLanguage *)d;
}

// tables_differ returns the first state << 16 | symbol at which the
// runtime's ts_language_next_state answers differently for a and b, or
// -1 when it never does: how the tests check dense_language against the
// runtime's own reading of the grammar's lists.
static int64_t tables_differ(const TSLanguage *a, const TSLanguage *b) {
	const cx_language *l = (const cx_language *)a;
	for (uint32_t st = 0; st < l->state_count; st++) {
		for (uint32_t sym = 0; sym < l->symbol_count; sym++) {
			if (ts_language_next_state(a, st, sym) != ts_language_next_state(b, st, sym)) return (int64_t)st << 16 | sym;
		}
	}
	return -1;
}

// use_allocator routes the tree-sitter runtime's allocations to the
// arena hooks above, which use libc outside an arena parse, instead of
// through go-tree-sitter's Go callbacks, which only call malloc and free
// themselves; this saves a cgo callback per allocation.
static void use_allocator(void) { ts_set_allocator(cx_malloc, cx_calloc, cx_realloc, cx_free); }
*/
import "C"

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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

// Available reports whether this build can parse: true when it was built
// with cgo, which links the tree-sitter runtime and grammars in.
const Available = true

func init() {
	// Package initialisation order runs go-tree-sitter's init (which
	// installs its Go allocator callbacks) before this one.
	C.use_allocator()
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

// loadGrammar reads l's kind and field tables.
func loadGrammar(l Language) (*Grammar, error) {
	fn, ok := grammarPointers[l]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownLanguage, string(l))
	}
	ptr := fn()
	tl := sitter.NewLanguage(ptr)
	n := int(tl.NodeKindCount())
	g := &Grammar{lang: l, ptr: ptr, kinds: make([]string, n), named: make([]uint8, n), byName: make(map[string][]uint16, n)}
	// The names are the grammar's static strings, not copies.
	names, lens, types := make([]*C.char, n), make([]uint32, n), make([]uint8, n)
	if n > 0 {
		C.kind_tables((*C.TSLanguage)(ptr), C.uint32_t(n), &names[0], (*C.uint32_t)(&lens[0]), (*C.uint8_t)(&types[0]))
	}
	const regular, anonymous = 0, 1 // TSSymbolType
	for i := range n {
		var name string
		if names[i] != nil {
			name = unsafe.String((*byte)(unsafe.Pointer(names[i])), lens[i])
		}
		g.kinds[i] = name
		g.byName[name] = append(g.byName[name], uint16(i))
		switch {
		case types[i] == regular:
			g.named[i] = 1
		case types[i] == anonymous && isWord(name):
			g.keywords = append(g.keywords, name)
		}
	}
	g.byName["ERROR"] = append(g.byName["ERROR"], ErrorKind)
	nf := min(int(tl.FieldCount()), 255)
	g.dense.bytes = int64(C.dense_bytes((*C.TSLanguage)(ptr)))
	g.fields = make([]string, nf+1)
	g.fieldIDs = make(map[string]uint16, nf)
	for i := 1; i <= nf; i++ {
		g.fields[i] = tl.FieldNameForId(uint16(i))
		g.fieldIDs[g.fields[i]] = uint16(i)
	}
	return g, nil
}

// A denseTable is a grammar's language with the parse table made dense
// (see dense_language), made once the grammar's parses have read a
// quarter of the table's size in source (denseAfter): a search of a few
// files does not pay for a table that can take megabytes to fill, and
// its memory stays within four times the source read before it.
type denseTable struct {
	bytes int64        // the table's size; 0 when it cannot be made dense
	read  atomic.Int64 // bytes of source parsed before it was made
	once  sync.Once
	lang  unsafe.Pointer // const TSLanguage*, read atomically; nil until made, and when it could not be
}

const denseAfter = 4

func (d *denseTable) load() *C.TSLanguage { return (*C.TSLanguage)(atomic.LoadPointer(&d.lang)) }

// language returns the language a parse of n bytes of source is to read
// with: the dense one once made, the grammar's own before.
func (g *Grammar) language(n int) *C.TSLanguage {
	if d := g.dense.load(); d != nil {
		return d
	}
	if g.dense.bytes > 0 && denseAfter*g.dense.read.Add(int64(n)) >= g.dense.bytes {
		if d := g.makeDense(); d != nil {
			return d
		}
	}
	return (*C.TSLanguage)(g.ptr)
}

// makeDense makes the dense language now, if it can be made, and
// returns it (nil when it cannot).
func (g *Grammar) makeDense() *C.TSLanguage {
	g.dense.once.Do(func() {
		if g.dense.bytes > 0 {
			atomic.StorePointer(&g.dense.lang, unsafe.Pointer(C.dense_language((*C.TSLanguage)(g.ptr))))
		}
	})
	return g.dense.load()
}

// denseDiffers makes g's dense language and reports the first state and
// symbol at which it and the grammar's own lead the runtime to different
// states (see tables_differ); ok when there is none.
func denseDiffers(g *Grammar) (state, symbol int, ok bool) {
	d := g.makeDense()
	if d == nil {
		return 0, 0, false
	}
	n := int64(C.tables_differ((*C.TSLanguage)(g.ptr), d))
	if n < 0 {
		return 0, 0, true
	}
	return int(n >> 16), int(n & 0xffff), false
}

// A Parser parses sources of one language. It is not safe for concurrent
// use; [Parse] keeps a pool of them for callers that parse from many
// goroutines.
type Parser struct {
	g       *Grammar
	p       *C.TSParser
	arena   *C.cx_arena // nil when no address space could be reserved: p parses then
	cleanup runtime.Cleanup
	buf     []node // scratch the C walk writes into
	ranges  []C.TSRange
	// byCursor walks trees with the runtime's cursor rather than reading
	// their subtrees: the reference TestWalkMatchesCursor compares with.
	byCursor bool
}

// NewParser returns a parser for l. Its C memory is released by
// [Parser.Close], or when the parser is garbage collected.
func NewParser(l Language) (*Parser, error) { return newParser(l, arenaBytes) }

// newParser returns a parser for l whose arena reserves arena bytes (none
// when 0).
func newParser(l Language, arena int) (*Parser, error) {
	g, err := GrammarOf(l)
	if err != nil {
		return nil, err
	}
	return grammarParser(g, arena)
}

// grammarParser returns a parser for g whose arena reserves arena bytes.
func grammarParser(g *Grammar, arena int) (*Parser, error) {
	l := g.lang
	cp := C.ts_parser_new()
	if cp == nil {
		return nil, fmt.Errorf("%w: tree-sitter could not allocate a parser", ErrUnavailable)
	}
	if !C.ts_parser_set_language(cp, (*C.TSLanguage)(g.ptr)) {
		C.ts_parser_delete(cp)
		return nil, fmt.Errorf("%w: the %s grammar does not fit the tree-sitter runtime", ErrUnavailable, l)
	}
	p := &Parser{g: g, p: cp}
	if arena > 0 {
		p.arena = C.cx_arena_new(C.size_t(arena))
	}
	p.cleanup = runtime.AddCleanup(p, func(c cParser) { c.delete() }, cParser{cp, p.arena})
	return p, nil
}

// arenaBytes is the address space a parser reserves for its arena (see
// parse_cgo.go's C part): pages are used only as a parse needs them, and
// a parse that fills it goes on in libc memory.
const arenaBytes = 256 << 20

// arenaMaxSource is the largest source parsed in the arena. An arena
// reuses the small blocks a parse frees but not the large ones (the
// arrays it grows), so it holds somewhat more than malloc would: 12 MB
// for a 300 KB Go file, 21 MB for a 1 MB C header full of syntax errors;
// a 4 MiB source stays well within arenaBytes. A larger source is parsed
// in libc memory.
const arenaMaxSource = 4 << 20

// cParser is a Parser's C memory.
type cParser struct {
	p     *C.TSParser
	arena *C.cx_arena
}

func (c cParser) delete() {
	C.ts_parser_delete(c.p)
	C.cx_arena_delete(c.arena)
}

// Language returns the parser's language.
func (p *Parser) Language() Language { return p.g.lang }

// Close releases the parser's C memory; the parser must not be used
// after.
func (p *Parser) Close() {
	if p.p != nil {
		p.cleanup.Stop()
		cParser{p.p, p.arena}.delete()
		p.p, p.arena = nil, nil
	}
}

// What an arena keeps of its memory between parses (arena_reset), and
// once its parser goes idle (Parser.idle).
const (
	arenaKeep = C.ARENA_KEEP
	arenaIdle = C.ARENA_IDLE
)

// idle gives back the arena memory a parser kept between parses past what
// an idle one keeps, for a parser put away until some later parse.
func (p *Parser) idle() { C.arena_idle(p.arena) }

// arenaHeld is how much of its arena a parser holds between parses.
func (p *Parser) arenaHeld() int {
	if p.arena == nil {
		return 0
	}
	return int(p.arena.high)
}

// arenaBase is the address where a parser's arena begins, 0 without one.
func (p *Parser) arenaBase() uintptr {
	if p.arena == nil {
		return 0
	}
	return uintptr(unsafe.Pointer(p.arena.base))
}

// Parse parses src whole. The tree shares src.
func (p *Parser) Parse(src []byte) (*Tree, error) { return p.ParseSpans(src, nil) }

// ParseSpans parses only the given spans of src, as if the bytes between
// them were not there, keeping every node at its offset in src (tree-sitter's
// included ranges); no spans means the whole of src. Spans must be in
// order, within src, and must not overlap; adjacent spans are joined. The
// tree shares src.
func (p *Parser) ParseSpans(src []byte, spans []Span) (*Tree, error) {
	if err := p.flatten(src, spans, &p.buf); err != nil {
		return nil, err
	}
	t := &Tree{g: p.g, src: src, nodes: slices.Clone(p.buf)}
	t.broken = brokenNodes(t.nodes)
	return t, nil
}

// ParseSpansInto parses as [Parser.ParseSpans] does, into t, whose node
// memory it reuses: a caller that parses many sources one after another
// and is done with each tree before the next allocates for the largest
// rather than for every one. t is a new(Tree) or one an earlier call
// filled; what it held before is gone, so nothing else may be using it.
// On an error t is left with no nodes.
func (p *Parser) ParseSpansInto(t *Tree, src []byte, spans []Span) error {
	nodes := t.nodes
	*t = Tree{}
	if err := p.flatten(src, spans, &nodes); err != nil {
		t.nodes = nodes[:0] // kept for the next call
		return err
	}
	*t = Tree{g: p.g, src: src, nodes: nodes, broken: brokenNodes(nodes)}
	return nil
}

// brokenNodes reports whether an ERROR or a MISSING node is among nodes.
func brokenNodes(nodes []node) bool {
	for i := range nodes {
		if nodes[i].flags&(flagError|flagMissing) != 0 {
			return true
		}
	}
	return false
}

// flatten parses src (only its spans when there are any) and sets *out
// to the tree's nodes, in *out's array when it is large enough and in a
// larger one that *out then keeps otherwise.
func (p *Parser) flatten(src []byte, spans []Span, out *[]node) error {
	if p.p == nil {
		return fmt.Errorf("%w: parser used after Close", ErrParse)
	}
	if len(src) >= 1<<31 {
		return fmt.Errorf("%w: %d bytes is more than tree-sitter reads", ErrParse, len(src))
	}
	if err := p.setRanges(src, spans); err != nil {
		return err
	}
	var ranges *C.TSRange
	if len(p.ranges) > 0 {
		ranges = &p.ranges[0]
	}
	named := p.g.named
	if guess := len(src)/3 + 64; cap(*out) < guess {
		*out = make([]node, guess)
	}
	srcPtr := (*C.char)(unsafe.Pointer(&emptySource[0]))
	if len(src) > 0 {
		srcPtr = (*C.char)(unsafe.Pointer(&src[0]))
	}
	arena := p.arena
	if len(src) > arenaMaxSource {
		arena = nil
	}
	lang := p.g.language(len(src))
	buf := (*out)[:cap(*out)]
	var more *C.ts_flat_node
	n := int64(C.flat_parse(p.p, arena, lang, srcPtr, C.uint32_t(len(src)), ranges, C.uint32_t(len(p.ranges)),
		(*C.ts_flat_node)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)),
		(*C.uint8_t)(unsafe.Pointer(&named[0])), C.uint32_t(len(named)), &more, C.bool(p.byCursor)))
	if n < 0 {
		*out = buf[:0]
		return fmt.Errorf("%w: tree-sitter returned no tree", ErrParse)
	}
	if more != nil {
		grown := make([]node, n, n+n/4)
		copy(grown, unsafe.Slice((*node)(unsafe.Pointer(more)), n))
		C.free(unsafe.Pointer(more))
		*out = grown
		return nil
	}
	*out = buf[:n]
	return nil
}

var emptySource = []byte{0}

// setRanges turns spans into tree-sitter's included ranges, with their
// points (rows by '\n', columns in bytes).
func (p *Parser) setRanges(src []byte, spans []Span) error {
	p.ranges = p.ranges[:0]
	row, lineStart, at := 0, 0, 0
	point := func(off int) C.TSPoint {
		seg := src[at:off]
		if k := bytes.Count(seg, newline); k > 0 {
			row += k
			lineStart = at + bytes.LastIndexByte(seg, '\n') + 1
		}
		at = off
		return C.TSPoint{row: C.uint32_t(row), column: C.uint32_t(off - lineStart)}
	}
	for _, s := range spans {
		if s.Start < at || s.End < s.Start || s.End > len(src) {
			return fmt.Errorf("%w: spans must be in order, within the source and not overlap", ErrParse)
		}
		if n := len(p.ranges); n > 0 && int(p.ranges[n-1].end_byte) == s.Start {
			r := &p.ranges[n-1]
			r.end_byte, r.end_point = C.uint32_t(s.End), point(s.End)
			continue
		}
		start := point(s.Start)
		p.ranges = append(p.ranges, C.TSRange{
			start_point: start,
			end_point:   point(s.End),
			start_byte:  C.uint32_t(s.Start),
			end_byte:    C.uint32_t(s.End),
		})
	}
	return nil
}

var newline = []byte{'\n'}

// pools keeps idle parsers by language for Parse.
var pools = func() map[Language]*sync.Pool {
	m := map[Language]*sync.Pool{}
	for l := range languages {
		m[l] = &sync.Pool{}
	}
	return m
}()

// Parse parses src as l with a pooled parser; it is safe for concurrent
// use. The tree shares src.
func Parse(l Language, src []byte) (*Tree, error) {
	p, put, err := pooled(l)
	if err != nil {
		return nil, err
	}
	defer put()
	return p.Parse(src)
}

// ParseFunc parses src as l, as [Parse] does, and calls fn with the tree,
// which is valid only until fn returns: its nodes are the pooled parser's
// scratch, which its next parse writes over, and the tree has none once
// fn returns. A caller that reads each tree once and keeps nothing of it
// (extraction keeps the strings and positions it reads) allocates no node
// memory per parse. It is safe for concurrent use.
func ParseFunc(l Language, src []byte, fn func(*Tree)) error {
	p, put, err := pooled(l)
	if err != nil {
		return err
	}
	defer put()
	if err := p.flatten(src, nil, &p.buf); err != nil {
		return err
	}
	t := &Tree{g: p.g, src: src, nodes: p.buf, broken: brokenNodes(p.buf)}
	defer func() { t.nodes = nil }()
	fn(t)
	return nil
}

// pooled returns an idle parser for l, from its pool or new, and the
// function that puts it back.
func pooled(l Language) (*Parser, func(), error) {
	pool := pools[l]
	if pool == nil {
		return nil, nil, fmt.Errorf("%w %q", ErrUnknownLanguage, string(l))
	}
	p, _ := pool.Get().(*Parser)
	if p == nil {
		var err error
		if p, err = NewParser(l); err != nil {
			return nil, nil, err
		}
	}
	return p, func() {
		p.idle()
		pool.Put(p)
	}, nil
}
