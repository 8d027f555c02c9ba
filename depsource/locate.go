package depsource

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// goEnv asks the go command for one variable, offline and briefly; "" when
// it cannot answer.
func goEnv(ctx context.Context, name string) string {
	gobin, err := safeexec.LookPath("go")
	if err != nil {
		return ""
	}
	dir, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(dir) {
		dir = os.TempDir()
	}
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: gobin, Args: []string{"env", name}, Dir: dir,
		Env:     append(safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOROOT", "GOENV"), "GOTOOLCHAIN=local", "GOFLAGS="),
		Timeout: 10 * time.Second, MaxStdout: 1 << 12, MaxStderr: 1 << 12})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(res.Stdout))
}

// goCopy finds module d in the module cache at the version go.mod requires
// and checks it against go.sum.
func (p *Provider) goCopy(ctx context.Context, d depdocs.Dependency, qual string) (Copy, *Problem) {
	prob := &Problem{Ecosystem: depdocs.Go, Name: d.Name, Version: d.Resolved}
	switch {
	case d.Source == depdocs.Replaced:
		prob.Reason = "replaced (" + d.SourceDetail + "): the module cache's copy is not the code that builds"
		return Copy{}, prob
	case d.Resolved == "":
		prob.Reason = "no version is resolved for it"
		return Copy{}, prob
	}
	escPath, err1 := module.EscapePath(d.Name)
	escVer, err2 := module.EscapeVersion(d.Resolved)
	if err := errors.Join(err1, err2); err != nil {
		prob.Reason = "not a valid module path and version: " + err.Error()
		return Copy{}, prob
	}
	mc, err := p.goModCache(ctx)
	if err != nil {
		prob.Reason = err.Error()
		return Copy{}, prob
	}
	c := Copy{Ecosystem: depdocs.Go, Name: d.Name, Version: d.Resolved, Root: RootModCache, Dir: escPath + "@" + escVer}
	if strings.HasPrefix(qual, d.Name+"/") {
		c.Package = strings.TrimPrefix(qual, d.Name+"/")
	}
	cache, err := contain.Open(mc)
	if err != nil {
		prob.Reason = "no module cache at " + mc
		prob.Guidance = "go mod download " + d.Name + "@" + d.Resolved
		return Copy{}, prob
	}
	defer cache.Close()
	abs, err := cache.Abs(c.Dir)
	var fi fs.FileInfo
	if err == nil {
		fi, err = os.Stat(abs)
	}
	if err != nil || !fi.IsDir() {
		prob.Reason = "not in the module cache (" + mc + ")"
		prob.Guidance = "go mod download " + d.Name + "@" + d.Resolved
		return Copy{}, prob
	}
	c.abs = abs
	c.Checked = "go.mod"
	want := p.goSum(d, escPath)
	if want == "" {
		return c, nil
	}
	got := readSmall(cache, path.Join("cache/download", escPath, "@v", escVer+".ziphash"))
	switch {
	case got == "":
	case got != want:
		prob.Reason = fmt.Sprintf("the module cache's copy hashes to %s, go.sum records %s", got, want)
		prob.Guidance = "go clean -modcache, then go mod download"
		return Copy{}, prob
	default:
		c.Checked = "go.sum"
	}
	return c, nil
}

// goSum returns the h1: hash go.sum beside d's go.mod records for d's
// module zip, or "".
func (p *Provider) goSum(d depdocs.Dependency, _ string) string {
	root, err := contain.Open(p.dir())
	if err != nil {
		return ""
	}
	defer root.Close()
	sum := path.Join(path.Dir(d.File), "go.sum")
	f, err := root.FS().Open(sum)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 0; sc.Scan() && n < 1<<20; n++ {
		if h, ok := goSumLine(sc.Text(), d.Name, d.Resolved); ok {
			return h
		}
	}
	return ""
}

// goSumLine returns the hash of a go.sum line "mod version h1:..." for
// mod and version (not its /go.mod line).
func goSumLine(line, mod, version string) (string, bool) {
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != mod || f[1] != version || !strings.HasPrefix(f[2], "h1:") {
		return "", false
	}
	return f[2], true
}

