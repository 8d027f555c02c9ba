package depdocs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// isLocalPath reports whether a replacement target is a directory rather
// than a module path (modfile's rule: it starts with ./ or ../ or is absolute).
func isLocalPath(p string) bool {
	return modfile.IsDirectoryPath(p)
}

// readGoMod reads go.mod: require (direct, or indirect when marked
// "// indirect"), replace (a local directory or another module: the
// version string is then not what runs), exclude, go and toolchain.
//
// With go 1.17 and later go.mod lists every module that provides a
// package to the build at its selected version, so the required version
// is recorded as resolved too; modules that only the module graph needs
// are in the build list alone (see [GoBuildList]).
func readGoMod(file string, data []byte) (*File, error) {
	mf, err := modfile.Parse(file, data, nil)
	if err != nil {
		return nil, err
	}
	f := &File{Mode: ModeModule}
	if mf.Go != nil {
		f.FormatVersion = "go " + mf.Go.Version
	}
	if mf.Toolchain != nil {
		f.Notes = append(f.Notes, "toolchain "+mf.Toolchain.Name)
	}
	if mf.Module != nil {
		f.Deps = append(f.Deps, Dependency{Name: mf.Module.Mod.Path, Source: Workspace, Relation: Root, Importer: ".",
			Line: syntaxLine(mf.Module.Syntax)})
	}
	repl := goReplacements(mf.Replace)
	for _, r := range mf.Require {
		d := Dependency{Name: r.Mod.Path, Declared: r.Mod.Version, Resolved: r.Mod.Version, Relation: Direct, Importer: ".",
			Line: syntaxLine(r.Syntax)}
		if r.Indirect {
			d.Relation = Indirect
		}
		applyGoReplace(&d, repl)
		f.Deps = append(f.Deps, d)
	}
	for _, x := range mf.Exclude {
		f.Notes = append(f.Notes, "exclude "+x.Mod.Path+" "+x.Mod.Version)
	}
	for _, r := range mf.Replace {
		if isLocalPath(r.New.Path) {
			f.Includes = append(f.Includes, join(dirOf(file), r.New.Path+"/go.mod"))
		}
	}
	return f, nil
}

// syntaxLine is the line a go.mod or go.work statement starts on.
func syntaxLine(l *modfile.Line) int {
	if l == nil {
		return 0
	}
	return l.Start.Line
}

type goReplace struct{ oldVersion, new string }

func goReplacements(rs []*modfile.Replace) map[string][]goReplace {
	m := map[string][]goReplace{}
	for _, r := range rs {
		to := r.New.Path
		if r.New.Version != "" {
			to += " " + r.New.Version
		}
		m[r.Old.Path] = append(m[r.Old.Path], goReplace{r.Old.Version, to})
	}
	return m
}

// applyGoReplace marks d replaced when a replace directive covers its
// version (a replace without a version covers every version).
func applyGoReplace(d *Dependency, repl map[string][]goReplace) {
	for _, r := range repl[d.Name] {
		if r.oldVersion == "" || r.oldVersion == d.Resolved {
			d.Source, d.SourceDetail = Replaced, "=> "+r.new
			return
		}
	}
}

// readGoWork reads go.work: its use directives (the workspace's modules,
// recorded as Includes) and replace directives. Reading it selects
// workspace mode for the build list.
func readGoWork(file string, data []byte) (*File, error) {
	wf, err := modfile.ParseWork(file, data, nil)
	if err != nil {
		return nil, err
	}
	f := &File{Mode: ModeWorkspace}
	if wf.Go != nil {
		f.FormatVersion = "go " + wf.Go.Version
	}
	if wf.Toolchain != nil {
		f.Notes = append(f.Notes, "toolchain "+wf.Toolchain.Name)
	}
	for _, u := range wf.Use {
		f.Includes = append(f.Includes, join(dirOf(file), u.Path+"/go.mod"))
	}
	for _, r := range wf.Replace {
		to := r.New.Path
		if r.New.Version != "" {
			to += " " + r.New.Version
		}
		f.Deps = append(f.Deps, Dependency{Name: r.Old.Path, Declared: r.Old.Version, Resolved: r.Old.Version,
			Source: Replaced, SourceDetail: "=> " + to, Relation: Unknown, Line: syntaxLine(r.Syntax)})
	}
	return f, nil
}

