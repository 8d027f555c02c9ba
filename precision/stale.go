package precision

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Staleness says whether an index still matches the source it was built
// from. It is deterministic: every served document is checked, never a
// sample, and by stat alone (nothing is hashed).
//
// Two ways are used, in order:
//
//  1. A sources manifest beside the index (the index path plus
//     [ManifestSuffix]), written by [RecordSources] when CodeCortex
//     generates the index: it holds each document's size and modification
//     time and the index's own. A document whose size or time differs, or
//     that is gone, makes the index stale. The manifest is used only while
//     the index file still has the size and time it recorded.
//  2. Otherwise the index file's own modification time: a document modified
//     after the index was written, or gone, makes it stale. This misses a
//     file restored to an older time (such as by some checkouts), which the
//     manifest catches.
//
// Files added to the project since indexing are not seen by either: the
// index knows only the documents it holds.
type Staleness struct {
	Stale bool `json:"stale"`
	// Reason says why, in a sentence, when Stale is set.
	Reason string `json:"reason,omitempty"`
	// Method is "manifest" or "index-mtime".
	Method string `json:"method"`
	// Checked is how many documents were stat-ed.
	Checked int `json:"checked"`
	// Changed is how many documents differ; Examples names up to five.
	Changed  int      `json:"changed"`
	Examples []string `json:"examples,omitempty"`
}

// ManifestSuffix is appended to the index path to name its sources
// manifest.
const ManifestSuffix = ".sources.json"

// A Manifest records what an index was built from, for stat-only staleness.
type Manifest struct {
	IndexSize    int64 `json:"index_size"`
	IndexModNano int64 `json:"index_mod_unix_nano"`
	// Files maps each document path to its size and modification time in
	// Unix nanoseconds.
	Files map[string][2]int64 `json:"files"`
}

// freshness checks one loaded index against the file system.
type freshness struct {
	paths    []string // document paths
	abs      []string // their absolute paths
	indexMod time.Time
	manifest *Manifest
	stamps   [][2]int64 // manifest entries in document order; -1 size means absent
}

// newFreshness prepares the stat loop for ix, rooted at dir. Document paths
// were checked lexically at load time (no "..", not absolute); the check
// stats them through their absolute paths, and never reads them.
func newFreshness(dir string, ix *Index, indexInfo fs.FileInfo, m *Manifest) *freshness {
	f := &freshness{indexMod: indexInfo.ModTime()}
	for _, p := range ix.Paths() {
		f.paths = append(f.paths, p)
		f.abs = append(f.abs, filepath.Join(dir, filepath.FromSlash(p)))
	}
	if m != nil && m.IndexSize == indexInfo.Size() && m.IndexModNano == indexInfo.ModTime().UnixNano() {
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
	return s
}

// RecordSources writes the sources manifest for the index at indexPath
// (absolute), stat-ing each of ix's documents under dir. Call it right after
// the index is generated.
func RecordSources(dir, indexPath string, ix *Index) error {
	return writeManifest(dir, indexPath, indexPath+ManifestSuffix, ix)
}

// writeManifest writes to manifestPath the manifest of the index file at
// indexPath, which may still have a temporary name: the manifest records
// its size and time, which a rename keeps.
func writeManifest(dir, indexPath, manifestPath string, ix *Index) error {
	info, err := os.Stat(indexPath)
	if err != nil {
		return err
	}
	m := Manifest{IndexSize: info.Size(), IndexModNano: info.ModTime().UnixNano(), Files: map[string][2]int64{}}
	paths := ix.Paths()
	sort.Strings(paths)
	for _, p := range paths {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			continue // absent now: stale at the first check
		}
		m.Files[p] = [2]int64{fi.Size(), fi.ModTime().UnixNano()}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := manifestPath + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, manifestPath)
}

// readManifest reads the manifest beside indexPath; a missing one is nil
// without error.
func readManifest(indexPath string) (*Manifest, error) {
	b, err := os.ReadFile(indexPath + ManifestSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("sources manifest %s: %w", filepath.Base(indexPath+ManifestSuffix), err)
	}
	return &m, nil
}
