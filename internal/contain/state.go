package contain

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// ErrLinkedState is matched by the error for a state directory, or a state
// file, that is a symbolic link or not what it should be. A repository can
// ship .codecortex/ (or .codecortex/index) as a link to another directory of
// the tree; following it would write CodeCortex's state there.
var ErrLinkedState = errors.New("reached through a symbolic link or not a directory")

// MkdirState creates the directory p (slash-separated, relative to the
// root) and its missing parents, reached through no symbolic link: every
// element that exists must be a real directory. Layers make the
// directories they keep state in under .codecortex/ with it, so that a
// link shipped with a repository cannot send their writes elsewhere in the
// tree.
func (r *Root) MkdirState(p string, perm fs.FileMode) error {
	if err := checkStateName(p); err != nil {
		return err
	}
	cur := ""
	for _, e := range strings.Split(p, "/") {
		cur = path.Join(cur, e)
		fi, err := r.root.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			if err := r.root.Mkdir(cur, perm); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("contain: %w", err)
			}
			if fi, err = r.root.Lstat(cur); err != nil {
				return fmt.Errorf("contain: %w", err)
			}
		} else if err != nil {
			return fmt.Errorf("contain: %w", err)
		}
		if !fi.IsDir() {
			what := "a file"
			if fi.Mode()&fs.ModeSymlink != 0 {
				what = "a symbolic link"
			}
			return &PathError{Path: cur, Reason: "is " + what + ", not a directory: CodeCortex keeps its state only in real directories under the root; remove it", Err: ErrLinkedState}
		}
	}
	return nil
}

// WriteStateFile replaces the state file p with data as WriteFileAtomic
// does, but reaches it through no symbolic link: its directory is made with
// [Root.MkdirState], and a link at p itself is replaced, never followed.
func (r *Root) WriteStateFile(p string, data []byte, perm fs.FileMode) error {
	if err := checkStateName(p); err != nil {
		return err
	}
	dir := path.Dir(p)
	if dir != "." {
		if err := r.MkdirState(dir, 0o755); err != nil {
			return err
		}
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
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
		werr = r.root.Rename(tmp, p)
	}
	if werr != nil {
		_ = r.root.Remove(tmp)
		return fmt.Errorf("contain: write %s: %w", p, werr)
	}
	if d, err := r.root.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// checkStateName accepts a clean relative slash-separated path.
func checkStateName(p string) error {
	if p == "" || p == "." || !fs.ValidPath(p) {
		return &PathError{Path: p, Reason: "is not a clean relative path", Err: ErrInvalidName}
	}
	return nil
}