// readGoSum reads go.sum. It lists checksums of every module version the
// go command ever looked at, "/go.mod"-only entries included, so it is
// not the build list: every line is one entry, Relation unknown, with
// Groups "go.mod" for a go.mod checksum and "zip" for the module's content.
func readGoSum(file string, data []byte) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 3 || !strings.HasPrefix(fields[2], "h1:") {
			return nil, fmt.Errorf("line %d: want 'module version h1:hash'", n)
		}
		version, kind := fields[1], "zip"
		if v, ok := strings.CutSuffix(version, "/go.mod"); ok {
			version, kind = v, "go.mod"
		}
		f.Deps = append(f.Deps, Dependency{Name: fields[0], Resolved: version, Relation: Unknown, Groups: []string{kind}, Line: n})
	}
	return f, sc.Err()
}

// GoBuildOptions tunes [GoBuildList]. The zero value runs offline.
type GoBuildOptions struct {
	// Workspace selects workspace mode (go.work); otherwise GOWORK=off.
	Workspace bool
	// Online lets the go command download from GOPROXY; by default it reads
	// only the module cache (GOPROXY=off), so no network is used.
	Online bool
	// Timeout bounds the go command; zero means two minutes.
	Timeout time.Duration
	// Env adds variables such as GOFLAGS or GOMODCACHE. The flags that keep
	// the go command off the project's files are given on its command
	// line, where GOFLAGS cannot undo them.
	Env []string
}

// A GoModule is one entry of `go list -m -json all`.
type goModule struct {
	Path     string
	Version  string
	Main     bool
	Indirect bool
	Replace  *struct {
		Path    string
		Version string
	}
}

// GoBuildList returns the build list the go command selects (minimal
// version selection over the whole module graph) for the module or
// workspace in dirRel, a directory of the project in dir ("" means the
// working directory). It runs `go list -m -json all` with an explicit
// argument vector; the file's Mode says which mode was used. Versions
// required in the main module's go.mod keep their Declared, and, in module
// mode, the line of their require.
//
// The project is never written: the go command, which adds a missing go
// line to go.mod and writes go.sum or go.work.sum as it resolves, works on
// copies of go.mod and go.sum (-modfile) or of go.work and go.work.sum
// (GOWORK) in a temporary directory outside the project, removed before
// GoBuildList returns.
func GoBuildList(ctx context.Context, dir, dirRel string, opts GoBuildOptions) (*File, error) {
	root, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return goBuildList(ctx, root, dirRel, opts)
}

// goFile reads a small go command file of the project; absent is nil.
func goFile(root *contain.Root, p string) ([]byte, error) {
	fi, err := root.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > DefaultMaxFileSize {
		return nil, fmt.Errorf("%s: not a regular file under %d bytes", p, DefaultMaxFileSize)
	}
	return root.ReadFile(p)
}

