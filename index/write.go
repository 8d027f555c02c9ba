package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A writer writes files into the index, a transaction at a time, on a
// connection of its own.
type writer struct {
	ctx context.Context
	// rowCtx is ctx without its cancellation, for the statements that
	// write a row: the driver watches a cancellable context with a
	// goroutine of its own for every statement, and a cold index runs
	// millions. write checks ctx before each file instead.
	rowCtx  context.Context
	s       *store
	extract string // what files.extractor records
	bulk    bulkMode
	conn    *sql.Conn
	// unmerged: the writer turned the full-text index's automerge off
	// (bulkColdMany), for release to turn on again.
	unmerged bool
	// indexesSeen: the writer's first transaction dropped the secondary
	// indexes (bulkColdMany), or found or made them.
	indexesSeen bool
	// deferred: the writer dropped the secondary indexes, for release to
	// make again.
	deferred bool
	tx       *sql.Tx
	stmts    map[string]*sql.Stmt
	gen      int64              // the generation the open transaction makes
	written  map[string]fileRow // the rows the open transaction writes
	// symArgs and hashBuf are writeSymbols's, kept from one symbol to
	// the next.
	symArgs []any
	hashBuf []byte
}

// A bulkMode says how a writer sets up its connection.
type bulkMode int

const (
	bulkNone bulkMode = iota
	// bulkCold: the writer fills a database that holds no file yet. No
	// foreign key can then be missing (the writer inserts each file's
	// row before the rows that refer to it, and deletes nothing), so the
	// connection checks none: a lookup less for every row inserted.
	bulkCold
	// bulkColdMany: bulkCold with at least optimizeAfter files to write,
	// which the pass's end optimizes (merges into one segment): the
	// full-text index does not merge its segments while it is written
	// (automerge 0, until release), and the secondary indexes are made
	// once its rows are written: at release, or as the Update it is a
	// pass of finishes (see secondaryIndexes, Index.UpdateWhile).
	bulkColdMany
)

// ftsAutomerge is the full-text index's automerge setting: SQLite's
// default, how many segments of a level it merges as they come.
const ftsAutomerge = 4

// sqlAutomerge sets the full-text index's automerge to n.
func sqlAutomerge(n int) string {
	return fmt.Sprintf("INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', %d)", n)
}

// bulkFor returns the bulk mode of a writer of n files into the database
// whose file rows are rows.
func bulkFor(rows map[string]fileRow, n int) bulkMode {
	switch {
	case len(rows) > 0:
		return bulkNone
	case n >= optimizeAfter:
		return bulkColdMany
	}
	return bulkCold
}

func (s *store) newWriter(ctx context.Context, extract string, bulk bulkMode) *writer {
	return &writer{ctx: ctx, rowCtx: context.WithoutCancel(ctx), s: s, extract: extract, bulk: bulk}
}

// connect takes the writer's connection from the pool, set up for its
// bulk mode.
func (w *writer) connect() error {
	if w.conn != nil {
		return nil
	}
	conn, err := w.s.db.Conn(w.ctx)
	if err != nil {
		return err
	}
	w.conn = conn
	if w.bulk >= bulkCold {
		_, err = conn.ExecContext(w.ctx, "PRAGMA foreign_keys = OFF")
	}
	return err
}

