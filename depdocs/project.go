package depdocs

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"deps.dev/util/semver"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/ignore"
)

// A Project is every manifest and lockfile of a repository, read and
// joined: a lockfile's resolved versions carry the constraints its
// manifests declare.
type Project struct {
	Files []*File `json:"files"`
	// Deps is every dependency, lockfile rows joined with their manifests'
	// declarations; a manifest's rows appear on their own only when no
	// lockfile beside it resolved them.
	Deps []Dependency `json:"dependencies"`
	// MultiVersions lists the packages resolved to several versions.
	MultiVersions []MultiVersion `json:"multi_versions,omitempty"`
	// GoMode is "workspace" when a go.work governs the Go modules, else
	// "module" (or empty without Go).
	GoMode Mode `json:"go_mode,omitempty"`
	// Errors are files that could not be read, with why.
	Errors []FileError `json:"errors,omitempty"`
	// Notes say what else the scan met: an ignore file that could not be
	// applied as written, and the directory left out of the scan for it.
	Notes []string `json:"notes,omitempty"`
}

// A FileError is a file the scan could not read.
type FileError struct {
	Path string `json:"path"`
	Err  string `json:"error"`
}

// ScanOptions tunes [Scan]. The zero value is ready to use.
type ScanOptions struct {
	ReadOptions
	// MaxFiles bounds how many files are read; 0 means 2000.
	MaxFiles int
	// SkipDirs are directory names never entered, in addition to
	// node_modules, .git, vendor, target, .venv, __pycache__, .codecortex
	// and testdata (fixtures, as the go command treats them, are not the
	// project's dependencies).
	SkipDirs []string
}

var defaultSkip = []string{"node_modules", ".git", "vendor", "target", ".venv", "venv", "__pycache__", ".codecortex", ".yarn", ".pnpm-store", "testdata"}

// Scan finds and reads every manifest and lockfile of the project in dir
// ("" means the working directory), follows requirements includes (each
// file once, so cycles end), and joins lockfiles with the manifests beside
// them. Every path stays inside dir: a symbolic link that leaves it is not
// followed. Paths in the result are slash-separated and relative to dir.
// Directories that .gitignore ignores (build output, vendored copies) are
// not entered; a manifest or lockfile ignored by its own name is still
// read, since a lockfile kept out of version control still says what is
// installed here.
func Scan(dir string, opts ScanOptions) (*Project, error) {
	root, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return scan(root, opts)
}

// scan is [Scan] in root.
func scan(root *contain.Root, opts ScanOptions) (*Project, error) {
	pr := &Project{}
	paths, notes, err := findManifests(root, opts)
	if err != nil {
		return nil, err
	}
	pr.Notes = notes
	seen := map[string]bool{}
	queue := append([]string{}, paths...)
	included := map[string]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		ro := opts.ReadOptions
		if included[p] {
			ro.Format = FormatRequirements
		}
		f, err := readFile(root, p, ro)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			pr.Errors = append(pr.Errors, FileError{p, err.Error()})
			continue
		}
		pr.Files = append(pr.Files, f)
		if f.Format == FormatRequirements {
			for _, inc := range f.Includes {
				if !seen[inc] && root.Inside(inc) {
					included[inc] = true
					queue = append(queue, inc)
				}
			}
		}
		if f.Format == FormatGoWork {
			pr.GoMode = ModeWorkspace
		} else if f.Format == FormatGoMod && pr.GoMode == "" {
			pr.GoMode = ModeModule
		}
	}
	sort.Slice(pr.Files, func(i, j int) bool { return pr.Files[i].Path < pr.Files[j].Path })
	pr.Deps = Join(pr.Files)
	pr.MultiVersions = MultiVersions(pr.Deps)
	return pr, nil
}

