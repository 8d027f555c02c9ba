package precision

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// SnapshotDir is where, under the project root, the [Provider] keeps a
// snapshot of each index it loaded, so that a later process reads the
// snapshot instead of parsing the index again. It holds a .gitignore that
// ignores everything in it. Deleting it is always safe.
const SnapshotDir = ".codecortex/precision/cache"

// snapshotSample is how much of each end of the index file the key digests.
const snapshotSample = 64 << 10

// staleTemp is the age past which a temporary file left in SnapshotDir by a
// process that was killed while writing is removed.
const staleTemp = time.Hour

// indexKey identifies the index open in f, with its info, at rel: its size
// and modification time and a SHA-256 digest of its first and last 64 KiB
// (the whole file when smaller), with the loader's build.
func indexKey(f *os.File, info fs.FileInfo, rel string) (snapshotKey, error) {
	k := snapshotKey{build: loaderBuild(), rel: rel, size: info.Size(), mtime: info.ModTime().UnixNano()}
	h := sha256.New()
	size := info.Size()
	if size <= 2*snapshotSample {
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, size)); err != nil {
			return k, err
		}
	} else {
		buf := make([]byte, snapshotSample)
		for _, off := range []int64{0, size - snapshotSample} {
			if _, err := f.ReadAt(buf, off); err != nil {
				return k, err
			}
			h.Write(buf)
		}
	}
	h.Sum(k.sample[:0])
	return k, nil
}

// loaderBuild identifies the build of this loader, so that a snapshot is
// read only by the build that wrote it (or one built from the same source):
// the snapshot format's version, the Go version, and this module's version
// when the binary records an exact one (a clean VCS revision, or a module
// version with its checksum); otherwise the running executable's size and
// modification time.
var loaderBuild = sync.OnceValue(func() string {
	id := fmt.Sprintf("snapshot v%d, %s", snapVersion, runtime.Version())
	if v := moduleVersion(); v != "" {
		return id + ", " + v
	}
	// On Linux, /proc/self/exe is the running image even after its file
	// was replaced.
	fi, err := os.Stat("/proc/self/exe")
	if err != nil {
		var exe string
		if exe, err = os.Executable(); err == nil {
			fi, err = os.Stat(exe)
		}
	}
	if err != nil {
		return id + ", unknown build"
	}
	return fmt.Sprintf("%s, executable %d bytes modified %d", id, fi.Size(), fi.ModTime().UnixNano())
})

// moduleVersion returns the exact version of the module this package is
// part of, as the binary records it, or "" when it records none.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	pkg := reflect.TypeFor[Index]().PkgPath()
	setting := func(k string) string {
		for _, s := range bi.Settings {
			if s.Key == k {
				return s.Value
			}
		}
		return ""
	}
	if strings.HasPrefix(pkg, bi.Main.Path+"/") {
		if rev := setting("vcs.revision"); rev != "" && setting("vcs.modified") == "false" {
			return bi.Main.Path + " " + setting("vcs") + " " + rev
		}
		return ""
	}
	for _, m := range bi.Deps {
		if !strings.HasPrefix(pkg, m.Path+"/") {
			continue
		}
		if m.Replace != nil {
			m = m.Replace
		}
		if m.Sum == "" || m.Version == "" || m.Version == "(devel)" {
			return ""
		}
		return m.Path + " " + m.Version + " " + m.Sum
	}
	return ""
}

// loadSnapshot returns the index of the snapshot for key with the digest
// of the index file it records, or nil and why there is none.
func (p *Provider) loadSnapshot(key snapshotKey) (*Index, [32]byte, string) {
	var digest [32]byte
	rel := path.Join(SnapshotDir, snapshotName(key.rel))
	f, err := p.root.FS().Open(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, digest, "no snapshot yet"
	case err != nil:
		return nil, digest, "the snapshot cannot be read: " + err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, digest, fmt.Sprintf("the snapshot cannot be read: not a regular file (%v)", err)
	}
	ix, digest, err := readSnapshot(f, fi.Size(), key, p.opts.sealer())
	switch {
	case errors.Is(err, errSnapshotMismatch):
		return nil, digest, "the snapshot is of another index or build"
	case errors.Is(err, errSnapshotForeign):
		return nil, digest, "the snapshot was not written by this user's cortex"
	case err != nil:
		return nil, digest, "the snapshot was unusable (" + err.Error() + ")"
	}
	ix.src = p.root.FS()
	return ix, digest, ""
}

// writeSnapshot writes the snapshot of ix for key, with digest, the
// SHA-256 of the index file, replacing any other: readers, in this process
// or another, see the old snapshot or the new one, never part of one. It
// says what it did.
func (p *Provider) writeSnapshot(key snapshotKey, ix *Index, digest [32]byte) string {
	rel := path.Join(SnapshotDir, snapshotName(key.rel))
	if err := p.root.MkdirState(SnapshotDir, 0o755); err != nil {
		return "the snapshot cannot be written: " + err.Error()
	}
	ignore := path.Join(SnapshotDir, ".gitignore")
	if _, err := p.root.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		_ = p.root.WriteStateFile(ignore, []byte("*\n"), 0o644)
	}
	p.removeStaleTemps()
	data, err := encodeSnapshot(ix, key, digest, p.opts.sealer())
	if err != nil {
		return "the snapshot cannot be written: " + err.Error()
	}
	if err := p.root.WriteStateFile(rel, data, 0o644); err != nil {
		return "the snapshot cannot be written: " + err.Error()
	}
	return "wrote the snapshot " + rel
}

// removeStaleTemps removes the temporary files that processes killed while
// writing a snapshot left in SnapshotDir.
func (p *Provider) removeStaleTemps() {
	ents, err := fs.ReadDir(p.root.FS(), SnapshotDir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".cortex-tmp-") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleTemp {
			_ = p.root.Remove(path.Join(SnapshotDir, e.Name()))
		}
	}
}