// release returns the writer's connection to the pool, with the
// settings of every connection of the pool.
func (w *writer) release() {
	if w.conn == nil {
		return
	}
	if w.unmerged {
		// Whatever became of the writer's transactions, and even once
		// its context is done: a later writer's segments are merged as
		// they come again. (Were it left off, the crisis merges would
		// still bound the segments of each level.)
		ctx, cancel := context.WithTimeout(context.WithoutCancel(w.ctx), 10*time.Second)
		w.conn.ExecContext(ctx, sqlAutomerge(ftsAutomerge))
		cancel()
		w.unmerged = false
	}
	if _, inUpdate := w.ctx.Value(updateKey{}).(*updateProgress); w.deferred && w.ctx.Err() == nil && !inUpdate {
		// Made again whatever became of the writer's transactions, but
		// not past a cancelled update, which should end soon, nor in a
		// pass of an Update, which makes them as it finishes (see
		// UpdateWhile): otherwise the next writer (begin) or the end of
		// the next Update makes them then.
		if err := w.s.makeIndexes(context.WithoutCancel(w.ctx)); err == nil {
			w.deferred = false
		}
	}
	if w.bulk >= bulkCold {
		// Back to the pool with its cache, which the reads that follow
		// a cold index want, once it checks foreign keys again; closed
		// if it cannot say so.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(w.ctx), 10*time.Second)
		_, err := w.conn.ExecContext(ctx, "PRAGMA foreign_keys = ON")
		cancel()
		if err != nil {
			w.conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}
	w.conn.Close()
	w.conn = nil
}

// The statements a writer uses.
const (
	sqlInsertFile = `INSERT INTO files(path, language, size, mtime, hash, package, chunker, extractor, skipped, parse_errors, verified)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`
	sqlTouchFile  = `UPDATE files SET size = ?, mtime = ?, verified = 1 WHERE path = ?`
	sqlFileID     = `SELECT id FROM files WHERE path = ?`
	sqlUpdateFile = `UPDATE files SET language = ?, size = ?, mtime = ?, hash = ?, package = ?, chunker = ?, extractor = ?, skipped = ?, parse_errors = ?, verified = 1 WHERE id = ?`
	sqlOldChunks  = `SELECT id, hash, chunker_version, start_line, end_line, content, chunker, coalesce(symbol_id, 0) FROM chunks WHERE file_id = ?`
	sqlOldSymbols = `SELECT id, hash FROM symbols WHERE file_id = ?`
	sqlDropSymbol = `DELETE FROM symbols WHERE id = ?`
	sqlOldImports = `DELETE FROM imports WHERE file_id = ?`
	sqlOldRefs    = `DELETE FROM refs WHERE file_id = ?`
	sqlOldNames   = `DELETE FROM ref_names WHERE file_id = ?`
	sqlOldFacts   = `DELETE FROM facts WHERE file_id = ?`
	sqlInsertFact = `INSERT INTO facts(file_id, symbols) VALUES(?, ?)`
	// sqlInsertNames inserts a file's names, given as a JSON list: one
	// statement a file costs less than one a name.
	sqlInsertNames = `INSERT OR IGNORE INTO ref_names(name, file_id) SELECT value, ?2 FROM json_each(?1)`
	sqlInsertRefs  = `INSERT INTO refs(file_id, data) VALUES(?, ?)`
	sqlMoveChunk   = `UPDATE chunks SET start_line = ?, end_line = ?, content = ?, chunker = ?, symbol_id = ? WHERE id = ?`
	sqlDropChunk   = `DELETE FROM chunks WHERE id = ?`
	sqlDropFTS     = `DELETE FROM chunks_fts WHERE rowid = ?`
	sqlInsertSym   = `INSERT INTO symbols(file_id, name, lname, kind, container, package, signature, exported, name_line, name_col, name_eline, name_ecol, name_byte, name_ebyte, start_line, start_col, end_line, end_col, start_byte, end_byte, doc_line, hash) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertImp   = `INSERT INTO imports(file_id, path, name, alias, start_line, start_col, end_line, end_col) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertChk   = `INSERT INTO chunks(file_id, start_line, end_line, content, chunker, chunker_version, symbol_id, hash) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertFTS   = `INSERT INTO chunks_fts(rowid, body) VALUES(?, ?)`
	chunkerSymbol  = "symbol"
	chunkerLines   = "lines"
)

// begin starts a transaction if none is open.
func (w *writer) begin() error {
	if w.tx != nil {
		return nil
	}
	if err := w.connect(); err != nil {
		return err
	}
	tx, err := w.conn.BeginTx(w.ctx, nil)
	if err != nil {
		return err
	}
	w.tx = tx
	w.stmts = map[string]*sql.Stmt{}
	w.written = map[string]fileRow{}
	w.gen, err = bump(w.ctx, tx)
	if err == nil && !w.indexesSeen {
		// A cold writer of many files drops the secondary indexes; any
		// other that finds them missing (a cold predecessor stopped
		// before it made them again) makes them before it needs them.
		cold := w.bulk == bulkColdMany
		missing := false
		if !cold {
			missing, err = indexesMissing(w.ctx, tx)
		}
		if err == nil && (cold || missing) {
			err = w.indexes(cold)
		}
		w.indexesSeen, w.deferred = err == nil, err == nil && cold
	}
	if err == nil && w.bulk == bulkColdMany && !w.unmerged {
		// The segments each commit adds are merged once, by the
		// merge that ends an Update, not a few at a time as they come.
		_, err = tx.ExecContext(w.ctx, sqlAutomerge(0))
		w.unmerged = err == nil
	}
	return err
}

// indexes drops the secondary indexes, or makes those missing, in the
// open transaction.
func (w *writer) indexes(drop bool) error { return execIndexes(w.ctx, w.tx, drop) }

// stmt returns one of the writer's statements, prepared once a
// transaction.
func (w *writer) stmt(q string) (*sql.Stmt, error) {
	st, ok := w.stmts[q]
	if !ok {
		var err error
		if st, err = w.tx.PrepareContext(w.ctx, q); err != nil {
			return nil, err
		}
		w.stmts[q] = st
	}
	return st, nil
}

// exec runs one of the writer's statements.
func (w *writer) exec(q string, args ...any) (sql.Result, error) {
	st, err := w.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(w.rowCtx, args...)
}

// queryRow runs one of the writer's statements for a row.
func (w *writer) queryRow(q string, args ...any) *sql.Row {
	st, err := w.stmt(q)
	if err != nil {
		return w.tx.QueryRowContext(w.rowCtx, q, args...) // its Scan reports the error
	}
	return st.QueryRowContext(w.rowCtx, args...)
}

// write adds a file to the open transaction, replacing what the index
// held for it. A file indexed before keeps its row, the rows of its
// unchanged symbols, and the rows of its chunks whose text is unchanged
// (moved to their new lines and symbols): only the chunks that changed
// are matched again.
func (w *writer) write(fd *fileData, rows map[string]fileRow) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if err := w.begin(); err != nil {
		return err
	}
	p := fd.disk.path
	if fd.touchOnly {
		r := rows[p]
		r.size, r.mtime, r.verified = fd.disk.size, fd.disk.mtime, true
		w.written[p] = r
		_, err := w.exec(sqlTouchFile, fd.disk.size, fd.disk.mtime, p)
		return err
	}
	fileID, old, err := w.writeFileRow(fd)
	if err != nil {
		return err
	}
	w.written[p] = fileRow{id: fileID, size: fd.disk.size, mtime: fd.disk.mtime, current: true, verified: true}
	symIDs, err := w.writeSymbols(fileID, fd, old)
	if err != nil {
		return err
	}
	if len(fd.symFacts) > 0 {
		if _, err := w.exec(sqlInsertFact, fileID, fd.symFacts); err != nil {
			return err
		}
	}
	for _, im := range fd.imports {
		if _, err := w.exec(sqlInsertImp, fileID, im.Path, im.Name, im.Alias,
			im.Range.StartLine, im.Range.StartColumn, im.Range.EndLine, im.Range.EndColumn); err != nil {
			return err
		}
	}
	if len(fd.refData) > 0 {
		if _, err := w.exec(sqlInsertRefs, fileID, fd.refData); err != nil {
			return err
		}
		if _, err := w.exec(sqlInsertNames, fd.refNames, fileID); err != nil {
			return err
		}
	}
	if err := w.writeChunks(fileID, fd, old, symIDs); err != nil {
		return err
	}
	// What was not kept goes: the chunks first, then the symbols they
	// referred to.
	for _, id := range append(old.drop, old.chunks.rest()...) {
		if _, err := w.exec(sqlDropFTS, id); err != nil {
			return err
		}
		if _, err := w.exec(sqlDropChunk, id); err != nil {
			return err
		}
	}
	for _, id := range old.symbols.rest() {
		if _, err := w.exec(sqlDropSymbol, id); err != nil {
			return err
		}
	}
	return nil
}

// writeFileRow updates the file's row, dropping its imports and refs, or
// inserts one for a file not indexed before. It returns the row's id and
// the rows of its symbols and chunks that may be kept.
func (w *writer) writeFileRow(fd *fileData) (int64, oldRows, error) {
	var fileID int64
	err := w.queryRow(sqlFileID, fd.disk.path).Scan(&fileID)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, oldRows{}, err
	}
	if err != nil {
		res, err := w.exec(sqlInsertFile, fd.disk.path, fd.language, fd.disk.size, fd.disk.mtime, fd.hash, fd.pkg,
			ChunkerVersion, w.extract, fd.skipped, fd.parseErrs)
		if err != nil {
			return 0, oldRows{}, err
		}
		fileID, err = res.LastInsertId()
		return fileID, oldRows{}, err
	}
	if _, err := w.exec(sqlUpdateFile, fd.language, fd.disk.size, fd.disk.mtime, fd.hash, fd.pkg,
		ChunkerVersion, w.extract, fd.skipped, fd.parseErrs, fileID); err != nil {
		return 0, oldRows{}, err
	}
	if _, err := w.exec(sqlOldImports, fileID); err != nil {
		return 0, oldRows{}, err
	}
	if _, err := w.exec(sqlOldRefs, fileID); err != nil {
		return 0, oldRows{}, err
	}
	if _, err := w.exec(sqlOldNames, fileID); err != nil {
		return 0, oldRows{}, err
	}
	if _, err := w.exec(sqlOldFacts, fileID); err != nil {
		return 0, oldRows{}, err
	}
	old, err := w.oldRows(fileID)
	return fileID, old, err
}

// writeSymbols writes the file's symbols, keeping the old rows of those
// unchanged, and returns the row id of each.
func (w *writer) writeSymbols(fileID int64, fd *fileData, old oldRows) ([]int64, error) {
	symIDs := make([]int64, len(fd.syms))
	for i := range fd.syms {
		s := &fd.syms[i]
		pkg := s.Package
		if pkg == "" {
			pkg = fd.pkg
		}
		n, r := s.NameRange, s.Range
		// The statement's arguments: the file, the symbol's row, its hash.
		args := append(w.symArgs[:0], fileID, s.Name, strings.ToLower(s.Name), string(s.Kind),
			s.Container, pkg, s.Signature, s.Exported,
			n.StartLine, n.StartColumn, n.EndLine, n.EndColumn, n.StartByte, n.EndByte,
			r.StartLine, r.StartColumn, r.EndLine, r.EndColumn, r.StartByte, r.EndByte, s.DocLine, nil)
		w.symArgs = args
		var h int64
		h, w.hashBuf = rowHash(args[1:len(args)-1], w.hashBuf)
		if id, ok := old.symbols.take(h); ok {
			symIDs[i] = id
			continue
		}
		args[len(args)-1] = h
		res, err := w.exec(sqlInsertSym, args...)
		if err != nil {
			return nil, err
		}
		if symIDs[i], err = res.LastInsertId(); err != nil {
			return nil, err
		}
	}
	return symIDs, nil
}

// writeChunks writes the file's chunks: an old row whose text is
// unchanged is kept (moved to its new lines and symbol), the others are
// inserted and matched.
func (w *writer) writeChunks(fileID int64, fd *fileData, old oldRows, symIDs []int64) error {
	content := contentOf(fd.language)
	for _, c := range fd.chunks {
		var sym int64
		kind := chunkerLines
		if c.Sym >= 0 {
			sym = symIDs[c.Sym]
			kind = chunkerSymbol
		}
		symArg := any(nil)
		if sym != 0 {
			symArg = sym
		}
		if id, ok := old.chunks.take(c.hash); ok {
			if was := old.chunkAt[id]; was != (oldChunk{c.Start, c.End, content, kind, sym}) {
				if _, err := w.exec(sqlMoveChunk, c.Start, c.End, content, kind, symArg, id); err != nil {
					return err
				}
			}
			continue
		}
		match := c.match
		if match == "" {
			match = matchText(c.text)
		}
		res, err := w.exec(sqlInsertChk, fileID, c.Start, c.End, content, kind, ChunkerVersion, symArg, c.hash)
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := w.exec(sqlInsertFTS, id, match); err != nil {
			return err
		}
	}
	return nil
}

// oldRows are the rows the index holds for a file being indexed again.
type oldRows struct {
	chunks  idsByHash // chunks cut by this ChunkerVersion, by text
	chunkAt map[int64]oldChunk
	drop    []int64 // chunks cut by another ChunkerVersion
	symbols idsByHash
}

// oldChunk is what a kept chunk's row may need changed.
type oldChunk struct {
	start, end       int
	content, chunker string
	symbol           int64 // 0: none
}

// idsByHash holds row ids by the hash of what the rows hold; a row is
// taken at most once.
type idsByHash map[int64][]int64

func (m idsByHash) take(h int64) (int64, bool) {
	ids := m[h]
	if len(ids) == 0 {
		return 0, false
	}
	m[h] = ids[1:]
	return ids[0], true
}

// rest returns the ids not taken.
func (m idsByHash) rest() []int64 {
	var out []int64
	for _, ids := range m {
		out = append(out, ids...)
	}
	return out
}

// oldRows reads the chunks and symbols the index holds for a file.
func (w *writer) oldRows(fileID int64) (oldRows, error) {
	old := oldRows{chunks: idsByHash{}, chunkAt: map[int64]oldChunk{}, symbols: idsByHash{}}
	err := w.each(sqlOldChunks, fileID, func(rs *sql.Rows) error {
		var id, hash int64
		var version int
		var c oldChunk
		if err := rs.Scan(&id, &hash, &version, &c.start, &c.end, &c.content, &c.chunker, &c.symbol); err != nil {
			return err
		}
		if version != ChunkerVersion {
			old.drop = append(old.drop, id)
			return nil
		}
		old.chunks[hash] = append(old.chunks[hash], id)
		old.chunkAt[id] = c
		return nil
	})
	if err != nil {
		return old, err
	}
	err = w.each(sqlOldSymbols, fileID, func(rs *sql.Rows) error {
		var id, hash int64
		if err := rs.Scan(&id, &hash); err != nil {
			return err
		}
		old.symbols[hash] = append(old.symbols[hash], id)
		return nil
	})
	return old, err
}

// each runs one of the writer's queries and calls fn for each row.
func (w *writer) each(q string, arg any, fn func(*sql.Rows) error) error {
	st, err := w.stmt(q)
	if err != nil {
		return err
	}
	rs, err := st.QueryContext(w.rowCtx, arg)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		if err := fn(rs); err != nil {
			return err
		}
	}
	return rs.Err()
}

// rowHash identifies the values a row holds: the first 64 bits of the
// SHA-256 of their encoding, which it writes into buf and returns for
// the next call.
func rowHash(vals []any, buf []byte) (int64, []byte) {
	buf = buf[:0]
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			buf = binary.AppendUvarint(buf, uint64(len(v)))
			buf = append(buf, v...)
		case int:
			buf = binary.AppendVarint(buf, int64(v))
		case bool:
			if v {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		default:
			buf = fmt.Appendf(buf, "%T %v\x00", v, v)
		}
	}
	sum := sha256.Sum256(buf)
	return int64(binary.BigEndian.Uint64(sum[:8])), buf
}

// commit commits the open transaction, if any.
func (w *writer) commit() error {
	if w.tx == nil {
		return nil
	}
	for _, st := range w.stmts {
		st.Close()
	}
	err := w.tx.Commit()
	if err == nil {
		w.s.patchRows(w.gen, w.written, nil)
	}
	w.tx, w.stmts, w.written = nil, nil, nil
	return err
}

// close rolls back the open transaction, if any, and releases the
// writer's connection.
func (w *writer) close() {
	w.abort()
	w.release()
}

// abort rolls back the open transaction, if any.
func (w *writer) abort() {
	if w.tx == nil {
		return
	}
	for _, st := range w.stmts {
		st.Close()
	}
	w.tx.Rollback()
	w.tx, w.stmts, w.written = nil, nil, nil
}
