package depdocs

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

type pnpmDep struct {
	Specifier string `yaml:"specifier"`
	Version   string `yaml:"version"`
}

type pnpmImporter struct {
	Dependencies         map[string]yaml.Node `yaml:"dependencies"`
	DevDependencies      map[string]yaml.Node `yaml:"devDependencies"`
	OptionalDependencies map[string]yaml.Node `yaml:"optionalDependencies"`
	Specifiers           map[string]string    `yaml:"specifiers"`
}

type pnpmPackage struct {
	Dev                  *bool             `yaml:"dev"`
	Optional             bool              `yaml:"optional"`
	Dependencies         map[string]string `yaml:"dependencies"`
	OptionalDependencies map[string]string `yaml:"optionalDependencies"`
	Resolution           struct {
		Tarball string `yaml:"tarball"`
		Repo    string `yaml:"repo"`
		Type    string `yaml:"type"`
	} `yaml:"resolution"`
}

type pnpmLock struct {
	LockfileVersion yaml.Node               `yaml:"lockfileVersion"`
	Importers       map[string]pnpmImporter `yaml:"importers"`
	Packages        map[string]pnpmPackage  `yaml:"packages"`
	Snapshots       map[string]pnpmPackage  `yaml:"snapshots"`
	Dependencies    map[string]yaml.Node    `yaml:"dependencies"`
	DevDependencies map[string]yaml.Node    `yaml:"devDependencies"`
	Specifiers      map[string]string       `yaml:"specifiers"`
	Other           map[string]yaml.Node    `yaml:",inline"`
}

// pnpmKey splits a packages/snapshots key into name and version: v9
// "name@1.0.0(peer@2.0.0)", v6 "/name@1.0.0(peer@2.0.0)", v5 "/name/1.0.0_peer@2.0.0".
func pnpmKey(key string, major int) (name, version string) {
	key = strings.TrimPrefix(key, "/")
	if i := strings.IndexByte(key, '('); i > 0 {
		key = key[:i]
	}
	if major > 0 && major < 6 {
		if i := strings.IndexByte(key, '_'); i > 0 {
			key = key[:i]
		}
		if i := strings.LastIndexByte(key, '/'); i > 0 {
			return key[:i], key[i+1:]
		}
		return key, ""
	}
	if i := strings.LastIndexByte(key, '@'); i > 0 {
		return key[:i], key[i+1:]
	}
	return key, ""
}

// pnpmVersion reads an importer's or snapshot's version reference: a plain
// version with an optional peer suffix, "link:../x", or an alias "name@1.0.0".
func pnpmVersion(name, ref string) (realName, version string, src Source, detail string) {
	if i := strings.IndexByte(ref, '('); i > 0 {
		ref = ref[:i]
	}
	switch {
	case strings.HasPrefix(ref, "link:"):
		return name, "", Workspace, ref
	case strings.HasPrefix(ref, "file:"):
		return name, "", Path, ref
	}
	if a := strings.TrimPrefix(ref, "/"); strings.LastIndexByte(a, '@') > 0 && !strings.Contains(a, ":") {
		i := strings.LastIndexByte(a, '@')
		return a[:i], a[i+1:], Registry, ""
	}
	if strings.Contains(ref, "://") || strings.HasPrefix(ref, "github.com/") {
		return name, "", Git, ref
	}
	return name, ref, Registry, ""
}

