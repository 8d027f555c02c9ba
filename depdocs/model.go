package depdocs

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Ecosystem is a package ecosystem, named as deps.dev names its systems.
type Ecosystem string

// The ecosystems the readers cover.
const (
	NPM   Ecosystem = "npm"
	PyPI  Ecosystem = "pypi"
	Cargo Ecosystem = "cargo"
	Go    Ecosystem = "go"
	Maven Ecosystem = "maven"
	NuGet Ecosystem = "nuget"
)

// Valid reports whether e is a known ecosystem.
func (e Ecosystem) Valid() bool {
	switch e {
	case NPM, PyPI, Cargo, Go, Maven, NuGet:
		return true
	}
	return false
}

// Source says where a dependency's code comes from.
type Source string

// The sources. Only a registry dependency has a published version that a
// documentation provider can know about; the others are never sent.
const (
	Registry Source = "registry"
	Git      Source = "git"
	// Path is a local directory (a file: or link: dependency, a path
	// dependency of Cargo, an editable install).
	Path Source = "path"
	// Replaced is a Go module whose go.mod replace directive substitutes
	// other code: its version string is not what runs.
	Replaced Source = "replaced"
	// Workspace is a member of the project's own workspace (a pnpm or yarn
	// workspace package, a Cargo workspace member, the Go main module).
	Workspace Source = "workspace"
	// URL is an archive downloaded from a fixed address.
	URL Source = "url"
)

// Local reports whether the source is the project's own or local code,
// which is never sent to a documentation provider.
func (s Source) Local() bool { return s != Registry && s != "" }

// Relation says how a dependency enters the project.
type Relation string

// The relations.
const (
	// Direct dependencies are named in a manifest (or a lockfile's record
	// of it) of the project or one of its workspace members.
	Direct Relation = "direct"
	// Indirect is Go's "// indirect" requirement: written in go.mod but
	// needed only by other modules.
	Indirect Relation = "indirect"
	// Transitive dependencies are pulled in by other dependencies.
	Transitive Relation = "transitive"
	// Root is the project itself or one of its workspace members.
	Root Relation = "root"
	// Unknown is used when the file does not say (paket.lock,
	// gradle.lockfile, go.sum).
	Unknown Relation = "unknown"
)

// Scope is the kind of use a dependency is declared for.
type Scope string

// The scopes. The empty scope is a normal runtime dependency.
const (
	Normal   Scope = ""
	Dev      Scope = "dev"
	Optional Scope = "optional"
	Peer     Scope = "peer"
	Test     Scope = "test"
	Build    Scope = "build"
)

// A Dependency is one package as one file records it.
//
// Invariants, checked by [Dependency.Validate]: Ecosystem is known, Name is
// not empty, File is set, Line is not negative, Resolved has no white
// space, and Source, Relation and Scope are known values. Declared is the
// constraint as written (such as "^15.0.0"); Resolved is the exact version
// the lockfile or build list selected (such as "15.4.3"). The two are never
// merged: a manifest alone gives a Declared and no Resolved.
type Dependency struct {
	Ecosystem Ecosystem `json:"ecosystem"`
	// Name is the package as its registry knows it: the package an alias
	// resolves to.
	Name string `json:"name"`
	// Alias is the name the code imports when it differs from Name: an npm
	// alias ("lodash3": "npm:lodash@^3.10.1" has Alias lodash3 and Name
	// lodash) or a Cargo rename (tui = { package = "helix-tui" }). For an
	// npm alias Declared is the constraint on Name ("^3.10.1").
	Alias    string `json:"alias,omitempty"`
	Declared string `json:"declared,omitempty"`
	Resolved string `json:"resolved,omitempty"`
	Source   Source `json:"source"`
	// SourceDetail is the registry, repository, path or replacement as
	// the file gives it, such as "../compiler-core" or "golang.org/x/tools => ..".
	SourceDetail string   `json:"source_detail,omitempty"`
	Relation     Relation `json:"relation"`
	Scope        Scope    `json:"scope,omitempty"`
	// Importer is the workspace member that declares a direct dependency,
	// as a path relative to the file's directory ("." for the root).
	Importer string `json:"importer,omitempty"`
	// Groups are named groups the file puts the dependency in: Python
	// dependency groups and extras, Gradle configurations, Paket groups,
	// NuGet target frameworks, Cargo targets.
	Groups []string `json:"groups,omitempty"`
	// Markers is a condition on the platform or environment (PEP 508
	// markers, a Cargo cfg target).
	Markers string `json:"markers,omitempty"`
	// Via lists the packages that depend on this one, as "name@version",
	// where the file records the graph.
	Via []string `json:"via,omitempty"`
	// Specs are the constraints a lockfile says this resolution satisfies,
	// as it keys them (yarn's "name@^1.2.0"), so a manifest's constraint
	// can be matched to the version it resolved to.
	Specs []string `json:"specs,omitempty"`
	// File is the root-relative path of the file that recorded it.
	File string `json:"file"`
	// Line is the one-based line of File where the entry that declares or
	// resolves the dependency begins: a manifest's declaration, a
	// lockfile's own entry for the resolved package. It is 0 when the
	// reader cannot tell.
	Line int `json:"line,omitempty"`
}

