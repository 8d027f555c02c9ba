package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/flock"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// indexedChunk is a chunk as the index holds it, for comparing indexes.
type indexedChunk struct {
	Path       string
	Start, End int
	Content    string
	Chunker    string
	Symbol     string
}

// indexedChunks returns every chunk of the active database, by path and
// line, with the id each has.
func indexedChunks(t testing.TB, ix *Index) ([]indexedChunk, map[indexedChunk]int64) {
	t.Helper()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	st := ix.stores[ix.active]
	rs, err := st.db.Query(`SELECT c.id, f.path, c.start_line, c.end_line, c.content, c.chunker, coalesce(s.name, '')
		FROM chunks c JOIN files f ON f.id = c.file_id LEFT JOIN symbols s ON s.id = c.symbol_id
		ORDER BY f.path, c.start_line, c.end_line`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []indexedChunk
	ids := map[indexedChunk]int64{}
	for rs.Next() {
		var c indexedChunk
		var id int64
		if err := rs.Scan(&id, &c.Path, &c.Start, &c.End, &c.Content, &c.Chunker, &c.Symbol); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
		ids[c] = id
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out, ids
}

// indexedSymbols returns every symbol of the active database as text, by
// path and position.
func indexedSymbols(t testing.TB, ix *Index) []string {
	t.Helper()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	st := ix.stores[ix.active]
	rs, err := st.db.Query(`SELECT f.path, s.name, s.lname, s.kind, s.container, s.package, s.signature, s.exported,
		s.name_line, s.name_col, s.name_eline, s.name_ecol, s.name_byte, s.name_ebyte,
		s.start_line, s.start_col, s.end_line, s.end_col, s.start_byte, s.end_byte, s.doc_line
		FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.start_byte, s.name_byte, s.name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}

// matching returns the chunks (path:start-end) whose full-text row
// matches a word, sorted.
func matching(t testing.TB, ix *Index, word string) []string {
	t.Helper()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	st := ix.stores[ix.active]
	rs, err := st.db.Query(`SELECT f.path, c.start_line, c.end_line FROM chunks_fts
		JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
		WHERE chunks_fts MATCH ?`, `"`+word+`"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var p string
		var a, b int
		if err := rs.Scan(&p, &a, &b); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s:%d-%d", p, a, b))
	}
	slices.Sort(out)
	return out
}

// genBlocks draws the blocks of a file of the fake language: functions
// (their names drawn from a few, so that some repeat) and prose lines.
func genBlocks(t *rapid.T, label string) []string {
	n := rapid.IntRange(0, 12).Draw(t, label+" blocks")
	var out []string
	for i := range n {
		out = append(out, genBlock(t, fmt.Sprintf("%s %d", label, i)))
	}
	return out
}

func genBlock(t *rapid.T, label string) string {
	word := rapid.SampledFrom([]string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}).Draw(t, label+" word")
	if rapid.IntRange(0, 2).Draw(t, label+" kind") == 0 {
		return strings.Repeat("note about "+word+"\n", rapid.IntRange(1, 50).Draw(t, label+" lines"))
	}
	name := rapid.SampledFrom([]string{"Open", "Close", "Read", "Write"}).Draw(t, label+" name")
	body := strings.Repeat("\t"+word+"()\n", rapid.IntRange(0, 60).Draw(t, label+" body"))
	return "// " + name + " does " + word + ".\nfunc " + name + "() {\n" + body + "}\n"
}

// TestRewriteKeepsOnlyWhatMatches: a file indexed again after any edit
// (blocks inserted, removed, changed, repeated) is indexed exactly as a
// new index of the same tree indexes it: the same chunks, aligned to the
// same symbols, and each word matching the same chunks; nothing of the
// old text matches any more.
func TestRewriteKeepsOnlyWhatMatches(t *testing.T) {
	ctx := context.Background()
	rapid.Check(t, func(rt *rapid.T) {
		before := genBlocks(rt, "before")
		after := slices.Clone(before)
		for i := range rapid.IntRange(1, 4).Draw(rt, "edits") {
			label := fmt.Sprintf("edit %d", i)
			at := rapid.IntRange(0, len(after)).Draw(rt, label+" at")
			switch op := rapid.IntRange(0, 3).Draw(rt, label+" op"); {
			case op == 0 || len(after) == 0 || at == len(after):
				after = slices.Insert(after, at, genBlock(rt, label))
			case op == 1:
				after = slices.Delete(after, at, at+1)
			case op == 2:
				after[at] = genBlock(rt, label)
			default:
				after = slices.Insert(after, at, after[at])
			}
		}
		pkg := "package p\n\n"
		dir := writeTree(t, map[string]string{"a.go": pkg + strings.Join(before, "\n"), "b.md": "zulu\n"})
		ix := openTest(t, dir, nil)
		if _, err := ix.Refresh(ctx); err != nil {
			rt.Fatal(err)
		}
		writeFile(t, dir, "a.go", pkg+strings.Join(after, "\n"))
		changed := 0
		if !slices.Equal(before, after) {
			changed = 1
		}
		if fr, err := ix.Refresh(ctx); err != nil || fr.Indexed != changed {
			rt.Fatalf("refresh after the edit: %+v, %v", fr, err)
		}
		fresh := openTest(t, writeTree(t, map[string]string{"a.go": pkg + strings.Join(after, "\n"), "b.md": "zulu\n"}), nil)
		if _, err := fresh.Refresh(ctx); err != nil {
			rt.Fatal(err)
		}
		got, _ := indexedChunks(t, ix)
		want, _ := indexedChunks(t, fresh)
		if diff := cmp.Diff(want, got); diff != "" {
			rt.Fatalf("chunks after the edit (-fresh +rewritten):\n%s", diff)
		}
		if diff := cmp.Diff(indexedSymbols(t, fresh), indexedSymbols(t, ix)); diff != "" {
			rt.Fatalf("symbols after the edit (-fresh +rewritten):\n%s", diff)
		}
		for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "open", "close", "read", "write", "note", "zulu", "package"} {
			if diff := cmp.Diff(matching(t, fresh, w), matching(t, ix, w)); diff != "" {
				rt.Fatalf("chunks matching %q (-fresh +rewritten):\n%s", w, diff)
			}
		}
		ix.Close()
		fresh.Close()
	})
}

