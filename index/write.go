package index

import (
	"context"
	"database/sql"
	"strings"
)

// A writer writes files into the index, a transaction at a time.
type writer struct {
	ctx     context.Context
	s       *store
	extract string // what files.extractor records
	tx      *sql.Tx
	stmts   map[string]*sql.Stmt
	gen     int64              // the generation the open transaction makes
	written map[string]fileRow // the rows the open transaction writes
}

func (s *store) newWriter(ctx context.Context, extract string) *writer {
	return &writer{ctx: ctx, s: s, extract: extract}
}

// The statements a writer uses.
const (
	sqlInsertFile = `INSERT INTO files(path, language, size, mtime, hash, package, chunker, extractor, skipped, parse_errors, verified)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`
	sqlTouchFile  = `UPDATE files SET size = ?, mtime = ?, verified = 1 WHERE path = ?`
	sqlInsertSym  = `INSERT INTO symbols(file_id, name, lname, kind, container, package, signature, exported, name_line, name_col, name_eline, name_ecol, name_byte, name_ebyte, start_line, start_col, end_line, end_col, start_byte, end_byte, doc_line) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlInsertImp  = `INSERT INTO imports(file_id, path, alias, start_line, start_col, end_line, end_col) VALUES(?, ?, ?, ?, ?, ?, ?)`
	sqlInsertChk  = `INSERT INTO chunks(file_id, start_line, end_line, content, chunker, chunker_version, symbol_id) VALUES(?, ?, ?, ?, ?, ?, ?)`
	sqlInsertFTS  = `INSERT INTO chunks_fts(rowid, body) VALUES(?, ?)`
	chunkerSymbol = "symbol"
	chunkerLines  = "lines"
)

// begin starts a transaction if none is open.
func (w *writer) begin() error {
	if w.tx != nil {
		return nil
	}
	tx, err := w.s.db.BeginTx(w.ctx, nil)
	if err != nil {
		return err
	}
	w.tx = tx
	w.stmts = map[string]*sql.Stmt{}
	w.written = map[string]fileRow{}
	w.gen, err = bump(w.ctx, tx)
	return err
}

// exec runs one of the writer's statements, prepared once a transaction.
func (w *writer) exec(q string, args ...any) (sql.Result, error) {
	st, ok := w.stmts[q]
	if !ok {
		var err error
		if st, err = w.tx.PrepareContext(w.ctx, q); err != nil {
			return nil, err
		}
		w.stmts[q] = st
	}
	return st.ExecContext(w.ctx, args...)
}

// write adds a file to the open transaction, replacing what the index
// held for it.
func (w *writer) write(fd *fileData, rows map[string]fileRow) error {
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
	if _, ok := rows[p]; ok {
		if err := deleteFile(w.ctx, w.tx, p); err != nil {
			return err
		}
	}
	res, err := w.exec(sqlInsertFile, p, fd.language, fd.disk.size, fd.disk.mtime, fd.hash, fd.pkg,
		ChunkerVersion, w.extract, fd.skipped, fd.parseErrs)
	if err != nil {
		return err
	}
	fileID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	w.written[p] = fileRow{id: fileID, size: fd.disk.size, mtime: fd.disk.mtime, current: true, verified: true}
	symIDs := make([]int64, len(fd.syms))
	for i := range fd.syms {
		s := &fd.syms[i]
		pkg := s.Package
		if pkg == "" {
			pkg = fd.pkg
		}
		n, r := s.NameRange, s.Range
		res, err := w.exec(sqlInsertSym, fileID, s.Name, strings.ToLower(s.Name), string(s.Kind),
			s.Container, pkg, s.Signature, s.Exported,
			n.StartLine, n.StartColumn, n.EndLine, n.EndColumn, n.StartByte, n.EndByte,
			r.StartLine, r.StartColumn, r.EndLine, r.EndColumn, r.StartByte, r.EndByte, s.DocLine)
		if err != nil {
			return err
		}
		if symIDs[i], err = res.LastInsertId(); err != nil {
			return err
		}
	}
	for _, im := range fd.imports {
		if _, err := w.exec(sqlInsertImp, fileID, im.Path, im.Alias,
			im.Range.StartLine, im.Range.StartColumn, im.Range.EndLine, im.Range.EndColumn); err != nil {
			return err
		}
	}
	content := contentOf(fd.language)
	for _, c := range fd.chunks {
		var sym any
		kind := chunkerLines
		if c.Sym >= 0 {
			sym = symIDs[c.Sym]
			kind = chunkerSymbol
		}
		res, err := w.exec(sqlInsertChk, fileID, c.Start, c.End, content, kind, ChunkerVersion, sym)
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := w.exec(sqlInsertFTS, id, c.match); err != nil {
			return err
		}
	}
	return nil
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