// findManifests returns the paths of the manifests and lockfiles under
// root, in path order and at most opts.MaxFiles (2000 if zero), outside
// the skipped and ignored directories; notes say which ignore files were
// past their limits, which leaves their directories out.
func findManifests(root *contain.Root, opts ScanOptions) (paths, notes []string, err error) {
	max := opts.MaxFiles
	if max == 0 {
		max = 2000
	}
	skip := map[string]bool{}
	for _, s := range append(append([]string{}, defaultSkip...), opts.SkipDirs...) {
		skip[s] = true
	}
	// The walk is in path order: the cache opens each directory once.
	dirs := root.DirCache()
	defer dirs.Close()
	fsys := dirs.FS()
	ig := ignore.NewTree(fsys)
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable directories are skipped
		}
		if d.IsDir() {
			if p != "." && (skip[d.Name()] || ig.Match(p, true)) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if _, ok := Detect(p); ok {
			paths = append(paths, p)
		}
		if len(paths) >= max {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, d := range ig.Diagnostics() {
		notes = append(notes, d.String())
	}
	return paths, notes, nil
}

// lockManifests names, for each lockfile format, the manifests whose
// declarations it resolves.
var lockManifests = map[Format][]Format{
	FormatPackageLock: {FormatPackageJSON},
	FormatYarnLock:    {FormatPackageJSON},
	FormatPNPMLock:    {FormatPackageJSON},
	FormatBunLock:     {FormatPackageJSON},
	FormatCargoLock:   {FormatCargoToml},
	FormatPoetryLock:  {FormatPyproject},
	FormatPDMLock:     {FormatPyproject},
	FormatUVLock:      {FormatPyproject},
	FormatPipfileLock: {FormatPipfile},
	FormatNuGetLock:   {FormatCsproj},
	FormatGradleLock:  {FormatGradle},
}

// Join joins each lockfile with the manifests it resolves: its own
// directory's and, for workspaces, its members' (the files under its
// directory that the lockfile or root manifest names). Each lockfile row
// that a manifest declares becomes one row per declaration, Direct, with
// the declared constraint and scope; rows no manifest declares keep what
// the lockfile says. Manifests joined into a lockfile contribute no rows
// of their own.
func Join(files []*File) []Dependency {
	files = resolveIndirections(files)
	consumed := map[string]bool{}
	var out []Dependency
	for _, lock := range files {
		mf, ok := lockManifests[lock.Format]
		if !ok {
			continue
		}
		ldir := dirOf(lock.Path)
		var manifests []*File
		for _, m := range files {
			if !containsFormat(mf, m.Format) || !isUnder(dirOf(m.Path), ldir) {
				continue
			}
			if dirOf(m.Path) != ldir && !memberOf(m, lock, files) {
				continue
			}
			manifests = append(manifests, m)
		}
		if len(manifests) == 0 {
			out = append(out, lock.Deps...)
			continue
		}
		var decls []Dependency
		for _, m := range manifests {
			consumed[m.Path] = true
			for _, d := range m.Deps {
				if d.Relation != Direct {
					continue
				}
				imp := dirOf(m.Path)
				if rel := strings.TrimPrefix(strings.TrimPrefix(imp, ldir), "/"); rel != "" {
					d.Importer = rel
				}
				decls = append(decls, d)
			}
		}
		fillWorkspaceDecls(decls, manifests)
		out = append(out, joinDecls(lock, decls)...)
	}
	goMods := map[string]bool{}
	for _, f := range files {
		if f.Format == FormatGoMod {
			goMods[dirOf(f.Path)] = true
		}
	}
	for _, f := range files {
		if _, isLock := lockManifests[f.Format]; isLock || consumed[f.Path] {
			continue
		}
		// A go.sum beside its go.mod holds checksums of every module
		// version the go command looked at, not dependencies: the go.mod
		// (and the build list) answer for that module.
		if f.Format == FormatGoSum && goMods[dirOf(f.Path)] {
			continue
		}
		out = append(out, f.Deps...)
	}
	SortDeps(out)
	return out
}

func containsFormat(list []Format, f Format) bool {
	for _, x := range list {
		if x == f {
			return true
		}
	}
	return false
}

func isUnder(d, base string) bool {
	return base == "" || d == base || strings.HasPrefix(d, base+"/")
}

// memberOf reports whether manifest m is a workspace member of lock's
// project: some file of lock's directory (the lock itself or its root
// manifest) includes m's directory, by path or glob.
func memberOf(m, lock *File, files []*File) bool {
	md := dirOf(m.Path)
	for _, f := range files {
		if dirOf(f.Path) != dirOf(lock.Path) || f.Ecosystem != lock.Ecosystem {
			continue
		}
		for _, inc := range f.Includes {
			inc = strings.TrimSuffix(strings.TrimSuffix(inc, "/go.mod"), "/pom.xml")
			if inc == md {
				return true
			}
			if ok, _ := path.Match(inc, md); ok {
				return true
			}
		}
	}
	return false
}

// fillWorkspaceDecls gives Cargo's `dep = { workspace = true }` the
// constraint, source and package of the root's [workspace.dependencies]
// entry of the same key.
func fillWorkspaceDecls(decls []Dependency, manifests []*File) {
	ws := map[string]Dependency{}
	for _, m := range manifests {
		for _, d := range m.Deps {
			if d.Importer == "workspace" {
				ws[firstNonEmpty(d.Alias, d.Name)] = d
			}
		}
	}
	for i := range decls {
		d := &decls[i]
		if !strings.HasPrefix(d.SourceDetail, "workspace") {
			continue
		}
		if w, ok := ws[firstNonEmpty(d.Alias, d.Name)]; ok {
			d.Declared, d.Source = w.Declared, w.Source
			d.SourceDetail = firstNonEmpty(w.SourceDetail, "workspace")
			if w.Alias != "" && d.Alias == "" {
				d.Name, d.Alias = w.Name, w.Alias
			}
		}
	}
}

// joinDecls applies declarations to a lockfile's rows.
func joinDecls(lock *File, decls []Dependency) []Dependency {
	byName := map[string][]Dependency{}
	for _, d := range decls {
		if d.Importer == "workspace" {
			continue // [workspace.dependencies] declare nothing by themselves
		}
		byName[normName(lock.Ecosystem, d.Name)] = append(byName[normName(lock.Ecosystem, d.Name)], d)
	}
	sys := semverSystem(lock.Ecosystem)
	var out []Dependency
	for _, l := range lock.Deps {
		cands := byName[normName(lock.Ecosystem, l.Name)]
		nestedV1 := lock.Format == FormatPackageLock && len(l.Via) > 0 // under another package's node_modules
		if len(cands) == 0 || nestedV1 || (l.Relation == Transitive && !lockLacksDirect(lock)) {
			out = append(out, l)
			continue
		}
		var pick []Dependency
		if cands = declsFor(lock, l, cands); len(cands) > 0 {
			pick = pickDecls(sys, l, cands)
		}
		if len(pick) == 0 {
			out = append(out, l)
			continue
		}
		for _, c := range pick {
			out = append(out, applyDecl(l, c))
		}
	}
	return out
}

// declsFor returns the declarations of the lockfile row l's name that may
// apply to it: of its scope for Pipfile.lock, of its alias for npm's
// lockfiles, and of its importer when the lockfile names one.
func declsFor(lock *File, l Dependency, cands []Dependency) []Dependency {
	if lock.Format == FormatPipfileLock {
		// Pipfile's [packages] resolve into "default", [dev-packages]
		// into "develop".
		cands = filterDeps(cands, func(c Dependency) bool { return (c.Scope == Dev) == (l.Scope == Dev) })
	}
	if lock.Ecosystem == NPM && !hasSpecs(l) {
		// npm lockfiles record aliases: an aliased row is the
		// resolution of the aliased declaration only. (yarn's rows are
		// matched by their keys, which name the alias, in pickDecls.)
		cands = filterDeps(cands, func(c Dependency) bool { return c.Alias == l.Alias })
	}
	if l.Relation == Direct && l.Importer != "" {
		// The lockfile names the importer: only that importer's own
		// declaration may refine the row.
		cands = filterDeps(cands, func(c Dependency) bool { return firstNonEmpty(c.Importer, ".") == l.Importer })
	}
	return cands
}

// filterDeps returns the dependencies keep keeps, in order.
func filterDeps(ds []Dependency, keep func(Dependency) bool) []Dependency {
	var out []Dependency
	for _, d := range ds {
		if keep(d) {
			out = append(out, d)
		}
	}
	return out
}

// pickDecls returns the declarations that row l resolves: those the
// lockfile itself says it satisfies (yarn's keys), then those whose
// constraint matches the resolved version; failing both, every
// declaration of the name, unless the row's keys name others.
func pickDecls(sys semver.System, l Dependency, cands []Dependency) []Dependency {
	pick := bySpecs(l, cands)
	if len(pick) == 0 {
		for _, c := range cands {
			if constraintMatches(sys, c.Declared, l.Resolved) {
				pick = append(pick, c)
			}
		}
	}
	if len(pick) == 0 && !hasSpecs(l) {
		pick = cands
	}
	return pick
}

// applyDecl returns lockfile row l refined by declaration c: direct, with
// c's constraint, scope, importer and groups, and what l leaves unsaid.
func applyDecl(l, c Dependency) Dependency {
	r := l
	if r.Relation != Root {
		r.Relation = Direct
	}
	if c.Declared != "" || r.Declared == "" {
		r.Declared = c.Declared
	}
	r.Scope = c.Scope
	r.Importer = firstNonEmpty(c.Importer, ".")
	if r.Alias == "" {
		r.Alias = c.Alias
	}
	if r.Markers == "" {
		r.Markers = c.Markers
	}
	if r.SourceDetail == "" {
		r.SourceDetail = c.SourceDetail
	}
	if c.Source != Registry && r.Source == Registry {
		r.Source = c.Source
	}
	r.Groups = mergeGroups(c.Groups, l.Groups)
	return r
}

// lockLacksDirect reports formats that do not say which packages are
// direct, so every row may be a manifest's direct dependency.
func lockLacksDirect(f *File) bool {
	switch f.Format {
	case FormatYarnLock, FormatPoetryLock, FormatPDMLock, FormatPipfileLock, FormatGradleLock:
		return true
	case FormatPackageLock:
		return f.FormatVersion == "1" // versions 2 and 3 record the root's declarations
	}
	return false
}

func hasSpecs(d Dependency) bool { return len(d.Specs) > 0 }

func bySpecs(l Dependency, cands []Dependency) []Dependency {
	if len(l.Specs) == 0 {
		return nil
	}
	var out []Dependency
	for _, c := range cands {
		for _, s := range l.Specs {
			a, n, r := yarnSpec(s)
			if n != c.Name || a != c.Alias {
				continue
			}
			if r == c.Declared || strings.TrimPrefix(r, "npm:") == c.Declared {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

func mergeGroups(a, b []string) []string {
	var out []string
	for _, g := range append(append([]string{}, a...), b...) {
		out = appendUnique(out, g)
	}
	return out
}

func normName(e Ecosystem, n string) string {
	switch e {
	case PyPI:
		return pep503(n)
	case NuGet:
		return strings.ToLower(n)
	}
	return n
}

// constraintMatches reports whether a declared constraint admits version
// under the ecosystem's rules; an unparsable constraint matches nothing.
func constraintMatches(sys semver.System, constraint, version string) bool {
	constraint = strings.TrimSpace(strings.Trim(strings.TrimSpace(constraint), "()"))
	if constraint == "" || version == "" {
		return false
	}
	c, err := sys.ParseConstraint(constraint)
	if err != nil {
		return false
	}
	return c.Match(version)
}

// resolveIndirections returns files with declarations that name their
// version elsewhere filled in: Gradle's catalog accessors (libs.foo.bar)
// from gradle/libs.versions.toml, and NuGet PackageReferences without a
// version from the nearest Directory.Packages.props (central package
// management). The given files are not modified.
func resolveIndirections(files []*File) []*File {
	var catalogs, props []*File
	poms := map[string]*File{}
	for _, f := range files {
		switch f.Format {
		case FormatVersionCatalog:
			catalogs = append(catalogs, f)
		case FormatPackagesProps:
			props = append(props, f)
		case FormatPom:
			poms[f.Path] = f
		}
	}
	if len(catalogs) == 0 && len(props) == 0 && len(poms) < 2 {
		return files
	}
	out := make([]*File, len(files))
	for i, f := range files {
		out[i] = f
		switch {
		case f.Format == FormatGradle && len(catalogs) > 0:
			cat := nearest(catalogs, dirOf(f.Path), func(c *File) string { return dirOf(dirOf(c.Path)) })
			if cat == nil {
				continue
			}
			byAccessor := map[string]Dependency{}
			for _, d := range cat.Deps {
				for _, g := range d.Groups {
					if a, ok := strings.CutPrefix(g, "libs."); ok {
						byAccessor["libs."+strings.NewReplacer("-", ".", "_", ".").Replace(a)] = d
					}
				}
			}
			out[i] = rewrite(f, func(d *Dependency) {
				if c, ok := byAccessor[d.Name]; ok && strings.HasPrefix(d.SourceDetail, "catalog ") {
					d.Name, d.Declared = c.Name, c.Declared
					d.SourceDetail = "catalog " + cat.Path + " " + strings.TrimPrefix(d.SourceDetail, "catalog ")
				}
			})
		case f.Format == FormatPom:
			out[i] = inheritFromParents(f, poms)
		case f.Format == FormatCsproj && len(props) > 0:
			p := nearest(props, dirOf(f.Path), func(c *File) string { return dirOf(c.Path) })
			if p == nil {
				continue
			}
			versions := map[string]string{}
			for _, d := range p.Deps {
				versions[strings.ToLower(d.Name)] = d.Declared
			}
			out[i] = rewrite(f, func(d *Dependency) {
				if v, ok := versions[strings.ToLower(d.Name)]; ok && d.Declared == "" {
					d.Declared, d.SourceDetail = v, "version from "+p.Path
				}
			})
		}
	}
	return out
}

// nearest returns the candidate whose base directory (given by base) is
// d or its closest ancestor.
func nearest(cands []*File, d string, base func(*File) string) *File {
	var best *File
	bestLen := -1
	for _, c := range cands {
		b := base(c)
		if isUnder(d, b) && len(b) > bestLen {
			best, bestLen = c, len(b)
		}
	}
	return best
}

// inheritFromParents resolves what a Maven module inherits from the
// parent poms above it in the project (../pom.xml, then its parent, as far
// as they go): ${…} properties, the nearest definition winning as in
// Maven's model inheritance, and versions from the parents'
// dependencyManagement for dependencies that give none.
func inheritFromParents(f *File, poms map[string]*File) *File {
	var chain []*File // nearest parent first
	seen := map[*File]bool{f: true}
	for p := poms[join(dirOf(dirOf(f.Path)), "pom.xml")]; p != nil && !seen[p] && len(chain) < 16; p = poms[join(dirOf(dirOf(p.Path)), "pom.xml")] {
		seen[p] = true
		chain = append(chain, p)
	}
	if len(chain) == 0 {
		return f
	}
	props := map[string]string{}
	for i := len(chain) - 1; i >= 0; i-- {
		maps.Copy(props, chain[i].Properties)
	}
	maps.Copy(props, f.Properties)
	managed := map[string]string{}
	from := map[string]string{}
	for i := len(chain) - 1; i >= 0; i-- {
		for _, d := range chain[i].Deps {
			if !slices.Contains(d.Groups, "dependencyManagement") || d.Declared == "" {
				continue
			}
			if v := expandProps(d.Declared, props); !strings.Contains(v, "${") {
				managed[d.Name], from[d.Name] = v, chain[i].Path
			}
		}
	}
	return rewrite(f, func(d *Dependency) {
		switch {
		case strings.Contains(d.Declared, "${"):
			v := expandProps(d.Declared, props)
			if v == d.Declared || strings.Contains(v, "${") {
				return
			}
			d.Declared = v
			d.SourceDetail = "version property inherited from a parent pom"
			if !strings.HasPrefix(v, "[") && !strings.HasPrefix(v, "(") {
				d.Resolved = v
			}
		case d.Declared == "" && managed[d.Name] != "":
			d.Declared, d.Resolved = managed[d.Name], managed[d.Name]
			d.SourceDetail = "version from " + from[d.Name] + " dependencyManagement"
		}
	})
}

func rewrite(f *File, fn func(*Dependency)) *File {
	c := *f
	c.Deps = append([]Dependency(nil), f.Deps...)
	for i := range c.Deps {
		fn(&c.Deps[i])
	}
	return &c
}
