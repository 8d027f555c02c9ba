package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/codecortex/codecortex/evidence"
)

// builtIndex indexes the test project and closes the index, leaving one
// database file (its write-ahead log checkpointed away), whose path it
// returns.
func builtIndex(t *testing.T) (dir, db string) {
	t.Helper()
	dir = writeTree(t, project)
	ix := openTest(t, dir, nil)
	if _, err := ix.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	db = filepath.Join(dir, filepath.FromSlash(st.Database))
	if fi, err := os.Stat(db + "-wal"); err == nil && fi.Size() > 0 {
		t.Fatalf("the write-ahead log was not checkpointed on close (%d bytes)", fi.Size())
	}
	return dir, db
}

// setUserVersion writes the schema version a database claims.
func setUserVersion(t *testing.T, db string, v int) {
	t.Helper()
	conn, err := sql.Open("sqlite", dsn(db))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
}

// searchWorks checks that the index answers correctly and returns the
// freshness it reported.
func searchWorks(t *testing.T, dir string) Freshness {
	t.Helper()
	ix := openTest(t, dir, nil)
	res, err := ix.Search(context.Background(), "validateSession", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Path != "auth/session.go" || res.Hits[0].Match != MatchDefinition {
		t.Errorf("hits after recovery: %+v", res.Hits)
	}
	if res.Freshness.State != Fresh {
		t.Errorf("freshness after recovery: %+v", res.Freshness)
	}
	return res.Freshness
}

func TestNewerSchemaRefused(t *testing.T) {
	dir, db := builtIndex(t)
	setUserVersion(t, db, SchemaVersion+1)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	ix := openTest(t, dir, nil)
	_, err = ix.Search(context.Background(), "validateSession", SearchOptions{})
	var se *SchemaError
	if !errors.Is(err, ErrNewerSchema) || !errors.As(err, &se) || se.Found != SchemaVersion+1 || se.Supported != SchemaVersion {
		t.Fatalf("search over a newer database: %v, want a *SchemaError", err)
	}
	if _, err := ix.Update(context.Background()); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("update over a newer database: %v", err)
	}
	ix.Close()
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the newer database was modified")
	}
	// The provider reports it as unavailable rather than failing the request.
	_, reports := evidence.Collect(context.Background(), evidence.Query{Text: "session"},
		[]evidence.Provider{NewProvider(Options{Dir: dir})}, evidence.CollectOptions{})
	if reports[0].State != evidence.Unavailable {
		t.Errorf("provider report %+v, want unavailable", reports[0])
	}
}

func TestOlderSchemaRebuilt(t *testing.T) {
	dir, db := builtIndex(t)
	setUserVersion(t, db, 0)
	if fr := searchWorks(t, dir); !hasDiagnostic(fr, "older schema; it was rebuilt") {
		t.Errorf("diagnostics %q", fr.Diagnostics)
	}
}

// TestDamagedDatabaseRebuilt damages the database file in several ways:
// each is detected, reported and rebuilt, and the answer is right.
func TestDamagedDatabaseRebuilt(t *testing.T) {
	const page = 4096
	tests := []struct {
		name   string
		damage func(t *testing.T, data []byte) []byte
		// update runs Update (whose full check finds damage no query
		// reads) rather than a search.
		update bool
	}{
		{"truncated", func(t *testing.T, data []byte) []byte { return data[:len(data)/2] }, false},
		{"truncated to a page", func(t *testing.T, data []byte) []byte { return data[:page] }, false},
		{"empty", func(t *testing.T, data []byte) []byte { return nil }, false},
		{"garbage header", func(t *testing.T, data []byte) []byte {
			copy(data, bytes.Repeat([]byte("garbage!"), 16))
			return data
		}, false},
		{"garbage pages", func(t *testing.T, data []byte) []byte {
			r := rand.New(rand.NewPCG(1, 2))
			for i := page; i < len(data); i++ {
				data[i] = byte(r.UintN(256))
			}
			return data
		}, false},
		{"one page in the middle", func(t *testing.T, data []byte) []byte {
			mid := len(data) / page / 2 * page
			copy(data[mid:mid+page], bytes.Repeat([]byte{0xA5}, page))
			return data
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, db := builtIndex(t)
			data, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) < 8*page {
				t.Fatalf("the database has %d bytes; the test needs a few pages", len(data))
			}
			if err := os.WriteFile(db, tt.damage(t, data), 0o644); err != nil {
				t.Fatal(err)
			}
			var fr Freshness
			if tt.update {
				ix := openTest(t, dir, nil)
				fr, err = ix.Update(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				searchWorks(t, dir)
			} else {
				fr = searchWorks(t, dir)
			}
			if !hasDiagnostic(fr, "damaged") || !hasDiagnostic(fr, "rebuilt") {
				t.Errorf("diagnostics %q, want a damaged database reported as rebuilt", fr.Diagnostics)
			}
		})
	}
}
