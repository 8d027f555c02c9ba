package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SchemaVersion is the version of the database layout this package writes
// and reads. A database with a higher version was written by a newer
// release and is refused, never modified; one with a lower version is
// rebuilt (an index holds nothing that cannot be read again from the tree).
const SchemaVersion = 7

// schema creates the tables of an index database.
//
//   - files: one row per file the walk found (path relative to the project
//     root, slash-separated), with what the freshness check compares (size,
//     mtime in nanoseconds) and the SHA-256 of the content. skipped says why
//     a file has no chunks ("binary"); verified is 0 for rows copied from
//     another identity's index and not yet checked against the disk.
//   - symbols and imports: what the extractor found in each file, with
//     one-based lines and code-point columns; a symbol's hash identifies
//     all it records, so that a file indexed again keeps the rows of its
//     unchanged symbols.
//   - refs: the names each file uses (symbols.Ref), one row a file, encoded
//     by encodeRefs: the project graph reads them all at once, and a row a
//     use would cost the cold build more than the graph saves.
//   - facts: each file's symbols again, as one value (encodeSymbols), one
//     row a file with symbols: the project graph reads every file's
//     symbols at once (readFacts), decoding values on every CPU at a
//     fraction of the cost of reading a row a symbol.
//   - chunks: the pieces of each file the full-text index matches, by line
//     range; content is code or prose; symbol_id is the symbol the chunk is
//     aligned to; hash identifies the chunk's text (see chunkHash), so that
//     a file indexed again keeps the full-text rows of its unchanged chunks.
//     The text itself is not stored: excerpts are read from disk.
//   - chunks_fts: the full-text index (FTS5, contentless, Porter stemming
//     over unicode61), one row per chunk with the chunk's rowid, matching the
//     chunk's text plus the identifier sub-tokens it spells.
//   - meta: the identity the database belongs to ("identity", "key"), a
//     count of the writes it has seen ("generation"), the walk's directory
//     listings ("listings"), and the generation and walk digest at which a
//     refresh last found nothing to do ("settled").
const schema = `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE files (
	id           INTEGER PRIMARY KEY,
	path         TEXT NOT NULL UNIQUE,
	language     TEXT NOT NULL,
	size         INTEGER NOT NULL,
	mtime        INTEGER NOT NULL,
	hash         TEXT NOT NULL,
	package      TEXT NOT NULL DEFAULT '',
	chunker      INTEGER NOT NULL,
	extractor    TEXT NOT NULL,
	skipped      TEXT NOT NULL DEFAULT '',
	parse_errors INTEGER NOT NULL DEFAULT 0,
	verified     INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE symbols (
	id          INTEGER PRIMARY KEY,
	file_id     INTEGER NOT NULL REFERENCES files(id),
	name        TEXT NOT NULL,
	lname       TEXT NOT NULL,
	kind        TEXT NOT NULL,
	container   TEXT NOT NULL,
	package     TEXT NOT NULL,
	signature   TEXT NOT NULL,
	exported    INTEGER NOT NULL,
	name_line   INTEGER NOT NULL,
	name_col    INTEGER NOT NULL,
	name_eline  INTEGER NOT NULL,
	name_ecol   INTEGER NOT NULL,
	name_byte   INTEGER NOT NULL,
	name_ebyte  INTEGER NOT NULL,
	start_line  INTEGER NOT NULL,
	start_col   INTEGER NOT NULL,
	end_line    INTEGER NOT NULL,
	end_col     INTEGER NOT NULL,
	start_byte  INTEGER NOT NULL,
	end_byte    INTEGER NOT NULL,
	doc_line    INTEGER NOT NULL,
	hash        INTEGER NOT NULL
);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_lname ON symbols(lname);
CREATE INDEX symbols_file ON symbols(file_id);
CREATE TABLE imports (
	id         INTEGER PRIMARY KEY,
	file_id    INTEGER NOT NULL REFERENCES files(id),
	path       TEXT NOT NULL,
	name       TEXT NOT NULL DEFAULT '',
	alias      TEXT NOT NULL,
	start_line INTEGER NOT NULL,
	start_col  INTEGER NOT NULL,
	end_line   INTEGER NOT NULL,
	end_col    INTEGER NOT NULL
);
CREATE INDEX imports_file ON imports(file_id);
CREATE INDEX imports_path ON imports(path);
CREATE INDEX imports_name ON imports(name);
CREATE INDEX imports_alias ON imports(alias);
CREATE TABLE refs (
	file_id INTEGER PRIMARY KEY REFERENCES files(id),
	data    BLOB NOT NULL
);
CREATE TABLE ref_names (
	name    TEXT NOT NULL,
	file_id INTEGER NOT NULL REFERENCES files(id),
	PRIMARY KEY (name, file_id)
) WITHOUT ROWID;
CREATE INDEX ref_names_file ON ref_names(file_id);
CREATE TABLE facts (
	file_id INTEGER PRIMARY KEY REFERENCES files(id),
	symbols BLOB NOT NULL
);
CREATE TABLE chunks (
	id              INTEGER PRIMARY KEY,
	file_id         INTEGER NOT NULL REFERENCES files(id),
	start_line      INTEGER NOT NULL,
	end_line        INTEGER NOT NULL,
	content         TEXT NOT NULL CHECK (content IN ('code', 'prose')),
	chunker         TEXT NOT NULL,
	chunker_version INTEGER NOT NULL,
	symbol_id       INTEGER REFERENCES symbols(id),
	hash            INTEGER NOT NULL
);
CREATE INDEX chunks_file ON chunks(file_id);
CREATE INDEX chunks_symbol ON chunks(symbol_id);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
	body,
	content = '',
	contentless_delete = 1,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
`

