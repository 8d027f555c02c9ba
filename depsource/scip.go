package depsource

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/seal"
)

// IndexDir is where, under the project root, the SCIP indexes of
// dependencies live: one per dependency and version, each with the seal
// that proves this user's cortex wrote it.
const IndexDir = ".codecortex/deps"

// DefaultIndexTimeout bounds one run of a dependency's indexer.
const DefaultIndexTimeout = 10 * time.Minute

// maxIndexSize bounds a dependency's index read back.
const maxIndexSize = 512 << 20

// sealPurpose is what a dependency index's seal is for.
const sealPurpose = "codecortex dependency index v1"

// A DependencyIndex is one dependency's SCIP index, as [Provider.Index]
// wrote it.
type DependencyIndex struct {
	Copy Copy `json:"copy"`
	// Path is the index, relative to the project root.
	Path string `json:"path"`
	// Indexer is the tool that wrote it, with its version.
	Indexer string `json:"indexer"`
	// Documents is how many source files it holds.
	Documents int `json:"documents"`
	// Duration is how long the indexer ran.
	Duration time.Duration `json:"duration_ns"`
}

// An IndexResult is what [Provider.Index] did for one dependency name.
type IndexResult struct {
	Name    string            `json:"name"`
	Indexes []DependencyIndex `json:"indexes"`
	// Problems are the copies that could not be indexed, and why.
	Problems []Problem `json:"problems,omitempty"`
}

// An indexer runs one ecosystem's SCIP indexer over a copy.
type indexer struct {
	tool    string
	install string
	// prepare returns the arguments that index copy c into out, and the
	// files to write first in work, a scratch directory under the
	// project's IndexDir (by name).
	prepare func(c Copy, out, work string) (args []string, files map[string][]byte, err error)
	// env are the variables set over the inherited ones.
	env []string
}

// inheritedEnv are the variables an indexer inherits: what the Go and Node
// toolchains need to find themselves and their caches.
var inheritedEnv = []string{"PATH", "HOME", "TMPDIR", "USER", "LANG", "GOPATH", "GOCACHE", "GOMODCACHE", "GOROOT"}

var indexers = map[depdocs.Ecosystem]indexer{
	// scip-go runs in the module's own directory of the module cache,
	// which it only reads. The go command it runs is kept off the
	// network and off the project's workspace, uses the toolchain at
	// hand, and runs no C toolchain a dependency's cgo directives name.
	depdocs.Go: {tool: "scip-go", install: "go install github.com/sourcegraph/scip-go/cmd/scip-go@v0.1.26",
		prepare: func(c Copy, out, _ string) ([]string, map[string][]byte, error) {
			return []string{"--module-name=" + c.Name, "--module-version=" + c.Version, "--skip-tests", "--quiet",
				"--output=" + out, "./..."}, nil, nil
		},
		env: []string{"GOWORK=off", "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"}},
	// scip-typescript reads the package through a tsconfig.json written
	// in the scratch directory, never in node_modules, and names the
	// package from its package.json.
	depdocs.NPM: {tool: "scip-typescript", install: "npm install -g @sourcegraph/scip-typescript@0.4.0",
		prepare: func(c Copy, out, work string) ([]string, map[string][]byte, error) {
			cfg := map[string]any{
				"compilerOptions": map[string]any{"allowJs": true, "checkJs": false, "noEmit": true, "skipLibCheck": true},
				"include":         []string{c.abs + "/**/*"},
				"exclude":         []string{c.abs + "/node_modules"},
			}
			data, err := json.Marshal(cfg)
			if err != nil {
				return nil, nil, err
			}
			return []string{"index", "--cwd", c.abs, "--no-progress-bar", "--output", out, work},
				map[string][]byte{"tsconfig.json": data}, nil
		}},
	// scip-python reads only the package (--target-only) from the
	// site-packages it lies in, so that its symbols name the module as
	// code imports it (yaml/safe_load().), with the distribution's name and
	// version as a project's index names them.
	depdocs.PyPI: {tool: "scip-python", install: "npm install -g @sourcegraph/scip-python@0.6.6",
		prepare: func(c Copy, out, _ string) ([]string, map[string][]byte, error) {
			name, sp, target := c.dist, filepath.Dir(c.abs), filepath.Base(c.abs)
			if name == "" {
				name = c.Name
			}
			if strings.HasSuffix(c.Package, ".py") {
				// Its root would be the file, whose path in the index
				// is then empty.
				return nil, nil, errors.New("the single-file module " + c.Package + " is not indexed: scip-python indexes a package directory")
			}
			return []string{"index", "--cwd", sp, "--target-only", target, "--project-name", name,
				"--project-version", c.Version, "--quiet", "--output", out}, nil, nil
		}},
}

