package depdocs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/redact"

	"github.com/codecortex/codecortex/seal"
)

// CacheDir is where cached documentation lives, relative to the project root.
const CacheDir = ".codecortex/cache/depdocs"

// maxCacheEntry caps a cache file; a larger one is treated as corrupt.
const maxCacheEntry = 8 << 20

// CacheOptions configures a [Cache]. The zero value keeps entries for a
// day and does not serve stale entries.
type CacheOptions struct {
	// TTL is how long an entry is fresh; 0 means 24 hours, and a negative
	// TTL means never fresh (the provider is asked every time; an entry
	// answers only as a stale one, when ServeStale is set).
	TTL time.Duration
	// ServeStale lets an expired entry answer, marked stale, when the
	// provider cannot (offline, rate-limited, failing).
	ServeStale bool
	// Now is the clock; nil means time.Now. Tests replace it.
	Now func() time.Time
	// Secrets are values, such as the provider's API key, that are masked
	// wherever they appear, in addition to every string shaped like a
	// credential, before anything is written or returned.
	Secrets []string
	// Seal proves which entries this user's cortex stored: an entry
	// shipped with a repository (documentation text anyone could have
	// written) is never served; nil means [seal.User].
	Seal seal.Sealer
}

// A Cache is a [DocsProvider] that keeps another provider's documentation
// on disk under the project's .codecortex/cache directory, keyed by
// library, version and question. Each entry keeps its fetch time and
// whether it was version-exact, so a cached fallback never reads later as
// exact.
//
// Nothing secret reaches the disk: the request is redacted (the
// configured secrets, and anything shaped like a credential, such as
// "ctx7sk-…", "password=…" or "AKIA…") before it is asked of the inner
// provider, named in the entry or hashed into the entry's file name, and
// the answer is redacted before it is stored or returned. The first entry
// written also writes .codecortex/cache/.gitignore ("*"), so the cache is
// never committed.
type Cache struct {
	dir   string
	inner DocsProvider
	opts  CacheOptions
	red   *redact.Redactor
}

