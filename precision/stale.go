package precision

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/codecortex/codecortex/seal"
)

// Staleness says whether an index still matches the source it was built
// from. It is deterministic: every served document is checked, never a
// sample, and by stat alone (nothing is hashed).
//
// An index is served as fresh only when this user's cortex vouches for
// it: a sources manifest under [SourcesDir], sealed with the user's key
// (package seal), names the index file's size, time and SHA-256 and holds
// each document's size and modification time. It is written when
// CodeCortex generates the index, and by [Provider.Accept] when the user
// vouches for an index made another way. A document whose size or time
// differs, or that is gone, makes the index stale.
//
// An index without such a manifest is foreign (it may have come with the
// repository, whose files carry whatever times a checkout gives them): it
// is served, but stale, with Foreign set, so that its answers never
// outrank fresh structural evidence.
//
// Files added to the project since indexing are not seen: the index knows
// only the documents it holds.
type Staleness struct {
	Stale bool `json:"stale"`
	// Foreign reports an index this user's cortex did not generate or
	// accept: it is stale whatever its documents' times say.
	Foreign bool `json:"foreign,omitempty"`
	// Reason says why, in a sentence, when Stale is set.
	Reason string `json:"reason,omitempty"`
	// Method is "manifest", or "index-mtime" for a foreign index (whose
	// documents are compared with the index file's time only to report
	// what changed).
	Method string `json:"method"`
	// Checked is how many documents were stat-ed.
	Checked int `json:"checked"`
	// Changed is how many documents differ; Examples names up to five.
	Changed  int      `json:"changed"`
	Examples []string `json:"examples,omitempty"`
}

// SourcesDir is where, under the project root, the sealed sources
// manifest of each index lives, named after the index path.
const SourcesDir = ".codecortex/precision/sources"

// A Manifest records what an index was built from, for stat-only
// staleness, and binds it to this user's cortex.
type Manifest struct {
	// IndexPath is the index, relative to the project root.
	IndexPath    string `json:"index_path"`
	IndexSize    int64  `json:"index_size"`
	IndexModNano int64  `json:"index_mod_unix_nano"`
	// IndexSHA256 is the hex SHA-256 of the index file.
	IndexSHA256 string `json:"index_sha256"`
	// Files maps each document path to its size and modification time in
	// Unix nanoseconds; a size of -1 marks a document that had changed
	// (or was gone) when the manifest was written.
	Files map[string][2]int64 `json:"files"`
	// Seal is the seal of the project root and the rest of the manifest.
	Seal string `json:"seal"`
}

// purposeManifest is what a manifest's seal is for.
const purposeManifest = "codecortex.precision.sources/1"

