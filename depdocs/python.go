package depdocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// pep503 normalizes a Python distribution name: lower case, with runs of
// "-", "_" and "." replaced by one "-".
func pep503(name string) string {
	var b strings.Builder
	sep := false
	for _, c := range strings.ToLower(strings.TrimSpace(name)) {
		if c == '-' || c == '_' || c == '.' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(c)
	}
	return b.String()
}

// A pep508 is one parsed dependency specification: name, extras, a version
// specifier or a direct URL, and environment markers.
type pep508 struct {
	Name    string
	Extras  []string
	Spec    string // as written, such as "(>=1.0,<2)" or ">=1.0"
	URL     string // after "@"
	Markers string
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parsePEP508 parses a dependency specification (PEP 508).
func parsePEP508(s string) (pep508, error) {
	var r pep508
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && isNameChar(s[i]) {
		i++
	}
	if i == 0 || pep503(s[:i]) == "" || !isAlnum(s[0]) {
		return r, fmt.Errorf("%q: no distribution name", s)
	}
	r.Name = s[:i]
	rest := strings.TrimSpace(s[i:])
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return r, fmt.Errorf("%q: unclosed extras", s)
		}
		for _, e := range strings.Split(rest[1:end], ",") {
			if e = strings.TrimSpace(e); e != "" {
				r.Extras = append(r.Extras, e)
			}
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	if u, ok := strings.CutPrefix(rest, "@"); ok {
		// A URL ends at whitespace followed by ";".
		u = strings.TrimSpace(u)
		if i := strings.Index(u, " ;"); i >= 0 {
			r.Markers = strings.TrimSpace(u[i+2:])
			u = u[:i]
		}
		r.URL = strings.TrimSpace(u)
		r.Spec = "@ " + r.URL
		return r, nil
	}
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		r.Markers = strings.TrimSpace(rest[i+1:])
		rest = rest[:i]
	}
	r.Spec = strings.TrimSpace(rest)
	return r, nil
}

// pyURLSource classifies a direct reference.
func pyURLSource(u string) Source {
	switch {
	case strings.HasPrefix(u, "git+"), strings.HasPrefix(u, "hg+"), strings.HasPrefix(u, "svn+"), strings.HasPrefix(u, "bzr+"):
		return Git
	case strings.HasPrefix(u, "file:"), strings.HasPrefix(u, "."), strings.HasPrefix(u, "/"):
		return Path
	}
	return URL
}

// --- pyproject.toml ---------------------------------------------------------

