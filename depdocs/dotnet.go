package depdocs

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
)

type msbuildProject struct {
	XMLName    xml.Name
	Sdk        string `xml:"Sdk,attr"`
	ItemGroups []struct {
		Condition string `xml:"Condition,attr"`
		Refs      []struct {
			Include         string `xml:"Include,attr"`
			Update          string `xml:"Update,attr"`
			Version         string `xml:"Version,attr"`
			VersionOverride string `xml:"VersionOverride,attr"`
			VersionElem     string `xml:"Version"`
			PrivateAssets   string `xml:"PrivateAssets,attr"`
			PrivateElem     string `xml:"PrivateAssets"`
		} `xml:"PackageReference"`
		Versions []struct {
			Include string `xml:"Include,attr"`
			Update  string `xml:"Update,attr"`
			Version string `xml:"Version,attr"`
		} `xml:"PackageVersion"`
		GlobalRefs []struct {
			Include string `xml:"Include,attr"`
			Version string `xml:"Version,attr"`
		} `xml:"GlobalPackageReference"`
		ProjectRefs []struct {
			Include string `xml:"Include,attr"`
		} `xml:"ProjectReference"`
	} `xml:"ItemGroup"`
	PropertyGroups []struct {
		Props []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
		} `xml:",any"`
	} `xml:"PropertyGroup"`
}

func decodeMSBuild(data []byte) (*msbuildProject, error) {
	var p msbuildProject
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if p.XMLName.Local != "Project" {
		return nil, fmt.Errorf("root element %q, want Project", p.XMLName.Local)
	}
	return &p, nil
}

func (p *msbuildProject) props() map[string]string {
	m := map[string]string{}
	for _, g := range p.PropertyGroups {
		for _, e := range g.Props {
			m[e.XMLName.Local] = strings.TrimSpace(e.Value)
		}
	}
	return m
}

// expandMSBuild substitutes $(Name) property references.
func expandMSBuild(s string, props map[string]string) string {
	for range 8 {
		i := strings.Index(s, "$(")
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return s
		}
		v, ok := props[s[i+2:i+j]]
		if !ok {
			return s
		}
		s = s[:i] + v + s[i+j+1:]
	}
	return s
}