// sealed returns the bytes a manifest's seal covers.
func (m Manifest) sealed() []byte {
	m.Seal = ""
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// manifestPath is where the manifest of the index at rel lives.
func manifestPath(rel string) string {
	return path.Join(SourcesDir, strings.TrimSuffix(snapshotName(rel), ".snap")+".json")
}

// vouches reports whether m is this user's manifest of the index at rel in
// root, with the given info and digest.
func (m *Manifest) vouches(s seal.Sealer, root, rel string, info fs.FileInfo, digest [32]byte) bool {
	return m != nil && m.IndexPath == rel && m.IndexSize == info.Size() && m.IndexModNano == info.ModTime().UnixNano() &&
		m.IndexSHA256 == hex.EncodeToString(digest[:]) && s.Verify(m.Seal, purposeManifest, []byte(root), m.sealed())
}

// freshness checks one loaded index against the file system.
type freshness struct {
	paths    []string // document paths
	abs      []string // their absolute paths
	indexMod time.Time
	manifest *Manifest
	stamps   [][2]int64 // manifest entries in document order; -1 size means absent
	foreign  string     // why the index is foreign; "" when the manifest vouches for it
}

// newFreshness prepares the stat loop for ix, rooted at dir. Document paths
// were checked lexically at load time (no "..", not absolute); the check
// stats them through their absolute paths, and never reads them. m is the
// manifest that vouches for the index, nil when none does; foreign then
// says why.
func newFreshness(dir string, ix *Index, indexInfo fs.FileInfo, m *Manifest, foreign string) *freshness {
	f := &freshness{indexMod: indexInfo.ModTime(), foreign: foreign}
	for _, p := range ix.Paths() {
		f.paths = append(f.paths, p)
		f.abs = append(f.abs, filepath.Join(dir, filepath.FromSlash(p)))
	}
	if m != nil {
		f.manifest = m
		f.stamps = make([][2]int64, len(f.paths))
		for i, p := range f.paths {
			st, ok := m.Files[p]
			if !ok {
				st = [2]int64{-1, 0}
			}
			f.stamps[i] = st
		}
	}
	return f
}

// check stats every document.
func (f *freshness) check() Staleness {
	s := Staleness{Method: "index-mtime", Checked: len(f.abs)}
	if f.manifest != nil {
		s.Method = "manifest"
	}
	note := func(p, why string) {
		s.Changed++
		if len(s.Examples) < 5 {
			s.Examples = append(s.Examples, p+" ("+why+")")
		}
	}
	for i, a := range f.abs {
		fi, err := os.Stat(a)
		switch {
		case err != nil:
			note(f.paths[i], "missing")
		case f.manifest != nil:
			st := f.stamps[i]
			if st[0] != fi.Size() || st[1] != fi.ModTime().UnixNano() {
				note(f.paths[i], "changed")
			}
		case fi.ModTime().After(f.indexMod):
			note(f.paths[i], "modified after the index")
		}
	}
	if s.Changed > 0 {
		s.Stale = true
		s.Reason = fmt.Sprintf("%d of %d indexed documents changed since the index was built, such as %s", s.Changed, s.Checked, s.Examples[0])
	}
	if f.foreign != "" {
		s.Stale, s.Foreign = true, true
		if s.Reason != "" {
			s.Reason = f.foreign + "; " + s.Reason
		} else {
			s.Reason = f.foreign
		}
	}
	return s
}

// writeManifest writes the sealed manifest of the index file at indexAbs
// (which may still have a temporary name: the manifest records its size
// and time, which a rename keeps) for the index path rel, with the
// index's digest. For an index made before (accepted rather than just
// generated), documents modified after the index file was written are
// recorded as changed, so that accepting an older index never makes it
// fresh.
func (p *Provider) writeManifest(indexAbs, rel string, ix *Index, digest [32]byte, accepted bool) error {
	info, err := os.Stat(indexAbs)
	if err != nil {
		return err
	}
	dir := p.root.Dir()
	m := Manifest{IndexPath: rel, IndexSize: info.Size(), IndexModNano: info.ModTime().UnixNano(),
		IndexSHA256: hex.EncodeToString(digest[:]), Files: map[string][2]int64{}}
	paths := ix.Paths()
	sort.Strings(paths)
	for _, d := range paths {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(d)))
		if err != nil || accepted && fi.ModTime().After(info.ModTime()) {
			m.Files[d] = [2]int64{-1, 0}
			continue
		}
		m.Files[d] = [2]int64{fi.Size(), fi.ModTime().UnixNano()}
	}
	m.Seal, err = p.opts.sealer().Seal(purposeManifest, []byte(dir), m.sealed())
	if err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return p.root.WriteStateFile(manifestPath(rel), b, 0o644)
}

// maxManifest bounds a manifest read back.
const maxManifest = 64 << 20

// readManifest reads the manifest of the index at rel; a missing one is
// nil without error.
func (p *Provider) readManifest(rel string) (*Manifest, error) {
	f, err := p.root.FS().Open(manifestPath(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxManifest {
		return nil, fmt.Errorf("sources manifest %s: larger than %d bytes", manifestPath(rel), maxManifest)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("sources manifest %s: %w", manifestPath(rel), err)
	}
	return &m, nil
}