// IndexPath is where the index of copy c lives, relative to the project
// root: IndexDir/ECOSYSTEM/NAME@VERSION.scip, the name and version escaped
// as a URL path element is; a Python distribution's index is per module
// (NAME@VERSION+MODULE.scip), as it may provide several.
func IndexPath(c Copy) string {
	p := IndexDir + "/" + string(c.Ecosystem) + "/" + url.PathEscape(c.Name) + "@" + url.PathEscape(c.Version)
	if c.Ecosystem == depdocs.PyPI {
		mod := c.Package
		if mod == "" {
			mod = path.Base(c.Dir)
		}
		p += "+" + url.PathEscape(strings.TrimSuffix(mod, ".py"))
	}
	return p + ".scip"
}

// Index runs the SCIP indexer of each copy dep names ("pflag",
// "github.com/spf13/pflag", "uuid"), once the copy is checked against the
// lockfile as [Provider.Find] checks it, and writes the index under
// IndexDir with a seal of this user's key. From then on, a definition
// [Provider.Find] reads from that copy and the index confirms is exact.
// Go modules are indexed with scip-go, npm packages with scip-typescript,
// Python modules with scip-python; a copy of another ecosystem, or whose
// indexer is not installed or fails, is a problem. An error means the
// project's dependencies could not be read, or ctx ended.
func (p *Provider) Index(ctx context.Context, dep string) (*IndexResult, error) {
	dep = strings.TrimSpace(dep)
	res := &IndexResult{Name: dep, Indexes: []DependencyIndex{}}
	if dep == "" || len(dep) > 512 || strings.ContainsAny(dep, " \t\n\x00\\") {
		return res, nil
	}
	var found Result
	err := p.locate(ctx, dep, &found, false, func(c Copy) {
		di, prob := p.indexCopy(ctx, c)
		if prob != nil {
			res.Problems = append(res.Problems, *prob)
			return
		}
		res.Indexes = append(res.Indexes, di)
	})
	res.Problems = append(found.Problems, res.Problems...)
	return res, err
}