// NewCache wraps inner with a cache in the project in dir ("" means the
// working directory). The directory is opened on each call, so a Cache
// holds no open files.
func NewCache(dir string, inner DocsProvider, opts CacheOptions) *Cache {
	if opts.TTL == 0 {
		opts.TTL = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Seal == nil {
		opts.Seal = seal.User()
	}
	opts.Secrets = append([]string(nil), opts.Secrets...)
	return &Cache{dir: dir, inner: inner, opts: opts, red: redact.New(opts.Secrets...)}
}

type cacheEntry struct {
	Format    int        `json:"format"`
	Library   string     `json:"library"`
	Version   string     `json:"version"`
	Question  string     `json:"question"`
	Resolved  Resolution `json:"resolution"`
	FetchedAt time.Time  `json:"fetched_at"`
	// Seal is the seal (package seal) of the project root and the rest of
	// the entry.
	Seal string `json:"seal"`
}

// purposeCache is what a cache entry's seal is for.
const purposeCache = "codecortex.depdocs.cache/1"

// sealed returns the bytes an entry's seal covers.
func (e cacheEntry) sealed() []byte {
	e.Seal = ""
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// cacheGitignore keeps everything under .codecortex/cache out of git.
const cacheGitignore = ".codecortex/cache/.gitignore"

// cacheKey names the entry of a request, which is already redacted: the
// name is derived only from what the entry itself stores.
func cacheKey(req DocsRequest) string {
	h := sha256.New()
	for _, s := range []string{string(req.Ecosystem), req.Name, req.Version, strings.TrimSpace(req.Question)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return path.Join(CacheDir, hex.EncodeToString(h.Sum(nil)[:16])+".json")
}

// redactRequest masks secrets in the parts of a request that are sent,
// stored or hashed.
func (c *Cache) redactRequest(req DocsRequest) DocsRequest {
	req.Name, req.Version = c.red.String(req.Name), c.red.String(req.Version)
	req.Question = strings.TrimSpace(c.red.String(req.Question))
	return req
}

// load reads the entry of req; a missing, unreadable, corrupt or
// mismatched entry is reported as absent.
func (c *Cache) load(root *contain.Root, req DocsRequest) (cacheEntry, bool) {
	p := cacheKey(req)
	fi, err := root.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCacheEntry {
		return cacheEntry{}, false
	}
	data, err := root.ReadFile(p)
	if err != nil {
		return cacheEntry{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Format != 1 || e.Library != req.Name || e.Version != req.Version ||
		e.Question != req.Question || e.FetchedAt.IsZero() {
		return cacheEntry{}, false
	}
	if !c.opts.Seal.Verify(e.Seal, purposeCache, []byte(root.Dir()), e.sealed()) {
		return cacheEntry{}, false // not stored by this user's cortex
	}
	r := e.Resolved
	if r.Validate() != nil || (r.State != DocsExact && r.State != DocsFallback) || r.Content == "" {
		return cacheEntry{}, false
	}
	return e, true
}

// store writes r, already redacted, as the entry of req, already redacted.
func (c *Cache) store(root *contain.Root, req DocsRequest, r Resolution) error {
	if _, err := root.Stat(cacheGitignore); errors.Is(err, fs.ErrNotExist) {
		if err := root.WriteStateFile(cacheGitignore, []byte("*\n"), 0o644); err != nil {
			return err
		}
	}
	// The entry's age is measured by the cache's clock.
	e := cacheEntry{Format: 1, Library: req.Name, Version: req.Version, Question: req.Question,
		Resolved: r, FetchedAt: c.opts.Now().UTC()}
	e.Resolved.Cached, e.Resolved.Stale = false, false
	e.Resolved.FetchedAt = e.FetchedAt
	var err error
	if e.Seal, err = c.opts.Seal.Seal(purposeCache, []byte(root.Dir()), e.sealed()); err != nil {
		return err
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return root.WriteStateFile(cacheKey(req), data, 0o600)
}

// Docs implements [DocsProvider]: a fresh entry answers without asking
// the provider; otherwise the provider is asked (with the redacted
// request) and documentation it returns is stored; if it cannot answer and
// ServeStale is set, an expired entry answers, marked stale.
func (c *Cache) Docs(ctx context.Context, req DocsRequest) (Resolution, error) {
	req = c.redactRequest(req)
	r, err := c.docs(ctx, req)
	r = redactResolution(c.red, r)
	if err != nil {
		err = c.red.Error(err)
	}
	return r, err
}

func (c *Cache) docs(ctx context.Context, req DocsRequest) (Resolution, error) {
	root, rootErr := openDir(c.dir)
	if rootErr != nil {
		r, err := c.inner.Docs(ctx, req)
		return r, errors.Join(err, fmt.Errorf("documentation cache: %w", rootErr))
	}
	defer root.Close()
	e, ok := c.load(root, req)
	now := c.opts.Now()
	if ok && now.Sub(e.FetchedAt) < c.opts.TTL && !e.FetchedAt.After(now.Add(time.Minute)) {
		r := e.Resolved
		r.Cached = true
		return r, nil
	}
	r, err := c.inner.Docs(ctx, req)
	switch r.State {
	case DocsExact, DocsFallback:
		r = redactResolution(c.red, r)
		if serr := c.store(root, req, r); serr != nil {
			err = errors.Join(err, serr)
		}
		return r, err
	case DocsUnavailable:
		if ok && c.opts.ServeStale {
			s := e.Resolved
			s.Cached, s.Stale = true, true
			s.Reason = strings.TrimSpace(s.Reason + " (cached " + e.FetchedAt.Format(time.RFC3339) + ", past its time to live; served because: " + r.Reason + ")")
			return s, err
		}
	}
	return r, err
}

// PurgeCache removes every cached documentation entry of the project in
// dir ("" means the working directory).
func PurgeCache(dir string) error {
	root, err := openDir(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	entries, err := fs.ReadDir(root.FS(), CacheDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			errs = append(errs, root.Remove(path.Join(CacheDir, e.Name())))
		}
	}
	return errors.Join(errs...)
}
