package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/seal"
)

// testKey returns a sealer for a key made of b repeated.
func testKey(t testing.TB, b byte) seal.Sealer {
	t.Helper()
	k, err := seal.NewKey(bytes.Repeat([]byte{b}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sealPlanted writes into the database at path the nonce and seal that b
// gives a database named name, as a database of that project and user
// would carry.
func sealPlanted(t *testing.T, path string, b sealing, name string) {
	t.Helper()
	nonce, s, err := b.seal(name)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("INSERT INTO meta(key, value) VALUES ('nonce', ?), ('seal', ?)", nonce, s); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
}

// A variant is a way of getting a database into a project's storage
// directory.
type variant struct {
	name string
	// plant puts the foreign files in place, given the project, the
	// sealing of the user who opens it and the name of the identity's
	// database, and returns the file the diagnostic must name (relative to
	// the project).
	plant func(t *testing.T, dir string, ours sealing, active string) string
	// canary, when set, is a file outside the project that must keep its
	// content.
	canary bool
}

// TestForeignDatabaseVariants plants databases the way an attacker who
// has read the code would: sealed under another user's key, sealed by
// this user for another project or another file, sealed as ours but with
// a trigger, a view, an index or a column of its own, or set beside
// links, FIFOs and hard links. None is served, copied or written through,
// each is reported by name, and nothing outside .codecortex changes.
func TestForeignDatabaseVariants(t *testing.T) {
	ctx := context.Background()
	canaryText := []byte("the user's own file\n")
	var canaryPath string
	at := func(dir, name string) string { return filepath.Join(dir, StorageDir, name) }
	rel := func(name string) string { return StorageDir + "/" + name }
	withSchema := func(name, extra string) variant {
		return variant{name: "sealed as ours, " + name, plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, active), plant{extra: extra})
			sealPlanted(t, at(dir, active), ours, active)
			return rel(active)
		}}
	}
	variants := []variant{
		{name: "sealed by another user", plant: func(t *testing.T, dir string, ours sealing, active string) string {
			theirs := sealing{sealer: testKey(t, 9), root: ours.root}
			id, _ := readIdentity(dir)
			name, err := theirs.name(id.Key())
			if err != nil {
				t.Fatal(err)
			}
			plantDatabase(t, dir, at(dir, name), plant{})
			sealPlanted(t, at(dir, name), theirs, name)
			return rel(name)
		}},
		{name: "sealed by this user for another project", plant: func(t *testing.T, dir string, ours sealing, active string) string {
			other := sealing{sealer: ours.sealer, root: t.TempDir()}
			plantDatabase(t, dir, at(dir, active), plant{})
			sealPlanted(t, at(dir, active), other, active)
			return rel(active)
		}},
		{name: "sealed by this user for another file", plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, active), plant{})
			sealPlanted(t, at(dir, active), ours, "0000000000000001.db")
			return rel(active)
		}},
		withSchema("trigger", `CREATE TRIGGER planted AFTER UPDATE ON files BEGIN DELETE FROM symbols; END`),
		withSchema("view", `CREATE VIEW planted AS SELECT * FROM symbols`),
		withSchema("index", `CREATE INDEX planted ON files(size)`),
		withSchema("table", `CREATE TABLE planted(x)`),
		withSchema("column", `ALTER TABLE files ADD COLUMN planted TEXT`),
		withSchema("dropped index", `DROP INDEX symbols_lname`),
		{name: "shared-memory file linked outside", canary: true, plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, active), plant{})
			if err := os.Symlink(canaryPath, at(dir, active)+"-shm"); err != nil {
				t.Fatal(err)
			}
			return rel(active)
		}},
		{name: "seed's shared-memory file linked outside", canary: true, plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, "00000000000000bb.db"), plant{})
			if err := os.Symlink(canaryPath, at(dir, "00000000000000bb.db")+"-shm"); err != nil {
				t.Fatal(err)
			}
			return rel("00000000000000bb.db")
		}},
		{name: "write-ahead log linked outside, no database", canary: true, plant: func(t *testing.T, dir string, ours sealing, active string) string {
			os.MkdirAll(filepath.Join(dir, StorageDir), 0o755)
			if err := os.Symlink(canaryPath, at(dir, active)+"-wal"); err != nil {
				t.Fatal(err)
			}
			return rel(active)
		}},
		{name: "write-ahead log hard-linked", canary: true, plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, active), plant{})
			if err := os.Link(canaryPath, at(dir, active)+"-wal"); err != nil {
				t.Skip("no hard links here:", err)
			}
			return rel(active)
		}},
		{name: "garbage write-ahead log beside a planted seed", plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, "00000000000000cc.db"), plant{trigger: true})
			if err := os.WriteFile(at(dir, "00000000000000cc.db")+"-wal", bytes.Repeat([]byte{0x37}, 8192), 0o644); err != nil {
				t.Fatal(err)
			}
			return rel("00000000000000cc.db")
		}},
		{name: "database linked to another project's", plant: func(t *testing.T, dir string, ours sealing, active string) string {
			elsewhere := filepath.Join(t.TempDir(), "x.db")
			plantDatabase(t, dir, elsewhere, plant{})
			sealPlanted(t, elsewhere, ours, active)
			if err := os.MkdirAll(filepath.Join(dir, StorageDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, at(dir, active)); err != nil {
				t.Fatal(err)
			}
			return rel(active)
		}},
		{name: "huge seed", plant: func(t *testing.T, dir string, ours sealing, active string) string {
			plantDatabase(t, dir, at(dir, "00000000000000dd.db"), plant{trigger: true})
			if err := os.Truncate(at(dir, "00000000000000dd.db"), 8<<30); err != nil {
				t.Skip("no sparse files here:", err)
			}
			return rel("00000000000000dd.db")
		}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			dir := writeTree(t, project)
			canaryPath = filepath.Join(t.TempDir(), "canary")
			if err := os.WriteFile(canaryPath, canaryText, 0o644); err != nil {
				t.Fatal(err)
			}
			ix := openTest(t, dir, func(o *Options) { o.Seal = testKey(t, 7) })
			id, err := readIdentity(dir)
			if err != nil {
				t.Fatal(err)
			}
			active, err := ix.seal.name(id.Key())
			if err != nil {
				t.Fatal(err)
			}
			want := v.plant(t, dir, ix.seal, active)
			before := treeHash(t, dir)

			res, err := ix.Lookup(ctx, plantedSymbol)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Definitions) > 0 {
				t.Errorf("the planted definition was served: %+v", res.Definitions[0])
			}
			if !slices.ContainsFunc(res.Freshness.Diagnostics, func(d string) bool {
				return strings.Contains(d, want) && strings.Contains(d, "not written by this user's CodeCortex")
			}) {
				t.Errorf("no diagnostic names %s as foreign: %q", want, res.Freshness.Diagnostics)
			}
			if res, err := ix.Lookup(ctx, "validateSession"); err != nil || len(res.Definitions) != 1 {
				t.Errorf("lookup of a real definition: %+v, %v", res.Definitions, err)
			}
			ix.Close()
			if bad := storedSchemaObjects(t, dir); len(bad) > 0 {
				t.Errorf("the storage directory holds what the index does not create: %q", bad)
			}
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(want))); err == nil && want != rel(active) {
				t.Errorf("%s was left in place", want)
			}
			if after := treeHash(t, dir); after != before {
				t.Error("files outside .codecortex changed")
			}
			if got, err := os.ReadFile(canaryPath); v.canary && (err != nil || !bytes.Equal(got, canaryText)) {
				t.Errorf("the file outside the project now holds %q (%v)", got, err)
			}
		})
	}
}

