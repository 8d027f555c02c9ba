package depdocs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

type cargoToml struct {
	Package struct {
		Name string `toml:"name"`
	} `toml:"package"`
	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
	Target            map[string]struct {
		Dependencies      map[string]any `toml:"dependencies"`
		DevDependencies   map[string]any `toml:"dev-dependencies"`
		BuildDependencies map[string]any `toml:"build-dependencies"`
	} `toml:"target"`
	Workspace struct {
		Members      []string       `toml:"members"`
		Dependencies map[string]any `toml:"dependencies"`
	} `toml:"workspace"`
}

// readCargoToml reads a Cargo manifest: [dependencies], [dev-dependencies],
// [build-dependencies], their [target.'cfg'.…] forms, and for a workspace
// root [workspace.dependencies] (Importer "workspace") and the members. A
// renamed dependency (`alias = { package = "real" }`) is recorded under the
// real package name with the alias in Alias. `dep = { workspace = true }`
// keeps Declared empty with SourceDetail "workspace": the project scan
// fills it from the root.
func readCargoToml(file string, data []byte) (*File, error) {
	var c cargoToml
	if _, err := toml.Decode(string(data), &c); err != nil {
		return nil, err
	}
	lines := tomlKeyLines(data)
	f := &File{}
	add := func(m map[string]any, scope Scope, target, importer string, table ...string) {
		for _, key := range sortedKeys(m) {
			d := Dependency{Name: key, Relation: Direct, Scope: scope, Markers: target, Importer: importer,
				Line: lines[pathKey(append(table, key)...)]}
			switch v := m[key].(type) {
			case string:
				d.Declared = v
			case map[string]any:
				d.Declared, _ = v["version"].(string)
				if p, ok := v["package"].(string); ok && p != "" && p != key {
					d.Name, d.Alias = p, key
				}
				if p, ok := v["path"].(string); ok {
					d.Source, d.SourceDetail = Path, p
				}
				if g, ok := v["git"].(string); ok {
					d.Source, d.SourceDetail = Git, g
				}
				if w, _ := v["workspace"].(bool); w {
					d.SourceDetail = strings.TrimSpace("workspace " + d.SourceDetail)
				}
				if o, _ := v["optional"].(bool); o && scope == Normal {
					d.Groups = []string{"optional"}
				}
			}
			f.Deps = append(f.Deps, d)
		}
	}
	add(c.Dependencies, Normal, "", ".", "dependencies")
	add(c.DevDependencies, Dev, "", ".", "dev-dependencies")
	add(c.BuildDependencies, Build, "", ".", "build-dependencies")
	for _, t := range sortedKeys(c.Target) {
		tt := c.Target[t]
		add(tt.Dependencies, Normal, t, ".", "target", t, "dependencies")
		add(tt.DevDependencies, Dev, t, ".", "target", t, "dev-dependencies")
		add(tt.BuildDependencies, Build, t, ".", "target", t, "build-dependencies")
	}
	add(c.Workspace.Dependencies, Normal, "", "workspace", "workspace", "dependencies")
	for _, m := range c.Workspace.Members {
		f.Includes = append(f.Includes, join(dirOf(file), m))
	}
	if c.Workspace.Members != nil || c.Workspace.Dependencies != nil {
		f.FormatVersion = "workspace"
	}
	return f, nil
}

type cargoLock struct {
	Version *int `toml:"version"`
	Package []struct {
		Name         string   `toml:"name"`
		Version      string   `toml:"version"`
		Source       string   `toml:"source"`
		Dependencies []string `toml:"dependencies"`
	} `toml:"package"`
	Metadata map[string]any `toml:"metadata"`
}

// readCargoLock reads Cargo.lock versions 1 to 4. Packages without a
// source are the workspace's own members; their dependencies are direct.
func readCargoLock(file string, data []byte) (*File, error) {
	var l cargoLock
	md, err := toml.Decode(string(data), &l)
	if err != nil {
		return nil, err
	}
	if !md.IsDefined("package") && l.Version == nil {
		return nil, errors.New("no [[package]] and no version: not a Cargo.lock")
	}
	f := &File{}
	switch {
	case l.Version != nil:
		f.FormatVersion = fmt.Sprint(*l.Version)
	case l.Metadata != nil:
		f.FormatVersion = "1"
	default:
		f.FormatVersion = "2"
	}
	byName := map[string][]int{}
	for i, p := range l.Package {
		byName[p.Name] = append(byName[p.Name], i)
	}
	// resolve reads a dependency entry "name", "name version" or
	// "name version (source)".
	resolve := func(ref string) int {
		parts := strings.Fields(ref)
		if len(parts) == 0 {
			return -1
		}
		cands := byName[parts[0]]
		if len(parts) == 1 && len(cands) == 1 {
			return cands[0]
		}
		for _, i := range cands {
			if len(parts) > 1 && l.Package[i].Version == parts[1] {
				return i
			}
		}
		return -1
	}
	direct := map[int]bool{}
	via := map[int][]string{}
	for i, p := range l.Package {
		for _, ref := range p.Dependencies {
			j := resolve(ref)
			if j < 0 {
				continue
			}
			via[j] = appendUnique(via[j], p.Name+"@"+p.Version)
			if l.Package[i].Source == "" {
				direct[j] = true
			}
		}
	}
	lines := tomlKeyLines(data)
	for i, p := range l.Package {
		d := Dependency{Name: p.Name, Resolved: p.Version, Relation: Transitive, Via: via[i], Line: packageLine(lines, i)}
		switch {
		case p.Source == "":
			d.Source, d.Relation = Workspace, Root
		case strings.HasPrefix(p.Source, "git+"):
			d.Source, d.SourceDetail = Git, p.Source
		case strings.HasPrefix(p.Source, "path+"):
			d.Source, d.SourceDetail = Path, p.Source
		default:
			d.SourceDetail = p.Source
		}
		if direct[i] && d.Relation != Root {
			d.Relation = Direct
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// packageLine is the line of the name of the i-th [[package]] of a TOML
// lockfile (Cargo.lock, poetry.lock, uv.lock, pdm.lock), or of its header.
func packageLine(lines map[string]int, i int) int {
	if l := lines[pathKey("package", index(i), "name")]; l > 0 {
		return l
	}
	return lines[pathKey("package", index(i))]
}
