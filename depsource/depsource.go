package depsource

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// ProviderName names the provider in reports and records.
const ProviderName = "dependency-source"

// The roots a record's path is relative to.
const (
	// RootModCache is the Go module cache.
	RootModCache = "GOMODCACHE"
	// RootProject is the project root (a node_modules path).
	RootProject = "project"
)

// Defaults of [Options].
const (
	// DefaultMaxFileSize is the project walk's own bound on a file.
	DefaultMaxFileSize = 1 << 20
	// DefaultMaxFiles bounds the files of one dependency that are looked at.
	DefaultMaxFiles = 5000
)

// Options tunes a [Provider]. The zero value reads the working directory's
// dependencies and finds the module cache as the go command does.
type Options struct {
	// Dir is the project root; "" means the working directory.
	Dir string
	// GoModCache is the Go module cache; "" means $GOMODCACHE, else what
	// `go env GOMODCACHE` says when the go command's environment file sets
	// GOMODCACHE or GOPATH, else the first $GOPATH element's pkg/mod, else
	// ~/go/pkg/mod.
	GoModCache string
	// Deps are the project's dependencies; nil means depdocs.Scan of Dir,
	// read again on every question.
	Deps func() ([]depdocs.Dependency, error)
	// CargoHome is Cargo's home; "" means $CARGO_HOME, else ~/.cargo.
	CargoHome string
	// MaxFileSize leaves larger files unread; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// MaxFiles bounds the files looked at in one dependency; 0 means
	// DefaultMaxFiles. Past it the answer is partial and says so.
	MaxFiles int
	// Seal proves which dependency indexes this user's cortex wrote
	// ([Provider.Index]); nil means [seal.User].
	Seal seal.Sealer
	// IndexTimeout bounds one run of a dependency's indexer; 0 means
	// DefaultIndexTimeout.
	IndexTimeout time.Duration
	// Uses lists the project files that may use name (a dependency's
	// top-level name, unqualified): their imports and their uses of it.
	// With it, a question for references or calls is answered with the
	// project's uses the imports bind to the dependency; nil answers
	// definitions only.
	Uses func(ctx context.Context, name string) ([]FileUses, error)
}

func (o *Options) maxFileSize() int64 {
	if o.MaxFileSize <= 0 {
		return DefaultMaxFileSize
	}
	return o.MaxFileSize
}

func (o *Options) maxFiles() int {
	if o.MaxFiles <= 0 {
		return DefaultMaxFiles
	}
	return o.MaxFiles
}

// A Copy is one dependency's copy on disk, at the version the project
// resolves.
type Copy struct {
	Ecosystem depdocs.Ecosystem `json:"ecosystem"`
	// Name is the Go module path or the npm package name.
	Name string `json:"name"`
	// Version is the version the lockfile (go.mod, package-lock.json, ...)
	// resolves, which the copy was checked to be.
	Version string `json:"version"`
	// Root is what Dir is relative to: RootModCache or RootProject.
	Root string `json:"root"`
	// Dir is the copy's directory, slash-separated, relative to Root:
	// "github.com/spf13/pflag@v1.0.10", "node_modules/uuid".
	Dir string `json:"dir"`
	// Checked says what the copy was checked against: "go.sum", or the
	// lockfile's path; empty when nothing records the version (an npm
	// package without a lockfile).
	Checked string `json:"checked,omitempty"`
	// Package is, for Go, the package directory the qualifier names,
	// relative to Dir ("" for the module's root package).
	Package string `json:"package,omitempty"`

	abs string // Dir's absolute directory, symbolic links evaluated
	// dist is a Python distribution's name as its METADATA writes it
	// (PyYAML, where Name is pyyaml), which its indexer names it by.
	dist string
}

// A Problem is a dependency whose copy could not be served: missing, replaced,
// or not the version the lockfile resolves.
type Problem struct {
	Ecosystem depdocs.Ecosystem `json:"ecosystem"`
	Name      string            `json:"name"`
	Version   string            `json:"version,omitempty"`
	Reason    string            `json:"reason"`
	Guidance  string            `json:"guidance,omitempty"`
}

func (p Problem) String() string {
	s := string(p.Ecosystem) + ":" + p.Name
	if p.Version != "" {
		s += "@" + p.Version
	}
	return s + ": " + p.Reason
}

