package depdocs

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// npmSections are package.json's dependency sections and their scopes, in
// the order npm gives a name precedence.
var npmSections = []struct {
	key   string
	scope Scope
}{
	{"dependencies", Normal},
	{"optionalDependencies", Optional},
	{"devDependencies", Dev},
	{"peerDependencies", Peer},
}

type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	Workspaces           json.RawMessage   `json:"workspaces"`
}

func (p *packageJSON) section(key string) map[string]string {
	switch key {
	case "dependencies":
		return p.Dependencies
	case "devDependencies":
		return p.DevDependencies
	case "optionalDependencies":
		return p.OptionalDependencies
	case "peerDependencies":
		return p.PeerDependencies
	}
	return nil
}

// declared returns the constraint and scope under which p declares name.
func (p *packageJSON) declared(name string) (string, Scope, bool) {
	for _, s := range npmSections {
		if c, ok := p.section(s.key)[name]; ok {
			return c, s.scope, true
		}
	}
	return "", Normal, false
}

// workspaces returns the workspace globs, from either the array form or
// the {"packages": [...]} form.
func (p *packageJSON) workspaces() []string {
	if len(p.Workspaces) == 0 {
		return nil
	}
	var list []string
	if json.Unmarshal(p.Workspaces, &list) == nil {
		return list
	}
	var obj struct {
		Packages []string `json:"packages"`
	}
	if json.Unmarshal(p.Workspaces, &obj) == nil {
		return obj.Packages
	}
	return nil
}

// npmSpecSource classifies an npm dependency specifier.
func npmSpecSource(spec string) (Source, string) {
	switch {
	case strings.HasPrefix(spec, "workspace:"):
		return Workspace, spec
	case strings.HasPrefix(spec, "link:"), strings.HasPrefix(spec, "file:"), strings.HasPrefix(spec, "portal:"):
		return Path, spec
	case strings.HasPrefix(spec, "git+"), strings.HasPrefix(spec, "git:"), strings.HasPrefix(spec, "github:"),
		strings.HasPrefix(spec, "git@"):
		return Git, spec
	case strings.HasPrefix(spec, "http://"), strings.HasPrefix(spec, "https://"):
		if strings.Contains(spec, ".git") || strings.Contains(spec, "#") {
			return Git, spec
		}
		return URL, spec
	}
	return Registry, ""
}

// npmAlias splits an alias specifier, "npm:lodash@^3.10.1", into the
// package it installs and the constraint on it; ok is false for every other
// specifier.
func npmAlias(spec string) (name, constraint string, ok bool) {
	rest, ok := strings.CutPrefix(spec, "npm:")
	if !ok || rest == "" {
		return "", "", false
	}
	if i := strings.LastIndex(rest, "@"); i > 0 {
		return rest[:i], rest[i+1:], true
	}
	return rest, "", true
}

// npmDecl is the dependency a manifest's "key": "spec" declares: an alias
// names the package it installs, with the key as Alias.
func npmDecl(key, spec string) Dependency {
	d := Dependency{Name: key, Declared: spec}
	if real, c, ok := npmAlias(spec); ok {
		d.Name, d.Declared = real, c
		if real != key {
			d.Alias = key
		}
		return d
	}
	d.Source, d.SourceDetail = npmSpecSource(spec)
	return d
}

func isNPMSection(key string) bool {
	for _, s := range npmSections {
		if s.key == key {
			return true
		}
	}
	return false
}