type pyproject struct {
	Project struct {
		Name                 string              `toml:"name"`
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             struct {
		Poetry struct {
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
			Group           map[string]struct {
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"group"`
		} `toml:"poetry"`
		PDM struct {
			DevDependencies map[string][]string `toml:"dev-dependencies"`
		} `toml:"pdm"`
		UV struct {
			DevDependencies []string `toml:"dev-dependencies"`
		} `toml:"uv"`
	} `toml:"tool"`
}

// groupScope maps a dependency group's name to a scope: test groups are
// test, every other named group (dev, lint, typing, docs...) is dev.
func groupScope(g string) Scope {
	switch strings.ToLower(g) {
	case "test", "tests", "testing", "pytest":
		return Test
	}
	return Dev
}

func readPyproject(file string, data []byte) (*File, error) {
	var p pyproject
	if _, err := toml.Decode(string(data), &p); err != nil {
		return nil, err
	}
	lines := tomlKeyLines(data)
	f := &File{}
	if p.Tool.Poetry.Dependencies != nil || p.Tool.Poetry.Group != nil {
		f.FormatVersion = "poetry"
	}
	if p.Project.Dependencies != nil || p.Project.OptionalDependencies != nil || p.Project.Name != "" {
		f.FormatVersion = strings.TrimPrefix(f.FormatVersion+"+pep621", "+")
	}
	// add reads the i-th specification of the array at path.
	add := func(spec string, scope Scope, group string, i int, path ...string) error {
		r, err := parsePEP508(spec)
		if err != nil {
			return err
		}
		d := pyDep(r, scope, group)
		d.Line = lines[pathKey(append(path, index(i))...)]
		f.Deps = append(f.Deps, d)
		return nil
	}
	for i, s := range p.Project.Dependencies {
		if err := add(s, Normal, "", i, "project", "dependencies"); err != nil {
			return nil, err
		}
	}
	for _, extra := range sortedKeys(p.Project.OptionalDependencies) {
		for i, s := range p.Project.OptionalDependencies[extra] {
			if err := add(s, Optional, extra, i, "project", "optional-dependencies", extra); err != nil {
				return nil, err
			}
		}
	}
	for _, g := range sortedKeys(p.DependencyGroups) {
		for i, item := range p.DependencyGroups[g] {
			s, ok := item.(string)
			if !ok {
				continue // {include-group = "..."}
			}
			if err := add(s, groupScope(g), g, i, "dependency-groups", g); err != nil {
				return nil, err
			}
		}
	}
	for _, g := range sortedKeys(p.Tool.PDM.DevDependencies) {
		for i, s := range p.Tool.PDM.DevDependencies[g] {
			if strings.HasPrefix(s, "-e ") {
				s = strings.TrimSpace(s[3:])
			}
			if err := add(s, groupScope(g), g, i, "tool", "pdm", "dev-dependencies", g); err != nil {
				return nil, err
			}
		}
	}
	for i, s := range p.Tool.UV.DevDependencies {
		if err := add(s, Dev, "dev", i, "tool", "uv", "dev-dependencies"); err != nil {
			return nil, err
		}
	}
	addPoetry := func(m map[string]any, scope Scope, group string, path ...string) {
		for _, name := range sortedKeys(m) {
			if strings.EqualFold(name, "python") {
				continue
			}
			d := poetryDep(name, m[name], scope, group)
			d.Line = lines[pathKey(append(path, name)...)]
			f.Deps = append(f.Deps, d)
		}
	}
	addPoetry(p.Tool.Poetry.Dependencies, Normal, "", "tool", "poetry", "dependencies")
	addPoetry(p.Tool.Poetry.DevDependencies, Dev, "dev", "tool", "poetry", "dev-dependencies")
	for _, g := range sortedKeys(p.Tool.Poetry.Group) {
		addPoetry(p.Tool.Poetry.Group[g].Dependencies, groupScope(g), g, "tool", "poetry", "group", g, "dependencies")
	}
	return f, nil
}

func pyDep(r pep508, scope Scope, group string) Dependency {
	d := Dependency{Ecosystem: PyPI, Name: pep503(r.Name), Declared: r.Spec, Relation: Direct, Scope: scope,
		Markers: r.Markers, Importer: "."}
	if group != "" {
		d.Groups = []string{group}
	}
	if r.URL != "" {
		d.Source, d.SourceDetail = pyURLSource(r.URL), r.URL
	}
	return d
}

// poetryDep reads a [tool.poetry.dependencies] value: a constraint string
// or a table with version, git, path, url, markers, optional.
func poetryDep(name string, v any, scope Scope, group string) Dependency {
	d := Dependency{Ecosystem: PyPI, Name: pep503(name), Relation: Direct, Scope: scope, Importer: "."}
	if group != "" {
		d.Groups = []string{group}
	}
	switch t := v.(type) {
	case string:
		d.Declared = t
	case map[string]any:
		d.Declared, _ = t["version"].(string)
		d.Markers, _ = t["markers"].(string)
		if g, ok := t["git"].(string); ok {
			d.Source, d.SourceDetail = Git, g
		}
		if p, ok := t["path"].(string); ok {
			d.Source, d.SourceDetail = Path, p
		}
		if u, ok := t["url"].(string); ok {
			d.Source, d.SourceDetail = URL, u
		}
		if o, _ := t["optional"].(bool); o {
			d.Scope = Optional
		}
	case []any:
		// Multiple constraints by marker; keep them all, joined.
		var parts []string
		for _, x := range t {
			if m, ok := x.(map[string]any); ok {
				if s, ok := m["version"].(string); ok {
					parts = append(parts, s)
				}
			}
		}
		d.Declared = strings.Join(parts, " || ")
	}
	return d
}

// --- poetry.lock -------------------------------------------------------------

type poetryLock struct {
	Package []struct {
		Name         string         `toml:"name"`
		Version      string         `toml:"version"`
		Optional     bool           `toml:"optional"`
		Category     string         `toml:"category"` // before lock-version 2: "main" or "dev"
		Groups       []string       `toml:"groups"`
		Markers      any            `toml:"markers"`
		Dependencies map[string]any `toml:"dependencies"`
		Source       struct {
			Type      string `toml:"type"`
			URL       string `toml:"url"`
			Reference string `toml:"reference"`
			Resolved  string `toml:"resolved_reference"`
		} `toml:"source"`
	} `toml:"package"`
	Metadata struct {
		LockVersion string `toml:"lock-version"`
	} `toml:"metadata"`
}

func readPoetryLock(file string, data []byte) (*File, error) {
	var l poetryLock
	if _, err := toml.Decode(string(data), &l); err != nil {
		return nil, err
	}
	ver := l.Metadata.LockVersion
	if ver == "" {
		ver = "1.0" // before lock-version was written
	}
	f := &File{FormatVersion: ver}
	via := map[string][]string{}
	for _, p := range l.Package {
		for _, dn := range sortedKeys(p.Dependencies) {
			via[pep503(dn)] = appendUnique(via[pep503(dn)], pep503(p.Name)+"@"+p.Version)
		}
	}
	lines := tomlKeyLines(data)
	for i, p := range l.Package {
		d := Dependency{Name: pep503(p.Name), Resolved: p.Version, Relation: Transitive, Groups: p.Groups,
			Via: via[pep503(p.Name)], Line: packageLine(lines, i)}
		if m, ok := p.Markers.(string); ok {
			d.Markers = m
		}
		if p.Optional {
			d.Scope = Optional
		}
		if p.Category == "dev" {
			d.Scope = Dev
		}
		if len(d.Groups) == 0 && p.Category != "" {
			d.Groups = []string{p.Category}
		}
		switch p.Source.Type {
		case "git":
			d.Source, d.SourceDetail = Git, p.Source.URL+"@"+firstNonEmpty(p.Source.Resolved, p.Source.Reference)
		case "directory", "file":
			d.Source, d.SourceDetail = Path, p.Source.URL
		case "url":
			d.Source, d.SourceDetail = URL, p.Source.URL
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// --- uv.lock -----------------------------------------------------------------

type uvDepRef struct {
	Name    string   `toml:"name"`
	Version string   `toml:"version"`
	Marker  string   `toml:"marker"`
	Extra   []string `toml:"extra"`
}

type uvPackage struct {
	Name                 string                `toml:"name"`
	Version              string                `toml:"version"`
	Source               map[string]any        `toml:"source"`
	Dependencies         []uvDepRef            `toml:"dependencies"`
	OptionalDependencies map[string][]uvDepRef `toml:"optional-dependencies"`
	DevDependencies      map[string][]uvDepRef `toml:"dev-dependencies"`
	Metadata             struct {
		RequiresDist []struct {
			Name      string `toml:"name"`
			Specifier string `toml:"specifier"`
			Marker    string `toml:"marker"`
		} `toml:"requires-dist"`
		RequiresDev map[string][]struct {
			Name      string `toml:"name"`
			Specifier string `toml:"specifier"`
		} `toml:"requires-dev"`
	} `toml:"metadata"`
}

type uvLock struct {
	Version  *int        `toml:"version"`
	Revision int         `toml:"revision"`
	Package  []uvPackage `toml:"package"`
}

func uvSource(src map[string]any) (Source, string, bool) {
	for _, k := range []string{"editable", "virtual"} {
		if v, ok := src[k].(string); ok {
			return Workspace, k + " " + v, true
		}
	}
	if v, ok := src["git"].(string); ok {
		return Git, v, false
	}
	for _, k := range []string{"path", "directory"} {
		if v, ok := src[k].(string); ok {
			return Path, v, false
		}
	}
	if v, ok := src["url"].(string); ok {
		return URL, v, false
	}
	return Registry, "", false
}

// readUVLock reads uv.lock. The project itself is the package whose source
// is editable or virtual; its dependency lists name the direct
// dependencies (one per resolution fork) and its metadata the constraints.
func readUVLock(file string, data []byte) (*File, error) {
	var l uvLock
	if _, err := toml.Decode(string(data), &l); err != nil {
		return nil, err
	}
	if l.Version == nil {
		return nil, errors.New("no version")
	}
	f := &File{FormatVersion: fmt.Sprintf("%d", *l.Version)}
	if l.Revision > 0 {
		f.FormatVersion += fmt.Sprintf(" revision %d", l.Revision)
	}
	ix := newUVIndex(l.Package, tomlKeyLines(data))
	via := map[string][]string{}
	covered := map[string]bool{}
	for _, p := range l.Package {
		ix.addVia(via, p)
		if _, _, root := uvSource(p.Source); !root {
			continue
		}
		for _, d := range ix.direct(p) {
			f.Deps = append(f.Deps, d)
			covered[d.Name+"@"+d.Resolved] = true
		}
	}
	for _, p := range l.Package {
		src, detail, root := uvSource(p.Source)
		k := pep503(p.Name) + "@" + p.Version
		if covered[k] {
			continue
		}
		d := Dependency{Name: pep503(p.Name), Resolved: p.Version, Source: src, SourceDetail: detail,
			Relation: Transitive, Via: via[k], Line: ix.entryLine[k]}
		if root {
			d.Relation = Root
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// A uvIndex holds the versions of each package name, to resolve
// references without a version, and the line of each package's entry.
type uvIndex struct {
	versions  map[string][]string // by normalized name
	entryLine map[string]int      // by name@version
}

// newUVIndex indexes the packages of uv.lock, whose lines are those
// tomlKeyLines gives.
func newUVIndex(pkgs []uvPackage, lines map[string]int) uvIndex {
	ix := uvIndex{versions: map[string][]string{}, entryLine: map[string]int{}}
	for i, p := range pkgs {
		ix.versions[pep503(p.Name)] = append(ix.versions[pep503(p.Name)], p.Version)
		if k := pep503(p.Name) + "@" + p.Version; ix.entryLine[k] == 0 {
			ix.entryLine[k] = packageLine(lines, i)
		}
	}
	return ix
}

// refVersions returns the versions a dependency reference may mean: its
// own, or every version of its name.
func (ix uvIndex) refVersions(r uvDepRef) []string {
	if r.Version != "" {
		return []string{r.Version}
	}
	return ix.versions[pep503(r.Name)]
}

// addVia records p (name@version) as a dependent of each package its
// dependency lists (optional and dev groups included) name.
func (ix uvIndex) addVia(via map[string][]string, p uvPackage) {
	self := pep503(p.Name) + "@" + p.Version
	all := append([]uvDepRef{}, p.Dependencies...)
	for _, g := range sortedKeys(p.OptionalDependencies) {
		all = append(all, p.OptionalDependencies[g]...)
	}
	for _, g := range sortedKeys(p.DevDependencies) {
		all = append(all, p.DevDependencies[g]...)
	}
	for _, r := range all {
		for _, v := range ix.refVersions(r) {
			k := pep503(r.Name) + "@" + v
			via[k] = appendUnique(via[k], self)
		}
	}
}

// direct returns the direct dependencies of the project p: its
// dependency lists, each with the constraint its metadata declares.
func (ix uvIndex) direct(p uvPackage) []Dependency {
	spec := map[[2]string]string{}
	for _, rd := range p.Metadata.RequiresDist {
		spec[[2]string{"", pep503(rd.Name)}] = rd.Specifier
	}
	for g, list := range p.Metadata.RequiresDev {
		for _, rd := range list {
			spec[[2]string{g, pep503(rd.Name)}] = rd.Specifier
		}
	}
	var out []Dependency
	emit := func(r uvDepRef, scope Scope, group string) {
		for _, v := range ix.refVersions(r) {
			d := Dependency{Name: pep503(r.Name), Resolved: v, Relation: Direct, Scope: scope,
				Markers: r.Marker, Importer: ".", Declared: spec[[2]string{group, pep503(r.Name)}],
				Line: ix.entryLine[pep503(r.Name)+"@"+v]}
			if scope == Optional {
				d.Declared = spec[[2]string{"", pep503(r.Name)}]
			}
			if group != "" {
				d.Groups = []string{group}
			}
			out = append(out, d)
		}
	}
	for _, r := range p.Dependencies {
		emit(r, Normal, "")
	}
	for _, g := range sortedKeys(p.OptionalDependencies) {
		for _, r := range p.OptionalDependencies[g] {
			emit(r, Optional, g)
		}
	}
	for _, g := range sortedKeys(p.DevDependencies) {
		for _, r := range p.DevDependencies[g] {
			emit(r, groupScope(g), g)
		}
	}
	return out
}

// --- pdm.lock ----------------------------------------------------------------

type pdmLock struct {
	Metadata struct {
		LockVersion string   `toml:"lock_version"`
		Groups      []string `toml:"groups"`
	} `toml:"metadata"`
	Package []struct {
		Name         string   `toml:"name"`
		Version      string   `toml:"version"`
		Groups       []string `toml:"groups"`
		Marker       string   `toml:"marker"`
		Dependencies []string `toml:"dependencies"`
		Git          string   `toml:"git"`
		Revision     string   `toml:"revision"`
		Path         string   `toml:"path"`
		URL          string   `toml:"url"`
		Editable     bool     `toml:"editable"`
	} `toml:"package"`
}

func readPDMLock(file string, data []byte) (*File, error) {
	var l pdmLock
	if _, err := toml.Decode(string(data), &l); err != nil {
		return nil, err
	}
	if l.Metadata.LockVersion == "" {
		return nil, errors.New("no metadata.lock_version")
	}
	f := &File{FormatVersion: l.Metadata.LockVersion}
	via := map[string][]string{}
	for _, p := range l.Package {
		for _, s := range p.Dependencies {
			if r, err := parsePEP508(s); err == nil {
				n := pep503(r.Name)
				via[n] = appendUnique(via[n], pep503(p.Name)+"@"+p.Version)
			}
		}
	}
	lines := tomlKeyLines(data)
	for i, p := range l.Package {
		d := Dependency{Name: pep503(p.Name), Resolved: p.Version, Relation: Transitive, Groups: p.Groups,
			Markers: p.Marker, Via: via[pep503(p.Name)], Line: packageLine(lines, i)}
		switch {
		case p.Git != "":
			d.Source, d.SourceDetail = Git, p.Git+"@"+p.Revision
		case p.Path != "":
			d.Source, d.SourceDetail = Path, p.Path
		case p.URL != "":
			d.Source, d.SourceDetail = URL, p.URL
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// --- Pipfile and Pipfile.lock --------------------------------------------------

type pipfile struct {
	Packages    map[string]any `toml:"packages"`
	DevPackages map[string]any `toml:"dev-packages"`
}

func readPipfile(file string, data []byte) (*File, error) {
	var p pipfile
	if _, err := toml.Decode(string(data), &p); err != nil {
		return nil, err
	}
	lines := tomlKeyLines(data)
	f := &File{}
	for _, sec := range []struct {
		key   string
		m     map[string]any
		scope Scope
	}{{"packages", p.Packages, Normal}, {"dev-packages", p.DevPackages, Dev}} {
		for _, name := range sortedKeys(sec.m) {
			d := poetryDep(name, sec.m[name], sec.scope, "")
			d.Line = lines[pathKey(sec.key, name)]
			if t, ok := sec.m[name].(map[string]any); ok {
				if e, _ := t["editable"].(bool); e && d.Source == Registry {
					d.Source = Path
				}
			}
			f.Deps = append(f.Deps, d)
		}
	}
	return f, nil
}

type pipfileLockEntry struct {
	Version  string   `json:"version"`
	Markers  string   `json:"markers"`
	Git      string   `json:"git"`
	Ref      string   `json:"ref"`
	Path     string   `json:"path"`
	File     string   `json:"file"`
	Editable bool     `json:"editable"`
	Extras   []string `json:"extras"`
}

type pipfileLock struct {
	Meta struct {
		PipfileSpec *int `json:"pipfile-spec"`
	} `json:"_meta"`
	Default map[string]pipfileLockEntry `json:"default"`
	Develop map[string]pipfileLockEntry `json:"develop"`
}

func readPipfileLock(file string, data []byte) (*File, error) {
	var l pipfileLock
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&l); err != nil {
		return nil, err
	}
	if l.Meta.PipfileSpec == nil {
		return nil, errors.New("no _meta.pipfile-spec")
	}
	f := &File{FormatVersion: fmt.Sprint(*l.Meta.PipfileSpec)}
	lines := jsonKeyLines(data, func(p []string) bool { return len(p) == 2 && (p[0] == "default" || p[0] == "develop") })
	for _, sec := range []struct {
		m     map[string]pipfileLockEntry
		scope Scope
		group string
	}{{l.Default, Normal, "default"}, {l.Develop, Dev, "develop"}} {
		for _, name := range sortedKeys(sec.m) {
			e := sec.m[name]
			d := Dependency{Name: pep503(name), Resolved: strings.TrimPrefix(e.Version, "=="), Relation: Transitive,
				Scope: sec.scope, Groups: []string{sec.group}, Markers: e.Markers, Line: lines[pathKey(sec.group, name)]}
			switch {
			case e.Git != "":
				d.Source, d.SourceDetail = Git, e.Git+"@"+e.Ref
			case e.Path != "" || e.Editable:
				d.Source, d.SourceDetail = Path, firstNonEmpty(e.Path, e.File)
			case e.File != "":
				d.Source, d.SourceDetail = URL, e.File
			}
			f.Deps = append(f.Deps, d)
		}
	}
	return f, nil
}

// --- requirements.txt ----------------------------------------------------------

// readRequirements reads one pip requirements file. Lines joined by a
// trailing backslash are one line; comments, options and hashes are
// dropped; -r and -c includes are recorded as Includes (the project scan
// follows them, visiting each file once, so a cycle ends); -e and VCS lines
// become path or git dependencies.
func readRequirements(file string, data []byte) (*File, error) {
	f := &File{}
	var logical []string
	var first []int // the physical line each logical line starts on
	var cur strings.Builder
	start := 0
	for n, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		if cur.Len() == 0 {
			start = n + 1
		}
		if strings.HasSuffix(line, `\`) {
			cur.WriteString(strings.TrimSuffix(line, `\`))
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(line)
		logical = append(logical, cur.String())
		first = append(first, start)
		cur.Reset()
	}
	if cur.Len() > 0 {
		logical = append(logical, cur.String())
		first = append(first, start)
	}
	for n, line := range logical {
		// A comment starts at "#" preceded by whitespace or at the start.
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if i := strings.Index(line, "\t#"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		opt, arg := splitOption(line)
		switch opt {
		case "-r", "--requirement", "-c", "--constraint":
			if arg != "" {
				f.Includes = append(f.Includes, join(dirOf(file), arg))
			}
			continue
		case "-e", "--editable":
			if strings.TrimSpace(arg) != "" {
				d := editableDep(arg)
				d.Line = first[n]
				f.Deps = append(f.Deps, d)
			}
			continue
		case "":
		default:
			continue // -i, --index-url, --hash on its own line, -f ...
		}
		// Drop per-requirement options such as --hash=...
		if i := strings.Index(line, " --"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if isURLish(line) {
			d := editableDep(line)
			d.Line = first[n]
			f.Deps = append(f.Deps, d)
			continue
		}
		r, err := parsePEP508(line)
		if err != nil {
			f.Notes = append(f.Notes, "unreadable line: "+err.Error())
			continue
		}
		d := pyDep(r, Normal, "")
		d.Line = first[n]
		if v, ok := pinned(r.Spec); ok {
			d.Resolved = v
		}
		f.Deps = append(f.Deps, d)
	}
	sort.Strings(f.Includes)
	return f, nil
}

func splitOption(line string) (opt, arg string) {
	if !strings.HasPrefix(line, "-") {
		return "", ""
	}
	opt, arg, _ = strings.Cut(line, " ")
	if o, a, ok := strings.Cut(opt, "="); ok {
		return o, strings.TrimSpace(a + " " + arg)
	}
	if len(opt) > 2 && opt[1] != '-' { // "-rfile.txt"
		return opt[:2], strings.TrimSpace(opt[2:])
	}
	return opt, strings.TrimSpace(arg)
}

func isURLish(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/")
}

// editableDep reads "-e path", "-e git+https://...#egg=name" or a bare URL.
func editableDep(arg string) Dependency {
	name := ""
	if i := strings.Index(arg, "#egg="); i >= 0 {
		name = arg[i+5:]
		if j := strings.IndexAny(name, "&[ "); j >= 0 {
			name = name[:j]
		}
	}
	if at := strings.Index(arg, " @ "); at > 0 && name == "" {
		name = strings.TrimSpace(arg[:at])
		arg = strings.TrimSpace(arg[at+3:])
	}
	if name == "" {
		name = urlProjectName(arg)
	}
	n := pep503(name)
	if n == "" {
		n = strings.TrimSpace(arg) // a local directory such as "-e ." is named by its path
	}
	return Dependency{Ecosystem: PyPI, Name: n, Declared: arg, Source: pyURLSource(arg), SourceDetail: arg,
		Relation: Direct, Importer: "."}
}

// pinned returns the version of an "==" or "===" specifier without
// wildcards, the resolved version a compiled requirements file records.
func pinned(spec string) (string, bool) {
	spec = strings.TrimSpace(strings.Trim(spec, "()"))
	if strings.Contains(spec, ",") {
		return "", false
	}
	v, ok := strings.CutPrefix(spec, "===")
	if !ok {
		v, ok = strings.CutPrefix(spec, "==")
	}
	v = strings.TrimSpace(v)
	if !ok || v == "" || strings.Contains(v, "*") {
		return "", false
	}
	return v, true
}

// urlProjectName guesses a distribution name from a URL without #egg=:
// the repository of a GitHub or GitLab address, else the last path element
// without archive suffixes.
func urlProjectName(u string) string {
	u = strings.TrimPrefix(u, "git+")
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	u = strings.SplitN(u, "#", 2)[0]
	parts := strings.Split(strings.Trim(u, "/"), "/")
	if len(parts) >= 3 && (parts[0] == "github.com" || parts[0] == "gitlab.com") {
		return strings.TrimSuffix(strings.SplitN(parts[2], "@", 2)[0], ".git")
	}
	last := parts[len(parts)-1]
	for _, ext := range []string{".tar.gz", ".zip", ".tgz", ".whl", ".git"} {
		last = strings.TrimSuffix(last, ext)
	}
	return strings.SplitN(last, "@", 2)[0]
}
