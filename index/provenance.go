package index

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/codecortex/codecortex/seal"
)

// The purposes of the index's seals (see package seal).
const (
	// purposeDatabase seals a database: the project root, the file's
	// name, a nonce of its own and the schema version.
	purposeDatabase = "codecortex.index.db/1"
	// purposeName names an identity's database file: the project root and
	// the identity's key.
	purposeName = "codecortex.index.name/1"
)

// A sealing binds the databases of one project to this user: it names
// them and seals them under the user's key.
//
// A database's file name is derived from the identity's key under that
// key, so that nobody without it can tell which file the index will open
// for an identity: a file shipped with the repository (a database, or a
// write-ahead log beside one) cannot be put where an identity's database
// will be looked for. Every database also records a random nonce and a
// seal over the root, its file name, the nonce and the schema version in
// its meta table; a database whose seal does not check, copied from
// another project, renamed or written by someone else, is foreign.
//
// The seal says who made a database, not what it holds: its rows are not
// covered, as hashing them would cost a read of the whole file at every
// start. What a database holds is checked as far as it can be cheaply:
// its schema must be exactly the one this package creates (see
// checkSchema).
type sealing struct {
	sealer seal.Sealer
	root   string // absolute, links evaluated
}

// name returns the base name of the database file of the identity key.
func (b sealing) name(key string) (string, error) {
	s, err := b.sealer.Seal(purposeName, []byte(b.root), []byte(key))
	if err != nil {
		return "", fmt.Errorf("index: naming the database: %w", err)
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8]) + ".db", nil
}

// parts returns what a database's seal binds.
func (b sealing) parts(name, nonce string) [][]byte {
	return [][]byte{[]byte(b.root), []byte(name), []byte(nonce), []byte(strconv.Itoa(SchemaVersion))}
}

// seal returns a new nonce and the seal of the database file named name.
func (b sealing) seal(name string) (nonce, s string, err error) {
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", "", err
	}
	nonce = hex.EncodeToString(raw[:])
	s, err = b.sealer.Seal(purposeDatabase, b.parts(name, nonce)...)
	if err != nil {
		return "", "", fmt.Errorf("index: sealing the database: %w", err)
	}
	return nonce, s, nil
}

// verify reports whether s is the seal of the database file named name
// with nonce.
func (b sealing) verify(name, nonce, s string) bool {
	return nonce != "" && b.sealer.Verify(s, purposeDatabase, b.parts(name, nonce)...)
}

// sealAs records a new nonce and seal in the database of st for the file
// name it will have.
func (st *store) sealAs(ctx context.Context, b sealing, name string) error {
	nonce, s, err := b.seal(name)
	if err != nil {
		return err
	}
	return st.setMeta(ctx, map[string]string{"nonce": nonce, "seal": s})
}

// checkSeal reports a database whose seal does not check as foreign.
func (st *store) checkSeal(ctx context.Context, b sealing) error {
	var nonce, s string
	err := st.db.QueryRowContext(ctx, `SELECT
		coalesce((SELECT value FROM meta WHERE key = 'nonce'), ''),
		coalesce((SELECT value FROM meta WHERE key = 'seal'), '')`).Scan(&nonce, &s)
	if err != nil {
		return err
	}
	if !b.verify(filepath.Base(st.path), nonce, s) {
		reason := "its seal does not check"
		if s == "" {
			reason = "it has no seal"
		}
		return &foreignError{path: st.path, reason: reason}
	}
	return nil
}

// A foreignError reports a database in the storage directory that this
// user's CodeCortex did not write, or that it would not make as it is. It
// matches [seal.ErrForeign].
type foreignError struct {
	path   string
	reason string
	fi     os.FileInfo // the database file examined (not followed); nil when there was none
}

func (e *foreignError) Error() string {
	return fmt.Sprintf("index: %s was not written by this user's CodeCortex (%s)", e.path, e.reason)
}

func (e *foreignError) Unwrap() error { return seal.ErrForeign }

// removeForeign removes the foreign database err reports, with the files
// beside it, unless the database was replaced since it was examined.
func removeForeign(err error) error {
	var fe *foreignError
	if !errors.As(err, &fe) {
		return nil
	}
	fi, lerr := os.Lstat(fe.path)
	switch {
	case fe.fi == nil && errors.Is(lerr, fs.ErrNotExist):
		// Only the files beside a database not made yet were foreign.
	case fe.fi != nil && lerr == nil && os.SameFile(fi, fe.fi):
	default:
		return nil
	}
	return removeDatabase(fe.path)
}

// checkFiles makes sure that the database at path and the files SQLite
// keeps beside it are plain files before SQLite opens any of them: a
// symbolic link there could make SQLite write (a shared-memory file is
// truncated when first opened) or read somewhere else, a FIFO would
// block, and a file with other links is someone else's too. It returns
// the database's file information, nil when it does not exist.
func checkFiles(path string) (os.FileInfo, error) {
	var db os.FileInfo
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return db, err
		}
		if p == path {
			db = fi
		}
		switch {
		case !fi.Mode().IsRegular():
			return db, &foreignError{path: path, fi: db, reason: filepath.Base(p) + " is not a regular file (" + fi.Mode().Type().String() + ")"}
		case p != path && links(fi) > 1:
			// The database itself has two names for a moment while it is
			// linked into place.
			return db, &foreignError{path: path, fi: db, reason: filepath.Base(p) + " has other names (hard links)"}
		}
	}
	return db, nil
}

// foreignDiagnostic is what the answer says of a foreign database it
// removed; active says it was the identity's own, now rebuilt.
func (ix *Index) foreignDiagnostic(err error, active bool) string {
	var fe *foreignError
	if !errors.As(err, &fe) {
		return err.Error()
	}
	then := "it was removed without being used"
	if active {
		then += ", and the index rebuilt"
	}
	return fmt.Sprintf("the index database %s was not written by this user's CodeCortex (%s); %s",
		ix.relPath(fe.path), fe.reason, then)
}

// relPath returns p relative to the project root, slash-separated, or p
// itself when it is not under the root.
func (ix *Index) relPath(p string) string {
	rel, err := filepath.Rel(ix.root.Dir(), p)
	if err != nil || !filepath.IsLocal(rel) {
		return p
	}
	return filepath.ToSlash(rel)
}