func readPackageJSON(file string, data []byte) (*File, error) {
	var p packageJSON
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	lines := jsonKeyLines(data, func(p []string) bool { return len(p) <= 2 && isNPMSection(p[0]) })
	f := &File{}
	for _, s := range npmSections {
		for _, name := range sortedKeys(p.section(s.key)) {
			d := npmDecl(name, p.section(s.key)[name])
			d.Relation, d.Scope, d.Importer, d.Line = Direct, s.scope, ".", lines[pathKey(s.key, name)]
			f.Deps = append(f.Deps, d)
		}
	}
	for _, w := range p.workspaces() {
		f.Includes = append(f.Includes, join(dirOf(file), w))
	}
	return f, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lockEntry is an entry of version 1's nested "dependencies" tree.
type lockEntry struct {
	Version      string          `json:"version"`
	Dev          bool            `json:"dev"`
	Optional     bool            `json:"optional"`
	DevOptional  bool            `json:"devOptional"`
	Peer         bool            `json:"peer"`
	Dependencies json.RawMessage `json:"dependencies"`
}

// lockPackage is an entry of version 2 and 3's flat "packages" map.
type lockPackage struct {
	Name         string            `json:"name"`
	Version      string            `json:"version"`
	Resolved     string            `json:"resolved"`
	Link         bool              `json:"link"`
	Dev          bool              `json:"dev"`
	Optional     bool              `json:"optional"`
	DevOptional  bool              `json:"devOptional"`
	Peer         bool              `json:"peer"`
	Dependencies map[string]string `json:"dependencies"`
	Optional2    map[string]string `json:"optionalDependencies"`
	Dev2         map[string]string `json:"devDependencies"`
	Peer2        map[string]string `json:"peerDependencies"`
}

type packageLock struct {
	LockfileVersion json.RawMessage        `json:"lockfileVersion"`
	Packages        map[string]lockPackage `json:"packages"`
	Dependencies    json.RawMessage        `json:"dependencies"`
}

// readPackageLock reads package-lock.json (and npm-shrinkwrap.json):
// version 1 nests packages under "dependencies"; versions 2 and 3 list
// them flat under "packages" keyed by install path.
func readPackageLock(file string, data []byte) (*File, error) {
	var l packageLock
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, err
	}
	ver := strings.Trim(string(l.LockfileVersion), `"`)
	if ver == "" {
		return nil, errors.New("no lockfileVersion")
	}
	n, err := strconv.Atoi(ver)
	if err != nil || n < 1 || n > 3 {
		return nil, fmt.Errorf("unsupported lockfileVersion %s", ver)
	}
	f := &File{FormatVersion: ver}
	if n >= 2 && l.Packages != nil {
		lines := jsonKeyLines(data, func(p []string) bool {
			return p[0] == "packages" && (len(p) == 2 || len(p) == 4 && (p[2] == "peerDependencies" || p[2] == "optionalDependencies"))
		})
		readLockPackages(f, l.Packages, lines)
		return f, nil
	}
	if len(l.Dependencies) == 0 {
		return f, nil
	}
	lines := jsonKeyLines(data, func(p []string) bool {
		for i := 0; i < len(p); i += 2 {
			if p[i] != "dependencies" {
				return false
			}
		}
		return len(p)%2 == 0
	})
	if err := readLockV1(f, l.Dependencies, "", []string{"dependencies"}, lines, 0); err != nil {
		return nil, err
	}
	return f, nil
}

// nameFromInstallPath returns the package name of a node_modules path such
// as "node_modules/a/node_modules/@s/b" (→ "@s/b").
func nameFromInstallPath(p string) string {
	i := strings.LastIndex(p, "node_modules/")
	if i < 0 {
		return ""
	}
	return p[i+len("node_modules/"):]
}

func lockScope(e *lockEntry) Scope {
	return scopeOf(e.Dev, e.DevOptional, e.Peer, e.Optional)
}

func scopeOf(dev, devOptional, peer, optional bool) Scope {
	switch {
	case dev || devOptional:
		return Dev
	case peer:
		return Peer
	case optional:
		return Optional
	}
	return Normal
}

// readLockPackages adds to f the dependencies the "packages" map of
// package-lock.json (v2+) installs, the peer and optional ones nothing
// installed, and the workspace members as includes.
func readLockPackages(f *File, pkgs map[string]lockPackage, lines map[string]int) {
	importers := lockImporters(pkgs)
	keys := sortedKeys(pkgs)
	via := lockVia(pkgs)
	for _, p := range keys {
		name := nameFromInstallPath(p)
		if name == "" {
			continue // an importer
		}
		d := lockInstalled(pkgs, importers, p, name)
		d.Line = lines[pathKey("packages", p)]
		d.Via = via[p]
		f.Deps = append(f.Deps, d)
	}
	f.Deps = append(f.Deps, lockMissing(pkgs, keys, lines)...)
	for _, p := range keys {
		if p != "" && !strings.Contains(p, "node_modules/") {
			f.Includes = append(f.Includes, p)
		}
	}
}

// lockImporters returns the importers of the packages map: the root ("")
// and the workspace members (paths outside node_modules), whose declared
// dependencies are direct.
func lockImporters(pkgs map[string]lockPackage) map[string]*packageJSON {
	importers := map[string]*packageJSON{}
	for p, e := range pkgs {
		if strings.Contains(p, "node_modules/") || strings.HasPrefix(p, "node_modules") {
			continue
		}
		importers[p] = &packageJSON{Name: e.Name, Version: e.Version, Dependencies: e.Dependencies, DevDependencies: e.Dev2,
			OptionalDependencies: e.Optional2, PeerDependencies: e.Peer2}
	}
	return importers
}

