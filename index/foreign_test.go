package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// plantedSymbol is the definition a planted database claims; the project
// defines no such thing.
const plantedSymbol = "PlantedBackdoor"

// plantedFile is the file of the project the planted rows describe.
const plantedFile = "auth/session.go"

// A plant says what a planted database holds besides the index's schema.
type plant struct {
	// trigger adds a table "canary" and triggers on files that write a
	// row into it, after a recursive query, whenever the index inserts or
	// updates a file row.
	trigger bool
	// extra is more SQL run after the schema (a view, an index, a table).
	extra string
}

// plantDatabase writes at path a database as a repository could ship it
// under .codecortex/index: the index's own schema and version, an
// identity, the settled record and listings a refresh reads, and rows
// that describe plantedFile as the project holds it (its size and the
// SHA-256 of its content, indexed by the test extractor) with a
// definition of plantedSymbol in it, so that a refresh that trusts the
// rows keeps them. It returns nothing; the database is made with SQLite
// directly, not through the index.
func plantDatabase(t *testing.T, dir, path string, p plant) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(plantedFile)))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(src)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	id, err := readIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		"PRAGMA journal_mode=WAL",
		schema,
		fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion),
		fmt.Sprintf(`INSERT INTO meta(key, value) VALUES ('identity', '{"worktree":%q,"git":false}'), ('key', %q),
			('generation', '7'), ('settled', '7 0000'), ('listings', 'planted')`, id.Worktree, id.Key()),
		fmt.Sprintf(`INSERT INTO files(id, path, language, size, mtime, hash, package, chunker, extractor, verified)
			VALUES (1, %q, 'go', %d, 0, %q, 'auth', %d, 'fake-1', 1)`, plantedFile, len(src), hex.EncodeToString(sum[:]), ChunkerVersion),
		fmt.Sprintf(`INSERT INTO symbols(id, file_id, name, lname, kind, container, package, signature, exported,
			name_line, name_col, name_eline, name_ecol, name_byte, name_ebyte, start_line, start_col, end_line, end_col,
			start_byte, end_byte, doc_line, hash)
			VALUES (1, 1, %q, %q, 'function', '', 'auth', 'func %s()', 1, 1, 1, 1, 2, 0, 1, 1, 1, 1, 2, 0, 1, 0, 42)`,
			plantedSymbol, strings.ToLower(plantedSymbol), plantedSymbol),
		`INSERT INTO chunks(id, file_id, start_line, end_line, content, chunker, chunker_version, symbol_id, hash)
			VALUES (1, 1, 1, 3, 'code', 'syntax', 1, 1, 42)`,
		fmt.Sprintf(`INSERT INTO chunks_fts(rowid, body) VALUES (1, '%s planted backdoor')`, plantedSymbol),
	}
	if p.trigger {
		stmts = append(stmts,
			"CREATE TABLE canary(n INTEGER)",
			`CREATE TRIGGER canary_insert AFTER INSERT ON files BEGIN
				INSERT INTO canary SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT x FROM c);
			END`,
			`CREATE TRIGGER canary_update AFTER UPDATE ON files BEGIN
				INSERT INTO canary SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT x FROM c);
			END`)
	}
	if p.extra != "" {
		stmts = append(stmts, p.extra)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("planting: %v\n%s", err, s)
		}
	}
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	// The newest database in the storage directory: the one a new
	// identity is seeded from.
	later := time.Now().Add(24 * time.Hour)
	os.Chtimes(path, later, later)
}

