package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/codecortex/codecortex/symbols"
)

// ErrEmptyQuery is returned for a search or a lookup with nothing to look
// for.
var ErrEmptyQuery = errors.New("index: empty query")

// A snapshot is the index a query reads, just refreshed.
type snapshot struct {
	st      *store
	tx      *sql.Tx // the read transaction the queries run in; nil: none
	fr      Freshness
	pending map[string]bool // paths changed on disk and not indexed as they are
}

// query runs one of the store's read queries, in the snapshot's
// transaction when it has one (prepared there: the store's prepared
// statements would take another connection).
func (s snapshot) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if s.tx == nil {
		return s.st.query(ctx, q, args...)
	}
	return s.tx.QueryContext(ctx, q, args...)
}

// A speculation is a query run while the refresh before it walks the
// tree, for a process that has just opened the database and found a
// settled record in it (see settledRecord): the query reads the database
// as of that record's generation, in a read transaction, and its answer
// stands only if the refresh then finds the record still holds (nothing
// to do, the database still at that generation). Otherwise it is
// cancelled and the query runs again after the refresh.
type speculation struct {
	st     *store
	gen    int64 // the generation the query must read
	cancel context.CancelFunc
	done   chan struct{}
	ok     bool // the query ran to its end at gen; read once done is closed
	// valid reports that the refresh found the index as of gen current.
	// Set under the Index's mu before the query's answer is used.
	valid bool
}

// speculate starts q on st as of generation gen. ix.mu is held.
func (ix *Index) speculate(ctx context.Context, st *store, gen int64, q func(snapshot) error) *speculation {
	sctx, cancel := context.WithCancel(ctx)
	sp := &speculation{st: st, gen: gen, cancel: cancel, done: make(chan struct{})}
	st.refs++ // released by read, once the speculation is over
	st.spec = sp
	go func() {
		defer close(sp.done)
		tx, err := st.db.BeginTx(sctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return
		}
		defer tx.Rollback()
		var g int64
		if err := tx.QueryRowContext(sctx, sqlGeneration).Scan(&g); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return
		}
		if g != gen {
			return
		}
		if err := q(snapshot{st: st, tx: tx, pending: map[string]bool{}}); err != nil {
			return
		}
		sp.ok = true
	}()
	return sp
}

// settle ends a speculation: it waits for the query and reports whether
// its answer stands.
func (sp *speculation) settle() bool {
	if !sp.valid {
		sp.cancel()
	}
	<-sp.done
	sp.cancel()
	return sp.valid && sp.ok
}

// prepare activates the current identity's database and refreshes it
// within budget (negative: no bound), rebuilding a damaged database once.
// When spec is not nil and the database was just opened with a settled
// record, spec starts at once, speculatively (see speculation), and the
// speculation is returned: the caller must settle it and release its
// store.
func (ix *Index) prepare(ctx context.Context, budget time.Duration, prefer []string, spec func(snapshot) error) (snapshot, *speculation, error) {
	if ctx.Value(updateKey{}) == nil { // an Update gives way to the others
		ix.lockWaiting()
	} else {
		ix.mu.Lock()
	}
	defer ix.mu.Unlock()
	var deadline time.Time
	if budget >= 0 {
		deadline = time.Now().Add(budget)
	}
	st, id, diags, err := ix.activate(ctx)
	if err != nil {
		return snapshot{}, nil, err
	}
	pre := st.takePre()
	var sp *speculation
	if spec != nil && pre != nil && pre.settled != "" {
		sp = ix.speculate(ctx, st, pre.gen, spec)
	}
	fr, pending, err := ix.refresh(ctx, st, deadline, prefer, pre)
	if err != nil && isCorrupt(err) {
		st, err = ix.rebuild(ctx, st, id, err, &diags)
		if err == nil {
			fr, pending, err = ix.refresh(ctx, st, deadline, prefer, nil)
		}
	}
	if sp != nil {
		sp.st.spec = nil
		sp.valid = err == nil && st == sp.st && fr.State == Fresh && fr.Indexed == 0 && fr.Removed == 0 &&
			st.settledSeq != 0 && st.settledGen == sp.gen
	}
	if err != nil {
		if sp != nil {
			sp.settle()
			ix.unref(sp.st)
		}
		return snapshot{}, nil, fmt.Errorf("index: refreshing: %w", err)
	}
	fr.Identity = id
	fr.Diagnostics = append(diags, fr.Diagnostics...)
	st.refs++
	return snapshot{st: st, fr: fr, pending: pending}, sp, nil
}

