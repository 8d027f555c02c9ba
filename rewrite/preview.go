package rewrite

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/structural"
)

// PreviewFormat names the preview document's format.
const PreviewFormat = "codecortex.rewrite.preview/1"

// A Preview is a rewrite computed and stored, not yet applied: what would
// change, the SHA-256 of every file it was computed from, the impact
// estimated before the change and the time it expires. It is persisted
// under [PreviewDir] as <id>.json, and [Rewriter.Apply] applies exactly
// it.
//
// Invariants, checked by [Preview.Validate]: the id is well formed, files
// are sorted by path without duplicates, each file's edits are sorted and
// do not overlap, and the counts are the sums over the files.
type Preview struct {
	Format  string    `json:"format"`
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	Source  Source    `json:"source"`
	Files   []File    `json:"files"`
	// Matches is how many matches are rewritten (the outermost, for a
	// pattern; the edits, for a host's edits), and SkippedInner how many
	// matches nested in another were left to the outer one's rewrite.
	Matches      int `json:"matches"`
	SkippedInner int `json:"skipped_inner"`
	// ChangedBytes is the bytes the edits remove plus the bytes they
	// insert, which max_rewrite_bytes bounds.
	ChangedBytes int64 `json:"changed_bytes"`
	// Impact is the impact estimated before the change.
	Impact *ImpactReport `json:"impact,omitempty"`
	// Notes say what else the preview found (files whose syntax could
	// not be checked).
	Notes []string `json:"notes,omitempty"`
	// Seal is the seal (package seal) of the project root and the rest
	// of the preview, set when it is stored: a stored preview whose seal
	// does not check was not made by this user's cortex, and is neither
	// shown nor applied.
	Seal string `json:"seal,omitempty"`
}

// purposePreview is what a preview's seal is for.
const purposePreview = "codecortex.rewrite.preview/1"

// sealed returns the bytes a preview's seal covers.
func (p Preview) sealed() []byte {
	p.Seal = ""
	b, err := json.Marshal(p)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// Source says what a preview was computed from.
type Source struct {
	// Kind is "pattern" for a structural rewrite, "edits" for a host's
	// own edits.
	Kind     string              `json:"kind"`
	Pattern  string              `json:"pattern,omitempty"`
	Template string              `json:"template,omitempty"`
	Language structural.Language `json:"language,omitempty"`
	Paths    []string            `json:"paths,omitempty"`
	// Description is what the host said its edits do.
	Description string `json:"description,omitempty"`
}

// The kinds of [Source].
const (
	SourcePattern = "pattern"
	SourceEdits   = "edits"
)

// A File is one file of a preview.
type File struct {
	Path string `json:"path"`
	// Mode is the file's permission bits, which the rewritten file keeps.
	Mode fs.FileMode `json:"mode"`
	// SHA256 is the hex digest of the file the preview was computed from;
	// NewSHA256 of the file as the edits leave it.
	SHA256    string `json:"sha256"`
	NewSHA256 string `json:"new_sha256"`
	Size      int64  `json:"size"`
	// Diff is the unified diff of the change (a/ and b/ prefixes, three
	// lines of context).
	Diff  string            `json:"diff"`
	Edits []structural.Edit `json:"edits"`
}

// Expired reports whether the preview is past its expiry at now.
func (p *Preview) Expired(now time.Time) bool { return !now.Before(p.Expires) }

// Validate checks the preview's invariants.
func (p *Preview) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorruptPreview, fmt.Sprintf(format, args...))
	}
	if p.Format != PreviewFormat {
		return bad("format %q, want %q", p.Format, PreviewFormat)
	}
	if !validID(p.ID) {
		return bad("malformed id %q", p.ID)
	}
	matches := 0
	var bytes int64
	for i, f := range p.Files {
		if err := checkRel(f.Path); err != nil {
			return bad("file %d: %v", i, err)
		}
		if i > 0 && p.Files[i-1].Path >= f.Path {
			return bad("files are not sorted by unique path at %q", f.Path)
		}
		if !validHash(f.SHA256) || !validHash(f.NewSHA256) {
			return bad("%s: malformed hash", f.Path)
		}
		if len(f.Edits) == 0 {
			return bad("%s: no edits", f.Path)
		}
		for j, e := range f.Edits {
			if e.Path != f.Path || e.StartByte < 0 || e.EndByte < e.StartByte || len(e.Old) != e.EndByte-e.StartByte {
				return bad("%s: edit %d is malformed", f.Path, j)
			}
			if j > 0 && e.StartByte < f.Edits[j-1].EndByte {
				return bad("%s: edits overlap or are not sorted", f.Path)
			}
			bytes += int64(len(e.Old) + len(e.New))
		}
		matches += len(f.Edits)
	}
	if matches != p.Matches || bytes != p.ChangedBytes {
		return bad("counts do not match the edits")
	}
	return nil
}

