package depdocs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
)

// CacheDir is where cached documentation lives, relative to the project root.
const CacheDir = ".codecortex/cache/depdocs"

// maxCacheEntry caps a cache file; a larger one is treated as corrupt.
const maxCacheEntry = 8 << 20

// CacheOptions configures a [Cache]. The zero value keeps entries for a
// day and does not serve stale entries.
type CacheOptions struct {
	// TTL is how long an entry is fresh; 0 means 24 hours.
	TTL time.Duration
	// ServeStale lets an expired entry answer, marked stale, when the
	// provider cannot (offline, rate-limited, failing).
	ServeStale bool
	// Now is the clock; nil means time.Now. Tests replace it.
	Now func() time.Time
}

// A Cache is a [DocsProvider] that keeps another provider's documentation
// on disk under the project's .codecortex directory, keyed by library,
// version and question. Each entry keeps its fetch time and whether it was
// version-exact, so a cached fallback never reads later as exact.
type Cache struct {
	root  *contain.Root
	inner DocsProvider
	opts  CacheOptions
}

// NewCache wraps inner with a cache inside root.
func NewCache(root *contain.Root, inner DocsProvider, opts CacheOptions) *Cache {
	if opts.TTL == 0 {
		opts.TTL = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Cache{root: root, inner: inner, opts: opts}
}

type cacheEntry struct {
	Format    int        `json:"format"`
	Library   string     `json:"library"`
	Version   string     `json:"version"`
	Question  string     `json:"question"`
	Resolved  Resolution `json:"resolution"`
	FetchedAt time.Time  `json:"fetched_at"`
}

// cacheKey names the entry of a request.
func cacheKey(req DocsRequest) string {
	h := sha256.New()
	for _, s := range []string{string(req.Ecosystem), req.Name, req.Version, strings.TrimSpace(req.Question)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return path.Join(CacheDir, hex.EncodeToString(h.Sum(nil)[:16])+".json")
}

// load reads the entry of req; a missing, unreadable, corrupt or
// mismatched entry is reported as absent.
func (c *Cache) load(req DocsRequest) (cacheEntry, bool) {
	p := cacheKey(req)
	fi, err := c.root.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCacheEntry {
		return cacheEntry{}, false
	}
	data, err := c.root.ReadFile(p)
	if err != nil {
		return cacheEntry{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Format != 1 || e.Library != req.Name || e.Version != req.Version ||
		e.Question != strings.TrimSpace(req.Question) || e.FetchedAt.IsZero() {
		return cacheEntry{}, false
	}
	r := e.Resolved
	if r.Validate() != nil || (r.State != DocsExact && r.State != DocsFallback) || r.Content == "" {
		return cacheEntry{}, false
	}
	return e, true
}

func (c *Cache) store(req DocsRequest, r Resolution) error {
	// The entry's age is measured by the cache's clock.
	e := cacheEntry{Format: 1, Library: req.Name, Version: req.Version, Question: strings.TrimSpace(req.Question),
		Resolved: r, FetchedAt: c.opts.Now().UTC()}
	e.Resolved.Cached, e.Resolved.Stale = false, false
	e.Resolved.FetchedAt = e.FetchedAt
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return c.root.WriteFileAtomic(cacheKey(req), data, 0o600)
}

// Docs implements [DocsProvider]: a fresh entry answers without asking
// the provider; otherwise the provider is asked and documentation it
// returns is stored; if it cannot answer and ServeStale is set, an expired
// entry answers, marked stale.
func (c *Cache) Docs(ctx context.Context, req DocsRequest) (Resolution, error) {
	e, ok := c.load(req)
	now := c.opts.Now()
	if ok && now.Sub(e.FetchedAt) < c.opts.TTL && !e.FetchedAt.After(now.Add(time.Minute)) {
		r := e.Resolved
		r.Cached = true
		return r, nil
	}
	r, err := c.inner.Docs(ctx, req)
	switch r.State {
	case DocsExact, DocsFallback:
		if serr := c.store(req, r); serr != nil {
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

// PurgeCache removes every cached documentation entry.
func PurgeCache(root *contain.Root) error {
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