// lockInstalled returns the dependency installed at path p under name:
// transitive, or direct when the importer whose node_modules holds it
// declares it, with its alias and source.
func lockInstalled(pkgs map[string]lockPackage, importers map[string]*packageJSON, p, name string) Dependency {
	e := pkgs[p]
	d := Dependency{Name: name, Resolved: e.Version, Relation: Transitive, Scope: scopeOf(e.Dev, e.DevOptional, e.Peer, e.Optional)}
	if e.Name != "" && e.Name != name {
		// An alias: "npm:real@1.0.0" installed under another name.
		d.Name, d.Alias = e.Name, name
	}
	switch {
	case e.Link:
		d.Source, d.SourceDetail = Workspace, e.Resolved
		if t, ok := pkgs[e.Resolved]; ok {
			d.Resolved = t.Version
		}
	case strings.HasPrefix(e.Resolved, "git"):
		d.Source, d.SourceDetail = Git, e.Resolved
	case strings.HasPrefix(e.Resolved, "file:"):
		d.Source, d.SourceDetail = Path, e.Resolved
	}
	imp := strings.TrimSuffix(p[:len(p)-len("node_modules/")-len(name)], "/")
	if pj, ok := importers[imp]; ok {
		if c, sc, ok := pj.declared(name); ok {
			if _, rng, alias := npmAlias(c); alias {
				c = rng
			}
			d.Relation, d.Declared, d.Scope = Direct, c, sc
			d.Importer = imp
			if d.Importer == "" {
				d.Importer = "."
			}
		}
	}
	return d
}

// lockMissing returns the peer and optional dependencies that nothing
// installed, unresolved, once per name, as npm ls reports them missing;
// each is at the line of the package that wants it.
func lockMissing(pkgs map[string]lockPackage, keys []string, lines map[string]int) []Dependency {
	var out []Dependency
	missing := map[string]bool{}
	for _, p := range keys {
		e := pkgs[p]
		for _, sec := range []struct {
			key string
			m   map[string]string
		}{{"peerDependencies", e.Peer2}, {"optionalDependencies", e.Optional2}} {
			m := sec.m
			for _, name := range sortedKeys(m) {
				if resolveFrom(pkgs, p, name) != "" || missing[name] {
					continue
				}
				missing[name] = true
				sc := Peer
				if m == nil || e.Optional2[name] != "" {
					sc = Optional
				}
				out = append(out, Dependency{Name: name, Relation: Transitive, Scope: sc,
					Via: []string{nameFromInstallPath(p) + "@" + e.Version}, SourceDetail: "not installed (wants " + m[name] + ")",
					Line: lines[pathKey("packages", p, sec.key, name)]})
			}
		}
	}
	return out
}

// lockVia maps each install path to the packages that depend on it, by
// node's resolution: a dependent at q resolves a name to the nearest
// q/node_modules/name, walking up.
func lockVia(pkgs map[string]lockPackage) map[string][]string {
	via := map[string][]string{}
	for q, e := range pkgs {
		label := nameFromInstallPath(q)
		if label == "" {
			label = q
			if label == "" {
				label = "."
			}
		} else {
			label += "@" + e.Version
		}
		for _, name := range depNames(&e) {
			if p := resolveFrom(pkgs, q, name); p != "" {
				via[p] = append(via[p], label)
			}
		}
	}
	for _, v := range via {
		sort.Strings(v)
	}
	return via
}

func depNames(e *lockPackage) []string {
	var names []string
	for _, m := range []map[string]string{e.Dependencies, e.Optional2, e.Peer2} {
		for k := range m {
			names = append(names, k)
		}
	}
	return names
}

func resolveFrom(pkgs map[string]lockPackage, from, name string) string {
	cur := from
	for {
		cand := "node_modules/" + name
		if cur != "" {
			cand = cur + "/node_modules/" + name
		}
		if _, ok := pkgs[cand]; ok {
			return cand
		}
		if cur == "" {
			return ""
		}
		i := strings.LastIndex(cur, "/node_modules/")
		if i < 0 {
			cur = ""
		} else {
			cur = cur[:i]
		}
	}
}

// readLockV1 walks version 1's nested "dependencies" tree; path is the
// JSON path of raw, for the lines.
func readLockV1(f *File, raw json.RawMessage, parent string, path []string, lines map[string]int, depth int) error {
	if depth > 256 {
		return errors.New("dependencies nested too deeply")
	}
	var deps map[string]json.RawMessage
	if err := json.Unmarshal(raw, &deps); err != nil {
		return fmt.Errorf("dependencies: %w", err)
	}
	for _, name := range sortedKeys(deps) {
		var e lockEntry
		if err := json.Unmarshal(deps[name], &e); err != nil {
			return fmt.Errorf("dependencies %s: %w", name, err)
		}
		key := append(path[:len(path):len(path)], name)
		d := Dependency{Name: name, Resolved: e.Version, Relation: Unknown, Scope: lockScope(&e), Line: lines[pathKey(key...)]}
		if parent != "" {
			d.Relation = Transitive
			d.Via = []string{parent}
		}
		if real, v, ok := npmAlias(e.Version); ok {
			// An alias: "npm:@babel/code-frame@7.0.0" installed as name.
			d.Name, d.Resolved = real, v
			if real != name {
				d.Alias = name
			}
		}
		if src, detail := npmSpecSource(e.Version); src != Registry {
			d.Source, d.SourceDetail, d.Resolved = src, detail, ""
		}
		f.Deps = append(f.Deps, d)
		if len(e.Dependencies) > 0 && string(e.Dependencies) != "null" {
			if err := readLockV1(f, e.Dependencies, d.Name+"@"+d.Resolved, append(key, "dependencies"), lines, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