// rebuild replaces a damaged database with a new, empty one. ix.mu is
// held.
func (ix *Index) rebuild(ctx context.Context, st *store, id Identity, cause error, diags *[]string) (*store, error) {
	ix.retire(st)
	*diags = append(*diags, "the index database was damaged ("+cause.Error()+"); it was rebuilt")
	nst, more, err := ix.create(ctx, id, st.fi)
	*diags = append(*diags, more...)
	if err != nil {
		return nil, err
	}
	nst.key, nst.extract = id.Key(), ix.extract
	ix.stores[nst.key] = nst
	return nst, nil
}

// read runs a query against a fresh snapshot; a query that finds the
// database damaged rebuilds it and runs once more. With speculate, a
// process that has just opened the database may run q while the refresh
// walks the tree (see speculation); q must then set the whole answer
// each time it runs, as it may run twice. prefer are the words the query
// looks for: when the budget cannot cover a large change (a new clone),
// only the files that mention one of them are indexed (see [Focus]);
// without them, the names in ctx (see [WithNames]).
func (ix *Index) read(ctx context.Context, budget time.Duration, prefer []string, speculate bool, q func(snapshot) error) (Freshness, error) {
	ix.life.RLock()
	defer ix.life.RUnlock()
	if len(prefer) == 0 {
		prefer = namesFrom(ctx)
	}
	var spec func(snapshot) error
	if speculate {
		spec = q
	}
	snap, sp, err := ix.prepare(ctx, budget, prefer, spec)
	if err != nil {
		return Freshness{}, err
	}
	answered := false
	if sp != nil {
		if answered = sp.settle(); answered {
			ix.speculated.Add(1)
		}
		ix.release(sp.st)
	}
	if !answered {
		err = q(snap)
	}
	ix.release(snap.st)
	if err != nil && isCorrupt(err) {
		ix.mu.Lock()
		var diags []string
		var rerr error
		if ix.stores[snap.st.key] == snap.st { // not rebuilt by another query meanwhile
			_, rerr = ix.rebuild(ctx, snap.st, snap.fr.Identity, err, &diags)
		}
		ix.mu.Unlock()
		if rerr != nil {
			return snap.fr, rerr
		}
		if snap, _, err = ix.prepare(ctx, budget, prefer, nil); err != nil {
			return Freshness{}, err
		}
		snap.fr.Diagnostics = append(diags, snap.fr.Diagnostics...)
		err = q(snap)
		ix.release(snap.st)
	}
	return snap.fr, err
}

// Refresh brings the index up to date with the disk within the query
// budget, as every query does first, and reports its freshness.
func (ix *Index) Refresh(ctx context.Context) (Freshness, error) {
	return ix.read(ctx, ix.opts.budget(), nil, false, func(snapshot) error { return nil })
}

// Update checks the database in full (PRAGMA quick_check, rebuilding it
// when damaged) and brings the index fully up to date, without a time
// bound (ctx still cancels it), calling Options.Progress as it goes. It is
// what a cold build or `cortex index` runs. A query of another goroutine
// on this Index (a server answering while it indexes in the background)
// does not wait for all of it: the update stops writing after the files
// it holds, lets the query refresh and answer, and goes on. It stops when
// the index is fresh, or after a pass that could write no file: the files
// still pending then change faster than they are read.
func (ix *Index) Update(ctx context.Context) (Freshness, error) {
	return ix.UpdateWhile(ctx, nil)
}