// ErrNewerSchema is matched by the error for a database written by a newer
// release of this package; such a database is never modified.
var ErrNewerSchema = errors.New("index database written by a newer version")

// A SchemaError reports a database whose schema this package does not
// read.
type SchemaError struct {
	Path      string
	Found     int
	Supported int
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("index: %s has schema version %d, newer than %d, the newest this version reads; it was left as it is (upgrade CodeCortex, or remove the file to rebuild)",
		e.Path, e.Found, e.Supported)
}

func (e *SchemaError) Unwrap() error { return ErrNewerSchema }

// A store is one open index database.
type store struct {
	path string
	key  string // the identity's key
	db   *sql.DB
	fi   os.FileInfo // the file when it was opened, to notice a replacement

	// extract is what files.extractor records for the Index's extractor.
	extract string

	// settledSeq and settledGen are the walk and the generation at which
	// a refresh last left nothing to do (settledSeq 0: never): while both
	// hold, the next refresh has nothing to compare. Guarded by the
	// Index's mu.
	settledSeq, settledGen int64

	// pre is what the activation that opened the store read for the
	// first refresh (see takePre); spec is the query running while that
	// refresh does (see speculation), cancelled as soon as the refresh
	// finds work to do. Both are guarded by the Index's mu.
	pre  *preread
	spec *speculation

	// refs counts the queries reading the store; a retired store (no
	// longer the active one) is closed when it drops to 0. Both are
	// guarded by the Index's mu.
	refs    int
	retired bool

	cacheMu  sync.Mutex
	cacheGen int64
	cache    map[string]fileRow // the file rows as of generation cacheGen; read-only

	stmtMu sync.Mutex
	stmts  map[string]*sql.Stmt // the queries, prepared once
}