// readCsproj reads PackageReference items of an SDK-style project (also
// .fsproj and .vbproj). Under central package management a reference has
// no Version; the project scan fills it from Directory.Packages.props.
func readCsproj(file string, data []byte) (*File, error) {
	p, err := decodeMSBuild(data)
	if err != nil {
		return nil, err
	}
	f := &File{FormatVersion: "sdk"}
	if p.Sdk == "" {
		f.FormatVersion = "legacy"
	}
	props := p.props()
	loc := newItemLocator(data, p.XMLName.Local, "PackageReference")
	for _, g := range p.ItemGroups {
		for _, r := range g.Refs {
			name := firstNonEmpty(r.Include, r.Update)
			line := loc.next("PackageReference", name)
			if name == "" {
				continue
			}
			v := expandMSBuild(strings.TrimSpace(firstNonEmpty(r.VersionOverride, r.Version, r.VersionElem)), props)
			d := Dependency{Name: name, Declared: v, Relation: Direct, Importer: ".", Line: line}
			if strings.EqualFold(firstNonEmpty(r.PrivateAssets, r.PrivateElem), "all") {
				d.Scope = Build
			}
			if g.Condition != "" {
				d.Markers = strings.TrimSpace(g.Condition)
			}
			if v == "" {
				d.SourceDetail = "version from central package management"
			}
			f.Deps = append(f.Deps, d)
		}
		for _, r := range g.ProjectRefs {
			f.Includes = append(f.Includes, join(dirOf(file), strings.ReplaceAll(r.Include, `\`, "/")))
		}
	}
	return f, nil
}

// readPackagesProps reads Directory.Packages.props (central package
// management): PackageVersion items give each package's version for every
// project; GlobalPackageReference items apply to all projects.
func readPackagesProps(file string, data []byte) (*File, error) {
	p, err := decodeMSBuild(data)
	if err != nil {
		return nil, err
	}
	f := &File{FormatVersion: "cpm"}
	props := p.props()
	loc := newItemLocator(data, p.XMLName.Local, "PackageVersion", "PackageReference", "GlobalPackageReference")
	for _, g := range p.ItemGroups {
		for _, v := range g.Versions {
			d := Dependency{Name: firstNonEmpty(v.Include, v.Update), Declared: expandMSBuild(v.Version, props),
				Relation: Unknown, Groups: []string{"PackageVersion"}, Markers: strings.TrimSpace(g.Condition)}
			d.Line = loc.next("PackageVersion", d.Name)
			if d.Name != "" {
				f.Deps = append(f.Deps, d)
			}
		}
		for _, r := range g.Refs {
			line := loc.next("PackageReference", r.Include)
			if r.Include == "" {
				continue
			}
			f.Deps = append(f.Deps, Dependency{Name: r.Include, Declared: expandMSBuild(firstNonEmpty(r.Version, r.VersionElem), props),
				Relation: Direct, Importer: ".", Markers: strings.TrimSpace(g.Condition), Line: line})
		}
		for _, v := range g.GlobalRefs {
			f.Deps = append(f.Deps, Dependency{Name: v.Include, Declared: expandMSBuild(v.Version, props),
				Relation: Direct, Scope: Build, Groups: []string{"GlobalPackageReference"}, Importer: ".",
				Line: loc.next("GlobalPackageReference", v.Include)})
		}
	}
	return f, nil
}

// An itemLocator hands out the lines of an MSBuild file's items of each
// kind (PackageReference, …) under <ItemGroup>, in document order, which is
// the order encoding/xml decodes them in.
type itemLocator struct {
	data  []byte
	li    lineIndex
	root  string
	elems map[string][]xmlElem
	used  map[string]int
}

func newItemLocator(data []byte, root string, items ...string) *itemLocator {
	var paths []string
	for _, it := range items {
		paths = append(paths, root+"/ItemGroup/"+it)
	}
	return &itemLocator{data: data, li: newLineIndex(data), root: root, elems: xmlElements(data, paths...), used: map[string]int{}}
}

// next returns the line of the next item of the kind: the line of its start
// tag that names it (an Include on a later line of the tag), 0 if the file
// has no more.
func (l *itemLocator) next(item, name string) int {
	path := l.root + "/ItemGroup/" + item
	i := l.used[path]
	l.used[path] = i + 1
	if i >= len(l.elems[path]) {
		return 0
	}
	e := l.elems[path][i]
	return lineWith(l.data, l.li, e.line, e.tagEnd, `"`+name+`"`)
}

// readNuGetLock reads packages.lock.json: per target framework, each
// package's type (Direct, Transitive, CentralTransitive, Project), the
// requested range and the resolved version.
func readNuGetLock(file string, data []byte) (*File, error) {
	var l struct {
		Version      *int `json:"version"`
		Dependencies map[string]map[string]struct {
			Type         string            `json:"type"`
			Requested    string            `json:"requested"`
			Resolved     string            `json:"resolved"`
			Dependencies map[string]string `json:"dependencies"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, err
	}
	if l.Version == nil {
		return nil, errors.New("no version")
	}
	f := &File{FormatVersion: fmt.Sprint(*l.Version)}
	lines := jsonKeyLines(data, func(p []string) bool { return len(p) == 3 && p[0] == "dependencies" })
	for _, tfm := range sortedKeys(l.Dependencies) {
		pk := l.Dependencies[tfm]
		via := map[string][]string{}
		for _, n := range sortedKeys(pk) {
			for _, c := range sortedKeys(pk[n].Dependencies) {
				via[strings.ToLower(c)] = appendUnique(via[strings.ToLower(c)], n+"@"+pk[n].Resolved)
			}
		}
		for _, n := range sortedKeys(pk) {
			e := pk[n]
			d := Dependency{Name: n, Declared: e.Requested, Resolved: e.Resolved, Relation: Transitive,
				Groups: []string{tfm}, Via: via[strings.ToLower(n)], Line: lines[pathKey("dependencies", tfm, n)]}
			switch e.Type {
			case "Direct":
				d.Relation, d.Importer = Direct, "."
			case "Project":
				d.Relation, d.Source = Root, Workspace
			}
			f.Deps = append(f.Deps, d)
		}
	}
	return f, nil
}

// readPackagesConfig reads the legacy packages.config: each package is
// pinned, so its version is both declared and resolved.
func readPackagesConfig(file string, data []byte) (*File, error) {
	var p struct {
		XMLName  xml.Name `xml:"packages"`
		Packages []struct {
			ID                    string `xml:"id,attr"`
			Version               string `xml:"version,attr"`
			TargetFramework       string `xml:"targetFramework,attr"`
			DevelopmentDependency string `xml:"developmentDependency,attr"`
			AllowedVersions       string `xml:"allowedVersions,attr"`
		} `xml:"package"`
	}
	if err := xml.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	f := &File{FormatVersion: "1"}
	li := newLineIndex(data)
	elems := xmlElements(data, "packages/package")["packages/package"]
	for i, e := range p.Packages {
		if e.ID == "" {
			continue
		}
		d := Dependency{Name: e.ID, Declared: firstNonEmpty(e.AllowedVersions, e.Version), Resolved: e.Version,
			Relation: Direct, Importer: "."}
		if i < len(elems) {
			d.Line = lineWith(data, li, elems[i].line, elems[i].tagEnd, `"`+e.ID+`"`)
		}
		if e.TargetFramework != "" {
			d.Groups = []string{e.TargetFramework}
		}
		if e.DevelopmentDependency == "true" {
			d.Scope = Dev
		}
		f.Deps = append(f.Deps, d)
	}
	return f, nil
}

// readPaketLock reads paket.lock: "GROUP name" sections, source lines
// (NUGET, GITHUB, GIT, HTTP) with "remote:", resolved packages indented
// four spaces as "Name (version)", and their dependencies' constraints
// indented six.
func readPaketLock(file string, data []byte) (*File, error) {
	f := &File{FormatVersion: "1"}
	group, source := "Main", ""
	var last *Dependency
	via := map[string][]string{}
	lines := strings.Split(string(data), "\n")
	for n, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		text := strings.TrimSpace(line)
		switch {
		case indent == 0 && strings.HasPrefix(text, "GROUP "):
			group = strings.TrimSpace(text[len("GROUP "):])
			source = ""
		case indent == 0:
			source = text // NUGET, GITHUB, GIT, HTTP, or an option line
		case indent == 2:
			// "remote: …" and options.
		case indent == 4:
			name, ver, ok := paketEntry(text)
			if !ok {
				return nil, fmt.Errorf("line %d: want 'Name (version)'", n+1)
			}
			d := Dependency{Name: name, Resolved: ver, Relation: Unknown, Groups: []string{group}, SourceDetail: source, Line: n + 1}
			switch source {
			case "NUGET":
				d.SourceDetail = ""
			case "GITHUB", "GIT":
				d.Source = Git
			case "HTTP":
				d.Source = URL
			}
			f.Deps = append(f.Deps, d)
			last = &Dependency{Name: d.Name, Resolved: d.Resolved}
		case indent >= 6 && last != nil:
			// A dependency of the package above; its target may come
			// later in the file, so edges are attached at the end.
			name, _, _ := strings.Cut(text, " ")
			k := group + "\x00" + strings.ToLower(name)
			via[k] = appendUnique(via[k], last.Name+"@"+last.Resolved)
		}
	}
	for i := range f.Deps {
		d := &f.Deps[i]
		d.Via = via[d.Groups[0]+"\x00"+strings.ToLower(d.Name)]
	}
	return f, nil
}

func paketEntry(text string) (string, string, bool) {
	open := strings.IndexByte(text, '(')
	close := strings.IndexByte(text, ')')
	if open <= 0 || close < open {
		return "", "", false
	}
	return strings.TrimSpace(text[:open]), strings.TrimSpace(text[open+1 : close]), true
}