// UpdateWhile is Update, calling meanwhile once every file is written.
// What is left then changes no answer but makes later queries faster: the
// secondary indexes a cold update makes last, and the merge of the
// full-text index's segments after a large one. That work runs while
// meanwhile does (a cold `cortex index` builds the project graph then),
// and UpdateWhile returns when both are done. The queries meanwhile makes
// are answered from the rows written, only more slowly where they would
// use those indexes; one that finds a file changed again waits for the
// work to end before it writes. meanwhile is not called when the update
// fails.
func (ix *Index) UpdateWhile(ctx context.Context, meanwhile func()) (Freshness, error) {
	start := time.Now()
	diags, err := ix.verify(ctx)
	if err != nil {
		return Freshness{}, err
	}
	up := &updateProgress{}
	// Every changed file, whatever names the caller's context carries.
	rctx := context.WithValue(context.WithValue(ctx, updateKey{}, up), namesKey{}, []string(nil))
	var out Freshness
	for {
		before := up.done
		fr, err := ix.read(rctx, -1, nil, false, func(snapshot) error { return nil })
		indexed, removed := out.Indexed+fr.Indexed, out.Removed+fr.Removed
		out = fr
		out.Indexed, out.Removed = indexed, removed
		if err != nil || fr.State == Fresh || ctx.Err() != nil || (up.done == before && fr.Removed == 0) {
			end := time.Now()
			if err == nil {
				end, err = ix.finish(ctx, up.done >= optimizeAfter, meanwhile)
			}
			out.Elapsed = end.Sub(start)
			out.Diagnostics = append(diags, out.Diagnostics...)
			return out, err
		}
		// The pass gave way to a query: let it take the index first.
		for i := 0; i < maxYieldWaits && ix.waiting.Load() > 0 && ctx.Err() == nil; i++ {
			time.Sleep(time.Millisecond)
		}
	}
}

// An [Index.Update] that gives way to a query indexes at least
// updateAtLeast files first, and then waits up to maxYieldWaits
// milliseconds for the queries waiting to take the index.
const (
	updateAtLeast = 8
	maxYieldWaits = 100
)

// updateKey is the context key of an Update's progress, which its rounds
// add to.
type updateKey struct{}

// updateProgress is what the rounds of one Update have indexed so far,
// and the most files they had to.
type updateProgress struct{ done, total int }

// progress calls Options.Progress with done of total files of one
// indexing pass, counted from the start of the Update it is a round of,
// if any.
func (ix *Index) progress(ctx context.Context, done, total int) {
	if ix.opts.Progress == nil {
		return
	}
	if up, ok := ctx.Value(updateKey{}).(*updateProgress); ok {
		up.total = max(up.total, up.done+total)
		done, total = up.done+done, up.total
	}
	ix.opts.Progress(done, total)
}

// finish ends an Update whose files are all written: it makes the
// secondary indexes that are missing and, with merge, merges the
// full-text index's segments (which a large update leaves many of), on a
// goroutine of its own while meanwhile runs (see UpdateWhile). It
// returns when both are done, and when the work ended.
func (ix *Index) finish(ctx context.Context, merge bool, meanwhile func()) (time.Time, error) {
	done, err := ix.startFinishing(ctx, merge)
	end := time.Now()
	if err != nil {
		return end, err
	}
	if meanwhile != nil {
		meanwhile()
	}
	if done == nil {
		return end, nil
	}
	f := <-done
	return f.end, f.err
}

// finished is how the finishing work of an Update ended, and when.
type finished struct {
	end time.Time
	err error
}

// testHookFinishing, when set, runs first in the finishing work.
var testHookFinishing func()

// startFinishing starts the finishing work of an Update, if there is
// any, under the writer lock, and returns the channel of its outcome. It
// holds ix.life and a reference to the store until the work ends, but not
// ix.mu: the queries of the same process go on meanwhile, and those that
// would write wait for ix.finishing (see lock).
func (ix *Index) startFinishing(ctx context.Context, merge bool) (<-chan finished, error) {
	ix.life.RLock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	st, _, _, err := ix.activate(ctx)
	missing := false
	if err == nil {
		missing, err = indexesMissing(ctx, st.db)
	}
	ok := false
	if err == nil && (missing || merge) {
		ok, err = ix.lock(ctx, time.Time{})
	}
	if !ok {
		ix.life.RUnlock()
		return nil, err
	}
	st.refs++
	ch := make(chan struct{})
	ix.finishing.Store(&ch)
	done := make(chan finished, 1)
	go func() {
		defer ix.life.RUnlock()
		if testHookFinishing != nil {
			testHookFinishing()
		}
		var err error
		if missing {
			err = st.makeIndexes(ctx)
		}
		if err == nil && merge {
			_, err = st.db.ExecContext(ctx, sqlMerge)
		}
		end := time.Now()
		// Let go of the lock before saying so: a goroutine that sees no
		// Update finishing may take it at once.
		ix.unlock()
		ix.finishing.Store(nil)
		close(ch)
		ix.release(st)
		done <- finished{end, err}
	}()
	return done, nil
}