// query runs one of the store's read queries, prepared on first use.
func (s *store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := s.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// queryRow is query for a single row.
func (s *store) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	st, err := s.prepared(ctx, q)
	if err != nil {
		// Let the caller's Scan report it.
		return s.db.QueryRowContext(ctx, q, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

func (s *store) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	s.stmtMu.Lock()
	defer s.stmtMu.Unlock()
	if st, ok := s.stmts[q]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if s.stmts == nil {
		s.stmts = map[string]*sql.Stmt{}
	}
	s.stmts[q] = st
	return st, nil
}

// dsn returns the data source name of the database at path. Every
// connection SQLite opens for it runs with trusted_schema off (a trigger,
// view or index expression may call no function with side effects) and in
// defensive mode (no statement can rewrite the schema or a virtual
// table's shadow tables by hand): the schema is checked when the store is
// opened (see checkSchema), and these hold on every pooled connection
// besides.
func dsn(path string) string {
	q := url.Values{}
	q.Set("_defensive", "1")
	q.Add("_pragma", "trusted_schema(0)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "cache_size(-16000)")
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}
	return u.String()
}

// openStore opens the database at path. With create, an empty database
// (or a missing file) gets the schema; without, it is reported with
// errEmpty, so that creation happens only under the writer lock. A
// database of an older schema is reported with errOldSchema so the caller
// can rebuild it; a newer one with a *SchemaError.
//
// Before SQLite reads a table, the database and the files beside it must
// be plain files (checkFiles) and its schema exactly the one this package
// creates (checkSchema); then, when b is not nil, the database must carry
// a seal that checks for its file name (checkSeal). Each failure is a
// *foreignError. Only a database this process is making under a temporary
// name is opened with b nil.
func openStore(ctx context.Context, path string, create bool, b *sealing) (*store, error) {
	fi, err := checkFiles(path)
	if err != nil {
		return nil, err
	}
	if !create {
		if _, err := os.Stat(path); err != nil {
			return nil, errEmpty
		}
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(4)
	s := &store{path: path, db: db}
	err = s.init(ctx, create)
	if err == nil && b != nil {
		err = s.checkSeal(ctx, *b)
	}
	if err != nil {
		db.Close()
		if fe, ok := err.(*foreignError); ok {
			fe.fi = fi
		}
		return nil, err
	}
	if s.fi, err = os.Stat(path); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// pageSize is the page size of a new database: four times SQLite's
// default, so that a large index is written in a quarter of the writes
// (each page is written twice, to the log and then to the database) and
// its full-text segments waste less of their pages. A database keeps the
// page size it was made with.
const pageSize = 16 << 10

// errEmpty reports a database without a schema, opened without create.
var errEmpty = errors.New("index database not created yet")

// errOldSchema reports a database of an older schema, or one that is not
// an index at all.
var errOldSchema = errors.New("index database of an older schema")

// init checks the schema version and creates the schema in an empty
// database. It writes nothing to a database of another version.
func (s *store) init(ctx context.Context, create bool) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	switch {
	case v > SchemaVersion:
		return &SchemaError{Path: s.path, Found: v, Supported: SchemaVersion}
	case v == SchemaVersion:
		return s.checkSchema(ctx)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w: version %d", errOldSchema, v)
	}
	if !create {
		return errEmpty
	}
	if _, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d", pageSize)); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating the schema: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// A schemaRow is one row of sqlite_schema: what a database holds besides
// its rows.
type schemaRow struct {
	typ, name, table string
	sql              sql.NullString
}

func (r schemaRow) String() string { return r.typ + " " + r.name }

// sqlSchemaRows reads the schema of a database, in a stable order.
const sqlSchemaRows = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name"

// readSchema reads the rows of sqlite_schema with q.
func readSchema(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) ([]schemaRow, error) {
	rows, err := q.QueryContext(ctx, sqlSchemaRows)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schemaRow
	for rows.Next() {
		var r schemaRow
		if err := rows.Scan(&r.typ, &r.name, &r.table, &r.sql); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

var (
	wantSchemaOnce sync.Once
	wantSchemaRows []schemaRow
	wantSchemaErr  error
)

// wantSchema returns the rows of sqlite_schema in a database this package
// creates, read once from a database made in memory with schema (FTS5's
// shadow tables and SQLite's automatic indexes included).
func wantSchema(ctx context.Context) ([]schemaRow, error) {
	wantSchemaOnce.Do(func() { wantSchemaRows, wantSchemaErr = memorySchema(ctx) })
	return wantSchemaRows, wantSchemaErr
}

// memorySchema makes schema in a database in memory and reads it back.
func memorySchema(ctx context.Context) ([]schemaRow, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // every connection has a database of its own
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return nil, fmt.Errorf("index: creating the schema in memory: %w", err)
	}
	return readSchema(ctx, db)
}

// schemaDigest is the digest (see digestSchema) of the schema this
// package creates, as memorySchema reads it back; TestSchemaDigest keeps
// it current. Comparing with it spares each process making the schema in
// memory (a millisecond) to check a database that matches.
const schemaDigest = "de6c6d45d0b5eb626f03356414827e4bb43e545613a51e3b51745f7945cc85f8"

// digestSchema returns a digest of schema rows: their fields, each
// preceded by its length, in order.
func digestSchema(rows []schemaRow) string {
	h := sha256.New()
	var n [8]byte
	field := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	for _, r := range rows {
		field(r.typ)
		field(r.name)
		field(r.table)
		if r.sql.Valid {
			field("+" + r.sql.String)
		} else {
			field("")
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkSchema reports a database whose schema is not exactly the one this
// package creates as foreign: every table, index, view and trigger, with
// the statement that made it. A trigger or a view would run whatever its
// author chose when the index reads or writes; an extra index or a changed
// column would make the index's statements mean something else. It reads
// sqlite_schema alone and runs before anything reads a table. The rows
// are compared with schemaDigest, and only when that differs with the
// schema made in memory, which also says what differs.
//
// A schema without the secondary indexes a cold index makes last (see
// secondaryIndexes) is this package's too: a database being written
// cold, or one whose cold writer was stopped before it made them again,
// which the next writer does.
func (s *store) checkSchema(ctx context.Context) error {
	got, err := readSchema(ctx, s.db)
	if err != nil {
		return err
	}
	if digestSchema(got) == schemaDigest {
		return nil
	}
	want, err := wantSchema(ctx)
	if err != nil {
		return err
	}
	if slices.Equal(got, want) {
		return nil
	}
	secondary := secondaryIndexes()
	withoutSecondary := slices.DeleteFunc(slices.Clone(want), func(r schemaRow) bool {
		return r.typ == "index" && slices.ContainsFunc(secondary, func(ix secondaryIndex) bool { return ix.name == r.name })
	})
	if slices.Equal(got, withoutSecondary) {
		return nil
	}
	return &foreignError{path: s.path, reason: schemaDifference(want, got)}
}

// A secondaryIndex is one of the schema's CREATE INDEX statements: an
// index no row needs to be written, only read.
type secondaryIndex struct{ name, create string }

// secondaryIndexes returns the schema's secondary indexes, in its order.
// A cold index of many files drops them before its first row and makes
// them again once its rows are written (writer.indexes): sorting
// each index once costs less than inserting into it at random, row by
// row, hundreds of thousands of times.
var secondaryIndexes = sync.OnceValue(func() []secondaryIndex {
	var out []secondaryIndex
	for line := range strings.Lines(schema) {
		rest, ok := strings.CutPrefix(line, "CREATE INDEX ")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, " ")
		out = append(out, secondaryIndex{name: name, create: "CREATE INDEX IF NOT EXISTS " + strings.TrimSpace(rest)})
	}
	return out
})

// indexesMissing reports whether the database q reads lacks any of the
// secondary indexes: one look at its schema.
func indexesMissing(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (bool, error) {
	var names []string
	for _, ix := range secondaryIndexes() {
		names = append(names, ix.name)
	}
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN (SELECT value FROM json_each(?))`,
		jsonList(names)).Scan(&n)
	return n < len(names), err
}

// makeIndexes makes the secondary indexes that are missing, in one
// transaction.
func (s *store) makeIndexes(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := execIndexes(ctx, tx, false); err != nil {
		return err
	}
	return tx.Commit()
}

// execIndexes drops the secondary indexes (drop), or makes those missing,
// in tx.
func execIndexes(ctx context.Context, tx *sql.Tx, drop bool) error {
	for _, ix := range secondaryIndexes() {
		q := ix.create
		if drop {
			q = "DROP INDEX IF EXISTS " + ix.name
		}
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// schemaDifference says, in a few words, how got differs from want.
func schemaDifference(want, got []schemaRow) string {
	byName := map[string]schemaRow{}
	for _, r := range want {
		byName[r.name] = r
	}
	var extra, changed []string
	seen := map[string]bool{}
	for _, r := range got {
		seen[r.name] = true
		w, ok := byName[r.name]
		switch {
		case !ok:
			extra = append(extra, quoteShort(r.String()))
		case w != r:
			changed = append(changed, quoteShort(r.String()))
		}
	}
	var missing []string
	for _, r := range want {
		if !seen[r.name] {
			missing = append(missing, r.String())
		}
	}
	var parts []string
	for _, d := range []struct {
		what  string
		names []string
	}{{"not made by CodeCortex", extra}, {"changed", changed}, {"missing", missing}} {
		if len(d.names) == 0 {
			continue
		}
		list := d.names
		if len(list) > 3 {
			list = append(list[:3:3], fmt.Sprintf("%d more", len(d.names)-3))
		}
		parts = append(parts, d.what+": "+strings.Join(list, ", "))
	}
	if len(parts) == 0 {
		return "its schema differs from the one this version creates"
	}
	return "its schema differs from the one this version creates; " + strings.Join(parts, "; ")
}

// quoteShort quotes a name read from a database, cut to a short prefix.
func quoteShort(s string) string {
	const max = 60
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return strconv.Quote(s)
}

func (s *store) close() error {
	s.stmtMu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.stmtMu.Unlock()
	return s.db.Close()
}

// sqlBumpGeneration counts a write: every transaction that changes the
// files table runs it, so a reader can tell whether its cached rows are
// current with one indexed read.
const sqlBumpGeneration = `INSERT INTO meta(key, value) VALUES('generation', '1')
	ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
	RETURNING CAST(value AS INTEGER)`

// bump runs sqlBumpGeneration in tx and returns the new generation.
func bump(ctx context.Context, tx *sql.Tx) (int64, error) {
	var g int64
	err := tx.QueryRowContext(ctx, sqlBumpGeneration).Scan(&g)
	return g, err
}

// hashOf returns the content hash the index holds for a file row, or ""
// when it cannot be read.
func (s *store) hashOf(id int64) string {
	var h string
	if err := s.queryRow(context.Background(), "SELECT hash FROM files WHERE id = ?", id).Scan(&h); err != nil {
		return ""
	}
	return h
}

// chunkHashes returns the hashes of the chunks the index holds for a file
// row, cut by this ChunkerVersion; nil when it cannot be read.
func (s *store) chunkHashes(fileID int64) map[int64]bool {
	rs, err := s.query(context.Background(), "SELECT hash FROM chunks WHERE file_id = ? AND chunker_version = ?", fileID, ChunkerVersion)
	if err != nil {
		return nil
	}
	defer rs.Close()
	out := map[int64]bool{}
	for rs.Next() {
		var h int64
		if err := rs.Scan(&h); err != nil {
			return nil
		}
		out[h] = true
	}
	return out
}

// chunkHash identifies a chunk's text: the first 64 bits of its SHA-256.
// The text the full-text index matches is a function of it (and of the
// ChunkerVersion), so two chunks with the same hash match the same words.
func chunkHash(text []byte) int64 {
	sum := sha256.Sum256(text)
	return int64(binary.BigEndian.Uint64(sum[:8]))
}

// patchRows brings the cached rows from generation gen-1 to gen, the
// write that set rows and removed paths. When the cache is not at gen-1
// (another process wrote in between, or nothing is cached) it is left to
// be read again.
func (s *store) patchRows(gen int64, set map[string]fileRow, removed []string) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.cache == nil || s.cacheGen != gen-1 {
		return
	}
	// Readers may hold the old map: change a copy.
	rows := maps.Clone(s.cache)
	for p, r := range set {
		rows[p] = r
	}
	for _, p := range removed {
		delete(rows, p)
	}
	s.cache, s.cacheGen = rows, gen
}

// sqlGeneration reads the number of writes the database has seen.
const sqlGeneration = "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'"

// generation returns the number of writes the database has seen.
func (s *store) generation(ctx context.Context) (int64, error) {
	var g int64
	err := s.queryRow(ctx, sqlGeneration).Scan(&g)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return g, err
}

// generationSettled returns the generation and the settled record (see
// settledRecord; "" when there is none), in one read.
func (s *store) generationSettled(ctx context.Context) (int64, string, error) {
	var g sql.NullInt64
	var settled sql.NullString
	err := s.queryRow(ctx, `SELECT
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'),
		(SELECT value FROM meta WHERE key = 'settled')`).Scan(&g, &settled)
	return g.Int64, settled.String, err
}

// cachedRows returns the file rows and the generation they are as of,
// read again only when another write (from any process) happened since
// they were last read. The map must not be modified.
func (s *store) cachedRows(ctx context.Context) (map[string]fileRow, int64, error) {
	gen, err := s.generation(ctx)
	if err != nil {
		return nil, 0, err
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.cache != nil && s.cacheGen == gen {
		return s.cache, gen, nil
	}
	// Rows read after the generation are at least as new as it: at worst
	// they are read again next time.
	rows, err := s.rows(ctx, s.extract)
	if err != nil {
		return nil, 0, err
	}
	s.cache, s.cacheGen = rows, gen
	return rows, gen, nil
}

// replaced reports whether the file at s.path is no longer the one s has
// open (another process rebuilt or removed it).
func (s *store) replaced() bool {
	fi, err := os.Stat(s.path)
	return err != nil || !os.SameFile(fi, s.fi)
}

// setMeta writes meta values in one transaction.
func (s *store) setMeta(ctx context.Context, kv map[string]string) error {
	return s.withTx(ctx, func(tx *sql.Tx) error {
		for k, v := range kv {
			if err := setMetaTx(ctx, tx, k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// withTx runs fn in a write transaction, committed when fn returns nil.
func (s *store) withTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// setMetaTx sets a meta value in tx.
func setMetaTx(ctx context.Context, tx *sql.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	return err
}

func (s *store) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// identity returns the identity recorded in the database.
func (s *store) identity(ctx context.Context) (Identity, error) {
	var id Identity
	v, err := s.meta(ctx, "identity")
	if err != nil || v == "" {
		return id, err
	}
	err = json.Unmarshal([]byte(v), &id)
	return id, err
}

// setIdentity records id in the database.
func (s *store) setIdentity(ctx context.Context, id Identity) error {
	b, err := json.Marshal(id)
	if err != nil {
		return err
	}
	return s.setMeta(ctx, map[string]string{"identity": string(b), "key": id.Key()})
}

// sane is the check every activation makes, cheap enough for each
// process start: SQLite reads the header (garbage is "not a database"),
// compares the page count it records with the file's size (a truncated
// file is "malformed") and reads the meta table. The same statement reads
// what the first refresh needs from meta (the listings only when
// listings is set), kept for it in s.pre. A full check is
// [store.quickCheck].
func (s *store) sane(ctx context.Context, listings bool) error {
	var pages, n int
	var gen sql.NullInt64
	var settled, text sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT page_count FROM pragma_page_count()),
		(SELECT count(*) FROM meta),
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'),
		(SELECT value FROM meta WHERE key = 'settled'),
		(SELECT value FROM meta WHERE key = 'listings' AND ?)`, listings).Scan(&pages, &n, &gen, &settled, &text)
	if err != nil {
		return err
	}
	s.pre = &preread{gen: gen.Int64, settled: settled.String, listings: text.String, hasListings: listings}
	return nil
}

// A preread is what the first refresh after a store is opened needs from
// meta, read by the check the opening makes: the generation, the settled
// record and the walk's listings.
type preread struct {
	gen         int64
	settled     string
	listings    string
	hasListings bool
}

// takePre returns the preread of the activation that just opened s, if
// any, and forgets it: it describes the database at that moment only.
// The Index's mu is held.
func (s *store) takePre() *preread {
	p := s.pre
	s.pre = nil
	return p
}

// quickCheck runs PRAGMA quick_check and returns its complaints, or nil
// when the database is sound.
func (s *store) quickCheck(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check(20)")
	if err != nil {
		if isCorrupt(err) {
			return []string{err.Error()}, nil
		}
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			out = append(out, strings.Join(strings.Fields(line), " "))
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return append(out, err.Error()), nil
		}
		return nil, err
	}
	return out, nil
}

// isCorrupt reports whether err says the database file is damaged or is
// not a database.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return err != nil && (strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "not a database"))
}

// removeDatabase removes a database file with its WAL and shared-memory
// files.
func removeDatabase(path string) error {
	var first error
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}