// ErrInvalidDependency is matched by every validation failure.
var ErrInvalidDependency = errors.New("invalid dependency")

// Validate checks the invariants written on [Dependency].
func (d *Dependency) Validate() error {
	var errs []string
	if !d.Ecosystem.Valid() {
		errs = append(errs, fmt.Sprintf("unknown ecosystem %q", d.Ecosystem))
	}
	if strings.TrimSpace(d.Name) == "" {
		errs = append(errs, "empty name")
	}
	if d.File == "" {
		errs = append(errs, "no file")
	}
	if d.Line < 0 {
		errs = append(errs, fmt.Sprintf("negative line %d", d.Line))
	}
	if d.Resolved != "" && strings.ContainsAny(d.Resolved, " \t\n") {
		errs = append(errs, fmt.Sprintf("resolved version %q contains white space", d.Resolved))
	}
	switch d.Source {
	case Registry, Git, Path, Replaced, Workspace, URL:
	default:
		errs = append(errs, fmt.Sprintf("unknown source %q", d.Source))
	}
	switch d.Relation {
	case Direct, Indirect, Transitive, Root, Unknown:
	default:
		errs = append(errs, fmt.Sprintf("unknown relation %q", d.Relation))
	}
	switch d.Scope {
	case Normal, Dev, Optional, Peer, Test, Build:
	default:
		errs = append(errs, fmt.Sprintf("unknown scope %q", d.Scope))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%w %s %s: %s", ErrInvalidDependency, d.Ecosystem, d.Name, strings.Join(errs, "; "))
}

// Key identifies a package version within an ecosystem.
func (d *Dependency) Key() string {
	return string(d.Ecosystem) + ":" + d.Name + "@" + d.Resolved
}

// Mode says how a file's dependency list was computed.
type Mode string

// The modes. Go's workspace mode selects versions across every module of
// go.work, so its answer differs from the single module's.
const (
	ModeFile      Mode = "file"      // as the file records it
	ModeModule    Mode = "module"    // a Go module's build list (go.mod)
	ModeWorkspace Mode = "workspace" // a Go workspace's build list (go.work)
)

// A File is what one reader made of one manifest or lockfile.
type File struct {
	Path      string    `json:"path"`
	Format    Format    `json:"format"`
	Ecosystem Ecosystem `json:"ecosystem"`
	// FormatVersion is the version of the file format read from the file,
	// such as "3" for package-lock.json or "9.0" for pnpm-lock.yaml.
	FormatVersion string       `json:"format_version,omitempty"`
	Mode          Mode         `json:"mode,omitempty"`
	Deps          []Dependency `json:"dependencies"`
	// Includes are other files this one names (requirements -r/-c,
	// go.work use, Cargo and npm workspace members), root-relative.
	Includes []string `json:"includes,omitempty"`
	// Notes are remarks worth showing, such as an unreadable line.
	Notes []string `json:"notes,omitempty"`
	// Properties are a Maven pom's <properties> and project coordinates,
	// kept so that a module's ${…} references can be resolved through its
	// parents when the project is joined.
	Properties map[string]string `json:"-"`
}

// A MultiVersion is a package that resolves to more than one version.
type MultiVersion struct {
	Ecosystem Ecosystem `json:"ecosystem"`
	Name      string    `json:"name"`
	// Versions are every resolved version, sorted as strings.
	Versions []string `json:"versions"`
	// Direct are the versions some manifest depends on directly.
	Direct []string `json:"direct,omitempty"`
}

// MultiVersions lists the packages of deps that resolve to several
// versions, sorted by ecosystem and name, instead of picking one.
func MultiVersions(deps []Dependency) []MultiVersion {
	type acc struct{ all, direct map[string]bool }
	m := map[[2]string]*acc{}
	for _, d := range deps {
		if d.Resolved == "" || d.Source.Local() && d.Source != Git && d.Source != URL {
			continue
		}
		k := [2]string{string(d.Ecosystem), d.Name}
		a := m[k]
		if a == nil {
			a = &acc{map[string]bool{}, map[string]bool{}}
			m[k] = a
		}
		a.all[d.Resolved] = true
		if d.Relation == Direct {
			a.direct[d.Resolved] = true
		}
	}
	var out []MultiVersion
	for k, a := range m {
		if len(a.all) < 2 {
			continue
		}
		out = append(out, MultiVersion{Ecosystem(k[0]), k[1], sortedSet(a.all), sortedSet(a.direct)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Ecosystem != out[j].Ecosystem {
			return out[i].Ecosystem < out[j].Ecosystem
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func sortedSet(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SortDeps orders deps by ecosystem, name, resolved version, importer and
// file, so output is stable.
func SortDeps(deps []Dependency) {
	sort.SliceStable(deps, func(i, j int) bool {
		a, b := &deps[i], &deps[j]
		for _, c := range [][2]string{
			{string(a.Ecosystem), string(b.Ecosystem)}, {a.Name, b.Name},
			{a.Resolved, b.Resolved}, {a.Importer, b.Importer}, {a.File, b.File},
			{string(a.Scope), string(b.Scope)},
		} {
			if c[0] != c[1] {
				return c[0] < c[1]
			}
		}
		return false
	})
}