// sqlMerge merges the full-text index's segments into one.
const sqlMerge = "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')"

// verify runs the full check on the active identity's database and
// rebuilds it when damaged.
func (ix *Index) verify(ctx context.Context) ([]string, error) {
	ix.life.RLock()
	defer ix.life.RUnlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	st, id, diags, err := ix.activate(ctx)
	if err != nil {
		return diags, err
	}
	problems, err := st.quickCheck(ctx)
	if err != nil {
		return diags, err
	}
	if len(problems) > 0 {
		_, err = ix.rebuild(ctx, st, id, fmt.Errorf("quick_check: %s", strings.Join(problems, "; ")), &diags)
	}
	return diags, err
}

// A Definition is a definition the index holds.
type Definition struct {
	symbols.Symbol
	// Path is the file, relative to the project root, slash-separated.
	Path     string `json:"path"`
	Language string `json:"language"`
	// Match says how the name matched: "exact" (name and qualifiers as
	// written), "case-insensitive", or "name" (the qualifiers matched
	// nothing, the name alone did).
	Match string `json:"match,omitempty"`
	// Stale reports that the file changed on disk since it was indexed and
	// the refresh has not reached it yet: the ranges may be out of date.
	Stale bool `json:"stale,omitempty"`
}

// QualifiedName returns the definition's name with its package and
// container: "pkg.Type.Method".
func (d *Definition) QualifiedName() string {
	var parts []string
	for _, p := range []string{d.Package, normContainer(d.Container), d.Name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}

// A LookupResult is the answer to [Index.Lookup].
type LookupResult struct {
	Query       string       `json:"query"`
	Definitions []Definition `json:"definitions"`
	Freshness   Freshness    `json:"freshness"`
}

// MaxDefinitions bounds a lookup's answer: Lookup returns at most this
// many definitions.
const MaxDefinitions = 200

// Lookup answers "where is NAME defined?" from the symbols the extractor
// found: NAME may be a plain name, "Type.Method", "package.Name" or
// "package.Type.Method" (also with ::, # or ->, and Go's "(*T).M"). The
// definitions whose name and qualifiers match as written come first; when
// there are none, those that match ignoring case; when the qualifiers
// match nothing, the definitions of the name alone. Every definition
// carries its package. The index is refreshed first.
func (ix *Index) Lookup(ctx context.Context, name string) (LookupResult, error) {
	res := LookupResult{Query: name, Definitions: []Definition{}}
	nq, ok := parseName(name)
	if !ok {
		return res, fmt.Errorf("%w: %q is not a name", ErrEmptyQuery, name)
	}
	fr, err := ix.read(ctx, ix.opts.budget(), []string{name}, true, func(s snapshot) error {
		defs, err := lookup(ctx, s, nq)
		res.Definitions = defs
		return err
	})
	res.Freshness = fr
	return res, err
}

// An Alias is a place where a file binds a name to a definition of
// another name: import { name as alias } or export { name as alias } from
// a module, from module import name as alias, use module::name as alias.
type Alias struct {
	// Path is the file that binds the alias; Line and Column where the
	// binding is written (one-based).
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Module is the module the binding names, as written; Name the name
	// it binds to the alias there; As the alias.
	Module string `json:"module"`
	Name   string `json:"name"`
	As     string `json:"as"`
}

// maxAliases bounds the bindings Aliases returns.
const maxAliases = 64

// Aliases returns where the project's files bind alias to another name
// of a module (at most maxAliases, in path order), with the freshness of
// what it read. A plain import of a module as alias (import x as np,
// import * as ns) binds no name and is not one. The index is refreshed
// first.
func (ix *Index) Aliases(ctx context.Context, alias string) ([]Alias, Freshness, error) {
	out := []Alias{}
	nq, ok := parseName(alias)
	if !ok || len(nq.quals) > 0 {
		return out, Freshness{}, fmt.Errorf("%w: %q is not a plain name", ErrEmptyQuery, alias)
	}
	fr, err := ix.read(ctx, ix.opts.budget(), []string{alias}, true, func(s snapshot) error {
		out = out[:0]
		rs, err := s.query(ctx, `SELECT f.path, i.start_line, i.start_col, i.path, i.name
			FROM imports i JOIN files f ON f.id = i.file_id
			WHERE i.alias = ?1 AND i.name NOT IN ('', '*', 'default', ?1) AND f.verified = 1
			ORDER BY f.path, i.id LIMIT ?2`, nq.name, maxAliases)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			a := Alias{As: nq.name}
			if err := rs.Scan(&a.Path, &a.Line, &a.Column, &a.Module, &a.Name); err != nil {
				return err
			}
			out = append(out, a)
		}
		return rs.Err()
	})
	return out, fr, err
}