// readPNPMLock reads pnpm-lock.yaml (lockfile versions 5 to 9): each
// importer's direct dependencies, then the packages no importer declares
// as transitive, with the packages that depend on them.
func readPNPMLock(file string, data []byte) (*File, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	var l pnpmLock
	if len(root.Content) > 0 {
		if err := root.Decode(&l); err != nil {
			return nil, err
		}
	}
	lines := yamlKeyLines(&root, func(p []string) bool {
		switch p[0] {
		case "importers":
			return len(p) <= 4
		case "packages":
			return len(p) == 2
		case "dependencies", "devDependencies", "optionalDependencies":
			return len(p) == 2
		}
		return false
	})
	ver := l.LockfileVersion.Value
	if ver == "" {
		return nil, errors.New("no lockfileVersion")
	}
	var major int
	if _, err := fmt.Sscanf(ver, "%d", &major); err != nil {
		return nil, fmt.Errorf("lockfileVersion %q: %w", ver, err)
	}
	f := &File{FormatVersion: ver}
	// importerLine is the line of an importer's declaration.
	importerLine := func(imp, section, name string) int { return lines[pathKey("importers", imp, section, name)] }
	if l.Importers == nil && (l.Dependencies != nil || l.DevDependencies != nil) {
		// A single-project lockfile before v9 keeps the root's sections at
		// the top level.
		l.Importers = map[string]pnpmImporter{".": {Dependencies: l.Dependencies,
			DevDependencies: l.DevDependencies, Specifiers: l.Specifiers}}
		importerLine = func(_, section, name string) int { return lines[pathKey(section, name)] }
	}
	covered := map[string]bool{}
	for _, imp := range sortedKeys(l.Importers) {
		deps, err := pnpmImporterDeps(imp, l.Importers[imp], importerLine)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			covered[d.Name+"@"+d.Resolved] = true
		}
		f.Deps = append(f.Deps, deps...)
		if imp != "." {
			f.Includes = append(f.Includes, join(dirOf(file), imp))
		}
	}
	graph := l.Snapshots
	if graph == nil {
		graph = l.Packages
	}
	via := pnpmVia(graph, major)
	seen := map[string]bool{}
	for _, key := range sortedKeys(l.Packages) {
		name, version := pnpmKey(key, major)
		id := name + "@" + version
		if seen[id] || covered[id] {
			continue
		}
		seen[id] = true
		f.Deps = append(f.Deps, pnpmTransitive(l.Packages[key], name, version, via[id], lines[pathKey("packages", key)]))
	}
	return f, nil
}

// pnpmVia returns, for each name@version in the dependency graph, the
// packages that depend on it (name@version).
func pnpmVia(graph map[string]pnpmPackage, major int) map[string][]string {
	via := map[string][]string{}
	for _, key := range sortedKeys(graph) {
		pn, pv := pnpmKey(key, major)
		p := graph[key]
		for _, deps := range []map[string]string{p.Dependencies, p.OptionalDependencies} {
			for _, dn := range sortedKeys(deps) {
				cn, cv, _, _ := pnpmVersion(dn, deps[dn])
				via[cn+"@"+cv] = appendUnique(via[cn+"@"+cv], pn+"@"+pv)
			}
		}
	}
	return via
}

// pnpmImporterDeps returns the direct dependencies of the importer imp,
// in the order of its sections and names, each at the line line gives.
func pnpmImporterDeps(imp string, im pnpmImporter, line func(imp, section, name string) int) ([]Dependency, error) {
	var out []Dependency
	for _, sec := range []struct {
		key   string
		m     map[string]yaml.Node
		scope Scope
	}{{"dependencies", im.Dependencies, Normal}, {"optionalDependencies", im.OptionalDependencies, Optional},
		{"devDependencies", im.DevDependencies, Dev}} {
		for _, name := range sortedKeys(sec.m) {
			n := sec.m[name]
			var dep pnpmDep
			if n.Kind == yaml.ScalarNode {
				dep.Version, dep.Specifier = n.Value, im.Specifiers[name]
			} else if err := n.Decode(&dep); err != nil {
				return nil, fmt.Errorf("importers %s %s: %w", imp, name, err)
			}
			rn, rv, src, detail := pnpmVersion(name, dep.Version)
			d := Dependency{Name: rn, Declared: dep.Specifier, Resolved: rv, Source: src, SourceDetail: detail,
				Relation: Direct, Scope: sec.scope, Importer: imp, Line: line(imp, sec.key, name)}
			if rn != name {
				d.Alias = name
			}
			if _, c, ok := npmAlias(d.Declared); ok {
				d.Declared = c
			}
			d.Via = []string{imp}
			out = append(out, d)
		}
	}
	return out, nil
}

// pnpmTransitive returns the transitive dependency a packages entry
// records, with its scope and any git or path source.
func pnpmTransitive(p pnpmPackage, name, version string, via []string, line int) Dependency {
	d := Dependency{Name: name, Resolved: version, Relation: Transitive, Via: via, Line: line}
	if p.Dev != nil && *p.Dev {
		d.Scope = Dev
	} else if p.Optional {
		d.Scope = Optional
	}
	switch {
	case p.Resolution.Repo != "" || p.Resolution.Type == "git":
		d.Source, d.SourceDetail = Git, p.Resolution.Repo
	case p.Resolution.Tarball != "" && strings.HasPrefix(p.Resolution.Tarball, "file:"):
		d.Source, d.SourceDetail = Path, p.Resolution.Tarball
	}
	return d
}