// A Definition is one definition read from a dependency's copy.
type Definition struct {
	Copy Copy `json:"copy"`
	// Path is the file, relative to the copy's Root.
	Path   string         `json:"path"`
	Symbol symbols.Symbol `json:"symbol"`
	// Line is the definition's first line as written.
	Line string `json:"line"`
	// Qualifier is the name the code imports the dependency by, as the
	// question wrote it ("uuid" of uuid.v4).
	Qualifier string `json:"qualifier"`
	// SCIPSymbol is set when the dependency's sealed SCIP index defines
	// this symbol at this very place ([Provider.Index]); Index is that
	// index, relative to the project root.
	SCIPSymbol string `json:"scip_symbol,omitempty"`
	Index      string `json:"index,omitempty"`
}

// A Result is what [Provider.Find] found for one name.
type Result struct {
	Name        string       `json:"name"`
	Copies      []Copy       `json:"copies"`
	Definitions []Definition `json:"definitions"`
	Problems    []Problem    `json:"problems,omitempty"`
	// Partial says which bound cut the search short, when one did.
	Partial string `json:"partial,omitempty"`
	// Notes say why a dependency index that exists was not used.
	Notes []string `json:"notes,omitempty"`
}

// A Provider answers definitions of dependencies' symbols; see the package
// documentation. It is safe for concurrent use.
type Provider struct {
	opts Options

	once     sync.Once
	modCache string
	cacheErr error

	loaded indexes
}

// New returns a provider with opts.
func New(opts Options) *Provider { return &Provider{opts: opts} }

// Name implements [evidence.Provider].
func (p *Provider) Name() string { return ProviderName }

// a name split into the qualifier that picks the dependency, the containers
// and the name.
type target struct {
	qual      string
	container string
	name      string
}

// splitName splits "pflag.FlagSet.Parse" into pflag, FlagSet and Parse, and
// "@scope/pkg.fn" into @scope/pkg and fn; ok is false for a name without a
// qualifier.
func splitName(s string) (target, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 512 || strings.ContainsAny(s, " \t\n\x00\\") {
		return target{}, false
	}
	slash := strings.LastIndexByte(s, '/')
	dot := strings.IndexByte(s[slash+1:], '.')
	if dot < 0 {
		return target{}, false
	}
	qual, rest := s[:slash+1+dot], s[slash+1+dot+1:]
	parts := strings.Split(rest, ".")
	for _, p := range parts {
		if p == "" {
			return target{}, false
		}
	}
	if qual == "" || strings.HasSuffix(qual, "/") {
		return target{}, false
	}
	t := target{qual: qual, name: parts[len(parts)-1]}
	t.container = strings.Join(parts[:len(parts)-1], ".")
	return t, true
}

// Find looks name up: the dependency its qualifier names, its copy checked
// against the lockfile, and the definitions of name read from the copy. A
// name that names no dependency gives an empty result; an error means the
// project's dependencies could not be read.
func (p *Provider) Find(ctx context.Context, name string) (*Result, error) {
	res := &Result{Name: name, Copies: []Copy{}, Definitions: []Definition{}}
	// Rust writes serde_json::from_str.
	t, ok := splitName(strings.ReplaceAll(name, "::", "."))
	if !ok {
		return res, nil
	}
	err := p.locate(ctx, t.qual, res, true, func(c Copy) {
		res.Copies = append(res.Copies, c)
		defs, partial, err := p.definitions(ctx, c, t)
		if err != nil {
			res.Problems = append(res.Problems, Problem{Ecosystem: c.Ecosystem, Name: c.Name, Version: c.Version,
				Reason: "cannot read the copy: " + err.Error()})
			return
		}
		if partial != "" && res.Partial == "" {
			res.Partial = partial
		}
		if note := p.confirm(ctx, c, defs); note != "" {
			res.Notes = append(res.Notes, note)
		}
		res.Definitions = append(res.Definitions, defs...)
	})
	return res, err
}