// TestRewriteKeepsUnchangedChunks: text appended to a file leaves the
// rows of its other chunks as they were.
func TestRewriteKeepsUnchangedChunks(t *testing.T) {
	ctx := context.Background()
	src := "package p\n\n" + strings.Repeat("// F does it.\nfunc F() {\n\tf()\n}\n\n", 5)
	dir := writeTree(t, map[string]string{"a.go": src})
	ix := openTest(t, dir, nil)
	if _, err := ix.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	_, before := indexedChunks(t, ix)
	writeFile(t, dir, "a.go", src+"// G is new.\nfunc G() {}\n")
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "a.go"), later, later)
	if fr, err := ix.Refresh(ctx); err != nil || fr.Indexed != 1 {
		t.Fatalf("refresh: %+v, %v", fr, err)
	}
	chunks, after := indexedChunks(t, ix)
	kept := 0
	for c, id := range before {
		if after[c] == id {
			kept++
		}
	}
	if kept != len(before) || len(chunks) <= len(before) {
		t.Errorf("%d of %d chunks kept their rows; %d chunks now", kept, len(before), len(chunks))
	}
	if got := matching(t, ix, "g"); len(got) != 1 {
		t.Errorf("chunks matching the new function: %v", got)
	}
}

// TestColdWriteLeavesForeignKeysChecked: a cold index of many files is
// written without foreign key checks, without merging the full-text
// index's segments and without its secondary indexes, on a connection of
// its own; what it wrote satisfies every key, every connection of the
// pool afterwards checks them, the full-text index merges its segments
// again and the schema is whole. A cold index of a few files (which no
// optimize follows) leaves its merging alone.
func TestColdWriteLeavesForeignKeysChecked(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"b.md": "zulu\n"}
	for i := range optimizeAfter {
		files[fmt.Sprintf("p%d/a.go", i)] = fmt.Sprintf("package p%d\n\n// F does it.\nfunc F() {\n\tG()\n}\n\ntype T struct{}\n\nfunc (t *T) M() {}\n", i)
	}
	ix := openTest(t, writeTree(t, files), nil)
	if fr, err := ix.Update(ctx); err != nil || fr.Indexed != len(files) {
		t.Fatalf("cold update: %+v, %v", fr, err)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	st := ix.stores[ix.active]
	rs, err := st.db.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		t.Fatal(err)
	}
	if rs.Next() {
		t.Error("a row of the cold index refers to a row that does not exist")
	}
	rs.Close()
	if rows, err := readSchema(ctx, st.db); err != nil || digestSchema(rows) != schemaDigest {
		t.Errorf("the schema after a cold update: %v, %v; want the whole schema", rows, err)
	}
	var automerge int
	if err := st.db.QueryRowContext(ctx, "SELECT v FROM chunks_fts_config WHERE k = 'automerge'").Scan(&automerge); err != nil || automerge != ftsAutomerge {
		t.Errorf("automerge after a cold update: %d, %v; want %d", automerge, err, ftsAutomerge)
	}
	small := openTest(t, writeTree(t, map[string]string{"a.go": "package a\n\nfunc F() {}\n"}), nil)
	if _, err := small.Update(ctx); err != nil {
		t.Fatal(err)
	}
	small.mu.Lock()
	if err := small.stores[small.active].db.QueryRowContext(ctx, "SELECT v FROM chunks_fts_config WHERE k = 'automerge'").Scan(&automerge); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("automerge after a cold update of one file: %d, %v; want no setting", automerge, err)
	}
	small.mu.Unlock()
	small.Close()
	var conns []*sql.Conn // held at once: each is another connection of the pool
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 6 {
		c, err := st.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var on int
		if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&on); err != nil || on != 1 {
			t.Errorf("connection %d of the pool: foreign_keys = %d, %v; want 1", i, on, err)
		}
	}
}