// treeHash returns a digest of every file under dir outside .codecortex
// (path, mode and content; links by their target).
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".codecortex" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%v\x00", rel, fi.Mode())
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			h.Write([]byte(target))
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// storedSchemaObjects lists, for every database file left in the storage
// directory, the objects of its schema the index does not create, and
// the rows of a canary table (the triggers' work).
func storedSchemaObjects(t *testing.T, dir string) []string {
	t.Helper()
	want := map[string]bool{}
	mem, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	mem.SetMaxOpenConns(1)
	if _, err := mem.Exec(schema); err != nil {
		t.Fatal(err)
	}
	for _, n := range schemaNames(t, mem) {
		want[n] = true
	}
	var out []string
	files, _ := filepath.Glob(filepath.Join(dir, StorageDir, "*.db"))
	for _, f := range files {
		db, err := sql.Open("sqlite", "file:"+f+"?mode=ro&_pragma=trusted_schema(0)")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range schemaNames(t, db) {
			if !want[n] {
				out = append(out, filepath.Base(f)+": "+n)
			}
		}
		var runs int
		if db.QueryRow("SELECT count(*) FROM canary").Scan(&runs) == nil {
			out = append(out, fmt.Sprintf("%s: the triggers ran %d times", filepath.Base(f), runs))
		}
		db.Close()
	}
	return out
}

func schemaNames(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT type || ' ' || name FROM sqlite_schema")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// TestShippedDatabaseNotServed plants, as a repository could ship them,
// databases under .codecortex/index whose rows define a symbol the
// project does not have and whose triggers run a recursive query on every
// write: under a name of its own (the newest database, which a new
// identity is seeded from) and under the name the index used to give the
// identity's database (its key, which anyone can compute). Neither is
// served, copied or written to: the planted symbol is not found, no
// trigger reaches a database the index keeps, the file is named in a
// diagnostic, and nothing outside .codecortex changes.
func TestShippedDatabaseNotServed(t *testing.T) {
	for _, tc := range []struct {
		name string
		file func(id Identity) string // the planted file's base name
		p    plant
	}{
		{"seed", func(Identity) string { return "0123456789abcdef.db" }, plant{trigger: true}},
		{"seed without trigger", func(Identity) string { return "fedcba9876543210.db" }, plant{}},
		{"identity key", func(id Identity) string { return id.Key() + ".db" }, plant{trigger: true}},
		{"view", func(Identity) string { return "00000000000000aa.db" },
			plant{extra: "CREATE VIEW planted AS SELECT * FROM files"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, project)
			id, err := readIdentity(dir)
			if err != nil {
				t.Fatal(err)
			}
			rel := StorageDir + "/" + tc.file(id)
			plantDatabase(t, dir, filepath.Join(dir, filepath.FromSlash(rel)), tc.p)
			before := treeHash(t, dir)

			ix := openTest(t, dir, nil)
			ctx := context.Background()
			res, err := ix.Lookup(ctx, plantedSymbol)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Definitions) > 0 {
				t.Errorf("the planted definition was served: %+v", res.Definitions[0])
			}
			if !slices.ContainsFunc(res.Freshness.Diagnostics, func(d string) bool {
				return strings.Contains(d, rel) && strings.Contains(d, "not written by this user's CodeCortex")
			}) {
				t.Errorf("no diagnostic names %s as foreign: %q", rel, res.Freshness.Diagnostics)
			}
			sr, err := ix.Search(ctx, "planted backdoor", SearchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range sr.Hits {
				if strings.Contains(h.Symbol, plantedSymbol) {
					t.Errorf("search served the planted symbol: %+v", h)
				}
			}
			// The project still answers from what it holds.
			if res, err := ix.Lookup(ctx, "validateSession"); err != nil || len(res.Definitions) != 1 {
				t.Errorf("lookup of a real definition: %+v, %v", res.Definitions, err)
			}
			if _, err := ix.Update(ctx); err != nil {
				t.Fatal(err)
			}
			ix.Close()
			if bad := storedSchemaObjects(t, dir); len(bad) > 0 {
				t.Errorf("the storage directory holds what the index does not create: %q", bad)
			}
			if after := treeHash(t, dir); after != before {
				t.Error("files outside .codecortex changed")
			}
		})
	}
}