// checkRel rejects a path that is not a clean, relative, slash-separated
// path inside the root.
func checkRel(p string) error {
	if p == "" || p == "." || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "\x00") {
		return fmt.Errorf("path %q is not clean and relative to the root", p)
	}
	return nil
}

// validID reports whether id is a transaction id: 24 lower-case hex digits.
func validID(id string) bool {
	if len(id) != 24 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}

// newID returns a new random id: 24 lower-case hex digits.
func newID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b[:])
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func previewPath(id string) string { return path.Join(PreviewDir, id+".json") }

// storePreview writes p atomically under PreviewDir, and removes previews
// that expired more than a day before now.
func (r *Rewriter) storePreview(p *Preview) error {
	if err := r.ensureState(); err != nil {
		return err
	}
	p.Seal = ""
	sl, err := r.opts.sealer().Seal(purposePreview, p.sealed())
	if err != nil {
		return fmt.Errorf("rewrite: sealing the preview: %w", err)
	}
	p.Seal = sl
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	name := previewPath(p.ID)
	if err := fsx.ReplaceFile(r.fs, name, name+".tmp", b, 0o644); err != nil {
		return fmt.Errorf("rewrite: storing the preview: %w", err)
	}
	r.prunePreviews()
	return nil
}

// pruneAfter is how long after its expiry a preview is kept, so that
// applying it says "expired" rather than "unknown".
const pruneAfter = 24 * time.Hour

// prunePreviews removes previews long expired. Failures are ignored: a
// preview left behind is refused as expired.
func (r *Rewriter) prunePreviews() {
	ents, err := r.fs.ReadDir(PreviewDir)
	if err != nil {
		return
	}
	now := r.opts.now()
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		p, err := r.loadPreview(id)
		if err != nil || now.Sub(p.Expires) < pruneAfter {
			continue
		}
		_ = r.fs.Remove(previewPath(id))
	}
}

// maxPreviewSize bounds a stored preview read back.
const maxPreviewSize = 256 << 20

// loadPreview reads and checks the stored preview id.
func (r *Rewriter) loadPreview(id string) (*Preview, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%w: %q is not a preview id (24 hex digits)", ErrUnknownPreview, id)
	}
	b, err := r.fs.ReadFile(previewPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (it may have been pruned a day after it expired)", ErrUnknownPreview, id)
	}
	if err != nil {
		return nil, fmt.Errorf("rewrite: reading preview %s: %w", id, err)
	}
	p, err := parsePreview(b)
	if err != nil {
		return nil, err
	}
	if p.ID != id {
		return nil, fmt.Errorf("%w: the file of preview %s holds preview %s", ErrCorruptPreview, id, p.ID)
	}
	if !r.opts.sealer().Verify(p.Seal, purposePreview, p.sealed()) {
		return nil, fmt.Errorf("%w: preview %s: %w (shipped with the repository, or made elsewhere); it is neither shown nor applied; remove it with: rm -- %s",
			ErrUnknownPreview, id, seal.ErrForeign, previewPath(id))
	}
	return p, nil
}

// parsePreview decodes and validates a stored preview.
func parsePreview(b []byte) (*Preview, error) {
	if len(b) > maxPreviewSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrCorruptPreview, maxPreviewSize)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p Preview
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorruptPreview, err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}