// TestColdWriteStoppedBeforeItsIndexes: a cold writer stopped after its
// rows and before it made the secondary indexes again leaves a database
// without them. That database is still this user's: it answers and names
// no foreign database; an Update makes the indexes again though it writes
// no file, and so does the next writer (a query's refresh after an edit). A
// database missing only some of them is not one a writer leaves, and
// stays foreign (TestForeignDatabaseVariants).
func TestColdWriteStoppedBeforeItsIndexes(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"a.go": "package a\n\nfunc F() {}\n", "b.go": "package a\n\nfunc G() { F() }\n"})
	ix := openTest(t, dir, nil)
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		t.Helper()
		ix.mu.Lock()
		defer ix.mu.Unlock()
		for _, s := range secondaryIndexes() {
			if _, err := ix.stores[ix.active].db.ExecContext(ctx, "DROP INDEX "+s.name); err != nil {
				t.Fatal(err)
			}
		}
	}
	whole := func(after string) {
		t.Helper()
		ix.mu.Lock()
		defer ix.mu.Unlock()
		if rows, err := readSchema(ctx, ix.stores[ix.active].db); err != nil || digestSchema(rows) != schemaDigest {
			t.Errorf("the schema after %s: %v, %v; want the whole schema", after, rows, err)
		}
	}
	stop()
	ix.Close()

	ix = openTest(t, dir, nil)
	res, err := ix.Lookup(ctx, "F")
	if err != nil || len(res.Definitions) != 1 {
		t.Fatalf("lookup without the secondary indexes: %+v, %v", res.Definitions, err)
	}
	if len(res.Freshness.Diagnostics) > 0 {
		t.Errorf("diagnostics: %q", res.Freshness.Diagnostics)
	}
	if fr, err := ix.Update(ctx); err != nil || fr.Indexed != 0 {
		t.Fatalf("update: %+v, %v", fr, err)
	}
	whole("an update that wrote nothing")
	stop()
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package a\n\nfunc G() { F(); F() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fr, err := ix.Refresh(ctx); err != nil || fr.Indexed != 1 {
		t.Fatalf("refresh: %+v, %v", fr, err)
	}
	whole("a refresh that wrote a file")
}