const symbolColumns = `s.name, s.kind, s.container, s.package, s.signature, s.exported,
	s.name_line, s.name_col, s.name_eline, s.name_ecol, s.name_byte, s.name_ebyte,
	s.start_line, s.start_col, s.end_line, s.end_col, s.start_byte, s.end_byte, s.doc_line,
	f.path, f.language`

func scanDefinition(rs *sql.Rows) (Definition, error) {
	var d Definition
	n, r := &d.NameRange, &d.Range
	var kind string
	err := rs.Scan(&d.Name, &kind, &d.Container, &d.Package, &d.Signature, &d.Exported,
		&n.StartLine, &n.StartColumn, &n.EndLine, &n.EndColumn, &n.StartByte, &n.EndByte,
		&r.StartLine, &r.StartColumn, &r.EndLine, &r.EndColumn, &r.StartByte, &r.EndByte, &d.DocLine,
		&d.Path, &d.Language)
	d.Kind = symbols.Kind(kind)
	return d, err
}

func lookup(ctx context.Context, s snapshot, nq nameQuery) ([]Definition, error) {
	byName := func(col, val string) ([]Definition, error) {
		rs, err := s.query(ctx, `SELECT `+symbolColumns+`
			FROM symbols s JOIN files f ON f.id = s.file_id
			WHERE s.`+col+` = ? AND f.verified = 1 LIMIT 5000`, val)
		if err != nil {
			return nil, err
		}
		defer rs.Close()
		var out []Definition
		for rs.Next() {
			d, err := scanDefinition(rs)
			if err != nil {
				return nil, err
			}
			d.Stale = s.pending[d.Path]
			out = append(out, d)
		}
		return out, rs.Err()
	}
	exact, err := byName("name", nq.name)
	if err != nil {
		return nil, err
	}
	if out := qualified(exact, nq, false, "exact"); len(out) > 0 {
		return sortDefinitions(out), nil
	}
	folded, err := byName("lname", strings.ToLower(nq.name))
	if err != nil {
		return nil, err
	}
	if out := qualified(folded, nq, true, "case-insensitive"); len(out) > 0 {
		return sortDefinitions(out), nil
	}
	if len(nq.quals) > 0 {
		all := exact
		if len(all) == 0 {
			all = folded
		}
		for i := range all {
			all[i].Match = "name"
		}
		return sortDefinitions(all), nil
	}
	return []Definition{}, nil
}