// locate finds the copies of the dependencies qual names, as code writes
// it, and checks each against the project's lockfile: read is called with
// each copy that matches, and a copy that does not is a problem in res.
// When no dependency is named qual, each direct Python distribution is
// asked whether it provides module qual; one that cannot be read is a
// problem only when guessed is set. An error means the project's
// dependencies could not be read, or ctx ended.
func (p *Provider) locate(ctx context.Context, qual string, res *Result, guessed bool, read func(Copy)) error {
	deps, err := p.deps()
	if err != nil {
		return err
	}
	picked := pick(deps, qual)
	subpkg := map[string]string{}
	if len(picked) == 0 {
		// modfile.Parse: a package inside a module, named by its last
		// path element (golang.org/x/mod/modfile).
		picked, subpkg = p.goSubpackages(ctx, deps, qual)
	}
	guess := false
	if len(picked) == 0 && isPyIdent(qual) {
		guess = true
		// yaml.safe_load: a Python distribution whose name is not its
		// module's (PyYAML): each direct one's top_level.txt says.
		for _, d := range deps {
			if d.Ecosystem == depdocs.PyPI && d.Relation == depdocs.Direct {
				picked = append(picked, d)
			}
		}
		picked = pick(picked, "")
	}
	for _, d := range picked {
		if err := ctx.Err(); err != nil {
			return err
		}
		var c Copy
		var prob *Problem
		switch d.Ecosystem {
		case depdocs.Go:
			c, prob = p.goCopy(ctx, d, qual)
			if pkg, ok := subpkg[d.Name]; ok && prob == nil {
				c.Package = pkg
			}
		case depdocs.NPM:
			c, prob = p.npmCopy(d)
		case depdocs.Cargo:
			c, prob = p.cargoCopy(d)
		case depdocs.PyPI:
			c, prob = p.pythonCopy(d, qual)
			if prob == nil && c.Dir == "" {
				continue // the distribution provides no such module
			}
		default:
			continue
		}
		if prob != nil {
			if !guess || guessed {
				res.Problems = append(res.Problems, *prob)
			}
			continue
		}
		read(c)
	}
	return nil
}

// deps returns the project's dependencies.
func (p *Provider) deps() ([]depdocs.Dependency, error) {
	if p.opts.Deps != nil {
		return p.opts.Deps()
	}
	pr, err := depdocs.Scan(p.opts.Dir, depdocs.ScanOptions{})
	if err != nil {
		return nil, err
	}
	return pr.Deps, nil
}

// pick returns the dependencies qual names (every one for ""), one per
// ecosystem and name: a direct one before others, and the project root's
// before a workspace member's.
func pick(deps []depdocs.Dependency, qual string) []depdocs.Dependency {
	var out []depdocs.Dependency
	seen := map[string]int{}
	for _, d := range deps {
		if d.Relation == depdocs.Root || qual != "" && !names(d, qual) {
			continue
		}
		key := string(d.Ecosystem) + ":" + d.Name
		if i, ok := seen[key]; ok {
			if better(d, out[i]) {
				out[i] = d
			}
			continue
		}
		seen[key] = len(out)
		out = append(out, d)
	}
	return out
}

func better(a, b depdocs.Dependency) bool {
	if (a.Resolved != "") != (b.Resolved != "") {
		return a.Resolved != ""
	}
	if (a.Relation == depdocs.Direct) != (b.Relation == depdocs.Direct) {
		return a.Relation == depdocs.Direct
	}
	return len(a.File) < len(b.File)
}

// names reports whether qual, as code writes it, names dependency d.
func names(d depdocs.Dependency, qual string) bool {
	switch d.Ecosystem {
	case depdocs.Go:
		return goPackageName(d.Name) == qual || strings.HasPrefix(qual, d.Name+"/") || qual == d.Name ||
			goSubpackage(d.Name, qual)
	case depdocs.PyPI:
		return pep503(d.Name) == pep503(qual)
	case depdocs.Cargo:
		// A crate is imported with "-" written "_".
		return strings.ReplaceAll(d.Name, "-", "_") == qual || d.Alias != "" && strings.ReplaceAll(d.Alias, "-", "_") == qual
	case depdocs.NPM:
		for _, n := range []string{d.Name, d.Alias} {
			if n == "" {
				continue
			}
			if n == qual || npmIdent(n) == npmIdent(qual) {
				return true
			}
			if i := strings.LastIndexByte(n, '/'); i >= 0 && npmIdent(n[i+1:]) == npmIdent(qual) {
				return true
			}
		}
	}
	return false
}

// goSubpackage reports whether qual is an import path inside module mod
// written in full ("github.com/spf13/cobra/doc").
func goSubpackage(mod, qual string) bool {
	return strings.Contains(qual, "/") && strings.HasPrefix(qual, mod+"/")
}