// TestDatabaseNames checks that a database's file name is the user's
// secret: two users' indexes of one project use different names, neither
// is the identity's key, and each user's is stable.
func TestDatabaseNames(t *testing.T) {
	dir := writeTree(t, project)
	names := map[string]bool{}
	for _, k := range []byte{7, 9, 7} {
		ix := openTest(t, dir, func(o *Options) { o.Seal = testKey(t, k) })
		st, err := ix.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ix.Close()
		if base := filepath.Base(st.Database); base == st.Identity.Key()+".db" {
			t.Errorf("the database is named by the identity's key: %s", base)
		}
		names[st.Database] = true
	}
	if len(names) != 2 {
		t.Errorf("database names %v, want one per user", names)
	}
}

// TestForeignListedInStatus leaves a foreign database beside a working
// index: Status lists it as foreign, never reading it, and a query does
// not touch it until a new identity looks for a seed.
func TestForeignListedInStatus(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(dir, StorageDir, "00000000000000ee.db")
	plantDatabase(t, dir, planted, plant{trigger: true})
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(st.Stored, func(s StoredIndex) bool { return s.File == StorageDir+"/00000000000000ee.db" })
	if i < 0 || st.Stored[i].Foreign == "" || st.Stored[i].Key != "" || st.Stored[i].Identity != (Identity{}) {
		t.Fatalf("stored: %+v", st.Stored)
	}
	if !strings.Contains(st.Stored[i].Foreign, "trigger canary_insert") {
		t.Errorf("foreign reason %q", st.Stored[i].Foreign)
	}
	active := slices.IndexFunc(st.Stored, func(s StoredIndex) bool { return s.Active })
	if active < 0 || st.Stored[active].Key != st.Identity.Key() || st.Stored[active].Foreign != "" {
		t.Errorf("stored: %+v", st.Stored)
	}
}