// qualified keeps the definitions whose qualifiers match nq's: the last
// qualifier names the container (or, for a top-level definition, the
// package, module or file), the ones before it the package.
func qualified(defs []Definition, nq nameQuery, fold bool, match string) []Definition {
	eq := func(a, b string) bool {
		if fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	var out []Definition
	for _, d := range defs {
		if fold || d.Name == nq.name {
			if ok := qualsMatch(d, nq.quals, eq); ok {
				d.Match = match
				out = append(out, d)
			}
		}
	}
	return out
}

func qualsMatch(d Definition, quals []string, eq func(a, b string) bool) bool {
	if len(quals) == 0 {
		return true
	}
	last := quals[len(quals)-1]
	outer := quals[:len(quals)-1]
	container := normContainer(d.Container)
	// A nested container (Rack.Response, a Rust mod's type) is named by
	// its innermost part; the parts before it may stand for outer
	// qualifiers, as the package may.
	parts := strings.FieldsFunc(container, func(r rune) bool { return r == '.' || r == ':' })
	switch {
	case len(parts) > 0 && (eq(container, last) || eq(parts[len(parts)-1], last)):
		parts = parts[:len(parts)-1]
	case container == "" && packageMatches(d, last, eq):
	default:
		return false
	}
	for i := len(outer) - 1; i >= 0; i-- {
		q := outer[i]
		if len(parts) > 0 && eq(parts[len(parts)-1], q) {
			parts = parts[:len(parts)-1]
			continue
		}
		if !packageMatches(d, q, eq) {
			return false
		}
	}
	return true
}

// packageMatches reports whether q names d's package: the package as
// declared, its last element, or (for languages whose module is the file
// or the directory) the file's stem or directory.
func packageMatches(d Definition, q string, eq func(a, b string) bool) bool {
	if d.Package != "" {
		if eq(d.Package, q) {
			return true
		}
		if i := strings.LastIndexAny(d.Package, ".:/\\"); i >= 0 && eq(d.Package[i+1:], q) {
			return true
		}
	}
	base := path.Base(d.Path)
	stem := strings.TrimSuffix(base, path.Ext(base))
	dir := path.Base(path.Dir(d.Path))
	return eq(stem, q) || (dir != "." && eq(dir, q))
}

// normContainer strips a pointer mark and type parameters from a
// container: "*Cart[T]" is "Cart".
func normContainer(c string) string {
	c = strings.TrimLeft(c, "*& ")
	if i := strings.IndexAny(c, "[<("); i > 0 {
		c = c[:i]
	}
	return c
}

// kindRank orders definitions of one name: types and functions before
// variables and fields.
func kindRank(k symbols.Kind) int {
	switch k {
	case symbols.Class, symbols.Struct, symbols.Interface, symbols.Type, symbols.Enum:
		return 0
	case symbols.Function, symbols.Method:
		return 1
	case symbols.Module:
		return 2
	case symbols.Constant, symbols.Variable:
		return 3
	}
	return 4
}

func sortDefinitions(defs []Definition) []Definition {
	sort.SliceStable(defs, func(i, j int) bool {
		a, b := &defs[i], &defs[j]
		if a.Exported != b.Exported {
			return a.Exported
		}
		if ka, kb := kindRank(a.Kind), kindRank(b.Kind); ka != kb {
			return ka < kb
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.NameRange.StartLine < b.NameRange.StartLine
	})
	if len(defs) > MaxDefinitions {
		defs = defs[:MaxDefinitions]
	}
	return defs
}

// An OutlineResult is the answer to [Index.Outline].
type OutlineResult struct {
	Path        string       `json:"path"`
	Definitions []Definition `json:"definitions"`
	Freshness   Freshness    `json:"freshness"`
}

// maxOutline bounds an outline.
const maxOutline = 20000

// Outline returns the definitions of a file, or of every file under a
// directory ("" or "." for the whole project), by path and line. The index
// is refreshed first.
func (ix *Index) Outline(ctx context.Context, p string) (OutlineResult, error) {
	res := OutlineResult{Definitions: []Definition{}}
	rel := "."
	if p != "" {
		var err error
		if rel, err = ix.root.Rel(p); err != nil {
			return res, fmt.Errorf("index: %w", err)
		}
	}
	res.Path = rel
	fr, err := ix.read(ctx, ix.opts.budget(), nil, false, func(s snapshot) error {
		where, args := "1", []any{}
		if rel != "." {
			where, args = "(f.path = ? OR substr(f.path, 1, ?) = ?)", []any{rel, len(rel) + 1, rel + "/"}
		}
		rs, err := s.st.db.QueryContext(ctx, `SELECT `+symbolColumns+`
			FROM symbols s JOIN files f ON f.id = s.file_id
			WHERE f.verified = 1 AND `+where+`
			ORDER BY f.path, s.start_line, s.start_col LIMIT `+fmt.Sprint(maxOutline), args...)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			d, err := scanDefinition(rs)
			if err != nil {
				return err
			}
			d.Stale = s.pending[d.Path]
			res.Definitions = append(res.Definitions, d)
		}
		return rs.Err()
	})
	res.Freshness = fr
	return res, err
}

// Status is the state of the index for `cortex index --status`.
type Status struct {
	Identity Identity `json:"identity"`
	// Database is the active database file, relative to the project root.
	Database       string `json:"database"`
	SchemaVersion  int    `json:"schema_version"`
	ChunkerVersion int    `json:"chunker_version"`
	// Extractor is the extractor the index runs with; empty for text only.
	Extractor string `json:"extractor,omitempty"`
	Files     int    `json:"files"`
	// Skipped counts indexed files without chunks (binary, unreadable).
	Skipped int `json:"skipped"`
	Symbols int `json:"symbols"`
	Imports int `json:"imports"`
	Chunks  int `json:"chunks"`
	// SizeBytes is the database's size on disk, with its write-ahead log.
	SizeBytes int64 `json:"size_bytes"`
	// Freshness is what the index would have to do now: Status compares
	// the disk with the index but indexes nothing, so pending files are
	// every changed one.
	Freshness Freshness `json:"freshness"`
	// Stored lists every identity's database in the storage directory,
	// most recently used first.
	Stored []StoredIndex `json:"stored"`
}

// A StoredIndex is one identity's database.
type StoredIndex struct {
	// Key is the key of the identity the database belongs to (see
	// [Identity.Key]); empty for a foreign database.
	Key string `json:"key"`
	// File is the database file, relative to the project root.
	File      string    `json:"file"`
	Identity  Identity  `json:"identity"`
	SizeBytes int64     `json:"size_bytes"`
	LastUsed  time.Time `json:"last_used"`
	Active    bool      `json:"active"`
	// Foreign, when not empty, says why the file cannot be shown to be a
	// database this user's CodeCortex wrote for this project (it came
	// with the repository, from another project or another user, or is
	// damaged). Such a file is never read: it is removed when the index
	// next looks for a database to seed a new identity's from (one of a
	// newer version is left alone), or by hand.
	Foreign string `json:"foreign,omitempty"`
}

// Status reports the index's identity, contents, size and freshness,
// without indexing anything (a new identity's database is created, seeded
// from the most recently used one).
func (ix *Index) Status(ctx context.Context) (Status, error) {
	ix.life.RLock()
	defer ix.life.RUnlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var st Status
	s, id, diags, err := ix.activate(ctx)
	if err != nil {
		return st, err
	}
	st.Identity = id
	st.Database = StorageDir + "/" + filepath.Base(s.path)
	st.SchemaVersion, st.ChunkerVersion, st.Extractor = SchemaVersion, ChunkerVersion, ix.extract
	err = s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM files WHERE verified = 1),
		(SELECT count(*) FROM files WHERE verified = 1 AND skipped != ''),
		(SELECT count(*) FROM symbols),
		(SELECT count(*) FROM imports),
		(SELECT count(*) FROM chunks)`).Scan(&st.Files, &st.Skipped, &st.Symbols, &st.Imports, &st.Chunks)
	if err != nil {
		return st, err
	}
	st.SizeBytes = fileSize(s.path) + fileSize(s.path+"-wal")
	w, _ := ix.walk(ctx, s, s.takePre())
	rows, _, err := s.cachedRows(ctx)
	if err != nil {
		return st, err
	}
	p := ix.diff(w, rows)
	fr := Freshness{State: Fresh, Identity: id, Files: len(w.files), Diagnostics: append(diags, ix.walker.notes...)}
	for _, f := range p.changed {
		if r, ok := rows[f.path]; ok && r.current && r.mtime == 0 && r.size == f.size && ix.sameContent(s, r, f.path) {
			// Indexed moments after an edit, so its time was not trusted:
			// the content is what the index holds.
			continue
		}
		fr.Pending = append(fr.Pending, f.path)
	}
	fr.PendingCount = len(fr.Pending)
	if fr.PendingCount > 0 || len(p.deleted) > 0 {
		fr.State = Partial
		sort.Strings(fr.Pending)
		if len(fr.Pending) > maxPendingListed {
			fr.Pending = fr.Pending[:maxPendingListed]
		}
	}
	st.Freshness = fr
	for _, d := range ix.stored() {
		si := StoredIndex{File: ix.relPath(d.path), SizeBytes: fileSize(d.path) + fileSize(d.path+"-wal"), LastUsed: d.used, Active: d.path == s.path}
		if si.Active {
			si.Key, si.Identity = id.Key(), id
		} else if o, err := openStore(ctx, d.path, false, &ix.seal); err == nil {
			si.Identity, _ = o.identity(ctx)
			si.Key, _ = o.meta(ctx, "key")
			o.close()
		} else if fe := (*foreignError)(nil); errors.As(err, &fe) {
			si.Foreign = fe.reason
		} else {
			si.Foreign = "it cannot be verified: " + quoteShort(err.Error())
		}
		st.Stored = append(st.Stored, si)
	}
	return st, nil
}

// sameContent reports whether the file at p holds what the index holds
// for row r.
func (ix *Index) sameContent(s *store, r fileRow, p string) bool {
	src, err := ix.readFile(p)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(src)
	return s.hashOf(r.id) == hex.EncodeToString(sum[:])
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}