// indexCopy indexes copy c: the indexer writes a temporary file under
// IndexDir that replaces the index only once it loads and holds
// documents, and the seal is written beside it.
func (p *Provider) indexCopy(ctx context.Context, c Copy) (DependencyIndex, *Problem) {
	prob := &Problem{Ecosystem: c.Ecosystem, Name: c.Name, Version: c.Version}
	ixr, ok := indexers[c.Ecosystem]
	if !ok {
		prob.Reason = "no SCIP indexer is run for " + string(c.Ecosystem) + " dependencies"
		return DependencyIndex{}, prob
	}
	exe, err := safeexec.LookPath(ixr.tool)
	if err != nil {
		prob.Reason = ixr.tool + " is not installed"
		prob.Guidance = ixr.install
		return DependencyIndex{}, prob
	}
	root, err := contain.Open(p.dir())
	if err != nil {
		prob.Reason = "cannot open the project: " + err.Error()
		return DependencyIndex{}, prob
	}
	defer root.Close()
	rel := IndexPath(c)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	workRel := IndexDir + "/work-" + hex.EncodeToString(rnd[:])
	err = root.MkdirState(path.Dir(rel), 0o755)
	if err == nil {
		err = root.MkdirState(workRel, 0o700)
	}
	if err != nil {
		prob.Reason = "cannot write " + IndexDir + ": " + err.Error()
		return DependencyIndex{}, prob
	}
	work, err := root.Abs(workRel)
	if err != nil {
		prob.Reason = err.Error()
		return DependencyIndex{}, prob
	}
	defer os.RemoveAll(work)
	data, took, why := p.runIndexer(ctx, root, c, ixr, exe, workRel)
	if why != nil {
		why.Ecosystem, why.Name, why.Version = c.Ecosystem, c.Name, c.Version
		return DependencyIndex{}, why
	}
	ix, err := precision.Load(ctx, bytes.NewReader(data), precision.LoadOptions{Size: int64(len(data))})
	if err == nil && len(ix.Paths()) == 0 {
		err = errors.New("it holds no documents")
	}
	if err != nil {
		prob.Reason = ixr.tool + "'s index cannot be used: " + err.Error()
		return DependencyIndex{}, prob
	}
	s, err := p.sealer().Seal(sealPurpose, sealParts(root.Dir(), c, sha256.Sum256(data))...)
	if err == nil {
		err = root.WriteStateFile(rel, data, 0o644)
	}
	if err == nil {
		err = root.WriteStateFile(rel+".seal", []byte(s+"\n"), 0o644)
	}
	if err != nil {
		prob.Reason = "cannot write " + rel + ": " + err.Error()
		return DependencyIndex{}, prob
	}
	m := ix.Metadata()
	return DependencyIndex{Copy: c, Path: rel, Indexer: strings.TrimSpace(m.Tool + " " + m.ToolVersion),
		Documents: len(ix.Paths()), Duration: took}, nil
}

// runIndexer runs indexer ixr (the executable exe) over copy c with the
// scratch directory workRel under root, and returns the index it wrote.
func (p *Provider) runIndexer(ctx context.Context, root *contain.Root, c Copy, ixr indexer, exe, workRel string) ([]byte, time.Duration, *Problem) {
	work, err := root.Abs(workRel)
	if err != nil {
		return nil, 0, &Problem{Reason: err.Error()}
	}
	args, files, err := ixr.prepare(c, filepath.Join(work, "index.scip"), work)
	for name, data := range files {
		if err == nil {
			err = root.WriteStateFile(workRel+"/"+name, data, 0o600)
		}
	}
	if err != nil {
		return nil, 0, &Problem{Reason: "cannot prepare " + ixr.tool + ": " + err.Error()}
	}
	timeout := p.opts.IndexTimeout
	if timeout <= 0 {
		timeout = DefaultIndexTimeout
	}
	env := append(safeexec.Environ(inheritedEnv...), ixr.env...)
	if c.Ecosystem == depdocs.Go {
		// The module cache the copy was found in, whatever the
		// environment says (the last value of a variable wins).
		if mc, err := p.goModCache(ctx); err == nil {
			env = append(env, "GOMODCACHE="+mc)
		}
	}
	start := time.Now()
	run, err := safeexec.Run(ctx, safeexec.Invocation{Path: exe, Args: args, Dir: c.abs, Env: env, Timeout: timeout})
	took := time.Since(start)
	if err != nil {
		prob := &Problem{Reason: ixr.tool + " failed: " + err.Error()}
		if msg := lastLines(run.Stderr, 3); msg != "" {
			prob.Reason += ": " + msg
		}
		if c.Ecosystem == depdocs.Go {
			prob.Guidance = "go mod download (the indexer runs with GOPROXY=off and needs the module's own dependencies in the module cache)"
		}
		return nil, took, prob
	}
	data, err := readBounded(root, workRel+"/index.scip", maxIndexSize)
	if err != nil {
		return nil, took, &Problem{Reason: ixr.tool + " wrote no readable index: " + err.Error()}
	}
	return data, took, nil
}

// sealParts binds a dependency index to the project, the copy it indexes
// and its bytes.
func sealParts(root string, c Copy, digest [32]byte) [][]byte {
	return [][]byte{[]byte(root), []byte(c.Ecosystem), []byte(c.Name), []byte(c.Version), []byte(c.Dir), digest[:]}
}

