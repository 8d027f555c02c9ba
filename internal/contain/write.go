package contain

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// WriteFileAtomic replaces p inside the root with data: it writes a
// temporary file in the same directory, syncs it and renames it over p, so a
// reader sees either the old content or the new, never a mix. Missing parent
// directories are created. On failure p is left as it was.
func (r *Root) WriteFileAtomic(p string, data []byte, perm fs.FileMode) error {
	rel, err := r.Rel(p)
	if err != nil {
		return err
	}
	if rel == "." {
		return &PathError{Path: p, Reason: "the root is not a file", Err: ErrInvalidName}
	}
	dir := path.Dir(rel)
	if err := r.root.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("contain: %w", err)
	}
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	tmp := path.Join(dir, "."+path.Base(rel)+".tmp-"+hex.EncodeToString(nonce[:]))
	f, err := r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("contain: %w", err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = r.root.Rename(tmp, rel)
	}
	if werr != nil {
		_ = r.root.Remove(tmp)
		return fmt.Errorf("contain: write %s: %w", rel, werr)
	}
	return nil
}

// MkdirAll creates directory p inside the root with any missing parents.
func (r *Root) MkdirAll(p string, perm fs.FileMode) error {
	rel, err := r.Rel(p)
	if err != nil {
		return err
	}
	return r.root.MkdirAll(rel, perm)
}

// Remove removes the file or empty directory p inside the root.
func (r *Root) Remove(p string) error {
	rel, err := r.Rel(p)
	if err != nil {
		return err
	}
	return r.root.Remove(rel)
}