// readSmall reads a small text file inside root, trimmed; "" when it
// cannot.
func readSmall(root *contain.Root, p string) string {
	fi, err := root.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<10 {
		return ""
	}
	b, err := root.ReadFile(p)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func (p *Provider) dir() string {
	if p.opts.Dir == "" {
		return "."
	}
	return p.opts.Dir
}

// npmCopy finds package d in node_modules beside the file that resolves it
// and checks its package.json version against the lockfile's.
func (p *Provider) npmCopy(d depdocs.Dependency) (Copy, *Problem) {
	prob := &Problem{Ecosystem: depdocs.NPM, Name: d.Name, Version: d.Resolved}
	if d.Source.Local() && d.Source != depdocs.Git {
		prob.Reason = "a " + string(d.Source) + " dependency, not a published package"
		return Copy{}, prob
	}
	installed := d.Name
	if d.Alias != "" {
		installed = d.Alias
	}
	base := path.Dir(d.File)
	if d.File == "" {
		base = "."
	}
	rel := path.Join(base, "node_modules", installed)
	root, err := contain.Open(p.dir())
	if err != nil {
		prob.Reason = "cannot open the project: " + err.Error()
		return Copy{}, prob
	}
	defer root.Close()
	abs, err := root.Abs(rel)
	if err != nil {
		prob.Reason = rel + " leaves the project: " + err.Error()
		return Copy{}, prob
	}
	real, err := filepath.EvalSymlinks(abs)
	var fi fs.FileInfo
	if err == nil {
		fi, err = os.Stat(real)
	}
	if err != nil || !fi.IsDir() {
		prob.Reason = rel + " is not installed"
		prob.Guidance = "npm ci (or the project's package manager) installs the locked version"
		return Copy{}, prob
	}
	pkg, err := contain.Open(real)
	if err != nil {
		prob.Reason = "cannot open " + rel + ": " + err.Error()
		return Copy{}, prob
	}
	defer pkg.Close()
	data, err := readBounded(pkg, "package.json", maxManifest)
	if err != nil {
		prob.Reason = "cannot read " + rel + "/package.json: " + err.Error()
		return Copy{}, prob
	}
	name, version, err := packageVersion(data)
	if err != nil {
		prob.Reason = rel + "/package.json: " + err.Error()
		return Copy{}, prob
	}
	if name != "" && name != d.Name {
		prob.Reason = fmt.Sprintf("%s holds %s, not %s", rel, name, d.Name)
		prob.Guidance = "npm ci reinstalls what the lockfile resolves"
		return Copy{}, prob
	}
	c := Copy{Ecosystem: depdocs.NPM, Name: d.Name, Version: version, Root: RootProject, Dir: rel, abs: real}
	if d.Resolved != "" {
		if !depdocs.SameRelease(depdocs.NPM, version, d.Resolved) {
			prob.Reason = fmt.Sprintf("%s is version %s, %s resolves %s", rel, version, d.File, d.Resolved)
			prob.Guidance = "npm ci (or the project's package manager) installs the locked version"
			return Copy{}, prob
		}
		c.Version, c.Checked = d.Resolved, d.File
	}
	return c, nil
}

// maxManifest bounds a package.json read.
const maxManifest = 1 << 20

// readBounded reads p inside root if it is a regular file of at most max
// bytes.
func readBounded(root *contain.Root, p string, max int64) ([]byte, error) {
	fi, err := root.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return root.ReadFile(p)
}

// trimLine returns line n (one-based) of src, trimmed and bounded.
func trimLine(src []byte, n int) string {
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(src, '\n')
		if k < 0 {
			return ""
		}
		src = src[k+1:]
	}
	if k := bytes.IndexByte(src, '\n'); k >= 0 {
		src = src[:k]
	}
	s := strings.TrimSpace(string(src))
	if len(s) > maxExcerpt {
		cut := maxExcerpt
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// maxExcerpt bounds a definition's quoted line, in bytes.
const maxExcerpt = 200

// maxSubpackageEntries bounds the directory entries goSubpackages reads.
const maxSubpackageEntries = 20000

// goSubpackages finds the Go modules the project requires directly that
// hold a package directory named qual, one or two levels below the module's root
// (golang.org/x/mod/modfile, k8s.io/client-go/tools/cache), not under
// internal or testdata: the modules, and the package's directory in each.
// Only the module cache's directories of the required versions are read.
func (p *Provider) goSubpackages(ctx context.Context, deps []depdocs.Dependency, qual string) ([]depdocs.Dependency, map[string]string) {
	if !isGoIdent(qual) {
		return nil, nil
	}
	mc, err := p.goModCache(ctx)
	if err != nil {
		return nil, nil
	}
	cache, err := contain.Open(mc)
	if err != nil {
		return nil, nil
	}
	defer cache.Close()
	var out []depdocs.Dependency
	pkgs := map[string]string{}
	budget := maxSubpackageEntries
	isDir := func(p string) bool {
		fi, err := cache.Stat(p)
		return err == nil && fi.IsDir()
	}
	for _, d := range pick(goDeps(deps), "") {
		if _, seen := pkgs[d.Name]; seen || budget <= 0 {
			continue
		}
		escPath, err1 := module.EscapePath(d.Name)
		escVer, err2 := module.EscapeVersion(d.Resolved)
		if err1 != nil || err2 != nil {
			continue
		}
		dir := escPath + "@" + escVer
		if isDir(path.Join(dir, qual)) {
			out, pkgs[d.Name] = append(out, d), qual
			continue
		}
		ents, err := fs.ReadDir(cache.FS(), dir)
		if err != nil {
			continue
		}
		budget -= len(ents)
		for _, e := range ents {
			if !e.IsDir() || e.Name() == "internal" || e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if isDir(path.Join(dir, e.Name(), qual)) {
				out, pkgs[d.Name] = append(out, d), e.Name()+"/"+qual
				break
			}
		}
	}
	return out, pkgs
}

// goDeps returns the Go modules of deps whose packages the project
// imports (go.mod's direct requirements, not "// indirect" ones) and that
// the module cache may hold: from a registry at a resolved version.
func goDeps(deps []depdocs.Dependency) []depdocs.Dependency {
	var out []depdocs.Dependency
	for _, d := range deps {
		if d.Ecosystem == depdocs.Go && d.Relation == depdocs.Direct && d.Resolved != "" && !d.Source.Local() {
			out = append(out, d)
		}
	}
	return out
}

func isGoIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) || s[i] == '$' || s[i] >= 0x80 {
			return false
		}
	}
	return true
}