// goPackageName is the name a module's root package is imported by, as
// code usually writes it: its last path element without a /vN suffix or a
// gopkg.in ".vN" one.
func goPackageName(mod string) string {
	elems := strings.Split(mod, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && isMajor(last) {
		last = elems[len(elems)-2]
	}
	if i := strings.LastIndex(last, ".v"); i > 0 && isDigits(last[i+2:]) {
		last = last[:i]
	}
	return last
}

func isMajor(s string) bool { return len(s) > 1 && s[0] == 'v' && isDigits(s[1:]) }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// npmIdent folds a package name to the identifier code binds it to:
// lower case without "-", "_" or ".", so escape-html and escapeHtml agree.
func npmIdent(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// Outside reports whether r is a record of this provider: about a file of a
// dependency's copy, outside the project's own code.
func Outside(r *evidence.Record) bool {
	return r.Provider == ProviderName && r.Metadata.Attributes["outside_project"] == "true"
}

// CheckRecord is the location check of this provider's records, which a
// host uses in place of its project-root check: the record's path must
// resolve inside the directory of the dependency it names, under the root
// it names, symbolic links included.
func (p *Provider) CheckRecord(r *evidence.Record) error {
	if !r.HasLocation() {
		return nil
	}
	a := r.Metadata.Attributes
	dir := a["dependency_dir"]
	if dir == "" || evidence.CheckPath(dir) != nil || !strings.HasPrefix(r.Path, dir+"/") {
		return fmt.Errorf("%q is not inside the dependency's directory %q", r.Path, dir)
	}
	var base string
	switch a["root"] {
	case RootModCache:
		mc, err := p.goModCache(context.Background())
		if err != nil {
			return err
		}
		base = mc
	case RootCargoHome:
		h, err := p.cargoHome()
		if err != nil {
			return err
		}
		base = h
	case RootProject:
		base = p.opts.Dir
		if base == "" {
			base = "."
		}
	default:
		return fmt.Errorf("unknown root %q", a["root"])
	}
	outer, err := contain.Open(base)
	if err != nil {
		return err
	}
	defer outer.Close()
	abs, err := outer.Abs(dir)
	if err != nil {
		return err
	}
	root, err := contain.Open(abs)
	if err != nil {
		return err
	}
	defer root.Close()
	return root.Check(strings.TrimPrefix(r.Path, dir+"/"))
}

// Gather implements [evidence.Provider]: the definitions of the query's
// Symbol when it names a dependency, as structural records (exact where
// the dependency's sealed index confirms them), and, for a question about
// references or calls, the project's uses its imports bind to that
// definition ([Options].Uses). A copy that does not match its lockfile is
// in the report, not in the records.
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if q.Outgoing {
		return evidence.NotOutgoing(p.Name()), nil
	}
	wantUses := p.opts.Uses != nil && (q.Wants(evidence.Reference) || q.Wants(evidence.Call))
	if q.Symbol == "" || !q.Wants(evidence.Definition) && !wantUses {
		return evidence.Response{}, nil
	}
	res, err := p.Find(ctx, q.Symbol)
	var uses []evidence.Record
	if err == nil && wantUses {
		t, _ := splitName(strings.ReplaceAll(q.Symbol, "::", "."))
		uses, err = p.uses(ctx, t, res)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return evidence.Response{}, err
		}
		return evidence.Response{}, &evidence.UnavailableError{Reason: "cannot read the project's dependencies", Err: err}
	}
	var resp evidence.Response
	if q.Wants(evidence.Definition) {
		for i := range res.Definitions {
			resp.Records = append(resp.Records, res.Definitions[i].Record())
		}
	}
	for _, r := range uses {
		if q.Wants(r.Kind) || r.Kind == evidence.Call && q.Wants(evidence.Reference) {
			resp.Records = append(resp.Records, r)
		}
	}
	var reasons, guidance []string
	for _, pr := range res.Problems {
		reasons = append(reasons, pr.String())
		if pr.Guidance != "" {
			guidance = append(guidance, pr.Guidance)
		}
	}
	if res.Partial != "" {
		reasons = append(reasons, res.Partial)
	}
	reasons = append(reasons, res.Notes...)
	resp.Report.Reason = strings.Join(reasons, "; ")
	resp.Report.Guidance = strings.Join(guidance, "; ")
	if len(res.Problems) > 0 && len(resp.Records) == 0 {
		resp.Report.State = evidence.Unavailable
	}
	return resp, nil
}

