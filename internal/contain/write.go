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
// directories are created. When p is a symbolic link that stays inside the
// root, the file it points to is replaced and the link is kept. On failure p
// is left as it was and the temporary file is removed.
func (r *Root) WriteFileAtomic(p string, data []byte, perm fs.FileMode) error {
	_, real, err := r.resolve(p)
	if err != nil {
		return err
	}
	if real == "." {
		return &PathError{Path: p, Reason: "the root is not a file", Err: ErrInvalidName}
	}
	dir := path.Dir(real)
	if err := r.root.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("contain: %w", err)
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	// A fixed-length name, so a long p cannot push it past NAME_MAX.
	tmp := path.Join(dir, ".cortex-tmp-"+hex.EncodeToString(nonce[:]))
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
		werr = r.root.Rename(tmp, real)
	}
	if werr != nil {
		_ = r.root.Remove(tmp)
		return fmt.Errorf("contain: write %s: %w", real, werr)
	}
	// Make the rename itself durable; a failure here cannot undo it.
	if d, err := r.root.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// MkdirAll creates directory p inside the root with any missing parents.
func (r *Root) MkdirAll(p string, perm fs.FileMode) error {
	_, real, err := r.resolve(p)
	if err != nil {
		return err
	}
	return r.root.MkdirAll(real, perm)
}

// Remove removes the file or empty directory p inside the root. When p is
// a symbolic link, the link is removed, not what it points to.
func (r *Root) Remove(p string) error {
	rel, _, err := r.resolve(p)
	if err != nil {
		return err
	}
	if rel == "." {
		return &PathError{Path: p, Reason: "the root cannot be removed", Err: ErrInvalidName}
	}
	_, dir, err := r.resolve(path.Dir(rel))
	if err != nil {
		return err
	}
	return r.root.Remove(path.Join(dir, path.Base(rel)))
}