// copyGoFiles writes the project's go.mod and go.sum (module mode) or a
// go.work whose directories are absolute and its go.work.sum (workspace
// mode) into tmp, and returns the go command's flags and GOWORK value.
func copyGoFiles(root *contain.Root, dirRel, abs, tmp string, workspace bool) (flags []string, gowork string, err error) {
	write := func(name string, data []byte) error { return os.WriteFile(filepath.Join(tmp, name), data, 0o600) }
	if !workspace {
		mod, err := goFile(root, join(dirRel, "go.mod"))
		if err != nil || mod == nil {
			return nil, "", fmt.Errorf("go.mod in %s: %w", firstNonEmpty(dirRel, "."), errors.Join(err, fs.ErrNotExist))
		}
		sum, err := goFile(root, join(dirRel, "go.sum"))
		if err != nil {
			return nil, "", err
		}
		if err := write("go.mod", mod); err != nil {
			return nil, "", err
		}
		if sum != nil {
			if err := write("go.sum", sum); err != nil {
				return nil, "", err
			}
		}
		// -mod=mod lets the go command complete the requirements; what it
		// writes lands in the copies, named by -modfile (go.sum beside it).
		return []string{"-mod=mod", "-modfile=" + filepath.Join(tmp, "go.mod")}, "off", nil
	}
	work, err := goFile(root, join(dirRel, "go.work"))
	if err != nil || work == nil {
		return nil, "", fmt.Errorf("go.work in %s: %w", firstNonEmpty(dirRel, "."), errors.Join(err, fs.ErrNotExist))
	}
	wf, err := modfile.ParseWork("go.work", work, nil)
	if err != nil {
		return nil, "", err
	}
	absolute := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(abs, filepath.FromSlash(p))
	}
	var uses []*modfile.Use
	for _, u := range wf.Use {
		uses = append(uses, &modfile.Use{Path: absolute(u.Path), ModulePath: u.ModulePath})
	}
	wf.SetUse(uses)
	for _, r := range append([]*modfile.Replace(nil), wf.Replace...) {
		if isLocalPath(r.New.Path) {
			if err := wf.AddReplace(r.Old.Path, r.Old.Version, absolute(r.New.Path), ""); err != nil {
				return nil, "", err
			}
		}
	}
	wf.Cleanup()
	if err := write("go.work", modfile.Format(wf.Syntax)); err != nil {
		return nil, "", err
	}
	if sum, err := goFile(root, join(dirRel, "go.work.sum")); err != nil {
		return nil, "", err
	} else if sum != nil {
		if err := write("go.work.sum", sum); err != nil {
			return nil, "", err
		}
	}
	// Workspace mode allows only -mod=readonly; go.work.sum, which it may
	// still write, is the copy's.
	return []string{"-mod=readonly"}, filepath.Join(tmp, "go.work"), nil
}

// goBuildList returns the build list the go command computes for the
// module (or, with opts.Workspace, the workspace) in dirRel, run on a
// copy of its go files so the project is never written.
func goBuildList(ctx context.Context, root *contain.Root, dirRel string, opts GoBuildOptions) (*File, error) {
	rel, err := root.Rel(firstNonEmpty(dirRel, "."))
	if err != nil {
		return nil, err
	}
	abs, err := root.Abs(rel)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		rel = ""
	}
	goBin, err := safeexec.LookPath("go")
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "codecortex-buildlist-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	flags, gowork, err := copyGoFiles(root, rel, abs, tmp, opts.Workspace)
	if err != nil {
		return nil, err
	}
	out, err := goListAll(ctx, goBin, abs, tmp, flags, gowork, opts)
	if err != nil {
		return nil, err
	}
	modeFile, mode := "go.mod", ModeModule
	if opts.Workspace {
		modeFile, mode = "go.work", ModeWorkspace
	}
	file := join(rel, modeFile)
	f := &File{Path: file, Format: FormatGoMod, Ecosystem: Go, Mode: mode}
	if opts.Workspace {
		f.Format = FormatGoWork
	}
	required, mainLine := goRequirements(root, rel)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m goModule
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		d := Dependency{Ecosystem: Go, Name: m.Path, Resolved: m.Version, Relation: Transitive, Source: Registry, File: file}
		switch {
		case m.Main:
			d.Relation, d.Source = Root, Workspace
			if !opts.Workspace {
				d.Line = mainLine
			}
		case required[m.Path].Name != "":
			d.Relation, d.Declared = required[m.Path].Relation, required[m.Path].Declared
			if !opts.Workspace {
				d.Line = required[m.Path].Line // go.mod's line; in workspace mode File is go.work
			}
		}
		if m.Replace != nil {
			to := m.Replace.Path
			if m.Replace.Version != "" {
				to += " " + m.Replace.Version
			}
			d.Source, d.SourceDetail = Replaced, "=> "+filepath.ToSlash(to)
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// goListAll returns what go list -m -json all prints in abs, with the
// flags and go.work that copyGoFiles gave for the copy in tmp, offline
// unless opts.Online; its error names the copy <copy>.
func goListAll(ctx context.Context, goBin, abs, tmp string, flags []string, gowork string, opts GoBuildOptions) ([]byte, error) {
	env := safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOCACHE", "GOROOT", "GOPROXY", "GONOSUMDB", "GOSUMDB",
		"GOPRIVATE", "GONOPROXY", "GOINSECURE")
	env = append(env, opts.Env...)
	env = append(env, "GOTOOLCHAIN=local", "GOWORK="+gowork)
	if !opts.Online {
		env = append(env, "GOPROXY=off")
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	args := append(append([]string{"list", "-m", "-json"}, flags...), "all")
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: goBin, Args: args,
		Dir: abs, Env: env, Timeout: timeout, MaxStdout: 64 << 20})
	if err != nil {
		msg := strings.ReplaceAll(strings.TrimSpace(string(res.Stderr)), tmp, "<copy>")
		if len(msg) > 400 {
			msg = msg[:400] + "…"
		}
		return nil, fmt.Errorf("go list -m -json all: %w: %s", err, msg)
	}
	return res.Stdout, nil
}