// TestUpdateWhileAnswersMeanwhile: an Update of many files finishes (its
// secondary indexes, the merge of the full-text index) while meanwhile
// queries the rows written, under the writer lock that another process
// cannot take. A query meanwhile that finds a file changed waits for the
// finishing before it writes, rather than take the lock flock would grant
// this process again; the Update's Elapsed leaves meanwhile out.
func TestUpdateWhileAnswersMeanwhile(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := range optimizeAfter {
		files[fmt.Sprintf("p%d/a.go", i)] = fmt.Sprintf("package p%d\n\nfunc F%d() {}\n", i, i)
	}
	dir := writeTree(t, files)
	ix := openTest(t, dir, nil)
	other, err := os.OpenFile(filepath.Join(dir, StorageDir, "lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	held := func() bool { // by this process, as another process sees it
		ok, err := flock.TryLock(other)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			flock.Unlock(other)
		}
		return !ok
	}
	inStore := func(f func(*store) error) error {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		return f(ix.stores[ix.active])
	}
	release := make(chan struct{})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) } // the finishing go on
	testHookFinishing = func() { <-release }
	defer func() { testHookFinishing = nil }()
	calls := 0
	var edited chan error
	const after = 200 * time.Millisecond
	start := time.Now()
	fr, err := ix.UpdateWhile(ctx, func() {
		calls++
		defer let()
		if ix.finishing.Load() == nil {
			t.Error("meanwhile runs with no Update finishing")
			return
		}
		res, err := ix.Lookup(ctx, "F7")
		if err != nil || len(res.Definitions) != 1 {
			t.Errorf("lookup meanwhile: %+v, %v", res.Definitions, err)
		}
		var missing bool
		if err := inStore(func(st *store) error { missing, err = indexesMissing(ctx, st.db); return err }); err != nil || !missing {
			t.Errorf("secondary indexes missing meanwhile: %v, %v; want them made after", missing, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "p7/a.go"), []byte("package p7\n\nfunc F7() {}\n\nfunc Later() {}\n"), 0o644); err != nil {
			t.Error(err)
			return
		}
		edited = make(chan error, 1)
		go func() {
			res, err := ix.Lookup(ctx, "Later")
			if err == nil && (len(res.Definitions) != 1 || len(res.Freshness.Diagnostics) > 0) {
				err = fmt.Errorf("definitions %+v, diagnostics %q", res.Definitions, res.Freshness.Diagnostics)
			}
			edited <- err
		}()
		select {
		case err := <-edited:
			t.Errorf("a query that writes answered while the Update finished: %v", err)
			edited <- err
		case <-time.After(50 * time.Millisecond):
		}
		if !held() {
			t.Error("the writer lock was free while the Update finished")
		}
		let()
		for ix.finishing.Load() != nil {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(after)
	})
	took := time.Since(start)
	if err != nil || fr.Indexed != len(files) || calls != 1 {
		t.Fatalf("update: %+v, %v; meanwhile called %d times", fr, err, calls)
	}
	if fr.Elapsed > took-after {
		t.Errorf("Elapsed %v of an update that took %v with meanwhile's last %v", fr.Elapsed, took, after)
	}
	if edited == nil {
		t.Fatal("meanwhile stopped early")
	}
	if err := <-edited; err != nil {
		t.Errorf("the query that wrote after the finishing: %v", err)
	}
	if err := inStore(func(st *store) error {
		rows, err := readSchema(ctx, st.db)
		if err == nil && digestSchema(rows) != schemaDigest {
			err = fmt.Errorf("%v; want the whole schema", rows)
		}
		return err
	}); err != nil {
		t.Errorf("the schema after the update: %v", err)
	}
	if held() {
		t.Error("the writer lock is still held after the update")
	}
}

// TestNewDatabasePageSize: a new database has pages of pageSize.
func TestNewDatabasePageSize(t *testing.T) {
	ctx := context.Background()
	ix := openTest(t, writeTree(t, map[string]string{"a.go": "package a\n\nfunc F() {}\n"}), nil)
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var got int
	if err := ix.stores[ix.active].db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&got); err != nil || got != pageSize {
		t.Errorf("page size %d, %v; want %d", got, err, pageSize)
	}
}