// TestEveryConnectionDistrustsTheSchema checks that every pooled
// connection, not only the first, runs with trusted_schema off and in
// defensive mode.
func TestEveryConnectionDistrustsTheSchema(t *testing.T) {
	ctx := context.Background()
	st, err := openStore(ctx, filepath.Join(t.TempDir(), "x.db"), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	var conns []*sql.Conn
	for range 4 {
		c, err := st.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		var trusted int
		if err := c.QueryRowContext(ctx, "PRAGMA trusted_schema").Scan(&trusted); err != nil {
			t.Fatal(err)
		}
		if trusted != 0 {
			t.Errorf("connection %d: trusted_schema = %d", i, trusted)
		}
		// Defensive mode makes writable_schema a no-op.
		c.ExecContext(ctx, "PRAGMA writable_schema = ON")
		var writable int
		if err := c.QueryRowContext(ctx, "PRAGMA writable_schema").Scan(&writable); err != nil {
			t.Fatal(err)
		}
		if writable != 0 {
			t.Errorf("connection %d: writable_schema = %d", i, writable)
		}
		c.Close()
	}
}

// TestStorageDirLinked checks that a .codecortex or .codecortex/index
// that is a symbolic link (to a directory of the tree) is refused rather
// than written through.
func TestStorageDirLinked(t *testing.T) {
	for _, link := range []string{".codecortex", StorageDir} {
		t.Run(link, func(t *testing.T) {
			dir := writeTree(t, project)
			p := filepath.Join(dir, filepath.FromSlash(link))
			os.MkdirAll(filepath.Dir(p), 0o755)
			target, _ := filepath.Rel(filepath.Dir(p), filepath.Join(dir, "auth"))
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			before := treeHash(t, dir)
			ix, err := Open(Options{Dir: dir, Seal: testKey(t, 7)})
			if err == nil {
				ix.Update(context.Background())
				ix.Close()
				t.Error("Open went through the link")
			} else if !strings.Contains(err.Error(), "remove") {
				t.Errorf("error %q does not say what to do", err)
			}
			if after := treeHash(t, dir); after != before {
				t.Error("files outside .codecortex changed")
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "auth")); len(entries) != 1 {
				t.Errorf("auth/ holds %d entries", len(entries))
			}
		})
	}
}

// failingSealer has no key to seal with.
type failingSealer struct{}

func (failingSealer) Seal(string, ...[]byte) (string, error) { return "", seal.ErrNoKey }
func (failingSealer) Verify(string, string, ...[]byte) bool  { return false }

// TestNoKey checks that without a key the index refuses to work, saying
// why, rather than working unsealed.
func TestNoKey(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, func(o *Options) { o.Seal = failingSealer{} })
	_, err := ix.Lookup(context.Background(), "validateSession")
	if !errors.Is(err, seal.ErrNoKey) {
		t.Errorf("lookup without a key: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, StorageDir, "*.db")); len(files) > 0 {
		t.Errorf("databases made without a key: %v", files)
	}
}

// TestSchemaDigest keeps schemaDigest current: it must be the digest of
// the schema this package creates.
func TestSchemaDigest(t *testing.T) {
	rows, err := memorySchema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := digestSchema(rows); got != schemaDigest {
		t.Errorf("schemaDigest = %q, want %q (the schema changed: set the constant, and SchemaVersion if the layout did)", schemaDigest, got)
	}
	// The digest tells rows apart that a plain concatenation would not.
	a := []schemaRow{{typ: "table", name: "ab", table: "c"}}
	b := []schemaRow{{typ: "table", name: "a", table: "bc"}}
	if digestSchema(a) == digestSchema(b) {
		t.Error("two schemas share a digest")
	}
}