// goRequirements returns the requirements of the go.mod in rel, which say
// direct or indirect, by module path, and the line of its module
// directive; none if it cannot be read.
func goRequirements(root *contain.Root, rel string) (required map[string]Dependency, mainLine int) {
	required = map[string]Dependency{}
	if mod, err := readFile(root, join(rel, "go.mod"), ReadOptions{}); err == nil {
		for _, d := range mod.Deps {
			switch d.Relation {
			case Direct, Indirect:
				required[d.Name] = d
			case Root:
				mainLine = d.Line
			}
		}
	}
	return required, mainLine
}

// AddGoBuildList replaces the project's go.mod rows with the go command's
// build list (see [GoBuildList]) for the project in dir ("" means the
// working directory, which must be the directory p was scanned from): once
// for the workspace when a go.work governs the modules, else once per
// go.mod. A module whose build list cannot be computed (no go command,
// modules missing from the cache while offline) keeps its go.mod rows and
// is listed in Errors.
func (p *Project) AddGoBuildList(ctx context.Context, dir string, opts GoBuildOptions) {
	root, err := openDir(dir)
	if err != nil {
		p.Errors = append(p.Errors, FileError{Path: ".", Err: "build list: " + err.Error()})
		return
	}
	defer root.Close()
	replaced := map[string]bool{}
	var lists []*File
	run := func(dirRel string, o GoBuildOptions, covers []string) {
		f, err := goBuildList(ctx, root, dirRel, o)
		if err != nil {
			p.Errors = append(p.Errors, FileError{Path: join(dirRel, "go.mod"), Err: "build list: " + err.Error()})
			return
		}
		for _, c := range covers {
			replaced[c] = true
		}
		lists = append(lists, f)
	}
	var mods []string
	var work string
	for _, f := range p.Files {
		switch f.Format {
		case FormatGoMod:
			mods = append(mods, f.Path)
		case FormatGoWork:
			if work == "" {
				work = f.Path
			}
		}
	}
	if work != "" {
		o := opts
		o.Workspace = true
		var covers []string
		for _, m := range mods {
			if isUnder(dirOf(m), dirOf(work)) {
				covers = append(covers, m)
			}
		}
		run(dirOf(work), o, covers)
	}
	for _, m := range mods {
		if !replaced[m] && (work == "" || !isUnder(dirOf(m), dirOf(work))) {
			run(dirOf(m), opts, []string{m})
		}
	}
	if len(lists) == 0 {
		return
	}
	kept := p.Deps[:0:0]
	for _, d := range p.Deps {
		if !replaced[d.File] {
			kept = append(kept, d)
		}
	}
	for _, f := range lists {
		kept = append(kept, f.Deps...)
		if f.Mode == ModeWorkspace {
			p.GoMode = ModeWorkspace
		}
	}
	SortDeps(kept)
	p.Deps = kept
	p.MultiVersions = MultiVersions(kept)
}