// Record turns the definition into an evidence record: structural, located
// in the dependency's copy, marked outside the project.
func (d *Definition) Record() evidence.Record {
	s := d.Symbol
	n := s.NameRange
	// The package the file declares (Go's), else the one the code
	// imports the dependency by (a JavaScript module declares none).
	pkg := s.Package
	if pkg == "" {
		pkg = d.Qualifier
	}
	qual := []string{}
	if pkg != "" {
		qual = append(qual, pkg)
	}
	if c := normContainer(s.Container); c != "" {
		qual = append(qual, c)
	}
	attrs := map[string]string{
		"outside_project": "true",
		"ecosystem":       string(d.Copy.Ecosystem),
		"dependency":      d.Copy.Name,
		"version":         d.Copy.Version,
		"root":            d.Copy.Root,
		"dependency_dir":  d.Copy.Dir,
		"kind":            string(s.Kind),
	}
	if d.Copy.Checked != "" {
		attrs["checked_against"] = d.Copy.Checked
	}
	if s.Range.EndLine > n.EndLine {
		attrs["end_line"] = strconv.Itoa(s.Range.EndLine)
	}
	if s.Signature != "" {
		attrs["signature"] = s.Signature
	}
	if s.Container != "" {
		attrs["container"] = s.Container
	}
	if pkg != "" {
		attrs["package"] = pkg
	}
	if s.Exported {
		attrs["exported"] = "true"
	}
	r := evidence.Record{
		Kind: evidence.Definition, Provider: ProviderName, Provenance: trust.SymbolIndex, Trust: trust.Structural,
		Path: d.Path, StartLine: n.StartLine, StartColumn: n.StartColumn, EndLine: n.EndLine, EndColumn: n.EndColumn,
		Symbol: strings.Join(append(qual, s.Name), "."), Confidence: 0.9,
		Metadata: evidence.Metadata{Excerpt: d.Line, Attributes: attrs},
	}
	if d.SCIPSymbol != "" {
		// The dependency's own index resolves the symbol here.
		r.Provenance, r.Trust, r.Confidence, r.Exact = trust.PrecisionIndex, trust.Exact, 1, true
		attrs["scip_symbol"] = d.SCIPSymbol
		attrs["index"] = d.Index
	}
	return r
}

// normContainer strips a pointer mark and type parameters: (*T[K]) is T.
func normContainer(c string) string {
	c = strings.TrimLeft(c, "*(")
	c = strings.TrimRight(c, ")")
	if i := strings.IndexAny(c, "[<"); i >= 0 {
		c = c[:i]
	}
	return c
}

// goEnvFileSets reports whether the go command's environment file ($GOENV,
// else the user's config directory's go/env) sets one of the variables.
func goEnvFileSets(names ...string) bool {
	file := os.Getenv("GOENV")
	if file == "off" {
		return false
	}
	if file == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return false
		}
		file = filepath.Join(dir, "go", "env")
	}
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if fi.Size() > 1<<16 {
		return true // too large to read here: let the go command say
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	return envFileSets(data, names...)
}

// envFileSets reports whether a go env file's lines set one of names.
func envFileSets(data []byte, names ...string) bool {
	for _, line := range strings.Split(string(data), "\n") {
		k, _, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && slices.Contains(names, strings.TrimSpace(k)) {
			return true
		}
	}
	return false
}

// goModCache returns the module cache directory, found once.
func (p *Provider) goModCache(ctx context.Context) (string, error) {
	p.once.Do(func() {
		p.modCache, p.cacheErr = findModCache(ctx, p.opts.GoModCache)
	})
	return p.modCache, p.cacheErr
}

func findModCache(ctx context.Context, given string) (string, error) {
	if given != "" {
		return filepath.Abs(given)
	}
	if v := os.Getenv("GOMODCACHE"); v != "" && filepath.IsAbs(v) {
		return v, nil
	}
	// Only the go command's environment file can make its answer differ
	// from the rule below: ask it then, and spare the subprocess otherwise.
	if goEnvFileSets("GOMODCACHE", "GOPATH") {
		if v := goEnv(ctx, "GOMODCACHE"); v != "" && filepath.IsAbs(v) {
			return v, nil
		}
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		first := filepath.SplitList(gp)[0]
		if filepath.IsAbs(first) {
			return filepath.Join(first, "pkg", "mod"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no module cache: GOMODCACHE, GOPATH and the home directory are unset")
	}
	return filepath.Join(home, "go", "pkg", "mod"), nil
}