func (p *Provider) sealer() seal.Sealer {
	if p.opts.Seal != nil {
		return p.opts.Seal
	}
	return seal.User()
}

// lastLines returns the last n non-empty lines of b, joined by "; ".
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}

// A loadedIndex is a dependency index read and checked once, kept while
// its file is unchanged.
type loadedIndex struct {
	size  int64
	mtime time.Time
	ix    *precision.Index
	src   *contain.Root // the copy, which ix reads positions' text from
	err   error         // why it is not served
}

// indexes caches loaded dependency indexes by path.
type indexes struct {
	mu sync.Mutex
	m  map[string]*loadedIndex
}

// errForeign is why an index without this user's seal is not served.
var errForeign = errors.New("not sealed by this user's cortex")

// index returns the sealed index of copy c, nil when there is none; an
// error says why one that exists is not served.
func (p *Provider) index(ctx context.Context, c Copy) (*precision.Index, string, error) {
	rel := IndexPath(c)
	root, err := contain.Open(p.dir())
	if err != nil {
		return nil, rel, err
	}
	defer root.Close()
	fi, err := root.Stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, rel, nil
	}
	if err != nil {
		return nil, rel, err
	}
	key := root.Dir() + "\x00" + rel
	p.loaded.mu.Lock()
	defer p.loaded.mu.Unlock()
	if l := p.loaded.m[key]; l != nil && l.size == fi.Size() && l.mtime.Equal(fi.ModTime()) {
		return l.ix, rel, l.err
	}
	l := &loadedIndex{size: fi.Size(), mtime: fi.ModTime()}
	l.ix, l.src, l.err = p.loadSealed(ctx, root, rel, c)
	if errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded) {
		return nil, rel, l.err
	}
	if p.loaded.m == nil {
		p.loaded.m = map[string]*loadedIndex{}
	}
	if old := p.loaded.m[key]; old != nil && old.src != nil {
		old.src.Close()
	}
	p.loaded.m[key] = l
	return l.ix, rel, l.err
}

// loadSealed reads the index at rel and its seal, and loads it only when
// the seal is this user's for this project, copy and bytes. The copy's
// own files are its source text.
func (p *Provider) loadSealed(ctx context.Context, root *contain.Root, rel string, c Copy) (*precision.Index, *contain.Root, error) {
	s, err := root.ReadFile(rel + ".seal")
	if err != nil || len(s) > 1024 {
		return nil, nil, errForeign
	}
	data, err := readBounded(root, rel, maxIndexSize)
	if err != nil {
		return nil, nil, err
	}
	if !p.sealer().Verify(strings.TrimSpace(string(s)), sealPurpose, sealParts(root.Dir(), c, sha256.Sum256(data))...) {
		return nil, nil, errForeign
	}
	src, err := contain.Open(c.abs)
	if err != nil {
		return nil, nil, err
	}
	ix, err := precision.Load(ctx, bytes.NewReader(data), precision.LoadOptions{Source: src.FS(), Size: int64(len(data))})
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return ix, src, nil
}

// confirm marks the definitions of copy c that its sealed index defines at
// the same place with the index's symbol: those records are exact. A note
// says when an index exists but is not served.
func (p *Provider) confirm(ctx context.Context, c Copy, defs []Definition) (note string) {
	ix, rel, err := p.index(ctx, c)
	if err != nil {
		return rel + " is not used: " + err.Error()
	}
	if ix == nil {
		return ""
	}
	for i := range defs {
		d := &defs[i]
		file := strings.TrimPrefix(d.Path, c.Dir+"/")
		n := d.Symbol.NameRange
		s, loc, err := ix.SymbolAt(file, n.StartLine, n.StartColumn)
		if err != nil || loc.StartLine != n.StartLine || loc.StartColumn != n.StartColumn {
			continue
		}
		for _, def := range ix.Definitions(s) {
			if def.Path == file && def.StartLine == n.StartLine && def.StartColumn == n.StartColumn {
				d.SCIPSymbol, d.Index = s.Name, rel
				break
			}
		}
	}
	return ""
}
